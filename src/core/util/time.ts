// Every time and duration as a person reads it, in one module worded through one `Translate`. Total: any
// number (NaN, ±Infinity, ±1e16) gives text, because expiry times come from files and services we do not control.
import { untranslated, type Translate } from './translate';

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

const SECOND = 1000;

/** Whole days, hours (0–23), minutes (0–59) and seconds of `ms` (positive and finite), rounded down. */
function splitDuration(ms: number): { days: number; hours: number; minutes: number; totalSeconds: number } {
	const totalSeconds = Math.floor(ms / SECOND);
	const totalMinutes = Math.floor(totalSeconds / 60);
	return { days: Math.floor(totalMinutes / (24 * 60)), hours: Math.floor((totalMinutes % (24 * 60)) / 60), minutes: totalMinutes % 60, totalSeconds };
}

/**
 * Time left in the compact form the status bar and tree use: `1h 59m`, `12m`, `45s`, or
 * `expired`. Minutes are rounded down; under a minute shows seconds.
 */
export function formatRemaining(ms: number, t: Translate = untranslated): string {
	if (Number.isNaN(ms)) return INVALID_TIME;
	if (ms <= 0) return t('expired');
	if (!Number.isFinite(ms)) return INVALID_TIME;
	const { days, hours, minutes, totalSeconds } = splitDuration(ms);
	if (totalSeconds < 60) return t('{0}s', totalSeconds);
	if (days > 0) return hours > 0 ? t('{0}d {1}h', days, hours) : t('{0}d', days);
	if (hours > 0) return t('{0}h {1}m', hours, minutes);
	return t('{0}m', minutes);
}

/** `1 hour 59 minutes`, `1 minute`, `45 seconds`, `2 days 3 hours`, for screen readers. */
export function spellRemaining(ms: number, t: Translate = untranslated): string {
	if (Number.isNaN(ms) || ms === Infinity) return INVALID_TIME;
	if (ms <= 0) return t('expired');
	const { days, hours, minutes, totalSeconds } = splitDuration(ms);
	if (totalSeconds < 60) return totalSeconds === 1 ? t('1 second') : t('{0} seconds', totalSeconds);
	const dayText = days === 1 ? t('1 day') : t('{0} days', days);
	const hourText = hours === 1 ? t('1 hour') : t('{0} hours', hours);
	const minuteText = minutes === 1 ? t('1 minute') : t('{0} minutes', minutes);
	if (days > 0) return hours > 0 ? `${dayText} ${hourText}` : dayText;
	if (hours > 0) return minutes > 0 ? `${hourText} ${minuteText}` : hourText;
	return minuteText;
}

/** Time since something happened: `12 min`, `3 h`, `2 days`; under a minute: `<1 min`. */
export function formatElapsed(ms: number, t: Translate = untranslated): string {
	if (Number.isNaN(ms) || ms === Infinity) return INVALID_TIME;
	const minutes = Math.floor(Math.max(0, ms) / 60_000);
	if (minutes < 1) return t('<1 min');
	if (minutes < 60) return t('{0} min', minutes);
	const hours = Math.floor(minutes / 60);
	if (hours < 48) return t('{0} h', hours);
	return t('{0} days', Math.floor(hours / 24));
}

/** Retry-After as words: `about 3 minutes`, `45 seconds`. */
export function formatWait(seconds: number, t: Translate = untranslated): string {
	if (!Number.isFinite(seconds) || seconds < 0) return t('a few minutes');
	if (seconds < 60) return seconds === 1 ? t('1 second') : t('{0} seconds', seconds);
	const minutes = Math.ceil(seconds / 60);
	return minutes === 1 ? t('about 1 minute') : t('about {0} minutes', minutes);
}

/** `30`, `0.3`: a timeout in seconds as a person reads it. */
export function formatSeconds(ms: number): string {
	const seconds = ms / SECOND;
	if (!Number.isFinite(seconds)) return '?';
	return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

export interface ExpiryTextOptions {
	t?: Translate;
	/** Clock time of an epoch-ms instant; default: `formatClockTime` (a date when not today). */
	formatTime?: (ms: number) => string;
}

/** Clock time plus relative time: `14:05 (in 1h 59m)` or `14:05 (expired)`. */
export function describeExpiry(expiresAt: number, now: number, options: ExpiryTextOptions = {}): string {
	const t = options.t ?? untranslated;
	const clock = (options.formatTime ?? ((ms: number) => formatClockTime(ms, now)))(expiresAt);
	const remaining = expiresAt - now;
	return remaining > 0 ? t('{0} (in {1})', clock, formatRemaining(remaining, t)) : t('{0} (expired)', clock);
}
