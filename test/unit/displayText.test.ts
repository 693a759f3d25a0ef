// Text from a service or a certificate, shown on one line in the status bar, tree or a message.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { displayText } from '../../src/core/util/displayText';

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
