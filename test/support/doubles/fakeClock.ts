// A `Clock` over @sinonjs/fake-timers, not installed globally: real `setImmediate` still works, and
// `settle()` uses it to let every pending promise chain run to completion.
import * as FakeTimers from '@sinonjs/fake-timers';
import type { Clock } from '../../../src/core/util/clock';

export const START = Date.UTC(2025, 0, 6, 9, 0, 0);

export interface TestClock {
	timers: FakeTimers.Clock;
	clock: Clock;
}

export function createTestClock(start = START): TestClock {
	const timers = FakeTimers.createClock(start);
	const clock: Clock = {
		now: () => timers.now,
		setTimeout: (callback, ms) => timers.setTimeout(callback, ms),
		clearTimeout: (handle) => timers.clearTimeout(handle as FakeTimers.TimerId),
	};
	return { timers, clock };
}

/** Lets every promise chain that waits for nothing but other promises finish. */
export async function settle(): Promise<void> {
	for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
