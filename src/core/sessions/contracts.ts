// The shapes the session core (sessionStore.ts, refreshScheduler.ts) shares with the VS Code layer:
// a new account, a token write's outcome, refresh status and failures, the refresh call.
import type { ApiError } from '../api/errors';
import type { AccountKind, RefreshRequest, RequestOptions, TokenResponse } from '../api/types';

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
export type TokenWrite = 'saved' | 'pending' | 'stale' | 'gone';


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

