// Keeps a file variable such as `@telematicsToken = <jwt>` near the top of a REST file:
// updates it where it is, or adds it after the leading comments and variables. Pure: no `vscode`.
import { SEPARATOR, type ParsedFile } from './requestParser';
import { deleteLine, type TextEdit } from './textEdit';
import { requireSafeToken } from '../util/tokenGrammar';

export const DEFAULT_TOKEN_VARIABLE = 'telematicsToken';

/**
 * The edits that make `@name = value` true where REST Client, httpYac and the JetBrains client
 * all read it as file-wide: in a region that holds no request and no request metadata (httpYac
 * scopes a variable in a request's region to that request). Updated in place when it already lives in such a region;
 * otherwise added to the leading region, which gets its own `###` when the first request
 * shares it; a definition inside a request's region moves there. None when it already is.
 */
export function planFileVariable(file: ParsedFile, name: string, value: string): TextEdit[] {
	requireSafeToken(value, `@${name}`);
	// A region with per-request metadata (`# @name`, `// @no-log`) is one httpYac may scope to a request: ours never shares one.
	const requestBlocks = new Set([...file.requests.map((r) => r.blockStart), ...file.blocks.filter(([first, last]) => hasMetadata(file, first, last)).map(([first]) => first)]);
	const blockOf = (line: number) => file.blocks.find(([first, last]) => first <= line && line <= last)![0];
	const existing = file.variables.find((v) => v.name === name);
	if (existing && !requestBlocks.has(blockOf(existing.line))) {
		return existing.value === value ? [] : [{ start: existing.valueStart, end: existing.valueEnd, newText: value }];
	}
	const edits: TextEdit[] = existing ? [deleteLine(file.lines, existing.line)] : [];
	const definition = `@${name} = ${value}`;
	const [, firstBlockEnd] = file.blocks[0]!;
	if (requestBlocks.has(0)) {
		// The first request shares the leading region: give the variable a region of its own.
		const opensWithSeparator = SEPARATOR.test(file.lines[0]!.text);
		const region = definition + file.eol + file.eol + (opensWithSeparator ? '' : `###${file.eol}`);
		// One edit when the old definition was the first line: touching edits are not allowed everywhere.
		if (edits[0] && edits[0].start === 0) return [{ ...edits[0], newText: region }];
		edits.push({ start: 0, end: 0, newText: region });
		return edits;
	}
	const anchor = insertionAnchor(file, firstBlockEnd);
	if (anchor === undefined) edits.push({ start: 0, end: 0, newText: definition + file.eol });
	else edits.push({ start: file.lines[anchor]!.end, end: file.lines[anchor]!.end, newText: file.eol + definition });
	return edits;
}

/** Whether lines `first`..`last` hold an httpYac/JetBrains metadata comment (`# @name`, `// @no-redirect`). */
function hasMetadata(file: ParsedFile, first: number, last: number): boolean {
	for (let i = first; i <= last; i++) if (/^\s*(#|\/\/)\s*@/.test(file.lines[i]!.text)) return true;
	return false;
}

/**
 * The line of the leading region (which holds no request) after which the variable goes: its
 * last file variable, else its last non-blank line that is not a `###` line. Undefined: the top.
 */
function insertionAnchor(file: ParsedFile, lastLine: number): number | undefined {
	const leading = file.variables.filter((v) => v.line <= lastLine);
	if (leading.length) return leading[leading.length - 1]!.line;
	for (let i = lastLine; i >= 0; i--) {
		const text = file.lines[i]!.text;
		if (text.trim() !== '' && !SEPARATOR.test(text)) return i;
	}
	return undefined;
}
