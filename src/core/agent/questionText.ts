// The text of the questions before the agent's request: every part of it seen whole. A modal dialog cuts each
// line at 1,000 characters (dialogText), and a JSON body is one line, so what an injected agent puts last
// would never be seen; a long URL would push the account and "production" out. So: the account and
// "production" first, then the URL, then the body pretty-printed, masked, cut at a bound that says so, and
// every line wrapped well below the dialog's cut. Pure: no `vscode`; sentences through the `t` given.
import type { SendQuestion } from './changeGuard';
import { redact } from '../util/redact';
import { untranslated, type Translate } from '../util/translate';

/** Longest line of a question's text; a dialog cuts each line at 1,000 characters. */
export const QUESTION_LINE_CHARS = 120;
/** Before every line of a shown body: a line of the body can never pass for a line of the question itself. */
export const BODY_LINE_MARK = '│ ';
/** Any line break a dialog may honour (CR, LF, CRLF, NEL, LS, PS, VT, FF). */
const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029\v\f]/g;
/** Longest part of a request's body the person is shown before it is sent. */
export const MAX_CONFIRMATION_BODY_CHARS = 2_000;

/** `text` with every line broken into pieces of at most `width` characters (the characters all kept, in order). */
export function wrapLines(text: string, width = QUESTION_LINE_CHARS): string {
	return text.split(/\r?\n/).flatMap((line) => {
		if (line.length <= width) return [line];
		const pieces: string[] = [];
		for (let at = 0; at < line.length; at += width) pieces.push(line.slice(at, at + width));
		return pieces;
	}).join('\n');
}

/** The body as the person is shown it: JSON pretty-printed, then every token masked, then cut. */
export interface BodyShown {
	/** What is shown, each line marked with BODY_LINE_MARK and at most QUESTION_LINE_CHARS. */
	text: string;
	/** How many characters of the (pretty-printed, masked) body are shown, and how many it has. */
	shown: number;
	total: number;
}

/**
 * The body as the person is shown it before a change: JSON pretty-printed, every token masked, cut at
 * MAX_CONFIRMATION_BODY_CHARS, lines wrapped, every line marked (a text body's own lines could otherwise
 * read as the question's: "Nothing else will be sent.").
 */
export function bodyShown(body: string, secrets: readonly string[]): BodyShown {
	let pretty = body;
	try {
		if (/^\s*[[{]/.test(body)) pretty = JSON.stringify(JSON.parse(body), null, 2);
	} catch {
		pretty = body;
	}
	const masked = redact(pretty, secrets);
	const cut = masked.slice(0, MAX_CONFIRMATION_BODY_CHARS);
	const lines = wrapLines(cut.replace(LINE_BREAK, '\n'), QUESTION_LINE_CHARS - BODY_LINE_MARK.length).split('\n');
	return { text: lines.map((line) => BODY_LINE_MARK + line).join('\n'), shown: cut.length, total: masked.length };
}

/** The sentence before a shown body: its size, and when it is cut, "the first N of M characters". */
export function bodyHeading(shown: BodyShown, t: Translate = untranslated): string {
	return shown.shown < shown.total
		? t('The body, tokens masked: the first {0} of {1} characters (the rest is not shown):', shown.shown, shown.total)
		: t('The body, {0} characters, tokens masked:', shown.total);
}

/**
 * The detail of the modal before the agent's request that changes a production account or cannot be undone:
 * who sends it (the account, its label, "production") first, then the method and the URL, then the body.
 */
export function sendQuestionDetail(q: SendQuestion, secrets: readonly string[], t: Translate = untranslated): string {
	const production = q.question.kind === 'production' || q.question.production;
	const parts = [
		production
			? t('As the production account {0} ({1}), the agent asks to send {2} to:', q.account, q.label, q.method)
			: t('As the account {0} ({1}), the agent asks to send {2} to:', q.account, q.label, q.method),
		wrapLines(q.url),
	];
	if (q.body === undefined) {
		parts.push(t('No body.'));
	} else {
		const shown = bodyShown(q.body, secrets);
		parts.push(`${bodyHeading(shown, t)}\n${shown.text}`);
	}
	if (q.offerSnooze) parts.push(t('"Allow for 10 Minutes" sends it, and lets this window send the agent\'s changing requests to {0} without asking for 10 minutes (operations that cannot be undone still ask).', q.account));
	return parts.join('\n\n');
}
