// What a session is, and the shapes the session core (sessionStore.ts, refreshScheduler.ts) shares with
// the VS Code layer: a new account, a token write's outcome, refresh status and failures, the refresh
// call. Pure: no `vscode` import.
import type { ApiError } from '../api/errors';
import type { AccountKind, RefreshRequest, RequestOptions, TokenResponse } from '../api/types';
import type { Event } from '../util/event';

/** The non-secret part of an account, kept in globalState (the index). */
export interface AccountRecord {
	/** Stable id derived from kind, service URL, instance ID and login (hashed). */
	id: string;
	kind: AccountKind;
	/** Display name: the API Login for admins, a masked device token for users. */
	label: string;
	/**
	 * Short name (`user`, `admin`, `user-2`; accountNames.ts): how files, terminals, the agent and the
	 * environment name the account. Given by the store; absent only in records stored before names.
	 */
	name?: string;
	/**
	 * Whether the person said the account is production (production.ts). Absent in records stored
	 * before the flag and until the person says: then the account's host decides.
	 */
	production?: boolean;
	/** User Group InstanceID or API InstanceID; absent for an admin who logged in without one. */
	instanceId?: string;
	serviceUrl: string;
	/** Epoch ms of the first login. */
	createdAt: number;
}

/** The secret part, kept in SecretStorage under one key per account. */
export interface StoredTokens {
	deviceToken?: string;
	accessToken: string;
	refreshToken: string;
	/** Epoch ms when the access token expires. */
	expiresAt: number;
	/** Where `expiresAt` came from. */
	expirySource: 'jwt' | 'expiresIn' | 'default';
	/** Epoch ms when these tokens were obtained (login or refresh). */
	obtainedAt: number;
	/** Epoch ms of the last successful refresh, if any. */
	lastRefreshAt?: number;
}

/**
 * `valid`: tokens present and not expired. `expired`: the access token has expired
 * (a refresh may still work). `needsLogin`: tokens missing or unreadable, or the
 * refresh token was refused; only a new login helps.
 */
export type SessionState = 'valid' | 'expired' | 'needsLogin';

export interface Session {
	account: AccountRecord;
	tokens?: StoredTokens;
	state: SessionState;
}

/** What the session store holds of an account: its record and, while logged in, its tokens. */
export interface StoreEntry {
	account: AccountRecord;
	tokens?: StoredTokens;
	/** Set when the secret was unreadable or the refresh token was refused. */
	needsLogin: boolean;
}

/** What SessionStore needs from `vscode.SecretStorage`. */
export interface SecretBackend {
	get(key: string): PromiseLike<string | undefined>;
	store(key: string, value: string): PromiseLike<void>;
	delete(key: string): PromiseLike<void>;
	onDidChange: Event<{ key: string }>;
}

/** What SessionStore needs from `vscode.Memento` (globalState). */
export interface MementoBackend {
	get<T>(key: string): T | undefined;
	update(key: string, value: unknown): PromiseLike<void>;
}

/**
 * What a command hands back about an account: its id, state and expiry, never a token. Any extension
 * can run our commands; the authentication provider, behind VS Code's consent prompt, is the road to a token.
 */
export interface AccountResult {
	readonly accountId: string;
	readonly state: SessionState;
	readonly expiresAt?: number;
}

export function accountResult(session: Session | undefined): AccountResult | undefined {
	if (!session) return undefined;
	return { accountId: session.account.id, state: session.state, ...(session.tokens ? { expiresAt: session.tokens.expiresAt } : {}) };
}

/** What a login hands to the store. `login` is the device token or API login; it is hashed into the id. */
export interface NewAccount {
	kind: AccountKind;
	serviceUrl: string;
	/** Absent for an admin who logged in without an API InstanceID. */
	instanceId?: string;
	login: string;
	label: string;
}

/**
 * What a compare-and-set token write did. `saved`: stored. `pending`: the keychain refused;
 * the tokens are live in this window and written again later. `stale`: newer tokens are
 * stored (a new login, another window's refresh): nothing written. `gone`: logged out.
 */
export type SaveOutcome = 'saved' | 'pending' | 'stale' | 'gone';

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

/** The API client's refresh, as the scheduler sends it (the client knows its timeout and proxy). */
export type RefreshFn = (request: RefreshRequest, options?: RequestOptions) => Promise<TokenResponse>;
