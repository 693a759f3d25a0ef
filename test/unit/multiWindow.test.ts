// Three windows share one keychain and one globalState, each with its own store, scheduler and lease.
// Refresh tokens rotate, so if two windows refreshed the same token one would need a new login.
import * as assert from 'node:assert/strict';
import type { AccountRecord, RefreshFailure } from '../../src/core/sessions/types';
import { secretKeyFor } from '../../src/core/sessions/storage';
import { settle } from '../support/doubles/fakeClock';
import { useWindows, type TestWindow } from '../support/doubles/testWindow';

const S = 1000;
const LEASE_TTL = 10 * S;

describe('several windows', () => {
	const fx = useWindows({ leaseTtlMs: LEASE_TTL });
	let failures: RefreshFailure[];
	/** The windows a test works with. */
	let windows: TestWindow[];

	/** Lets `steps` periods of `stepMs` pass, every window's work settled after each. */
	async function advance(steps: number, stepMs: number): Promise<void> {
		for (let step = 0; step < steps; step++) {
			await fx.time.timers.tickAsync(stepMs);
			await settle();
		}
	}

	function openWindow(name: string, options: { marginMs?: number; deaf?: boolean } = {}): TestWindow {
		const { marginMs, deaf } = options;
		const window = fx.open(name, { deaf, ...(marginMs === undefined ? {} : { marginMs: () => marginMs }) });
		window.scheduler.onDidFail((f) => failures.push(f));
		return window;
	}

	/** Opens three windows, logs in in the first, and starts every scheduler. Returns the account id. */
	async function threeWindowsLoggedIn(): Promise<string> {
		windows = ['A', 'B', 'C'].map((name) => openWindow(name));
		for (const w of windows) await w.store.load();
		const session = await windows[0].store.saveLogin(
			{ kind: 'admin', serviceUrl: 'https://user.example.test', instanceId: 'inst', login: 'ops@example.test', label: 'ops@example.test' },
			fx.service.login(),
		);
		await settle();
		for (const w of windows) w.scheduler.start();
		return session.account.id;
	}

	/** Opens A and B (B as `bOptions` say), logs in in A, B loads after, and starts both schedulers. */
	async function twoWindowsLoggedIn(bOptions: { marginMs?: number; deaf?: boolean }): Promise<{ a: TestWindow; b: TestWindow; account: AccountRecord }> {
		const a = openWindow('A');
		const b = openWindow('B', bOptions);
		windows = [a, b];
		await a.store.load();
		const { account } = await a.store.saveLogin({ kind: 'user', serviceUrl: 'https://user.example.test', instanceId: 'inst', login: 'device-1', label: 'devi…-1' }, fx.service.login());
		await b.store.load();
		a.scheduler.start();
		b.scheduler.start();
		return { a, b, account };
	}

	/**
	 * One refresh per token generation: each call sends the token the previous one issued, at
	 * least the 30 s minimum interval apart (40 s tokens would be refreshed at half-life, 20 s).
	 */
	function assertOneRefreshPerCycle(): void {
		const sent = fx.service.calls.map((c) => c.request.refreshToken);
		assert.deepEqual(sent, sent.map((_, i) => `refresh-${i + 1}`), 'each refresh sends the newest refresh token, once');
		for (let i = 1; i < fx.service.calls.length; i++) {
			const gap = fx.service.calls[i].at - fx.service.calls[i - 1].at;
			assert.ok(gap >= 29 * S, `refresh ${i + 1} came ${gap} ms after the previous one`);
		}
	}

	function assertAllOnNewestTokens(id: string, live: TestWindow[]): void {
		for (const w of live) {
			const session = w.store.get(id);
			assert.equal(session?.state, 'valid', `window ${w.name}`);
			assert.equal(session?.tokens?.refreshToken, fx.service.currentRefreshToken, `window ${w.name}`);
		}
	}

	beforeEach(() => {
		fx.service.lifetimeMs = 40 * S;
		fx.service.latencyMs = 500;
		failures = [];
		windows = [];
	});

	it('three windows, 40 s tokens: exactly one refresh per cycle, and every window ends on the newest tokens', async () => {
		const id = await threeWindowsLoggedIn();
		await advance(10, 21 * S);
		// 210 s of 40 s tokens: the first at half-life (20 s), then one per 30 s minimum interval.
		assert.ok(fx.service.calls.length >= 6 && fx.service.calls.length <= 8, `${fx.service.calls.length} refreshes`);
		assertOneRefreshPerCycle();
		assert.deepEqual(failures, []);
		assertAllOnNewestTokens(id, windows);
		// Still exactly one timer per window for the account.
		assert.equal(fx.time.timers.countTimers(), windows.length);
	});

	it('when the lease holder crashes mid-refresh, another window takes over after the lease expires', async () => {
		fx.service.hanging.add('A');
		const id = await threeWindowsLoggedIn();
		const [a, b, c] = windows;
		const loginToken = fx.service.currentRefreshToken;

		await fx.time.timers.tickAsync(20 * S + 1 * S);
		await settle();
		assert.equal(fx.service.calls.length, 0, 'window A holds the lease, its request hangs');
		a.dispose(); // crash: no release of the lease
		windows = [b, c];

		await fx.time.timers.tickAsync(LEASE_TTL + 1 * S);
		await settle();
		assert.equal(fx.service.calls.length, 1);
		assert.equal(fx.service.calls[0].request.refreshToken, loginToken);
		assert.ok(['B', 'C'].includes(fx.service.calls[0].caller));
		assertAllOnNewestTokens(id, [b, c]);

		await advance(4, 21 * S);
		assertOneRefreshPerCycle();
		assert.deepEqual(failures, []);
		assertAllOnNewestTokens(id, [b, c]);
	});

	it('a refresh that takes 40 s, longer than the lease lasts: the lease is kept, and no refresh token is ever sent twice', async () => {
		fx.service.latencyMs = 40 * S; // past the 10 s lease, and past any wait of the other windows
		fx.service.lifetimeMs = 120 * S;
		const id = await threeWindowsLoggedIn();
		await advance(30, 5 * S);
		const sent = fx.service.calls.map((c) => c.request.refreshToken);
		assert.ok(sent.length >= 1, `${sent.length} refreshes`);
		assert.deepEqual(sent, [...new Set(sent)], 'a refresh token was sent twice');
		assert.deepEqual(failures, []);
		assertAllOnNewestTokens(id, windows);
	});

	it('a keychain that refuses the new tokens for 60 s: the window holding them keeps the lease, the others never send the spent token', async () => {
		const id = await threeWindowsLoggedIn();
		const key = secretKeyFor(id);
		const refusedUntil = fx.time.clock.now() + 20 * S + 60 * S;
		// From the first refresh on, for 60 s, the account's secret cannot be written (the lease and its mark can).
		fx.backend.failStore = (k) => k === key && fx.time.clock.now() >= refusedUntil - 60 * S && fx.time.clock.now() < refusedUntil;
		await advance(30, 5 * S);
		const sent = fx.service.calls.map((c) => c.request.refreshToken);
		assert.ok(sent.length >= 2, `${sent.length} refreshes`);
		assert.deepEqual(sent, [...new Set(sent)], 'a spent refresh token was sent again');
		assert.equal(fx.service.calls.filter((c) => c.at < refusedUntil).map((c) => c.caller).filter((c, i, all) => all.indexOf(c) === i).length, 1, 'one window refreshed while the keychain refused');
		assert.deepEqual(failures.filter((f) => f.error.kind === 'badCredentials'), [], 'nobody was told to log in again');
		assertAllOnNewestTokens(id, windows);
	});

	it('a window that missed the change event re-reads the keychain at its own time and does not refresh again', async () => {
		// B plans for the last moment (no margin) and never hears that A refreshed at half-life.
		const { a, b, account } = await twoWindowsLoggedIn({ marginMs: 0, deaf: true });
		await fx.time.timers.tickAsync(21 * S);
		await settle();
		assert.equal(fx.service.calls.length, 1);
		assert.notEqual(b.store.get(account.id)?.tokens?.refreshToken, fx.service.currentRefreshToken, 'B has not heard yet');
		// B's timer fires at 40 s (expiry of the first token); A's next refresh is due just after.
		await fx.time.timers.tickAsync(19 * S + 200);
		await settle();
		assert.equal(fx.service.calls.length, 1, 'B re-read the keychain when its timer fired and skipped');
		assert.equal(b.scheduler.status(account.id).nextRefreshAt, b.store.get(account.id)?.tokens?.expiresAt);
		assertAllOnNewestTokens(account.id, [a, b]);
		assert.deepEqual(failures, []);
	});

	it('a window waiting on the lease without hearing the holder re-reads the keychain once it gets the lease', async () => {
		const { a, b, account } = await twoWindowsLoggedIn({ deaf: true });
		await fx.time.timers.tickAsync(20 * S + LEASE_TTL + 1 * S);
		await settle();
		assert.equal(fx.service.calls.length, 1);
		assertAllOnNewestTokens(account.id, [a, b]);
		assert.deepEqual(failures, []);
	});

	it('a window that opens later picks up the newest tokens from the shared keychain', async () => {
		const id = await threeWindowsLoggedIn();
		await fx.time.timers.tickAsync(45 * S);
		await settle();
		const late = openWindow('D');
		windows.push(late);
		await late.store.load();
		assertAllOnNewestTokens(id, windows);
	});
});
