// Refreshes access tokens before they expire, one timer per account, never a polling loop. It only
// ever uses the refresh token: it has no way to log in.
import { ApiError } from '../api/errors';
import { Emitter } from '../util/event';
import type { Log } from '../util/log';
import { untranslated, type Translate } from '../util/translate';
import { isoTime } from '../util/time';
import type { SessionStore } from './sessionStore';
import type { Lease } from './lease';
import { backoffDelay, MIN_AUTO_INTERVAL_MS, minAutoInterval, planRefreshAt, planRequestedRefresh, shouldRetry, type RequestedRefresh } from './refreshPlan';
import { tokensFromRefresh } from './tokenAnswer';
import type { RefreshFailure, RefreshFn, RefreshStatus, RefreshTrigger, Session, StoredTokens } from './types';
import type { Clock } from '../util/clock';
import type { Disposable } from '../util/event';

/** Longest single timer; longer waits are chained. */
export const MAX_TIMER_MS = 10 * 60_000;
/** How many lease lifetimes a window waits for another window's refresh before it gives up (it never refreshes past the lease). */
const MAX_LEASE_WAITS = 20;

export interface RefreshSchedulerDeps {
	store: SessionStore;
	/** The API client (it reads its timeout and proxy itself); only its refresh is used: the scheduler cannot log in. */
	api: { refresh: RefreshFn };
	clock: Clock;
	/** `telematicsAuth.refreshBeforeExpirySeconds`, in ms. Read at each planning. */
	marginMs: () => number;
	/** `telematicsAuth.autoRefresh`. Read at each planning; manual refresh always works. */
	enabled: () => boolean;
	log: Log;
	lease: Lease;
	/** Jitter source for back-off, [0, 1). Tests pass a constant. */
	random?: () => number;
	/** Longest single timer (default 10 min). */
	maxTimerMs?: number;
	/** Words the messages people see (the VS Code layer passes `vscode.l10n.t`). */
	t?: Translate;
}

/** One refresh under way. */
interface Flight {
	readonly promise: Promise<Session>;
	readonly state: FlightState;
}

interface FlightState {
	/** The refresh token sent, once sent. */
	sentRefreshToken?: string;
	/** Which tokens this refresh is storing, once the service answered (see `landed`). */
	storing?: string;
	/** Set when this refresh stored its tokens. */
	stored?: boolean;
}

interface Plan {
	timer?: unknown;
	/** When the armed timer chain is due (epoch ms). */
	dueAt?: number;
	/** Which tokens the plan was made for; when they change, back-off and stops are forgotten. */
	fingerprint?: string;
	/** Failures in a row since the last success. */
	attempt: number;
	/** A back-off retry replaces the normal plan while set. */
	retryAt?: number;
	/** No automatic refresh until the tokens change (a login, another window's refresh). */
	stopped: boolean;
	lastError?: RefreshStatus['lastError'];
	/** Refreshes in a row whose token lived shorter than the minimum interval (kept across token changes). */
	shortStreak: number;
	/** What `status()` last reported, to fire `onDidChangeStatus` on real changes only. */
	reported?: string;
	/** When this window last sent a refresh for these tokens, whatever came of it (forgotten when they change). */
	lastSentAt?: number;
}

/**
 * A timer is never longer than `maxTimerMs` (10 min by default): a longer wait is a chain of them, so
 * after sleep a due refresh is noticed within 10 minutes of waking (at once when the window gets focus
 * and the VS Code layer calls `checkDue()`). Idle cost: at most 6 wake-ups an hour per account.
 */
export class RefreshScheduler implements Disposable {
	private readonly plans = new Map<string, Plan>();
	private readonly inFlight = new Map<string, Flight>();
	/** Leases this window keeps alive (a refresh in flight, tokens waiting for the keychain): each one's stop. */
	private readonly keptLeases = new Set<() => void>();
	private readonly waiters = new Set<() => void>();
	private readonly statusEmitter = new Emitter<string>();
	private readonly changeEmitter = new Emitter<void>();
	/** While planning every account: whether a status changed (they make one `onDidChange` at the end). */
	private batch: { changed: boolean } | undefined;
	private readonly failEmitter = new Emitter<RefreshFailure>();
	private readonly maxTimerMs: number;
	private readonly t: Translate;
	private storeSubscription: Disposable | undefined;
	private started = false;
	private disposed = false;

	readonly onDidChangeStatus = this.statusEmitter.event;
	/**
	 * What a view of the sessions shows changed: the store (once per change, after the timers are
	 * planned for it) or a refresh status. One event per change: a refresh that stores its tokens
	 * is one change (new tokens, not refreshing, the next refresh planned), however many steps it takes.
	 */
	readonly onDidChange = this.changeEmitter.event;
	/** A refresh failed for good (401 → needs login, 429, or transient failures until expiry). */
	readonly onDidFail = this.failEmitter.event;

	constructor(private readonly deps: RefreshSchedulerDeps) {
		this.maxTimerMs = Math.max(1, deps.maxTimerMs ?? MAX_TIMER_MS);
		this.t = deps.t ?? untranslated;
	}

	/** Plans refreshes for every account and follows the store from now on. */
	start(): void {
		if (this.started || this.disposed) return;
		this.started = true;
		this.storeSubscription = this.deps.store.onDidChange(() => this.follow());
		this.reschedule();
	}

	/** The store changed: plan every account again, then tell once. */
	private follow(): void {
		if (this.disposed) return;
		this.planAll();
		this.changeEmitter.fire();
	}

	/** Plans every account again: call after `autoRefresh` or the margin setting changes. */
	reschedule(): void {
		if (this.disposed) return;
		if (this.planAll()) this.changeEmitter.fire();
	}

	/** Plans every account; true when a status changed (`onDidChange` is left to the caller). */
	private planAll(): boolean {
		const batch = { changed: false };
		this.batch = batch;
		try {
			this.planEach();
		} finally {
			this.batch = undefined;
		}
		return batch.changed;
	}

	private planEach(): void {
		const ids = new Set(this.deps.store.list().map((s) => s.account.id));
		for (const [id, plan] of this.plans) {
			if (!ids.has(id)) {
				this.clearTimer(plan);
				this.plans.delete(id);
				this.fireStatus(id);
			}
		}
		for (const id of ids) this.plan(id);
	}

	/** Refreshes at once every account whose planned time has passed (e.g. after the machine wakes). */
	checkDue(): void {
		if (this.disposed) return;
		const now = this.deps.clock.now();
		for (const [id, plan] of this.plans) {
			if (plan.timer !== undefined && plan.dueAt !== undefined && plan.dueAt <= now) {
				this.clearTimer(plan);
				this.runAuto(id);
			}
		}
	}

	/** Refreshes now; joins a refresh already in flight for that account. Rejects with ApiError. */
	refreshNow(accountId: string): Promise<Session> {
		return this.run(accountId, 'manual');
	}

	/**
	 * A refresh asked for by a command: joins one in flight; otherwise sends one only as planRequestedRefresh
	 * allows (never a refused refresh token, at most one per minimum interval whatever came of the last), so
	 * no caller can make refreshes come faster than the automatic ones. Held back: `refreshed: false` and why,
	 * nothing sent. Rejects with ApiError.
	 */
	async refreshOnRequest(accountId: string): Promise<{ session: Session; refreshed: true } | { session: Session; refreshed: false; heldBack: Exclude<RequestedRefresh, { send: true }> }> {
		const joined = this.inFlight.get(accountId);
		if (joined) return { session: await joined.promise, refreshed: true };
		const session = this.deps.store.get(accountId);
		if (session) {
			const decision = planRequestedRefresh({ needsLogin: session.state === 'needsLogin', lastSentAt: this.plans.get(accountId)?.lastSentAt, lastRefreshAt: session.tokens?.lastRefreshAt }, this.deps.clock.now());
			if (!decision.send) return { session, refreshed: false, heldBack: decision };
		}
		return { session: await this.run(accountId, 'manual'), refreshed: true };
	}

	/**
	 * For callers that are not a person (another extension through the authentication API): joins
	 * a refresh in flight, or starts one only when an automatic one would be allowed now (not given
	 * up, no back-off pending, the minimum interval since the last refresh passed; with automatic
	 * refresh off too, since someone asked). Undefined when it did not refresh or the refresh failed.
	 */
	refreshIfAllowed(accountId: string): Promise<Session | undefined> {
		const joined = this.inFlight.get(accountId);
		if (joined) return joined.promise.then((session) => session, () => undefined);
		const session = this.deps.store.get(accountId);
		const plan = this.plans.get(accountId);
		const tokens = session?.tokens;
		const now = this.deps.clock.now();
		if (!this.started || this.disposed || !plan || plan.stopped || !tokens || session.state === 'needsLogin') return Promise.resolve(undefined);
		if (plan.retryAt !== undefined && plan.retryAt > now) return Promise.resolve(undefined);
		// The same floor as the planned refreshes: never sooner than the minimum interval after the last one.
		if (tokens.lastRefreshAt !== undefined && now < tokens.lastRefreshAt + minAutoInterval(plan.shortStreak)) return Promise.resolve(undefined);
		return this.run(accountId, 'auto').then((refreshed) => refreshed, () => undefined);
	}

	status(accountId: string): RefreshStatus {
		const plan = this.plans.get(accountId);
		const flight = this.inFlight.get(accountId);
		const status: RefreshStatus = { inFlight: flight !== undefined && !this.landed(flight, accountId) };
		if (plan?.timer !== undefined && plan.dueAt !== undefined) status.nextRefreshAt = plan.dueAt;
		if (plan?.lastError) status.lastError = { ...plan.lastError };
		return status;
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		this.storeSubscription?.dispose();
		for (const plan of this.plans.values()) this.clearTimer(plan);
		for (const cancel of [...this.waiters]) cancel();
		for (const stop of [...this.keptLeases]) stop(); // a window that closes lets its leases lapse
		this.statusEmitter.dispose();
		this.changeEmitter.dispose();
		this.failEmitter.dispose();
	}

	// --- planning -----------------------------------------------------------------------

	/**
	 * Plans `id`'s next automatic refresh from what the store holds. A timer already armed for the
	 * same time stays as it is: a change of one account re-arms that account's timer only.
	 */
	private plan(id: string): void {
		const plan = this.planFor(id);
		const session = this.deps.store.get(id);
		if (this.disposed || !session) {
			this.clearTimer(plan);
			this.plans.delete(id);
			this.fireStatus(id);
			return;
		}
		const flight = this.inFlight.get(id);
		// Planned again when it settles, or as soon as its tokens are in the store.
		if (flight && !this.landed(flight, id)) return this.report(id);
		const tokens = session.tokens;
		if (tokens) {
			const fingerprint = fingerprintOf(tokens);
			if (plan.fingerprint !== fingerprint) {
				plan.fingerprint = fingerprint;
				plan.attempt = 0;
				plan.retryAt = undefined;
				plan.stopped = false;
				plan.lastError = undefined;
				plan.lastSentAt = undefined;
			}
		}
		if (!this.started || !this.deps.enabled() || !tokens || session.state === 'needsLogin' || plan.stopped) {
			this.clearTimer(plan);
			return this.report(id);
		}
		let dueAt = plan.retryAt ?? planRefreshAt(tokens, this.deps.marginMs());
		// Never sooner than the minimum interval after the last refresh, by any window (no storms).
		if (tokens.lastRefreshAt !== undefined) dueAt = Math.max(dueAt, tokens.lastRefreshAt + minAutoInterval(plan.shortStreak));
		if (plan.timer === undefined || plan.dueAt !== dueAt) {
			this.arm(id, plan, dueAt);
			this.deps.log.debug(`Refresh of "${session.account.label}" planned for ${isoTime(dueAt)}.`);
		}
		this.report(id);
	}

	/** Whether `flight`'s tokens are in the store: for everyone else the refresh is over (the lease may still be held). */
	private landed(flight: Flight, id: string): boolean {
		return flight.state.storing !== undefined && flight.state.storing === fingerprintOf(this.deps.store.get(id)?.tokens);
	}

	/** One timer, at most `maxTimerMs` long; a longer wait is chained (see the header). */
	private arm(id: string, plan: Plan, dueAt: number): void {
		this.clearTimer(plan);
		plan.dueAt = dueAt;
		const delay = Math.min(Math.max(0, dueAt - this.deps.clock.now()), this.maxTimerMs);
		plan.timer = this.deps.clock.setTimeout(() => this.onTimer(id, plan, dueAt), delay);
	}

	private onTimer(id: string, plan: Plan, dueAt: number): void {
		plan.timer = undefined;
		if (this.disposed || this.plans.get(id) !== plan) return;
		// Timers fire late after a sleep: act on the time it is now, not on the time planned.
		if (this.deps.clock.now() < dueAt) return this.arm(id, plan, dueAt);
		this.runAuto(id);
	}

	private runAuto(id: string): void {
		this.run(id, 'auto').catch(() => {
			// handled in run(): status, back-off, onDidFail
		});
	}

	// --- refreshing ---------------------------------------------------------------------

	/** Single flight: a second call while one is in flight joins it. */
	private run(id: string, trigger: RefreshTrigger): Promise<Session> {
		const existing = this.inFlight.get(id);
		if (existing) return existing.promise;
		const plan = this.planFor(id);
		this.clearTimer(plan);
		plan.retryAt = undefined;
		const expected = plan.fingerprint;
		const flight: FlightState = {};
		const promise = (async () => {
			try {
				const session = await this.attempt(id, trigger === 'auto' ? expected : undefined, flight);
				plan.attempt = 0;
				plan.lastError = undefined;
				if (flight.stored) this.checkLifetime(id, plan, session, trigger);
				return session;
			} catch (error) {
				const apiError = toApiError(error, this.t);
				await this.failed(id, plan, apiError, trigger, flight.sentRefreshToken);
				throw apiError;
			} finally {
				this.inFlight.delete(id);
				if (this.plans.get(id) === plan) this.plan(id);
				else this.fireStatus(id);
			}
		})();
		this.inFlight.set(id, { promise, state: flight });
		this.report(id);
		return promise;
	}

	/**
	 * One refresh, coordinated with other windows: take the lease (or wait for the holder's
	 * new tokens), re-read the secret, and skip if someone else already refreshed.
	 * `expected`: for automatic runs, the tokens the timer was planned for.
	 *
	 * The account's secret is read three times, and no read can stand for another: before the lease
	 * (a window may not have heard another's refresh: it skips without touching the lease), under the
	 * lease (another window may have refreshed between that read and the lease: this read says what
	 * may be spent), and in the store's compare-and-set just before the write (a login or logout
	 * elsewhere takes no lease). The keychain's change event for the write is read once more by the
	 * store: an event does not say which window wrote.
	 */
	private async attempt(id: string, expected: string | undefined, flight: FlightState): Promise<Session> {
		let session = await this.reload(id);
		if (expected !== undefined && fingerprintOf(session.tokens) !== expected) return session; // another window refreshed
		const seen = fingerprintOf(session.tokens);
		for (let waits = 0; !(await this.deps.lease.tryAcquire(id)); waits++) {
			this.throwIfDisposed();
			// The holder keeps its lease only while it refreshes or waits for the keychain, and it lapses
			// when that window goes: never refresh past it (the holder may have spent this refresh token).
			if (waits >= MAX_LEASE_WAITS) throw new ApiError('timeout', this.t('Another window has been refreshing the token of {0} for a long time. Try again later.', session.account.label));
			if (await this.waitForNewTokens(id, seen, this.deps.lease.ttlMs)) return this.current(id);
		}
		// Held for as long as the refresh takes, and until its tokens are in the keychain.
		const keeping = this.deps.lease.keep(id);
		const stopKeeping = (): void => {
			keeping();
			this.keptLeases.delete(stopKeeping);
		};
		this.keptLeases.add(stopKeeping);
		let holdUntilStored = false;
		try {
			this.throwIfDisposed();
			session = await this.reload(id);
			if (fingerprintOf(session.tokens) !== seen) return session; // refreshed while we took the lease
			const sent = session.tokens as StoredTokens;
			flight.sentRefreshToken = sent.refreshToken;
			if (await this.deps.lease.isSpent(id, sent.refreshToken)) {
				// Another window spent it and its new tokens never reached the keychain: sending it again
				// would be a reuse, which a service may answer by revoking every token of the account.
				if (await this.waitForNewTokens(id, seen, this.deps.lease.ttlMs)) return this.current(id);
				throw new ApiError('badCredentials', this.t('Another window used the refresh token of {0} and could not store the new tokens. Log in again.', session.account.label));
			}
			this.deps.log.info(`Refreshing the access token of "${session.account.label}".`);
			this.planFor(id).lastSentAt = this.deps.clock.now();
			let response;
			try {
				response = await this.deps.api.refresh({
					baseUrl: session.account.serviceUrl,
					instanceId: session.account.instanceId,
					accessToken: sent.accessToken,
					refreshToken: sent.refreshToken,
					...(sent.deviceToken ? { deviceToken: sent.deviceToken } : {}),
				});
			} catch (error) {
				if (error instanceof ApiError && error.kind === 'badCredentials') {
					// Refused: unless another window rotated the token meanwhile, it is spent for good.
					const again = await this.reload(id).catch(() => undefined);
					if (again?.tokens && again.tokens.refreshToken !== sent.refreshToken) return again;
				}
				throw error;
			}
			// Spent only when the answer rotated it (without a new one, the one sent is still the one to keep).
			if (response.refreshToken !== sent.refreshToken) await this.deps.lease.markSpent(id, sent.refreshToken);
			const { tokens, expiryNote } = tokensFromRefresh(sent, response, this.deps.clock.now());
			if (expiryNote) this.deps.log.warn(`The refreshed token of "${session.account.label}": ${expiryNote}.`);
			flight.storing = fingerprintOf(tokens);
			const written = await this.deps.store.updateTokens(id, tokens, sent.refreshToken);
			if (written === 'gone') throw new ApiError('cancelled', this.t('The account was logged out while its token was being refreshed.'));
			if (written === 'stale') return this.current(id); // a newer login or another window's refresh won
			holdUntilStored = written === 'pending';
			flight.stored = true;
			this.deps.log.info(`Refreshed the access token of "${session.account.label}"; it expires at ${isoTime(tokens.expiresAt)}.`);
			return this.current(id);
		} finally {
			if (holdUntilStored) this.releaseWhenStored(id, stopKeeping);
			else {
				stopKeeping();
				await this.deps.lease.release(id);
			}
		}
	}

	/** Keeps the lease until the store has written the rotated tokens (it retries a refused write), then lets it go. */
	private releaseWhenStored(id: string, stopKeeping: () => void): void {
		let timer: unknown;
		const stop = (): void => {
			this.deps.clock.clearTimeout(timer);
			stopKeeping();
			this.keptLeases.delete(stop);
		};
		const check = (): void => {
			if (this.disposed) return;
			if (this.deps.store.hasUnsavedTokens(id)) {
				timer = this.deps.clock.setTimeout(check, Math.max(1, Math.floor(this.deps.lease.ttlMs / 3)));
				return;
			}
			stop();
			void this.deps.lease.release(id);
		};
		this.keptLeases.add(stop);
		timer = this.deps.clock.setTimeout(check, Math.max(1, Math.floor(this.deps.lease.ttlMs / 3)));
	}

	private async failed(id: string, plan: Plan, error: ApiError, trigger: RefreshTrigger, sentRefreshToken: string | undefined): Promise<void> {
		const now = this.deps.clock.now();
		plan.lastError = { kind: error.kind, message: error.message, at: now };
		if (error.kind === 'cancelled') return;
		const session = this.deps.store.get(id);
		const label = session?.account.label ?? id;
		const decision = shouldRetry(error, now, session?.tokens?.expiresAt ?? 0);
		if (decision === 'retry') {
			plan.attempt++;
			plan.retryAt = now + backoffDelay(plan.attempt, this.deps.random);
			this.deps.log.warn(`Refreshing "${label}" failed (${error.kind}); retry ${plan.attempt} at ${isoTime(plan.retryAt)}.`);
			return;
		}
		plan.stopped = true;
		if (decision === 'needsLogin') {
			try {
				// Only if the refused token is still the stored one: a newer login or refresh wins.
				const marked = sentRefreshToken === undefined ? 'stale' : await this.deps.store.markNeedsLogin(id, sentRefreshToken);
				if (marked === 'stale' || marked === 'gone') return;
				this.deps.log.warn(`The refresh token of "${label}" was refused; it needs a new login.`);
			} catch {
				this.deps.log.error(`Could not mark "${label}" as needing a new login.`);
			}
		} else {
			this.deps.log.warn(`Refreshing "${label}" failed (${error.kind}); automatic refresh stops until the next login or manual refresh.`);
		}
		if (!this.disposed) this.failEmitter.fire({ accountId: id, error, trigger });
	}

	/**
	 * After this window's refresh: a token that lives shorter than the minimum interval (already
	 * expired, a clock far off, a server bug) widens the interval and is told once, not refreshed in a loop.
	 */
	private checkLifetime(id: string, plan: Plan, session: Session, trigger: RefreshTrigger): void {
		const tokens = session.tokens;
		if (!tokens) return;
		const left = tokens.expiresAt - tokens.obtainedAt;
		if (left >= MIN_AUTO_INTERVAL_MS) {
			plan.shortStreak = 0;
			return;
		}
		plan.shortStreak++;
		const label = session.account.label;
		const waits = `the next automatic refresh waits ${Math.round(minAutoInterval(plan.shortStreak) / 1000)} s`;
		this.deps.log.warn(left <= 0
			? `The service sent "${label}" a token that has already expired; ${waits}.`
			: `The service sent "${label}" a token that expires in ${Math.round(left / 1000)} s; ${waits}.`);
		if (plan.shortStreak === 1 && !this.disposed) {
			const message = left <= 0
				? this.t('The service sent a token that has already expired. Check that this computer\'s clock is right; if it is, the service has a problem. Automatic refresh slows down until a normal token arrives.')
				: this.t('The service sent a token that expires within 30 seconds. Automatic refresh slows down until a longer-lived token arrives.');
			this.failEmitter.fire({ accountId: id, error: new ApiError('badResponse', message), trigger, warning: 'shortLived' });
		}
	}

	// --- helpers ------------------------------------------------------------------------

	/** Re-reads the account from storage when the store can (another window may have written). */
	private async reload(id: string): Promise<Session> {
		const store = this.deps.store;
		const session = await store.reloadAccount(id);
		if (!session) throw new ApiError('cancelled', this.t('The account was removed.'));
		if (!session.tokens) throw new ApiError('badCredentials', this.t('This account has no stored tokens. Log in again.'));
		return session;
	}

	private current(id: string): Session {
		const session = this.deps.store.get(id);
		if (!session) throw new ApiError('cancelled', this.t('The account was removed.'));
		return session;
	}

	/** Resolves true when the store shows other tokens than `seen`, false after `ms` or on dispose. */
	private waitForNewTokens(id: string, seen: string, ms: number): Promise<boolean> {
		return new Promise((resolve) => {
			const finish = (changed: boolean) => {
				subscription.dispose();
				this.deps.clock.clearTimeout(timer);
				this.waiters.delete(cancel);
				resolve(changed);
			};
			const cancel = () => finish(false);
			const subscription = this.deps.store.onDidChange(() => {
				if (fingerprintOf(this.deps.store.get(id)?.tokens) !== seen) finish(true);
			});
			const timer = this.deps.clock.setTimeout(cancel, ms);
			this.waiters.add(cancel);
		});
	}

	private throwIfDisposed(): void {
		if (this.disposed) throw new ApiError('cancelled', this.t('The refresh was cancelled.'));
	}

	private planFor(id: string): Plan {
		let plan = this.plans.get(id);
		if (!plan) {
			plan = { attempt: 0, stopped: false, shortStreak: 0 };
			this.plans.set(id, plan);
		}
		return plan;
	}

	private clearTimer(plan: Plan): void {
		if (plan.timer !== undefined) this.deps.clock.clearTimeout(plan.timer);
		plan.timer = undefined;
	}

	private report(id: string): void {
		const plan = this.plans.get(id);
		if (!plan || this.disposed) return;
		const reported = JSON.stringify(this.status(id));
		if (reported === plan.reported) return;
		plan.reported = reported;
		this.fireStatus(id);
	}

	/** `id`'s status changed: its own event, and `onDidChange` (once at the end when every account is being planned). */
	private fireStatus(id: string): void {
		this.statusEmitter.fire(id);
		if (this.batch) this.batch.changed = true;
		else this.changeEmitter.fire();
	}
}

/** Identifies one set of tokens; held in memory only, never logged. */
function fingerprintOf(tokens: StoredTokens | undefined): string {
	return tokens ? `${tokens.obtainedAt}|${tokens.expiresAt}|${tokens.refreshToken}` : '';
}

function toApiError(error: unknown, t: Translate): ApiError {
	if (error instanceof ApiError) return error;
	// Not from the API client (e.g. a storage failure): keep only a safe, generic message.
	return new ApiError('badResponse', t('The refreshed tokens could not be handled or saved.'));
}
