import * as assert from 'node:assert/strict';
import type { RefreshStatus } from '../../src/core/sessions/types';
import { describeStatus, nextTickDelay, TICK_SLACK_MS } from '../../src/core/statusBar/statusModel';
import { untranslated } from '../../src/core/util/translate';

import type { Session } from '../../src/core/sessions/types';
import { formatRemaining, spellRemaining } from '../../src/core/util/time';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const MARGIN = 5 * M;

function session(kind: 'user' | 'admin', remainingMs: number, state: Session['state'] = 'valid', withTokens = true): Session {
	return {
		account: { id: `${kind}-1`, kind, label: kind === 'admin' ? 'admin@example.com' : 'demo…oken', instanceId: 'inst', serviceUrl: 'http://127.0.0.1:1', createdAt: NOW - H },
		tokens: withTokens ? { accessToken: 'eyJhbGciOiJIUzI1NiJ9.e30.sig', refreshToken: 'refresh-secret', expiresAt: NOW + remainingMs, expirySource: 'jwt', obtainedAt: NOW - M } : undefined,
		state,
	};
}

const idle: RefreshStatus = { inFlight: false };

describe('statusModel', () => {
	describe('nextTickDelay', () => {
		const table: Array<[string, number, number | undefined]> = [
			['1h 59m 30s → next minute boundary in 30 s', H + 59 * M + 30 * S, 30 * S],
			['5m 00.5s → 0.5 s', 5 * M + 500, 500],
			['exactly 2h → 0: it turns 1h 59m at once', 2 * H, 0],
			['59 s → 0: it turns 58s at once, then every second', 59 * S, 0],
			['58.999 s → 1 s less a millisecond', 58 * S + 999, 999],
			['59.25 s → 0.25 s', 59 * S + 250, 250],
			['1m 0.3s → 0.3 s, then seconds', M + 300, 300],
			['0.4 s → 0.4 s, then expired', 400, 400],
			['2d 3h 10m → next hour boundary', 2 * 24 * H + 3 * H + 10 * M, 10 * M],
			['expired (0) → none', 0, undefined],
			['expired (negative) → none', -5 * S, undefined],
		];
		for (const [name, remaining, expected] of table) {
			it(name, () => assert.equal(nextTickDelay(remaining), expected));
		}

		it('the display changes just after the delay and not before, across the whole range', () => {
			for (const remaining of [2 * H, H + 59 * M + 30 * S, 61 * M + 1, 5 * M + 500, M + 1, M, 59 * S + 1, 30 * S, 1500, 2 * 24 * H + 17]) {
				const delay = nextTickDelay(remaining)!;
				assert.equal(formatRemaining(remaining - delay), formatRemaining(remaining), `before the boundary at ${remaining}`);
				assert.notEqual(formatRemaining(remaining - delay - 1), formatRemaining(remaining), `just after the boundary at ${remaining}`);
			}
		});

		it('wakes at most once a minute outside the last minute of a 2 hour token', () => {
			let remaining = 2 * H;
			let wakeups = 0;
			while (remaining > M) {
				remaining -= nextTickDelay(remaining)! + TICK_SLACK_MS;
				wakeups++;
			}
			assert.ok(wakeups <= 120, `${wakeups} wake-ups for 119 minute changes`);
		});
	});

	describe('spellRemaining', () => {
		const table: Array<[number, string]> = [
			[H + 59 * M + 30 * S, '1 hour 59 minutes'],
			[2 * H, '2 hours'],
			[M, '1 minute'],
			[12 * M + 5 * S, '12 minutes'],
			[45 * S, '45 seconds'],
			[S, '1 second'],
			[26 * H, '1 day 2 hours'],
			[0, 'expired'],
		];
		for (const [ms, expected] of table) {
			it(`${ms} ms → ${expected}`, () => assert.equal(spellRemaining(ms), expected));
		}
	});

	describe('describeStatus', () => {
		it('no session: offers a login, nothing to tick', () => {
			const d = describeStatus(undefined, undefined, NOW, MARGIN);
			assert.equal(d.text, '$(sign-in) Telematics: Log In');
			assert.equal(d.click, 'login');
			assert.equal(d.severity, 'none');
			assert.equal(d.nextTickMs, undefined);
		});

		const table: Array<{ name: string; session: Session; status?: RefreshStatus; text: string; severity: string; tick?: number }> = [
			{ name: 'valid user', session: session('user', H + 59 * M + 30 * S), status: idle, text: '$(account) demo…oken · 1h 59m', severity: 'none', tick: 30 * S + TICK_SLACK_MS },
			{ name: 'valid admin gets the shield', session: session('admin', H + 59 * M + 30 * S), status: idle, text: '$(shield) admin@example.com · 1h 59m', severity: 'none', tick: 30 * S + TICK_SLACK_MS },
			{ name: 'last minute ticks every second', session: session('user', 59 * S + 999), status: idle, text: '$(account) demo…oken · 59s', severity: 'warning', tick: 999 + TICK_SLACK_MS },
			{ name: 'inside the margin: warning', session: session('user', 4 * M + 10 * S), status: idle, text: '$(account) demo…oken · 4m', severity: 'warning', tick: 10 * S + TICK_SLACK_MS },
			{ name: 'planned refresh passed: warning', session: session('user', H), status: { inFlight: false, nextRefreshAt: NOW - S }, text: '$(account) demo…oken · 1h 0m', severity: 'warning', tick: TICK_SLACK_MS },
			{ name: 'wakes when the refresh window opens before the minute', session: session('user', H + 30 * S), status: { inFlight: false, nextRefreshAt: NOW + 10 * S }, text: '$(account) demo…oken · 1h 0m', severity: 'none', tick: 10 * S + TICK_SLACK_MS },
			{ name: 'failed refresh: warning', session: session('user', H), status: { inFlight: false, lastError: { kind: 'network', message: 'offline', at: NOW - M } }, text: '$(account) demo…oken · 1h 0m', severity: 'warning', tick: TICK_SLACK_MS },
			{ name: 'refreshing', session: session('user', 3 * M), status: { inFlight: true }, text: '$(sync~spin) demo…oken · refreshing…', severity: 'warning' },
			{ name: 'manual refresh early: no warning', session: session('admin', H), status: { inFlight: true, nextRefreshAt: NOW + 55 * M }, text: '$(sync~spin) admin@example.com · refreshing…', severity: 'none' },
			{ name: 'expired by the clock although stored valid', session: session('user', -S), status: idle, text: '$(warning) demo…oken · expired', severity: 'error' },
			{ name: 'expired exactly now', session: session('user', 0), status: idle, text: '$(warning) demo…oken · expired', severity: 'error' },
			{ name: 'stored expired', session: session('admin', H, 'expired'), status: idle, text: '$(warning) admin@example.com · expired', severity: 'error' },
			{ name: 'refreshing an expired token stays an error', session: session('user', -M), status: { inFlight: true }, text: '$(sync~spin) demo…oken · refreshing…', severity: 'error' },
			{ name: 'needs login', session: session('user', H, 'needsLogin'), status: idle, text: '$(warning) demo…oken · log in again', severity: 'error' },
			{ name: 'needs login wins over refreshing', session: session('user', H, 'needsLogin'), status: { inFlight: true }, text: '$(warning) demo…oken · log in again', severity: 'error' },
			{ name: 'tokens missing: log in again', session: session('admin', H, 'valid', false), status: undefined, text: '$(warning) admin@example.com · log in again', severity: 'error' },
		];
		for (const row of table) {
			it(row.name, () => {
				const d = describeStatus(row.session, row.status, NOW, MARGIN);
				assert.equal(d.text, row.text);
				assert.equal(d.severity, row.severity);
				assert.equal(d.nextTickMs, row.tick);
				assert.equal(d.click, 'showActions');
			});
		}

		it('a tick lands after the displayed text has changed', () => {
			for (const remaining of [H + 59 * M + 30 * S, 5 * M + 500, 59 * S, M + 1]) {
				const s = session('user', remaining);
				const before = describeStatus(s, idle, NOW, 0);
				const after = describeStatus(s, idle, NOW + before.nextTickMs!, 0);
				assert.notEqual(after.text, before.text);
			}
		});

		it('spells the time out for screen readers', () => {
			const d = describeStatus(session('admin', H + 59 * M + 30 * S), idle, NOW, MARGIN);
			assert.equal(d.accessibilityLabel, 'Telematics account admin@example.com, token valid for 1 hour 59 minutes');
			assert.ok(!/\d+[hm]\b/.test(d.accessibilityLabel));
		});

		it('translates through the given function', () => {
			const t = (message: string, ...args: Array<string | number | boolean>) => untranslated(message.toUpperCase(), ...args);
			assert.equal(describeStatus(session('user', H, 'expired'), idle, NOW, MARGIN, t).text, '$(warning) demo…oken · EXPIRED');
		});

		it('never shows a token', () => {
			const s = session('user', H);
			for (const status of [idle, { inFlight: true }]) {
				const d = describeStatus(s, status, NOW, MARGIN);
				assert.ok(!`${d.text}${d.accessibilityLabel}`.includes(s.tokens!.accessToken));
				assert.ok(!`${d.text}${d.accessibilityLabel}`.includes(s.tokens!.refreshToken));
			}
		});
	});
});
