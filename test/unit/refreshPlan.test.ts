import * as assert from 'node:assert/strict';
import { ApiError } from '../../src/core/api/errors';
import type { ApiErrorKind } from '../../src/core/api/types';
import { BACKOFF_CAP_MS, backoffDelay, MIN_AUTO_INTERVAL_MS, minAutoInterval, planRefreshAt, planRequestedRefresh, shouldRetry, type RetryDecision } from '../../src/core/sessions/refreshPlan';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

describe('planRefreshAt', () => {
	const cases: Array<{ name: string; lifetime: number; margin: number; at: number }> = [
		{ name: '40 s token, 300 s margin: at half-life', lifetime: 40 * S, margin: 300 * S, at: 20 * S },
		{ name: '2 h token, 300 s margin: 5 min before expiry', lifetime: 2 * H, margin: 300 * S, at: 2 * H - 5 * MIN },
		{ name: '24 h token, 300 s margin', lifetime: 24 * H, margin: 300 * S, at: 24 * H - 5 * MIN },
		{ name: '10 min token, 300 s margin: exactly half', lifetime: 10 * MIN, margin: 300 * S, at: 5 * MIN },
		{ name: '8 min token, 300 s margin: half-life wins', lifetime: 8 * MIN, margin: 300 * S, at: 4 * MIN },
		{ name: 'no margin: at expiry', lifetime: 2 * H, margin: 0, at: 2 * H },
		{ name: 'negative margin is read as none', lifetime: 2 * H, margin: -5 * MIN, at: 2 * H },
		{ name: 'margin longer than the token: half-life', lifetime: 1 * H, margin: 86_400 * S, at: 30 * MIN },
	];
	for (const c of cases) {
		it(c.name, () => {
			const obtainedAt = 1_000_000;
			assert.equal(planRefreshAt({ obtainedAt, expiresAt: obtainedAt + c.lifetime }, c.margin), obtainedAt + c.at);
		});
	}

	it('a token that expires as it arrives is due at once', () => {
		const obtainedAt = 1_000_000;
		assert.ok(planRefreshAt({ obtainedAt, expiresAt: obtainedAt - 1 }, 300 * S) <= obtainedAt);
	});
});

describe('backoffDelay', () => {
	const noJitter = () => 0.5;
	const table: Array<[attempt: number, ms: number]> = [
		[1, 30 * S],
		[2, 60 * S],
		[3, 120 * S],
		[4, 240 * S],
		[5, 5 * MIN],
		[6, 5 * MIN],
		[7, 5 * MIN],
		[8, 5 * MIN],
		[50, 5 * MIN],
		[10_000, 5 * MIN],
	];
	for (const [attempt, ms] of table) {
		it(`attempt ${attempt} waits ${ms / S} s`, () => assert.equal(backoffDelay(attempt, noJitter), ms));
	}

	it('jitter spreads the delay by at most ±20 %, never below the 30 s minimum interval nor past the cap', () => {
		assert.equal(backoffDelay(1, () => 0), MIN_AUTO_INTERVAL_MS);
		assert.equal(backoffDelay(1, () => 0.999999), 36 * S);
		assert.equal(backoffDelay(2, () => 0), 48 * S);
		assert.equal(backoffDelay(10, () => 0.999999), BACKOFF_CAP_MS);
		assert.equal(backoffDelay(10, () => 0), 4 * MIN);
	});

	it('any attempt number, even NaN or negative, waits at least the minimum interval', () => {
		for (const attempt of [Number.NaN, -5, 0, Infinity, 1e9]) {
			const delay = backoffDelay(attempt, () => 0);
			assert.ok(delay >= MIN_AUTO_INTERVAL_MS && delay <= BACKOFF_CAP_MS, `${attempt} → ${delay}`);
		}
	});

	it('grows with each attempt until the cap', () => {
		const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((a) => backoffDelay(a, noJitter));
		for (let i = 1; i < delays.length; i++) assert.ok(delays[i] >= delays[i - 1]);
		assert.equal(delays.at(-1), BACKOFF_CAP_MS);
	});
});

describe('minAutoInterval', () => {
	const table: Array<[streak: number, ms: number]> = [[0, 30 * S], [1, 60 * S], [2, 120 * S], [3, 240 * S], [4, 5 * MIN], [99, 5 * MIN], [Number.NaN, 30 * S], [-1, 30 * S]];
	for (const [streak, ms] of table) {
		it(`after ${streak} too-short tokens in a row: ${ms / S} s`, () => assert.equal(minAutoInterval(streak), ms));
	}
});

describe('shouldRetry', () => {
	const now = 1_000_000;
	const valid = now + 60 * S;
	const expired = now - 1;
	const table: Array<[kind: ApiErrorKind, expiresAt: number, decision: RetryDecision]> = [
		['network', valid, 'retry'],
		['timeout', valid, 'retry'],
		['serverUnavailable', valid, 'retry'],
		['network', expired, 'stop'],
		['timeout', expired, 'stop'],
		['serverUnavailable', now, 'stop'],
		['badCredentials', valid, 'needsLogin'],
		['badCredentials', expired, 'needsLogin'],
		['rateLimited', valid, 'stop'],
		['forbidden', valid, 'stop'],
		['validation', valid, 'stop'],
		['badResponse', valid, 'stop'],
		['cancelled', valid, 'stop'],
	];
	for (const [kind, expiresAt, decision] of table) {
		it(`${kind} with a ${expiresAt > now ? 'valid' : 'expired'} token: ${decision}`, () => {
			assert.equal(shouldRetry(new ApiError(kind, 'x'), now, expiresAt), decision);
		});
	}
});

describe('planRequestedRefresh: a refresh asked for by a command, in every state of the account', () => {
	const now = 1_000_000_000;
	type Case = { name: string; needsLogin?: boolean; sentAgo?: number; refreshedAgo?: number; expected: string };
	const cases: Case[] = [
		{ name: 'just logged in (never refreshed or sent): sent', expected: 'send' },
		{ name: 'refreshed a moment ago: held back 30 s', refreshedAgo: 0, expected: 'recent 0 30000' },
		{ name: '29 s after a refresh: held back 1 s', refreshedAgo: 29 * S, expected: 'recent 29000 1000' },
		{ name: '30 s after a refresh: sent', refreshedAgo: 30 * S, expected: 'send' },
		{ name: 'an hour after: sent', refreshedAgo: 3600 * S, expected: 'send' },
		{ name: 'sent 5 s ago and failed (a 429, a network failure), refreshed long ago: held back 25 s', sentAgo: 5 * S, refreshedAgo: 3600 * S, expected: 'recent 5000 25000' },
		{ name: 'sent 12 s ago, never refreshed: held back 18 s', sentAgo: 12 * S, expected: 'recent 12000 18000' },
		{ name: 'sent 30 s ago: sent', sentAgo: 30 * S, expected: 'send' },
		{ name: 'refreshed 10 s ago, sent 40 s ago: the later one counts', sentAgo: 40 * S, refreshedAgo: 10 * S, expected: 'recent 10000 20000' },
		{ name: 'a refused refresh token: never sent, log in', needsLogin: true, expected: 'needsLogin' },
		{ name: 'a refused refresh token an hour ago: still never sent', needsLogin: true, sentAgo: 3600 * S, expected: 'needsLogin' },
		{ name: 'refreshed "in the future" (a clock set back): held back until the interval passed', refreshedAgo: -60 * S, expected: 'recent 0 90000' },
	];
	for (const c of cases) {
		it(c.name, () => {
			const decision = planRequestedRefresh({
				needsLogin: c.needsLogin ?? false,
				...(c.sentAgo !== undefined && { lastSentAt: now - c.sentAgo }),
				...(c.refreshedAgo !== undefined && { lastRefreshAt: now - c.refreshedAgo }),
			}, now);
			const shown = decision.send ? 'send' : decision.why === 'needsLogin' ? decision.why : `${decision.why} ${decision.agoMs} ${decision.waitMs}`;
			assert.equal(shown, c.expected);
		});
	}
});

describe('backoff with a random source that is broken', () => {
	it('NaN or Infinity from the random source reads as the middle: the plain backoff, never NaN', () => {
		for (const broken of [Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(backoffDelay(2, () => broken), backoffDelay(2, () => 0.5));
		assert.ok(Number.isFinite(backoffDelay(2, () => Number.NaN)));
	});
});
