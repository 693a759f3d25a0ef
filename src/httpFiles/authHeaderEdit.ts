// Plans the edits that give each request under a cursor exactly one
// `Authorization: Bearer …` header. Pure: no `vscode`. Bodies, comments, variables,
// `# @name` lines and response handlers are never touched.
import { DEFAULT_TOKEN_VARIABLE, planFileVariable } from './fileVariable';
import { blockAt, lineAt, parseBlock, parseBlocks, parseLayout, type Layout, type ParsedRequest } from './requestParser';
import { sortEdits, type TextEdit } from './textEdit';
import { requireSafeToken } from '../util/tokenGrammar';

/** A REST-client variable name: what `{{name}}` and `@name =` accept in every client we support. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

export type AuthValue =
	/** The token itself in the header. */
	| { style: 'header'; token: string }
	/** `@variableName = token` near the top, `Bearer {{variableName}}` in the header. */
	| { style: 'variable'; token: string; variableName?: string }
	/** Only `Bearer {{variableName}}`: the user defines the variable elsewhere (an untracked env file). */
	| { style: 'reference'; variableName?: string };

/**
 * What follows `Bearer `. Checked here, where it leaves for the file: a token outside the
 * token grammar or a variable name outside the variable grammar throws, and nothing is written.
 */
export function bearerValue(value: AuthValue): string {
	if (value.style === 'header') return requireSafeToken(value.token, 'Authorization header');
	const name = value.variableName ?? DEFAULT_TOKEN_VARIABLE;
	if (!VARIABLE_NAME.test(name)) throw new Error('Refused to write a variable name that is not a plain identifier.');
	return `{{${name}}}`;
}

export function planAuthEdit(text: string, cursorOffsets: readonly number[], value: AuthValue): TextEdit[] {
	const bearer = bearerValue(value); // throws before anything is planned
	// Only the blocks under a cursor are parsed (large files stay fast); the variable style reads them all.
	const layout = parseLayout(text);
	const seen = new Set<number>();
	const edits: TextEdit[] = [];
	let requests = 0;
	for (const offset of cursorOffsets) {
		const block = blockAt(layout.blocks, lineAt(layout.lines, offset));
		if (seen.has(block)) continue;
		seen.add(block);
		const request = parseBlock(layout.lines, layout.blocks[block]!).request;
		if (!request) continue;
		requests++;
		edits.push(...planRequest(layout, request, `Authorization: Bearer ${bearer}`));
	}
	if (requests && value.style === 'variable') {
		const variableEdit = planFileVariable(parseBlocks(layout), value.variableName ?? DEFAULT_TOKEN_VARIABLE, value.token);
		if (variableEdit) edits.push(variableEdit);
	}
	return sortEdits(edits);
}

function planRequest(file: Layout, request: ParsedRequest, header: string): TextEdit[] {
	const auth = request.headers.filter((h) => h.name.toLowerCase() === 'authorization');
	const edits: TextEdit[] = [];
	if (auth.length === 0) {
		const indent = request.headers[0]?.indent ?? '';
		const urlEnd = file.lines[request.urlEndLine]!;
		edits.push({ start: urlEnd.end, end: urlEnd.end, newText: file.eol + indent + header });
		return edits;
	}
	const [first, ...duplicates] = auth;
	const line = file.lines[first!.line]!;
	const wanted = first!.indent + header;
	if (line.text !== wanted) edits.push({ start: line.start, end: line.end, newText: wanted });
	for (const duplicate of duplicates) edits.push(deleteLine(file, duplicate.line));
	return edits;
}

/** Removes a whole line with its line ending (or, for the last line, the ending before it). */
function deleteLine(file: Layout, index: number): TextEdit {
	const line = file.lines[index]!;
	if (line.eolLength > 0) return { start: line.start, end: line.end + line.eolLength, newText: '' };
	const previous = file.lines[index - 1]!;
	return { start: previous.end, end: line.end, newText: '' };
}
