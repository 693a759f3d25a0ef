// The contracts between the session core (store, scheduler) and the VS Code layer.
// Pure: no `vscode` import. Implementations: sessionStore.ts, refreshScheduler.ts.
import type { ApiError } from '../api/errors';
import type { AccountKind, RefreshRequest, RequestOptions, TokenResponse } from '../api/types';
import type { Disposable, Event } from '../types';
import type { Session, StoredTokens } from './types';

/** What a login hands to the store. `login` is the device token or API login; it is hashed into the id. */
export interface NewAccount {
	kind: AccountKind;
	serviceUrl: string;
	instanceId: string;
	login: string;
	label: string;
}

/**
 * What a compare-and-set token write did. `saved`: stored. `pending`: the keychain refused;
 * the tokens are live in this window and written again later. `stale`: newer tokens are
 * stored (a new login, another window's refresh): nothing written. `gone`: logged out.
 */
export type TokenWrite = 'saved' | 'pending' | 'stale' | 'gone';

export interface ISessionStore extends Disposable {
	/** Reads the index and every account's secret. Call once, after activation's cheap work. */
	load(): Promise<void>;
	/** Settles (never rejects) once the first `load()` has finished; until then `list()` is empty. */
	readonly ready: Promise<void>;
	/** Whether the first `load()` has finished. */
	readonly loaded: boolean;
	/** Fires after any change, local or from another window, once the new state is read. */
	readonly onDidChange: Event<void>;
	/** All accounts, oldest first. */
	list(): readonly Session[];
	get(id: string): Session | undefined;
	active(): Session | undefined;
	setActive(id: string): Promise<void>;
	/** Stores a login's result (secret first, then index) and makes the account active. Same account again: replaces its tokens. */
	saveLogin(account: NewAccount, tokens: StoredTokens): Promise<Session>;
	/**
	 * Stores refreshed tokens (access and rotated refresh token in one secret write) only if
	 * the account still holds `sentRefreshToken`: a logout is never undone, a newer login
	 * always wins. A failed write keeps the tokens live in memory and retries (`pending`).
	 */
	updateTokens(id: string, tokens: StoredTokens, sentRefreshToken: string): Promise<TokenWrite>;
	/** The refresh token `sentRefreshToken` was refused: only a new login helps (same compare-and-set). */
	markNeedsLogin(id: string, sentRefreshToken: string): Promise<TokenWrite>;
	/** Log out: deletes the secret and the index entry. */
	remove(id: string): Promise<void>;
	/** Re-reads one account from storage (another window may have written); fires onDidChange if it changed. */
	reloadAccount(id: string): Promise<Session | undefined>;
	/** The keychain answered nothing for an account still logged in; this window stored its tokens again. Once per account. */
	readonly onDidLoseSecret: Event<{ accountId: string; label: string }>;
}

export type RefreshTrigger = 'auto' | 'manual';

export interface RefreshStatus {
	inFlight: boolean;
	/** When the next automatic refresh is planned (epoch ms), if one is. */
	nextRefreshAt?: number;
	/** The last failure since the last success. */
	lastError?: { kind: ApiError['kind']; message: string; at: number };
}

export interface RefreshFailure {
	accountId: string;
	error: ApiError;
	trigger: RefreshTrigger;
	/** Set when the refresh itself worked but its token is too short-lived to use (told once). */
	warning?: 'shortLived';
}

export interface IRefreshScheduler extends Disposable {
	/** Plans refreshes for every account and follows the store from now on. */
	start(): void;
	/** Plans every account again (after a setting changed). */
	reschedule(): void;
	/** Refreshes at once every account whose planned time has passed (after the machine woke). */
	checkDue(): void;
	/** Refreshes now; joins a refresh already in flight for that account. Rejects with ApiError. */
	refreshNow(accountId: string): Promise<Session>;
	/**
	 * For callers that are not a person (another extension through the authentication API): joins
	 * a refresh in flight, or starts one only when an automatic one would be allowed now (not given
	 * up, no back-off pending, the minimum interval since the last refresh passed; with automatic
	 * refresh off too, since someone asked). Undefined when it did not refresh or the refresh failed.
	 */
	refreshIfAllowed(accountId: string): Promise<Session | undefined>;
	status(accountId: string): RefreshStatus;
	readonly onDidChangeStatus: Event<string>;
	/** A refresh failed for good (401 → needs login, 429, or transient failures until expiry). */
	readonly onDidFail: Event<RefreshFailure>;
}

/** How the scheduler talks to the service; the VS Code layer binds settings into it. */
export type RefreshFn = (request: RefreshRequest, options?: Partial<RequestOptions>) => Promise<TokenResponse>;

