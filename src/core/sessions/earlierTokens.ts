// The access tokens each account held, its current one and those before its refreshes: each still works
// until it expires (the service revokes nothing, not even at logout), so a request that carries one
// written in a file (Insert, pasted) is a live token on its way (issue 64), and REST Client's history may
// hold one (issue 65). Kept in the extension host's memory only, each dropped at its expiry. Pure.
import type { Session } from './types';

/** At most this many tokens an account: a refresh every few minutes for a day stays well under. */
const MAX_PER_ACCOUNT = 64;

interface Remembered {
	/** The account's short name when its last token was noted (it may be logged out since). */
	name: string;
	/** Token → expiry (epoch ms), oldest first. */
	tokens: Map<string, number>;
}

export class EarlierTokens {
	private readonly byAccount = new Map<string, Remembered>();

	/** `accessToken` is the account's, valid until `expiresAt` (epoch ms). */
	note(accountId: string, accessToken: string, expiresAt: number, name = ''): void {
		let remembered = this.byAccount.get(accountId);
		if (!remembered) this.byAccount.set(accountId, remembered = { name, tokens: new Map() });
		if (name) remembered.name = name;
		remembered.tokens.delete(accessToken);
		remembered.tokens.set(accessToken, expiresAt);
		for (const oldest of remembered.tokens.keys()) {
			if (remembered.tokens.size <= MAX_PER_ACCOUNT) break;
			remembered.tokens.delete(oldest);
		}
	}

	/** Notes each session's current access token (the accounts no longer among them are kept until their tokens expire). */
	noteSessions(sessions: readonly Session[]): void {
		for (const s of sessions) if (s.tokens) this.note(s.account.id, s.tokens.accessToken, s.tokens.expiresAt, s.account.name ?? '');
	}

	/** The account's tokens noted and not expired at `now`, oldest first. */
	of(accountId: string, now: number): string[] {
		const remembered = this.byAccount.get(accountId);
		if (!remembered) return [];
		for (const [token, expiresAt] of remembered.tokens) if (expiresAt <= now) remembered.tokens.delete(token);
		if (remembered.tokens.size === 0) this.byAccount.delete(accountId);
		return [...remembered.tokens.keys()];
	}

	/** Every account with a token not expired at `now`, logged out ones included. */
	accounts(now: number): Array<{ id: string; name: string; tokens: string[] }> {
		return [...this.byAccount.entries()].map(([id, r]) => ({ id, name: r.name, tokens: this.of(id, now) })).filter((a) => a.tokens.length > 0);
	}
}
