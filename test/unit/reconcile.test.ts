// decideReconcile: what a window does when an account's secret changed somewhere, one row per case of
// what this window holds against what storage holds (core/sessions/reconcile.ts).
import * as assert from 'node:assert/strict';
import { decideReconcile, type Reconcile, type ReconcileInput, type SecretRead } from '../../src/core/sessions/reconcile';
import type { StoredTokens } from '../../src/core/sessions/types';

const tokens = (refreshToken: string): StoredTokens => ({ accessToken: `access-${refreshToken}`, refreshToken, expiresAt: 2, expirySource: 'jwt', obtainedAt: 1 });
const ok = (refreshToken: string, needsLogin = false): SecretRead => ({ status: 'ok', tokens: tokens(refreshToken), needsLogin });
const MISSING: SecretRead = { status: 'missing' };
const CORRUPT: SecretRead = { status: 'corrupt' };
const FAILED: SecretRead = { status: 'failed' };

/** Refresh tokens this window has spent, in every row. */
const SPENT = new Set(['spent-1', 'spent-2']);

const KEEP: Reconcile = { action: 'keep' };
const follow = (account: 'stored' | 'mine' | 'none', flags: Partial<Record<'dropPending' | 'watchUnlisted' | 'watchMissing' | 'stopMissing' | 'restore', true>> = {}): Reconcile =>
	({ action: 'follow', account, dropPending: false, watchUnlisted: false, watchMissing: false, stopMissing: false, restore: false, ...flags });

interface Row {
	name: string;
	read: SecretRead;
	/** This window holds the account: with tokens of this refresh token, or `{}` without tokens. */
	mine?: { refreshToken?: string };
	listed: boolean;
	loggedOut?: boolean;
	pendingBase?: string;
	expected: Reconcile;
}

const ROWS: Row[] = [
	// The keychain could not be read.
	{ name: 'unreadable keychain, account held and listed: keep', read: FAILED, mine: { refreshToken: 'r1' }, listed: true, expected: KEEP },
	{ name: 'unreadable keychain, held, listed and marked logged out (index not there yet): keep', read: FAILED, mine: { refreshToken: 'r1' }, listed: true, loggedOut: true, expected: KEEP },
	{ name: 'unreadable keychain, held, unlisted, no mark (index lags behind a login): keep', read: FAILED, mine: { refreshToken: 'r1' }, listed: false, expected: KEEP },
	{ name: 'unreadable keychain, held, unlisted and marked: the logout shows without it', read: FAILED, mine: { refreshToken: 'r1' }, listed: false, loggedOut: true, expected: { action: 'dropLoggedOut' } },
	{ name: 'unreadable keychain, not held, unlisted and marked: nothing to drop', read: FAILED, listed: false, loggedOut: true, expected: KEEP },
	{ name: 'unreadable keychain while our tokens wait to be stored: keep (they stay pending)', read: FAILED, mine: { refreshToken: 'r2' }, listed: true, pendingBase: 'r1', expected: KEEP },

	// Our refreshed tokens are not stored yet.
	{ name: 'pending, storage still holds the token they replaced (our own stale copy): memory wins', read: ok('r1'), mine: { refreshToken: 'r2' }, listed: true, pendingBase: 'r1', expected: KEEP },
	{ name: 'pending, our write landed: follow storage, forget the pending write', read: ok('r2'), mine: { refreshToken: 'r2' }, listed: true, pendingBase: 'r1', expected: follow('stored', { dropPending: true, stopMissing: true }) },
	{ name: 'pending, a newer login elsewhere: storage wins', read: ok('login-2'), mine: { refreshToken: 'r2' }, listed: true, pendingBase: 'r1', expected: follow('stored', { dropPending: true, stopMissing: true }) },
	{ name: 'pending, logged out elsewhere (secret gone, index gone): the account goes', read: MISSING, mine: { refreshToken: 'r2' }, listed: false, loggedOut: true, pendingBase: 'r1', expected: follow('none', { dropPending: true }) },
	{ name: 'pending, secret missing but listed and unmarked: keep ours while the keychain is checked', read: MISSING, mine: { refreshToken: 'r2' }, listed: true, pendingBase: 'r1', expected: follow('mine', { dropPending: true, watchMissing: true }) },
	{ name: 'pending, secret unreadable (corrupt): storage wins, it needs a login', read: CORRUPT, mine: { refreshToken: 'r2' }, listed: true, pendingBase: 'r1', expected: follow('stored', { dropPending: true, stopMissing: true }) },

	// Neither listed nor held here.
	{ name: 'a secret no account points to: never an account; watched, then removed', read: ok('r1'), listed: false, expected: follow('none', { watchUnlisted: true }) },
	{ name: 'an unreadable secret no account points to: watched too', read: CORRUPT, listed: false, expected: follow('none', { watchUnlisted: true }) },
	{ name: 'a secret deleted for an account nobody holds: nothing to do', read: MISSING, listed: false, expected: follow('none') },
	{ name: 'a secret no account points to, with a logout mark: still only watched', read: ok('r1'), listed: false, loggedOut: true, expected: follow('none', { watchUnlisted: true }) },

	// Listed, a new login elsewhere: not held here yet.
	{ name: 'another window\'s new login (listed, not held): follow storage', read: ok('r1'), listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'another window\'s new login whose secret is unreadable: needs a login here', read: CORRUPT, listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'listed, not held, secret missing: not made into an account', read: MISSING, listed: true, expected: follow('none') },

	// Held here, the index not there yet (globalState lags behind the secret).
	{ name: 'held, unlisted (index lags), another refresh: follow storage', read: ok('r2'), mine: { refreshToken: 'r1' }, listed: false, expected: follow('stored', { stopMissing: true }) },
	{ name: 'held, unlisted, secret missing: a logout elsewhere, the account goes', read: MISSING, mine: { refreshToken: 'r1' }, listed: false, expected: follow('none') },

	// Held and listed: the ordinary cases.
	{ name: 'our own write echoes back: follow storage (it is what we hold)', read: ok('r1'), mine: { refreshToken: 'r1' }, listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'another window refreshed: follow storage', read: ok('r2'), mine: { refreshToken: 'r1' }, listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'another window marked it as needing a login: follow storage', read: ok('r1', true), mine: { refreshToken: 'r1' }, listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'another window logged in again after we needed a login (held without tokens): follow storage', read: ok('login-2'), mine: {}, listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'the secret became unreadable: needs a login', read: CORRUPT, mine: { refreshToken: 'r1' }, listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'secret missing, listed, no mark: the keychain may have lost it; ours stay while it is checked', read: MISSING, mine: { refreshToken: 'r1' }, listed: true, expected: follow('mine', { watchMissing: true }) },
	{ name: 'secret missing, listed, marked logged out (index not there yet): the account goes', read: MISSING, mine: { refreshToken: 'r1' }, listed: true, loggedOut: true, expected: follow('none') },
	{ name: 'secret missing, held without tokens, listed: kept while checked', read: MISSING, mine: {}, listed: true, expected: follow('mine', { watchMissing: true }) },

	// The keychain went back to a refresh token this window spent.
	{ name: 'storage went back to a spent refresh token, ours is live: ours stay and are stored again', read: ok('spent-1'), mine: { refreshToken: 'r3' }, listed: true, expected: follow('mine', { stopMissing: true, restore: true }) },
	{ name: 'storage went back to a spent token while the index lags: ours stay and are stored again', read: ok('spent-2'), mine: { refreshToken: 'r3' }, listed: false, expected: follow('mine', { stopMissing: true, restore: true }) },
	{ name: 'storage holds a spent token and so do we: follow storage (nothing newer to restore)', read: ok('spent-2'), mine: { refreshToken: 'spent-1' }, listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'storage holds a spent token, we hold no tokens: follow storage', read: ok('spent-1'), mine: {}, listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'storage holds a spent token of an account we do not hold: follow storage', read: ok('spent-1'), listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'we hold a spent token, storage a live one: follow storage', read: ok('r4'), mine: { refreshToken: 'spent-1' }, listed: true, expected: follow('stored', { stopMissing: true }) },
	{ name: 'storage went back to a spent token, but a logout mark is there: ours still stay (the secret is there)', read: ok('spent-1'), mine: { refreshToken: 'r3' }, listed: true, loggedOut: true, expected: follow('mine', { stopMissing: true, restore: true }) },
];

describe('decideReconcile: this window against storage, after a secret changed', () => {
	for (const row of ROWS) {
		it(row.name, () => {
			const input: ReconcileInput = {
				read: row.read,
				...(row.mine && { mine: row.mine }),
				listed: row.listed,
				loggedOut: row.loggedOut ?? false,
				...(row.pendingBase !== undefined && { pendingBase: row.pendingBase }),
				spent: (refreshToken) => SPENT.has(refreshToken),
			};
			assert.deepEqual(decideReconcile(input), row.expected);
		});
	}

	it('every kind of read, held or not, listed or not, marked or not, pending or not, has exactly one answer, and never keeps a secret nobody holds or lists', () => {
		const reads: SecretRead[] = [ok('r1'), ok('spent-1'), ok('r1', true), MISSING, CORRUPT, FAILED];
		const mines: Array<{ refreshToken?: string } | undefined> = [undefined, {}, { refreshToken: 'r1' }, { refreshToken: 'r2' }, { refreshToken: 'spent-2' }];
		let cases = 0;
		for (const read of reads) for (const mine of mines) for (const listed of [true, false]) for (const loggedOut of [true, false]) for (const pendingBase of [undefined, 'r1', 'r9']) {
			if (pendingBase !== undefined && !mine?.refreshToken) continue; // pending tokens are held tokens
			cases++;
			const decision = decideReconcile({ read, ...(mine && { mine }), listed, loggedOut, ...(pendingBase !== undefined && { pendingBase }), spent: (t) => SPENT.has(t) });
			if (decision.action !== 'follow') continue;
			if (!mine && !listed) assert.equal(decision.account, 'none');
			if (decision.account === 'mine') assert.ok(mine, 'only what this window holds is kept as its own');
			if (decision.restore) assert.equal(decision.account, 'mine');
			if (read.status === 'missing') assert.notEqual(decision.account, 'stored');
			if (decision.dropPending) assert.ok(pendingBase !== undefined);
		}
		assert.ok(cases > 200);
	});
});
