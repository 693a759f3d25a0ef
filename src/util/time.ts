// Clock times as every surface shows them (status bar tooltip, tree rows, CodeLens, hover,
// diagnostics, notifications, log): one place, so the same instant reads the same everywhere.
// Pure: no `vscode`. Total: any number in (NaN, ±Infinity, ±1e16) gives text, never a throw,
// because expiry times come from tokens in files and from services we do not control.

const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/** Largest |epoch ms| a `Date` can hold (ECMAScript's time range). */
const MAX_DATE_MS = 8.64e15;

/** Shown for an instant no `Date` can hold. */
export const INVALID_TIME = '—';

/** Whether `ms` is an epoch-ms instant a `Date` can hold. */
export function isValidTime(ms: number): boolean {
	return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS;
}

/** `2024-05-06T16:27:00.000Z` for the log, or `—` for an instant no `Date` can hold. */
export function isoTime(ms: number): string {
	return isValidTime(ms) ? new Date(ms).toISOString() : INVALID_TIME;
}

/**
 * `16:27`: hours and minutes of `at` in `locale` (default: the host's), on a 24-hour clock;
 * with the day in front (`2024-05-06 16:27`) when `at` is not on the same local day as `now`.
 */
export function formatClockTime(at: number, now: number, locale?: string): string {
	if (!isValidTime(at)) return INVALID_TIME;
	const date = new Date(at);
	const time = date.toLocaleTimeString(locale, TIME);
	if (isValidTime(now) && date.toDateString() === new Date(now).toDateString()) return time;
	// The local date as YYYY-MM-DD: shift by the zone's offset, then read it as UTC.
	const local = at - date.getTimezoneOffset() * 60_000;
	const day = isValidTime(local) ? new Date(local).toISOString().slice(0, 10) : date.toDateString();
	return `${day} ${time}`;
}
