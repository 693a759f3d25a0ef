// Plain text edits by offset, as the pure planners return them. Pure: no `vscode`.
import type { Line } from './requestParser';

export interface TextEdit {
	start: number;
	end: number;
	newText: string;
}

/** Sorts by position; planners never return overlapping edits. */
export function sortEdits(edits: TextEdit[]): TextEdit[] {
	return [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Applies sorted, non-overlapping edits to `text` (tests and benchmarks use this). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
	let out = '';
	let cursor = 0;
	for (const edit of edits) {
		out += text.slice(cursor, edit.start) + edit.newText;
		cursor = edit.end;
	}
	return out + text.slice(cursor);
}

/** Removes line `index` with its line ending (or, for the last line, the ending before it). */
export function deleteLine(lines: readonly Line[], index: number): TextEdit {
	const line = lines[index]!;
	if (line.eolLength > 0 || index === 0) return { start: line.start, end: line.end + line.eolLength, newText: '' };
	const previous = lines[index - 1]!;
	return { start: previous.end, end: line.end, newText: '' };
}
