// What a window does when account `id`'s secret changed somewhere (another window wrote, or its own
// write echoes back): a pure decision over what this window holds and what storage holds now.
// windowFollower.ts reads storage, asks `decideReconcile`, and carries the answer out.
import type { StoredTokens } from './types';

/** What reading one secret gave: tokens, or nothing (missing), or unreadable (corrupt), or the keychain failed. */
export type SecretRead =
	| { status: 'ok'; tokens: StoredTokens; needsLogin: boolean }
	| { status: 'missing' }
	| { status: 'corrupt' }
	| { status: 'failed' };

export interface ReconcileInput {
	/** `id`'s secret as storage holds it now. */
	read: SecretRead;
	/** Whether this window holds the account, and its refresh token if it has tokens. */
	mine?: { refreshToken?: string };
	/** Whether the index (globalState) lists the account. */
	listed: boolean;
	/** Whether a window marked the account as logged out (logoutMarks.ts). */
	loggedOut: boolean;
	/** This window's refreshed tokens wait to be stored: the refresh token they replaced. */
	pendingBase?: string;
	/** Whether this window has had the service spend `refreshToken` (spentRefreshTokens.ts). */
	spent: (refreshToken: string) => boolean;
}

export type Reconcile =
	/** Change nothing: the keychain could not be read (the next event tries again), or this window's unstored tokens are newer. */
	| { action: 'keep' }
	/** The keychain could not be read, but a logout elsewhere shows without it: the account goes. */
	| { action: 'dropLoggedOut' }
	| {
		action: 'follow';
		/**
		 * What the account becomes here. `stored`: what storage holds (unreadable: needs a login).
		 * `mine`: what this window holds. `none`: no account (logged out, or never listed).
		 */
		account: 'stored' | 'mine' | 'none';
		/** Forget this window's unstored tokens: what storage holds is newer. */
		dropPending: boolean;
		/** A secret no account points to: look again later, then remove it. */
		watchUnlisted: boolean;
		/** A listed account whose secret is missing: look again later (a logout's marks arrive late), then store ours again. */
		watchMissing: boolean;
		/** The secret is back: stop looking for it. */
		stopMissing: boolean;
		/** Storage went back to a refresh token this window spent: store this window's tokens again. */
		restore: boolean;
	};

const FOLLOW = { action: 'follow', dropPending: false, watchUnlisted: false, watchMissing: false, stopMissing: false, restore: false } as const;

/**
 * The rules, in order:
 * 1. Unreadable keychain: keep what this window holds; only a logout that shows without the keychain
 *    (marked, and gone from the index) removes the account.
 * 2. Unstored tokens of ours whose stored copy still holds the refresh token they replaced: ours are
 *    newer, keep them. Anything else in storage (a logout, a newer login, our write landing) wins.
 * 3. A secret neither listed nor held here is never made into an account (a refresh landing after a
 *    logout, a crash between two writes): it is watched, then removed. globalState may lag behind the
 *    secret, so an account this window holds counts as listed.
 * 4. A missing secret: a logout elsewhere marks the account or drops it from the index, and it goes;
 *    without either, the keychain may have lost it, and the account keeps its tokens while that is checked.
 * 5. A readable secret holding a refresh token this window spent, while ours is not spent: the keychain
 *    went back to older tokens, ours are the live ones and are stored again.
 * 6. Otherwise storage wins.
 */
export function decideReconcile(input: ReconcileInput): Reconcile {
	const { read, mine, listed } = input;
	if (read.status === 'failed') return mine && input.loggedOut && !listed ? { action: 'dropLoggedOut' } : { action: 'keep' };
	// Stryker disable next-line ConditionalExpression: equivalent
	if (input.pendingBase !== undefined && read.status === 'ok' && read.tokens.refreshToken === input.pendingBase) return { action: 'keep' };
	const dropPending = input.pendingBase !== undefined;
	if (!listed && !mine) return { ...FOLLOW, account: 'none', dropPending, watchUnlisted: read.status !== 'missing' };
	if (read.status === 'missing') {
		if (!listed || input.loggedOut || !mine) return { ...FOLLOW, account: 'none', dropPending };
		return { ...FOLLOW, account: 'mine', dropPending, watchMissing: true };
	}
	const mineRefresh = mine?.refreshToken;
	const wentBack = read.status === 'ok' && mineRefresh !== undefined && input.spent(read.tokens.refreshToken) && !input.spent(mineRefresh);
	return { ...FOLLOW, account: wentBack ? 'mine' : 'stored', dropPending, stopMissing: true, restore: wentBack };
}
