// The real REST files in ../shared/corpus/http (read in place, never copied), for every test that reads or
// edits REST files: where they are, their names, and the offset of a line in one of them.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Beside the checkout; `TELEMATICS_CORPUS` names it where the tests run from a copy (npm run mutate). */
export const CORPUS = process.env.TELEMATICS_CORPUS ?? path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'corpus', 'http');

/** The `.http` and `.rest` files' names, sorted. */
export function corpusFiles(): string[] {
	return fs.readdirSync(CORPUS).filter((f) => /\.(http|rest)$/.test(f)).sort();
}

/** The offset where 0-based `line` of `text` starts (any line ending). */
export function offsetOfLine(text: string, line: number): number {
	const re = /\r\n|\n|\r/g;
	let offset = 0;
	for (let l = 0; l < line; l++) {
		const m = re.exec(text);
		if (!m) return text.length;
		offset = m.index + m[0].length;
	}
	return offset;
}
