// Keeps a file variable such as `@telematicsToken = <jwt>` near the top of a REST file:
// updates it where it is, or adds it after the leading comments and variables. Pure: no `vscode`.
import type { ParsedFile } from './requestParser';
import { isComment } from './requestParser';
import type { TextEdit } from './textEdit';
import { requireSafeToken } from '../util/tokenGrammar';

export const DEFAULT_TOKEN_VARIABLE = 'telematicsToken';

/** The edit that makes `@name = value` true, or none when it already is. */
export function planFileVariable(file: ParsedFile, name: string, value: string): TextEdit | undefined {
	requireSafeToken(value, `@${name}`);
	const existing = file.variables.find((v) => v.name === name);
	if (existing) {
		if (existing.value === value) return undefined;
		return { start: existing.valueStart, end: existing.valueEnd, newText: value };
	}
	const definition = `@${name} = ${value}`;
	const anchor = insertionAnchor(file);
	if (anchor === undefined) return { start: 0, end: 0, newText: definition + file.eol + file.eol };
	const line = file.lines[anchor]!;
	return { start: line.end, end: line.end, newText: file.eol + definition };
}

/**
 * The line after which the variable goes: the last file variable before the first request;
 * otherwise the last line of the leading comments, unless those comments sit directly on
 * the first request (a `# @name` or a description belongs to its request). Undefined: top of file.
 */
function insertionAnchor(file: ParsedFile): number | undefined {
	const firstRequest = file.requests[0];
	const [, firstBlockEnd] = file.blocks[0]!;
	const limit = firstRequest && firstRequest.blockStart === 0 ? firstRequest.requestLine : firstBlockEnd + 1;
	const leadingVariables = file.variables.filter((v) => v.line < limit);
	if (leadingVariables.length) return leadingVariables[leadingVariables.length - 1]!.line;
	let attached = limit;
	if (limit !== firstBlockEnd + 1) {
		while (attached - 1 >= 0 && isComment(file.lines[attached - 1]!.text)) attached--;
	}
	for (let i = attached - 1; i >= 0; i--) {
		if (file.lines[i]!.text.trim() !== '') return i;
	}
	return undefined;
}
