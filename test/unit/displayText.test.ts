// Text from outside (a service, a certificate, a folder's name, a claim) shown in each kind of place:
// one line, no control characters, and never a link, an icon or markup where the place renders them.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { dialogText, displayText, markdownCodeBlock, markdownText, notificationText } from '../../src/core/util/displayText';

/**
 * How VS Code finds links in a notification's or dialog's message (its linkedText parser, from
 * the public source): `[label](https?://…|command:…|file:…)`, with an optional title.
 */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;

/** Hostile text: link syntax around command:/https:/file: targets, icons, markup, control characters. */
const hostile = fc.array(fc.oneof(
	fc.constantFrom('[', ']', '(', ')', ' ', '\n', '\r\n', '\u202e', '\u0000', '$(', '`', '*', '_', '<', '>', '!', '#', '\\', '"', "'", '&', ':'),
	fc.constantFrom('command:telematicsAuth.logout', 'command:workbench.action.terminal.new?%5B%5D', 'https://evil.example/x', 'file:///etc/passwd', 'Click here', '<a href="command:x">x</a>', '![i](https://e.example/i.png)', '<https://e.example>'),
	fc.string({ maxLength: 8 }),
), { maxLength: 24 }).map((parts) => parts.join(''));

const markdown = new MarkdownIt({ html: true, linkify: true });

describe('displayText', () => {
	const cases: Array<[string, string]> = [
		['Demo Driver', 'Demo Driver'],
		['  two\r\nlines\t ', 'two lines'],
		['$(bug) fake icon', '$ (bug) fake icon'],
		['right\u202eto left', 'right to left'],
		['x'.repeat(70), `${'x'.repeat(63)}…`],
	];
	for (const [input, expected] of cases) it(`${JSON.stringify(input.slice(0, 20))} → ${JSON.stringify(expected.slice(0, 20))}`, () => assert.equal(displayText(input), expected));

	it('never keeps a control character, a line break or "$(", and never exceeds the limit', () => {
		fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 2, max: 300 }), (text, max) => {
			const shown = displayText(text, max);
			assert.doesNotMatch(shown, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\$\(/);
			assert.ok(shown.length <= max);
		}), { numRuns: 500 });
	});
});

describe('notificationText and dialogText', () => {
	it('a link from a service, a certificate or a folder name shows as text', () => {
		assert.equal(notificationText('Bad request: [Open settings](command:workbench.action.openSettings)'), 'Bad request: [Open settings] (command:workbench.action.openSettings)');
		assert.equal(notificationText('issuer [CA](https://evil.example "t")'), 'issuer [CA] (https://evil.example "t")');
		assert.equal(dialogText('a [x](file:///etc/passwd)\n\nb'), 'a [x] (file:///etc/passwd)\n\nb');
	});

	it('hostile text never matches VS Code\'s link syntax, and its words stay (generated)', () => {
		fc.assert(fc.property(hostile, (text) => {
			for (const shown of [notificationText(text), ...dialogText(text).split('\n')]) {
				assert.doesNotMatch(shown, NOTIFICATION_LINK);
				assert.doesNotMatch(shown, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\$\(/);
			}
			const words = (s: string) => s.replace(/[^A-Za-z0-9]/g, '');
			assert.equal(words(notificationText(text)), words(displayText(text, 1000)));
		}), { numRuns: 1000 });
	});
});

describe('markdownText', () => {
	it('hostile text renders as one paragraph of plain text: no link, image, HTML or emphasis (generated)', () => {
		fc.assert(fc.property(hostile, (text) => {
			const tokens = markdown.parseInline(markdownText(text), {})[0]?.children ?? [];
			assert.deepEqual([...new Set(tokens.map((t) => t.type))].filter((t) => t !== 'text'), []);
			assert.equal(tokens.map((t) => t.content).join(''), displayText(text, 200));
		}), { numRuns: 1000 });
	});
});

describe('markdownCodeBlock', () => {
	const fenced = fc.array(fc.oneof(
		fc.constantFrom('`', '``', '```', '````', '~~~', '\n', '\r\n', '\n```\n', '&nbsp;', '&#96;', '<b>x</b>', '[a](command:x)', '*', '_', '\\', '\u0000', '\u202e', '    '),
		fc.string({ maxLength: 6 }),
	), { maxLength: 30 }).map((parts) => parts.join(''));

	it('hostile text is one code block that holds the text as written: no line closes it, nothing in it is markup (generated)', () => {
		fc.assert(fc.property(fenced, (text) => {
			const tokens = markdown.parse(markdownCodeBlock(text), {});
			assert.deepEqual(tokens.map((t) => t.type), ['fence'], JSON.stringify(text));
			const flat = text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g, ' ');
			assert.equal(tokens[0]!.content, `${flat}\n`);
			assert.equal(tokens[0]!.info, '');
		}), { numRuns: 1000 });
	});

	it('a fence is one backtick longer than the longest run inside, and at least three', () => {
		assert.equal(markdownCodeBlock('a'), '```\na\n```');
		assert.equal(markdownCodeBlock('a ``` b ```` c'), '`````\na ``` b ```` c\n`````');
		assert.equal(markdownCodeBlock('x\r\ny\rz\u0007'), '```\nx\ny\nz \n```');
	});
});
