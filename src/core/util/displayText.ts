// Text from outside (a service, a certificate, a file or folder name, a claim, a setting) made safe for the
// place it is shown, a function a kind of place: no link, icon or markup survives, nor control characters.

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** One line: control and bidi characters become spaces, `$(` cannot start an icon, long text is cut. */
export function displayText(value: string, max = 64): string {
	const flat = value
		.replace(CONTROL, ' ')
		.replace(/\$\(/g, '$ (')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * For a notification's or a dialog's message: as displayText (with room for a sentence), and a
 * `]` is never followed by `(`, so `[label](target)` shows as the text it is.
 */
export function notificationText(value: string, max = 1000): string {
	return displayText(value.replace(/\](\s*)\(/g, ']$1 ('), max);
}

/** For a modal dialog's message or detail: notificationText line by line, the line breaks kept. */
export function dialogText(value: string): string {
	return value.split(/\r?\n/).map((line) => notificationText(line)).join('\n');
}

/** Every character markdown gives a meaning to, escaped with a backslash (CommonMark's punctuation). */
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|~<>&:"'=$]/g;

/** For a markdown hover or tooltip: one line of plain text, every markdown character escaped. */
export function markdownText(value: string, max = 200): string {
	return displayText(value, max).replace(MARKDOWN_SPECIAL, (c) => `\\${c}`);
}

/**
 * For markdown: `value` as a fenced code block, shown exactly as written: its fence is longer than any run
 * of backticks in it, so no line of it can close the block, and inside one nothing (links, HTML, `&nbsp;`)
 * is read as markup. Control characters other than line breaks become spaces.
 */
export function markdownCodeBlock(value: string): string {
	const text = value.replace(/\r\n?/g, '\n').replace(CONTROL, (c) => (c === '\n' ? c : ' '));
	const longest = (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `${fence}\n${text}\n${fence}`;
}
