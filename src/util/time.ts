// Clock times as every surface shows them (status bar tooltip, tree rows, CodeLens, hover,
// diagnostics, notifications): one formatter, so the same instant reads the same everywhere.
// Pure: no `vscode`.

const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/**
 * `16:27`: hours and minutes of `at` in `locale` (default: the host's), on a 24-hour clock;
 * with the day in front (`2024-05-06 16:27`) when `at` is not on the same local day as `now`.
 */
export function formatClockTime(at: number, now: number, locale?: string): string {
	const date = new Date(at);
	const time = date.toLocaleTimeString(locale, TIME);
	if (date.toDateString() === new Date(now).toDateString()) return time;
	// The local date as YYYY-MM-DD: shift by the zone's offset, then read it as UTC.
	return `${new Date(at - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 10)} ${time}`;
}
