// Pure decisions of the refresh scheduler: when to refresh, how long to back off, and
// whether a failure is worth another try. No timers, no I/O: tested with tables.
import { isTransientKind, type ApiError } from '../api/errors';
import type { StoredTokens } from './types';

/**
 * Shortest time between two automatic refreshes of one account, whatever the tokens say:
 * a service that answers with an already expired token cannot drive a refresh loop.
 */
export const MIN_AUTO_INTERVAL_MS = 30_000;
/** Longest back-off delay. */
export const BACKOFF_CAP_MS = 5 * 60_000;
/** Jitter spreads retries by ±20 % so several windows or machines do not retry in step. */
export const BACKOFF_JITTER = 0.2;

/**
 * When to refresh: `margin` before expiry, but never before half of the token's lifetime
 * has passed (a 40 s token with a 300 s margin refreshes at 20 s, not at once).
 */
export function planRefreshAt(tokens: Pick<StoredTokens, 'expiresAt' | 'obtainedAt'>, marginMs: number): number {
	const { expiresAt, obtainedAt } = tokens;
	const byMargin = expiresAt - Math.max(0, marginMs);
	const halfLife = obtainedAt + Math.max(0, expiresAt - obtainedAt) / 2;
	return Math.max(byMargin, halfLife);
}

/**
 * Delay before retry number `attempt` (1-based): 30 s, 1 min, 2 min, … capped at 5 min,
 * spread by ±20 % but never below the minimum interval. `random` returns [0, 1); 0.5 means
 * no jitter (tests pass a constant).
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const factor = 1 + BACKOFF_JITTER * (2 * clamp01(random()) - 1);
	const delay = Math.min(BACKOFF_CAP_MS, minAutoInterval(attempt - 1) * factor);
	return Math.round(Math.max(MIN_AUTO_INTERVAL_MS, delay));
}

/**
 * The minimum interval after `streak` refreshes in a row whose tokens were too short-lived to
 * wait that long (0: healthy): 30 s, 1 min, 2 min, … capped at 5 min.
 */
export function minAutoInterval(streak: number): number {
	const exponent = Number.isFinite(streak) ? Math.max(0, Math.min(Math.floor(streak), 30)) : 0;
	return Math.min(BACKOFF_CAP_MS, MIN_AUTO_INTERVAL_MS * 2 ** exponent);
}

/** What comes of a refresh asked for by a command: sent, or held back and why. */
export type RequestedRefresh =
	| { send: true }
	/** Within the minimum interval of the last refresh sent or stored: how long ago that was, and how long to wait. */
	| { send: false; why: 'recent'; agoMs: number; waitMs: number }
	/** The service refused the refresh token: sending it again cannot help, only a login can. */
	| { send: false; why: 'needsLogin' };

/**
 * Whether a refresh asked for by a command (a person's Refresh, its Refresh Now buttons) is sent now, in
 * every state of the account: never with a refresh token the service refused; otherwise not sooner than
 * the minimum interval (the floor of the automatic refreshes) after the last refresh this window sent for
 * the account, whatever came of it (an expired token, a 429, a failure), or the last one any window
 * stored. A first refresh after a login goes ahead.
 */
export function planRequestedRefresh(account: { needsLogin: boolean; lastSentAt?: number; lastRefreshAt?: number }, now: number): RequestedRefresh {
	if (account.needsLogin) return { send: false, why: 'needsLogin' };
	const last = Math.max(account.lastSentAt ?? Number.NEGATIVE_INFINITY, account.lastRefreshAt ?? Number.NEGATIVE_INFINITY);
	const waitMs = last + MIN_AUTO_INTERVAL_MS - now;
	return waitMs > 0 ? { send: false, why: 'recent', agoMs: Math.max(0, now - last), waitMs } : { send: true };
}

/**
 * What to do after a failed refresh:
 * - `retry`: a transient failure (network, timeout, 5xx) while the access token is still valid;
 * - `needsLogin`: the refresh token was refused (401); only a new login helps, never retried;
 * - `stop`: anything else (429, 403, validation, bad response, cancelled), or a transient
 *   failure once the token has expired; the user decides what happens next.
 */
export type RetryDecision = 'retry' | 'needsLogin' | 'stop';

export function shouldRetry(error: Pick<ApiError, 'kind'>, now: number, expiresAt: number): RetryDecision {
	if (error.kind === 'badCredentials') return 'needsLogin';
	if (isTransientKind(error.kind)) return now < expiresAt ? 'retry' : 'stop';
	return 'stop';
}

function clamp01(value: number): number {
	if (!Number.isFinite(value)) return 0.5;
	return Math.min(1, Math.max(0, value));
}
