// How often the status bar's live timer wakes while idle: simulated over the first hour of a
// 2-hour token with the status model's own `nextTickDelay` (pure computation, no waiting).
import { nextTickDelay, TICK_SLACK_MS } from '../../src/core/statusBar/statusModel';
import { round, type BenchRow } from './types';

const MINUTE = 60_000;

/** Wake-ups per minute while `remaining` goes from `fromMs` down to `toMs`. */
export function wakeupsPerMinute(fromMs: number, toMs: number): number {
	let remaining = fromMs;
	let wakeups = 0;
	for (;;) {
		const delay = nextTickDelay(remaining);
		if (delay === undefined) break;
		const next = remaining - delay - TICK_SLACK_MS;
		if (next < toMs) break;
		remaining = next;
		wakeups++;
	}
	return wakeups / ((fromMs - toMs) / MINUTE);
}

export function benchTimer(): BenchRow[] {
	const start = 2 * 60 * MINUTE - 1234; // just after a login, off any boundary
	return [
		{ name: 'status bar wake-ups per idle minute (first hour of a 2 h token)', value: round(wakeupsPerMinute(start, start - 60 * MINUTE)), unit: '/min', target: '≤ 1' },
		{ name: 'status bar wake-ups per minute in the last minute (seconds shown)', value: round(wakeupsPerMinute(MINUTE - 1, 0)), unit: '/min' },
	];
}
