// "ask" for telematics-token: an allowance per terminal that lapses idle and at most, and what /proc says
// about the asking process (its session, its terminal, its parent's command line), read as the kernel writes it.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { ALLOWANCE_IDLE_MS, ALLOWANCE_MAX_MS, commandLineOf, parseProcStat, TerminalAllowances } from '../../src/core/terminal/allowance';

describe('telematics-token: a terminal\'s allowance', () => {
	const T0 = 1_000_000;
	const MIN = 60_000;

	it('is none until given, and holds for its terminal only', () => {
		const allowances = new TerminalAllowances();
		assert.equal(allowances.use('session:1', T0), false);
		allowances.allow('session:1', T0);
		assert.equal(allowances.use('session:1', T0 + 1), true);
		assert.equal(allowances.use('session:2', T0 + 1), false, 'another terminal is asked');
	});

	// [what happens, uses (minutes after it was given), whether the last one is allowed]
	const cases: Array<[string, number[], boolean]> = [
		['used just before 10 idle minutes', [9.99], true],
		['10 idle minutes: lapsed', [10], false],
		['each use keeps it: every 9 minutes for an hour', Array.from({ length: 7 }, (_, i) => 9 * (i + 1)), true],
		['busy, but 12 hours after it was given: lapsed', Array.from({ length: 12 * 60 / 9 + 1 }, (_, i) => 9 * (i + 1)).filter((m) => m <= 12 * 60), false],
		['busy, just before 12 hours', [...Array.from({ length: 79 }, (_, i) => 9 * (i + 1)), 719.99], true],
		['the clock went back: asked again', [5, 4], false],
	];
	for (const [name, uses, last] of cases) {
		it(`${name} → ${last ? 'allowed' : 'asked again'}`, () => {
			const allowances = new TerminalAllowances();
			allowances.allow('k', T0);
			let answer = true;
			for (const m of uses) answer = allowances.use('k', T0 + m * MIN);
			assert.equal(answer, last);
		});
	}

	it('a lapsed allowance stays lapsed; forget and clear end one at once', () => {
		const allowances = new TerminalAllowances();
		allowances.allow('k', T0);
		assert.equal(allowances.use('k', T0 + ALLOWANCE_IDLE_MS), false);
		assert.equal(allowances.use('k', T0 + ALLOWANCE_IDLE_MS + 1), false);
		allowances.allow('a', T0);
		allowances.allow('b', T0);
		allowances.forget('a');
		assert.deepEqual([allowances.use('a', T0), allowances.use('b', T0)], [false, true]);
		allowances.clear();
		assert.equal(allowances.use('b', T0), false);
	});

	it('never outlives either bound, whatever the uses (generated)', () => {
		fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 20 * MIN }), { maxLength: 200 }), (gaps) => {
			const allowances = new TerminalAllowances();
			allowances.allow('k', T0);
			let now = T0;
			let previous = T0;
			let alive = true;
			for (const gap of gaps) {
				now += gap;
				const allowed = allowances.use('k', now);
				alive = alive && now - previous < ALLOWANCE_IDLE_MS && now - T0 < ALLOWANCE_MAX_MS;
				assert.equal(allowed, alive);
				previous = now;
			}
		}));
	});
});

describe('telematics-token: what /proc says about the asking process', () => {
	// [the stat line, what is read]
	const cases: Array<[string, ReturnType<typeof parseProcStat>]> = [
		['4242 (node) S 4100 4242 4100 34817 4242 4194560 0', { sessionId: 4100, hasTerminal: true, parentId: 4100 }],
		['4242 (node) S 1 4242 4242 0 -1 4194560', { sessionId: 4242, hasTerminal: false, parentId: 1 }],
		['4242 (a b) c) S 7 8 9 1 0', { sessionId: 9, hasTerminal: true, parentId: 7 }],
		['4242 (x) 1 2 3 4 5) S 7 8 9 0 0', { sessionId: 9, hasTerminal: false, parentId: 7 }],
		['4242 (n) S 1 2 3 4', { sessionId: 3, hasTerminal: true, parentId: 1 }],
		['4242 (n)  S  0   2 3 0', { sessionId: 3, hasTerminal: false, parentId: 0 }],
		[') S 1 2 3 4', { sessionId: 3, hasTerminal: true, parentId: 1 }],
		['', undefined],
		['1 2 3 4 5 6', undefined],
		['4242 (n) S 1e3 2 3 4', undefined],
		['4242 (n) S +5 2 3 4', undefined],
		['4242 (n) S -1 2 3 4', undefined],
		['4242 node S 1 2 3 4', undefined],
		['4242 (node) S 1 2', undefined],
		['4242 (node) S x 2 3 4', undefined],
		['4242 (node) S 1 2 0 4', undefined],
	];
	for (const [line, read] of cases) it(`${JSON.stringify(line)} → ${JSON.stringify(read)}`, () => assert.deepEqual(parseProcStat(line), read));

	it('shows a command line on one line, without control or direction characters', () => {
		assert.equal(commandLineOf('bash\0-c\0telematics-token --header\0'), 'bash -c telematics-token --header');
		assert.equal(commandLineOf('sh\0-c\0a\nb\u202ec\u0007\0'), 'sh -c a b c');
		assert.equal(commandLineOf('\0\0'), undefined);
		assert.equal(commandLineOf('a\0\0b'), 'a b', 'empty arguments add no space');
		assert.equal(commandLineOf('a\u0007b\u0007c'), 'a b c', 'every control character goes');
	});
});

describe('telematics-token: the command line shown in the question', () => {
	it('a run of control and direction characters becomes one space', () => {
		assert.equal(commandLineOf('curl\0-H\u0001\u0002\u202eX\0'), 'curl -H X');
	});
});
