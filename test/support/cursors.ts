// Cursors written into a test's text: `|` marks one.

/** `|` marks a cursor; every `|` is removed from the text and becomes an offset. */
export function withCursors(marked: string): { text: string; cursors: number[] } {
	const cursors: number[] = [];
	let text = '';
	for (const ch of marked) {
		if (ch === '|') cursors.push(text.length);
		else text += ch;
	}
	return { text, cursors };
}
