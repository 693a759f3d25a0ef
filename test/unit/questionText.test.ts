// The questions before the agent's request show their whole point (core/agent/questionText.ts): a dialog cuts
// each line at 1,000 characters (dialogText, applied here as the prompter applies it), so the account and
// "production" come before the URL, a JSON body is pretty-printed and wrapped, and a cut body says so.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { BODY_LINE_MARK, bodyHeading, bodyShown, MAX_CONFIRMATION_BODY_CHARS, QUESTION_LINE_CHARS, sendQuestionDetail, wrapLines } from '../../src/core/agent/questionText';
import { checkInput } from '../../src/core/agent/serviceRequest';
import { SHIPPED } from '../../src/core/platform/catalog';
import type { SendQuestion } from '../../src/core/agent/changeGuard';
import { dialogText } from '../../src/core/util/displayText';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.c2lnbmF0dXJl';

/** A one-line JSON body of 1,754 characters whose last field is what an injected agent hides at the end. */
function injectedBody(): string {
	const body = JSON.stringify({ Note: 'n'.repeat(1_723), Extra: 'LAST-WORD' });
	assert.equal(body.length, 1_754);
	return body;
}

const irreversible: SendQuestion = {
	question: { kind: 'irreversible', operation: { name: 'Delete the user and all their data', target: 'DeviceToken "abc"' }, production: true },
	account: 'prod-admin', label: 'ops@example.com', method: 'DELETE', url: '', offerSnooze: false,
};

describe('the questions before the agent\'s request show their whole point', () => {
	it('a one-line JSON body of 1,754 characters is shown whole, its last field too, with no line reaching the dialog\'s cut', () => {
		const shown = bodyShown(injectedBody(), []);
		assert.equal(shown.shown, shown.total);
		const dialog = dialogText(`${bodyHeading(shown)}\n${shown.text}`);
		assert.match(dialog, /LAST-WORD/);
		for (const line of dialog.split('\n')) assert.ok(line.length <= QUESTION_LINE_CHARS, `${line.length}`);
	});

	it('a body over the bound says "the first N of M characters"', () => {
		const shown = bodyShown(`${'x'.repeat(5_000)}`, []);
		assert.equal(bodyHeading(shown), `The body, tokens masked: the first ${MAX_CONFIRMATION_BODY_CHARS} of 5000 characters (the rest is not shown):`);
		assert.equal(bodyHeading(bodyShown('{"a":1}', [])), 'The body, 12 characters, tokens masked:');
	});

	it('the account and "production" come before a URL of 2,000 characters, and the URL is there whole', () => {
		const url = `https://user.example.com/v1/Management/users/${'a'.repeat(1_950)}?tail=END`;
		const detail = dialogText(sendQuestionDetail({ ...irreversible, url, body: injectedBody() }, []));
		const firstLine = detail.split('\n')[0]!;
		assert.match(firstLine, /production account prod-admin \(ops@example\.com\)/);
		assert.ok(detail.replace(/\n/g, '').includes(url), 'the URL whole, in wrapped lines');
		assert.match(detail, /LAST-WORD/);
		assert.ok(detail.split('\n').every((line) => line.length < 1_000));
	});

	it('an account that is not production is not called so; tokens in the body are masked, also behind JSON escapes', () => {
		const secret = 'r3fresh-s3cret-value';
		const escaped = JSON.stringify({ a: secret }).replace('r3', '\\u0072\\u0033');
		const detail = sendQuestionDetail({ ...irreversible, question: { ...irreversible.question, production: false } as SendQuestion['question'], url: 'https://u.example/x', body: `{"t":"${JWT}","b":${escaped}}` }, [secret]);
		assert.doesNotMatch(detail, /production/);
		assert.ok(!detail.includes(JWT) && !detail.includes(secret), detail);
	});

	it('a text body\'s own lines cannot pass for the question\'s: every shown body line is marked, whatever the line break (generated)', () => {
		const forged = 'x\n\nNothing else will be sent.\r\nAs the account dev (dev@example.com), the agent asks to send GET to:\rhttps://safe.example\u2028No body.';
		const detail = dialogText(sendQuestionDetail({ ...irreversible, url: 'https://u.example/x', body: forged }, []));
		const [, bodyPart] = detail.split(/tokens masked:\n/);
		const bodyLines = bodyPart!.split('\n\n')[0]!.split('\n');
		assert.equal(bodyLines.length, 6, detail);
		for (const line of bodyLines) assert.ok(line.startsWith(BODY_LINE_MARK.trimEnd()), line); // the dialog trims an empty line's space
		assert.ok(bodyLines.some((line) => line === `${BODY_LINE_MARK}Nothing else will be sent.`), detail);
		fc.assert(fc.property(fc.array(fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085', '\v', '\f')), { maxLength: 40 }), (parts) => {
			const shown = bodyShown(parts.join(''), []);
			for (const line of shown.text.split(/\r\n|[\n\r\u0085\u2028\u2029\v\f]/)) {
				assert.ok(line.startsWith(BODY_LINE_MARK), JSON.stringify(line));
				assert.ok(line.length <= QUESTION_LINE_CHARS);
			}
		}), { numRuns: 300 });
	});

	it('a JSON body is sent exactly as shown: a duplicate key, an integer beyond 2^53, 1e999 are sent as the question prints them', () => {
		const cases: Array<[string, string]> = [
			['{"role":"viewer","role":"admin"}', '{"role":"admin"}'],
			['{"id":9007199254740993}', '{"id":9007199254740992}'],
			['{"limit":1e999,"low":-1e999}', '{"limit":null,"low":null}'],
			['  [1, 2.50, -0, "\\u0041"]', '[1,2.5,0,"A"]'],
		];
		for (const [given, sent] of cases) {
			const checked = checkInput({ method: 'POST', path: '/v1/Trips', body: given }, SHIPPED);
			assert.ok(checked.ok, given);
			assert.equal(checked.value.body, sent, given);
			// What the person reads is the printed form of what is sent.
			const shownLines = bodyShown(checked.value.body!, []).text.split('\n').map((line) => line.slice(BODY_LINE_MARK.length)).join('\n');
			assert.equal(shownLines, JSON.stringify(JSON.parse(sent), null, 2));
		}
		const text = checkInput({ method: 'POST', path: '/v1/Trips', body: '{not json' }, SHIPPED);
		assert.ok(text.ok);
		assert.equal(text.value.body, '{not json', 'text that is not JSON is sent as it is, and shown as it is');
	});

	it('whatever the text, wrapping keeps every character in order and no line is longer than the bound (generated)', () => {
		fc.assert(fc.property(fc.string({ maxLength: 3_000 }), fc.integer({ min: 1, max: 200 }), (text, width) => {
			const wrapped = wrapLines(text, width);
			assert.equal(wrapped.replace(/\n/g, ''), text.replace(/\r?\n/g, ''));
			assert.ok(wrapped.split('\n').every((line) => line.length <= width));
		}), { numRuns: 300 });
	});
});
