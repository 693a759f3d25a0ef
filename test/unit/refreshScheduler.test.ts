import * as assert from 'node:assert/strict';
import { MIN_AUTO_INTERVAL_MS } from '../../src/core/sessions/refreshPlan';
import { ApiError } from '../../src/core/api/errors';
import type { TokenResponse } from '../../src/core/api/types';
import { Lease } from '../../src/core/sessions/lease';
import { MAX_TIMER_MS, RefreshScheduler } from '../../src/core/sessions/refreshScheduler';
import { SessionStore } from '../../src/core/sessions/sessionStore';
import type { NewAccount, RefreshFailure, RefreshFn, StoredTokens } from '../../src/core/sessions/types';
import type { Clock } from '../../src/core/util/clock';
import { silentLog } from '../../src/core/util/log';
import { createTestClock, settle, type TestClock } from '../support/doubles/fakeClock';
import { FakeTokenService, fakeJwt } from '../support/doubles/fakeTokenService';
import { TestMemento } from '../support/doubles/testMemento';
import { SharedSecretBackend } from '../support/doubles/testSecretStorage';
import { openTestWindow } from '../support/doubles/testWindow';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
/** The lease waits this long before reading itself back; ticks add it to reach a refresh. */
const SETTLE = 250;

const alice: NewAccount = { kind: 'admin', serviceUrl: 'https://user.example.test', instanceId: 'inst-a', login: 'alice@example.test', label: 'alice@example.test' };
const bob: NewAccount = { kind: 'user', serviceUrl: 'https://user.example.test', instanceId: 'inst-b', login: 'device-bob', label: 'devi…bob' };

describe('RefreshScheduler', () => {
	let time: TestClock;
	let service: FakeTokenService;
	let store: SessionStore;
	let scheduler: RefreshScheduler;
	let failures: RefreshFailure[];
	let statusChanges: string[];
	let enabled: boolean;
	const disposables: Array<{ dispose(): void }> = [];

	function setUp(refresh?: RefreshFn): void {
		const window = openTestWindow({
			name: 'window',
			backend: new SharedSecretBackend(),
			memento: new TestMemento(),
			clock: time.clock,
			refresh: refresh ?? service.refreshAs('window'),
			marginMs: () => 300 * S,
			enabled: () => enabled,
			leaseTtlMs: 30 * S,
			leaseSettleMs: SETTLE,
		});
		({ store, scheduler } = window);
		failures = [];
		statusChanges = [];
		disposables.push(window, scheduler.onDidFail((f) => failures.push(f)), scheduler.onDidChangeStatus((id) => statusChanges.push(id)));
	}

	async function login(account = alice): Promise<string> {
		await store.load();
		const session = await store.saveLogin(account, service.login());
		return session.account.id;
	}

	beforeEach(() => {
		time = createTestClock();
		service = new FakeTokenService(time.clock);
		enabled = true;
		setUp();
	});

	afterEach(() => {
		for (const d of disposables.splice(0).reverse()) d.dispose();
	});

	it('a refresh answered without a new refresh token leaves the sent one usable: the next refresh goes ahead', async () => {
		// The client keeps the sent refresh token when the answer has none (no rotation): it is not spent.
		const sent: string[] = [];
		setUp(async (request) => {
			sent.push(request.refreshToken);
			return { accessToken: fakeJwt(time.clock.now() + 40 * S), refreshToken: request.refreshToken, expiresIn: 40 };
		});
		const id = await login();
		const first = scheduler.refreshNow(id);
		await time.timers.tickAsync(1 * S);
		await first;
		await time.timers.tickAsync(31 * S);
		const second = scheduler.refreshNow(id);
		await time.timers.tickAsync(1 * S);
		await second;
		assert.equal(sent.length, 2, 'both refreshes were sent');
		assert.equal(store.get(id)?.state, 'valid');
		assert.deepEqual(failures, []);
	});

	it('refreshes a 40 s token at half its lifetime and stores the new tokens before resolving', async () => {
		const id = await login();
		const loggedInAt = time.clock.now();
		scheduler.start();
		assert.equal(scheduler.status(id).nextRefreshAt, loggedInAt + 20 * S);

		await time.timers.tickAsync(20 * S - 1);
		assert.equal(service.calls.length, 0);
		await time.timers.tickAsync(1 + SETTLE);
		await settle();
		assert.equal(service.calls.length, 1);
		const { request } = service.calls[0];
		assert.deepEqual({ ...request, accessToken: undefined }, { baseUrl: alice.serviceUrl, instanceId: alice.instanceId, accessToken: undefined, refreshToken: 'refresh-1' });

		const tokens = store.get(id)?.tokens;
		assert.equal(tokens?.refreshToken, service.currentRefreshToken);
		assert.equal(tokens?.lastRefreshAt, time.clock.now());
		assert.equal(tokens?.expirySource, 'jwt');
		// Half-life (20 s) is sooner than the 30 s minimum interval between refreshes: the interval wins.
		assert.equal(scheduler.status(id).nextRefreshAt, tokens!.lastRefreshAt! + MIN_AUTO_INTERVAL_MS);
	});

	it('sends the newest refresh token on every refresh (rotation), cycle after cycle', async () => {
		const id = await login();
		scheduler.start();
		// The first at half-life (20 s), then one per 30 s minimum interval.
		for (let cycle = 0; cycle < 5; cycle++) {
			await time.timers.tickAsync(30 * S + SETTLE);
			await settle();
		}
		assert.equal(service.calls.length, 5);
		assert.deepEqual(service.calls.map((c) => c.request.refreshToken), ['refresh-1', 'refresh-2', 'refresh-3', 'refresh-4', 'refresh-5']);
		assert.equal(store.get(id)?.tokens?.refreshToken, 'refresh-6');
		assert.equal(store.get(id)?.state, 'valid');
		assert.deepEqual(failures, []);
	});

	it('keeps the old refresh token when the response has none', async () => {
		const refresh: RefreshFn = async () => ({ accessToken: fakeJwt(time.clock.now() + H), refreshToken: '' }) as TokenResponse;
		setUp(refresh);
		const id = await login();
		const before = store.get(id)!.tokens!;
		const refreshing = scheduler.refreshNow(id);
		await time.timers.tickAsync(SETTLE);
		const session = await refreshing;
		assert.equal(session.tokens?.refreshToken, before.refreshToken);
		assert.notEqual(session.tokens?.accessToken, before.accessToken);
	});

	it('single flight: a manual refresh during an automatic one joins it', async () => {
		service.latencyMs = 2 * S;
		const id = await login();
		scheduler.start();
		await time.timers.tickAsync(20 * S + SETTLE);
		assert.equal(scheduler.status(id).inFlight, true);
		const first = scheduler.refreshNow(id);
		const second = scheduler.refreshNow(id);
		assert.equal(first, second);
		await time.timers.tickAsync(2 * S);
		const session = await first;
		assert.equal(service.calls.length, 1);
		assert.equal(session.tokens?.refreshToken, service.currentRefreshToken);
		assert.equal(scheduler.status(id).inFlight, false);
	});

	it('a transient failure is retried with back-off, then succeeds', async () => {
		service.lifetimeMs = 10 * MIN; // refreshed at 5 min (the margin), with room for two retries
		service.failures.push(new ApiError('network', 'The service could not be reached.'), new ApiError('serverUnavailable', 'The service is unavailable.', 503));
		const id = await login();
		scheduler.start();
		await time.timers.tickAsync(5 * MIN + SETTLE);
		await settle();
		assert.equal(service.calls.length, 1);
		const status = scheduler.status(id);
		assert.equal(status.lastError?.kind, 'network');
		assert.equal(status.nextRefreshAt, time.clock.now() + 30 * S);
		assert.ok(statusChanges.includes(id));

		await time.timers.tickAsync(30 * S + SETTLE);
		await settle();
		assert.equal(service.calls.length, 2);
		assert.equal(scheduler.status(id).lastError?.kind, 'serverUnavailable');
		assert.equal(scheduler.status(id).nextRefreshAt, time.clock.now() + 60 * S);

		await time.timers.tickAsync(60 * S + SETTLE);
		await settle();
		assert.equal(service.calls.length, 3);
		assert.equal(scheduler.status(id).lastError, undefined);
		assert.equal(store.get(id)?.tokens?.refreshToken, service.currentRefreshToken);
		assert.deepEqual(failures, []);
	});

	it('transient failures past expiry stop the retries and report the failure once', async () => {
		for (let i = 0; i < 20; i++) service.failures.push(new ApiError('timeout', 'No answer in time.'));
		const id = await login();
		scheduler.start();
		await time.timers.tickAsync(2 * MIN);
		await settle();
		assert.equal(failures.length, 1);
		assert.equal(failures[0].error.kind, 'timeout');
		assert.equal(failures[0].trigger, 'auto');
		const calls = service.calls.length;
		await time.timers.tickAsync(H);
		assert.equal(service.calls.length, calls);
		assert.equal(scheduler.status(id).nextRefreshAt, undefined);
		assert.equal(store.get(id)?.state, 'expired');
	});

	it('401: marks the account as needing login, reports it, and never calls again', async () => {
		service.failures.push(new ApiError('badCredentials', 'The refresh token was refused. Log in again.', 401));
		const id = await login();
		scheduler.start();
		await time.timers.tickAsync(20 * S + SETTLE);
		await settle();
		assert.equal(store.get(id)?.state, 'needsLogin');
		assert.deepEqual(failures.map((f) => [f.accountId, f.error.kind]), [[id, 'badCredentials']]);
		await time.timers.tickAsync(24 * H);
		assert.equal(service.calls.length, 1);
		assert.equal(time.timers.countTimers(), 0);
	});

	it('an extension asking every 250 ms cannot drive refreshes: refreshIfAllowed keeps the minimum interval', async () => {
		const id = await login();
		scheduler.start();
		await time.timers.tickAsync(20 * S + SETTLE);
		await settle();
		assert.equal(service.calls.length, 1, 'the automatic refresh');
		// From now on the service answers tokens that have already expired.
		service.lifetimeMs = -60 * S;
		await time.timers.tickAsync(MIN);
		await settle();
		const before = service.calls.length;
		let handedOut = 0;
		for (let i = 0; i < 20; i++) {
			const asked = scheduler.refreshIfAllowed(id);
			await time.timers.tickAsync(250);
			if ((await asked)?.state === 'valid') handedOut++;
		}
		await settle();
		assert.ok(service.calls.length - before <= 1, `${service.calls.length - before} refreshes in 5 s`);
		assert.equal(handedOut, 0, 'an expired token is never handed out as valid');
		assert.ok(service.calls.every((c, i, all) => i === 0 || c.at - all[i - 1]!.at >= MIN_AUTO_INTERVAL_MS), 'never closer than the minimum interval');
	});

	it('refreshIfAllowed does nothing for a session the scheduler gave up on', async () => {
		service.failures.push(new ApiError('rateLimited', 'Too many requests.', 429));
		const id = await login();
		scheduler.start();
		await time.timers.tickAsync(20 * S + SETTLE);
		await settle();
		await time.timers.tickAsync(H);
		assert.equal(await scheduler.refreshIfAllowed(id), undefined);
		assert.equal(service.calls.length, 1);
	});

	it('refreshIfAllowed joins a refresh in flight and refreshes an expired token once the interval has passed', async () => {
		const id = await login();
		enabled = false;
		scheduler.start();
		await time.timers.tickAsync(H);
		enabled = true;
		const first = scheduler.refreshIfAllowed(id);
		const second = scheduler.refreshIfAllowed(id);
		await time.timers.tickAsync(SETTLE);
		await settle();
		assert.equal((await first)?.state, 'valid');
		assert.equal((await second)?.state, 'valid');
		assert.equal(service.calls.length, 1);
	});

	describe('a refresh asked for by a command has the automatic floor in every state (20 presses, one a second)', () => {
		/** Presses Refresh: what came of it ('sent', 'failed <kind>', or why it was held back). */
		async function press(id: string): Promise<string> {
			const asked = scheduler.refreshOnRequest(id).then((r) => r.refreshed ? 'sent' : r.heldBack.why === 'recent' ? `recent ${Math.ceil(r.heldBack.waitMs / S)} s` : r.heldBack.why, (e: ApiError) => `failed ${e.kind}`);
			await time.timers.tickAsync(SETTLE);
			await settle();
			return asked;
		}

		async function twentyPresses(id: string): Promise<string[]> {
			const seen: string[] = [];
			for (let i = 0; i < 20; i++) {
				seen.push(await press(id));
				await time.timers.tickAsync(S - SETTLE);
			}
			return seen;
		}

		beforeEach(() => {
			enabled = false; // only the presses refresh
		});

		it('an expired token, refreshed into another expired one: one refresh, then held back until 30 s passed', async () => {
			service.lifetimeMs = -60 * S;
			const id = await login();
			scheduler.start();
			const seen = await twentyPresses(id);
			assert.equal(service.calls.length, 1, seen.join(', '));
			assert.deepEqual(seen.slice(0, 3), ['sent', 'recent 30 s', 'recent 29 s']);
			await time.timers.tickAsync(11 * S);
			assert.equal(await press(id), 'sent', '30 s after the last');
			assert.equal(service.calls.length, 2);
		});

		it('after a 429: one refresh, then held back until 30 s passed', async () => {
			for (let i = 0; i < 40; i++) service.failures.push(new ApiError('rateLimited', 'Too many requests.', 429));
			const id = await login();
			scheduler.start();
			const seen = await twentyPresses(id);
			assert.equal(service.calls.length, 1, seen.join(', '));
			assert.deepEqual(seen.slice(0, 2), ['failed rateLimited', 'recent 30 s']);
			await time.timers.tickAsync(11 * S);
			assert.equal(await press(id), 'failed rateLimited', '30 s after the last');
			assert.equal(service.calls.length, 2);
		});

		it('after a network failure on an expired token: one refresh, then held back', async () => {
			for (let i = 0; i < 40; i++) service.failures.push(new ApiError('network', 'Offline.'));
			service.lifetimeMs = -60 * S;
			const id = await login();
			scheduler.start();
			const seen = await twentyPresses(id);
			assert.equal(service.calls.length, 1, seen.join(', '));
			assert.equal(seen[0], 'failed network');
		});

		it('after a refused refresh token: one refresh, then never again, "log in"', async () => {
			service.failures.push(new ApiError('badCredentials', 'The refresh token was refused. Log in again.', 401));
			const id = await login();
			scheduler.start();
			const seen = await twentyPresses(id);
			assert.deepEqual(seen, ['failed badCredentials', ...Array<string>(19).fill('needsLogin')]);
			await time.timers.tickAsync(H);
			assert.equal(await press(id), 'needsLogin');
			assert.equal(service.calls.length, 1);
		});

		it('a new login forgets the floor of the tokens before it: the first press sends', async () => {
			for (let i = 0; i < 2; i++) service.failures.push(new ApiError('rateLimited', 'Too many requests.', 429));
			const id = await login();
			scheduler.start();
			assert.equal(await press(id), 'failed rateLimited');
			await store.saveLogin(alice, service.login());
			await settle();
			assert.equal(await press(id), 'failed rateLimited');
			assert.equal(service.calls.length, 2);
		});
	});

	it('429: stops without retrying and without asking for a login', async () => {
		service.failures.push(new ApiError('rateLimited', 'Too many requests.', 429));
		const id = await login();
		scheduler.start();
		await time.timers.tickAsync(20 * S + SETTLE);
		await settle();
		assert.deepEqual(failures.map((f) => f.error.kind), ['rateLimited']);
		await time.timers.tickAsync(H);
		assert.equal(service.calls.length, 1);
		assert.equal(store.get(id)?.state, 'expired');
	});

	it('a failed manual refresh rejects with the ApiError and leaves the session as it was', async () => {
		service.failures.push(new ApiError('forbidden', 'This token is for another kind of account.', 403));
		const id = await login();
		const before = store.get(id);
		const refreshing = scheduler.refreshNow(id);
		const rejected = assert.rejects(refreshing, (e: unknown) => e instanceof ApiError && e.kind === 'forbidden');
		await time.timers.tickAsync(SETTLE);
		await rejected;
		assert.deepEqual(store.get(id), before);
	});

	it('after the machine sleeps past expiry, refreshes as soon as it wakes', async () => {
		service.lifetimeMs = 2 * H;
		const id = await login();
		scheduler.start();
		assert.equal(scheduler.status(id).nextRefreshAt, time.clock.now() + 2 * H - 5 * MIN);
		await time.timers.tickAsync(30 * MIN);
		// Sleep for 3 hours: the wall clock jumps, pending timers do not run.
		time.timers.setSystemTime(time.clock.now() + 3 * H);
		assert.equal(store.get(id)?.state, 'expired');
		assert.equal(service.calls.length, 0);
		// The next (short) timer of the chain fires after waking and acts on the time it is now.
		await time.timers.tickAsync(MAX_TIMER_MS + SETTLE);
		await settle();
		assert.equal(service.calls.length, 1);
		assert.equal(store.get(id)?.state, 'valid');
	});

	it('checkDue() refreshes at once after a wake-up without waiting for the timer', async () => {
		service.lifetimeMs = 2 * H;
		const id = await login();
		scheduler.start();
		time.timers.setSystemTime(time.clock.now() + 3 * H);
		scheduler.checkDue();
		await time.timers.tickAsync(SETTLE);
		await settle();
		assert.equal(service.calls.length, 1);
		assert.equal(store.get(id)?.state, 'valid');
	});

	it('keeps one timer per account, however long the token lives, and does not poll', async () => {
		service.lifetimeMs = 24 * H;
		await login(alice);
		await store.saveLogin(bob, service.login());
		scheduler.start();
		for (let i = 0; i < 12; i++) {
			await time.timers.tickAsync(10 * MIN);
			assert.equal(time.timers.countTimers(), 2);
		}
		assert.equal(service.calls.length, 0);
	});

	it('disabled: no automatic refresh, but a manual one still works', async () => {
		enabled = false;
		const id = await login();
		scheduler.start();
		assert.equal(time.timers.countTimers(), 0);
		await time.timers.tickAsync(H);
		assert.equal(service.calls.length, 0);
		const refreshing = scheduler.refreshNow(id);
		await time.timers.tickAsync(SETTLE);
		const session = await refreshing;
		assert.equal(service.calls.length, 1);
		assert.equal(session.state, 'valid');
	});

	it('dispose clears every timer', async () => {
		await login(alice);
		await store.saveLogin(bob, service.login());
		scheduler.start();
		assert.equal(time.timers.countTimers(), 2);
		scheduler.dispose();
		assert.equal(time.timers.countTimers(), 0);
		await time.timers.tickAsync(H);
		assert.equal(service.calls.length, 0);
	});

	it('a new login after a 401 plans refreshes again', async () => {
		service.failures.push(new ApiError('badCredentials', 'Refused.', 401));
		const id = await login();
		scheduler.start();
		await time.timers.tickAsync(20 * S + SETTLE);
		await settle();
		assert.equal(scheduler.status(id).nextRefreshAt, undefined);
		await store.saveLogin(alice, service.login());
		assert.equal(store.get(id)?.state, 'valid');
		assert.equal(scheduler.status(id).nextRefreshAt, time.clock.now() + 20 * S);
	});
});

describe('RefreshScheduler: one change, one event, one timer', () => {
	const M = 60 * S;
	let time: TestClock;
	/** Every timer armed on the clock (its handle and when it is due) and every handle cleared. */
	let armed: Map<unknown, number>;
	let cleared: unknown[];
	let calls: number;
	let store: SessionStore;
	let scheduler: RefreshScheduler;
	let disposables: Array<{ dispose(): void }>;

	const tokens = (lifetimeMs: number, refreshToken: string): StoredTokens => {
		const now = time.clock.now();
		return { accessToken: fakeJwt(now + lifetimeMs), refreshToken, expiresAt: now + lifetimeMs, expirySource: 'jwt', obtainedAt: now };
	};

	beforeEach(async () => {
		time = createTestClock();
		armed = new Map();
		cleared = [];
		calls = 0;
		const clock: Clock = {
			now: () => time.clock.now(),
			setTimeout: (callback, ms) => {
				const handle = time.clock.setTimeout(callback, ms);
				armed.set(handle, time.clock.now() + ms);
				return handle;
			},
			clearTimeout: (handle) => {
				cleared.push(handle);
				time.clock.clearTimeout(handle);
			},
		};
		const view = new SharedSecretBackend().view();
		store = new SessionStore(view, new TestMemento(), { clock });
		// Every refresh rotates the refresh token; the access token lives an hour.
		const refresh: RefreshFn = async () => ({ accessToken: fakeJwt(time.clock.now() + H), refreshToken: `rotated-${++calls}`, expiresIn: 3600 });
		scheduler = new RefreshScheduler({
			store,
			api: { refresh },
			clock,
			marginMs: () => 5 * M,
			enabled: () => true,
			log: silentLog,
			lease: new Lease(view, clock, 'window', 30 * S, SETTLE),
			random: () => 0.5,
			maxTimerMs: 24 * H,
		});
		disposables = [scheduler, store, view];
		await store.load();
	});

	afterEach(() => {
		for (const d of disposables.splice(0)) d.dispose();
	});

	/** The handles of the timers armed for `dueAt`. */
	const timersFor = (dueAt: number | undefined): unknown[] => [...armed].filter(([, due]) => due === dueAt).map(([handle]) => handle);

	it('an automatic refresh of one account re-arms that account\'s timer only; a login or a switch of another re-arms none', async () => {
		const bobId = (await store.saveLogin(bob, tokens(2 * H, 'bob-1'))).account.id;
		scheduler.start();
		const bobDue = scheduler.status(bobId).nextRefreshAt;
		assert.equal(bobDue, time.clock.now() + 2 * H - 5 * M);
		const [bobTimer] = timersFor(bobDue);
		assert.ok(bobTimer !== undefined);

		const aliceId = (await store.saveLogin(alice, tokens(H, 'alice-1'))).account.id;
		await store.setActive(bobId);
		await settle();
		const aliceDue = scheduler.status(aliceId).nextRefreshAt;
		assert.equal(timersFor(aliceDue).length, 1, 'alice\'s timer is armed once');

		await time.timers.tickAsync(55 * M + SETTLE + S);
		await settle();
		assert.equal(calls, 1, 'alice was refreshed');
		assert.equal(store.get(aliceId)?.tokens?.refreshToken, 'rotated-1');
		const aliceNext = scheduler.status(aliceId).nextRefreshAt;
		assert.equal(aliceNext, store.get(aliceId)!.tokens!.expiresAt - 5 * M);
		assert.equal(timersFor(aliceNext).length, 1, 'alice\'s new timer is armed once');
		assert.ok(!cleared.includes(bobTimer), 'bob\'s timer was never cleared');
		assert.deepEqual(timersFor(bobDue), [bobTimer], 'bob\'s timer was never armed again');
		assert.equal(scheduler.status(bobId).nextRefreshAt, bobDue);
	});

	it('an automatic refresh is two changes for a view, each told once: it starts, and its tokens land (not refreshing, the next refresh planned)', async () => {
		const id = (await store.saveLogin(alice, tokens(H, 'alice-1'))).account.id;
		await store.saveLogin(bob, tokens(2 * H, 'bob-1'));
		await store.setActive(id);
		scheduler.start();
		const before = store.get(id)!.tokens!.accessToken;
		const seen: Array<{ inFlight: boolean; newTokens: boolean; nextRefreshAt?: number }> = [];
		disposables.push(scheduler.onDidChange(() => {
			const status = scheduler.status(id);
			seen.push({ inFlight: status.inFlight, newTokens: store.get(id)?.tokens?.accessToken !== before, ...(status.nextRefreshAt !== undefined && { nextRefreshAt: status.nextRefreshAt }) });
		}));
		await time.timers.tickAsync(55 * M + SETTLE + S);
		await settle();
		assert.equal(calls, 1);
		assert.deepEqual(seen, [
			{ inFlight: true, newTokens: false },
			{ inFlight: false, newTokens: true, nextRefreshAt: store.get(id)!.tokens!.expiresAt - 5 * M },
		]);
	});

	it('a change of the store is told once, after its timers are planned', async () => {
		const id = (await store.saveLogin(alice, tokens(H, 'alice-1'))).account.id;
		scheduler.start();
		const seen: Array<number | undefined> = [];
		disposables.push(scheduler.onDidChange(() => seen.push(scheduler.status(id).nextRefreshAt)));
		await store.saveLogin(alice, tokens(2 * H, 'alice-2'));
		assert.deepEqual(seen, [time.clock.now() + 2 * H - 5 * M]);
		await store.saveLogin(bob, tokens(H, 'bob-1'));
		assert.equal(seen.length, 2);
	});
});
