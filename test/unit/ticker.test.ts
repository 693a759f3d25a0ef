// The one timer behind every time-left text: each owner ticks when it asked, with one timer pending
// however many owners wait.
import * as assert from 'node:assert/strict';
import { Ticker, type Ticking } from '../../src/core/util/ticker';
import { createTestClock } from '../support/doubles/fakeClock';

function owner(log: string[], name: string, again?: () => number | undefined, ticker?: () => Ticker): Ticking {
	const self: Ticking = {
		tick: () => {
			log.push(name);
			const next = again?.();
			if (next !== undefined) ticker!().schedule(self, next);
		},
	};
	return self;
}

describe('the ticker', () => {
	it('ticks each owner when it asked, earliest first, with one timer pending', () => {
		const { timers, clock } = createTestClock();
		const ticker = new Ticker(clock);
		const log: string[] = [];
		ticker.schedule(owner(log, 'status bar'), 1_000);
		ticker.schedule(owner(log, 'lenses'), 60_000);
		ticker.schedule(owner(log, 'tree'), 30_000);
		assert.equal(timers.countTimers(), 1);
		timers.tick(999);
		assert.deepEqual(log, []);
		timers.tick(1);
		assert.deepEqual(log, ['status bar']);
		timers.tick(59_000);
		assert.deepEqual(log, ['status bar', 'tree', 'lenses']);
		assert.equal(timers.countTimers(), 0, 'nobody waits, no timer');
	});

	it('a new wish replaces the owner\'s earlier one; undefined cancels it', () => {
		const { timers, clock } = createTestClock();
		const ticker = new Ticker(clock);
		const log: string[] = [];
		const bar = owner(log, 'bar');
		ticker.schedule(bar, 10_000);
		ticker.schedule(bar, 2_000);
		timers.tick(2_000);
		assert.deepEqual(log, ['bar']);
		ticker.schedule(bar, 5_000);
		ticker.schedule(bar, undefined);
		assert.equal(ticker.isScheduled(bar), false);
		timers.tick(10_000);
		assert.deepEqual(log, ['bar']);
		assert.equal(timers.countTimers(), 0);
	});

	it('an owner that asks again from its tick keeps ticking (a countdown in seconds)', () => {
		const { timers, clock } = createTestClock();
		const ticker = new Ticker(clock);
		const log: string[] = [];
		let left = 3;
		ticker.schedule(owner(log, 's', () => (--left > 0 ? 1_000 : undefined), () => ticker), 1_000);
		timers.tick(10_000);
		assert.deepEqual(log, ['s', 's', 's']);
	});

	it('disposed, it ticks no one', () => {
		const { timers, clock } = createTestClock();
		const ticker = new Ticker(clock);
		const log: string[] = [];
		ticker.schedule(owner(log, 'bar'), 1_000);
		ticker.dispose();
		timers.tick(5_000);
		assert.deepEqual(log, []);
		assert.equal(timers.countTimers(), 0);
	});
});
