import * as assert from 'node:assert/strict';
import { formatClockTime, isoTime } from '../../src/core/util/time';

describe('formatClockTime (every surface shows clock times with it)', () => {
	const at = new Date(2024, 4, 6, 16, 27, 7).getTime();
	const sameDay = new Date(2024, 4, 6, 8, 0).getTime();
	const nextDay = new Date(2024, 4, 7, 0, 30).getTime();

	it('shows hours and minutes, no seconds, on the same day', () => {
		assert.equal(formatClockTime(at, sameDay, 'en-US'), '16:27');
		assert.equal(formatClockTime(at, sameDay, 'de-DE'), '16:27');
	});
	it('puts the day in front when it is not today', () => {
		assert.equal(formatClockTime(at, nextDay, 'en-US'), '2024-05-06 16:27');
	});
	it('follows the locale\'s way of writing the time', () => {
		assert.equal(formatClockTime(at, sameDay, 'fi-FI'), '16.27');
	});
	it('accepts any number without throwing: what no Date can hold shows —', () => {
		for (const value of [Number.NaN, Infinity, -Infinity, 1e16, -1e16, 8.64e15 + 1]) {
			assert.equal(formatClockTime(value, sameDay, 'en-US'), '—', String(value));
			assert.equal(isoTime(value), '—', String(value));
		}
		assert.match(formatClockTime(8.64e15, Number.NaN, 'en-US'), /\d\d:\d\d$/);
		assert.equal(isoTime(0), '1970-01-01T00:00:00.000Z');
	});
});
