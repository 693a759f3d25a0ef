// The access tokens an account held before its last refresh: still valid until they expire, so a request
// that carries one written in a file (Insert, pasted) is a live token on its way (issue 64). Kept in the
// extension host's memory only, dropped at their expiry. Pure.

/** At most this many earlier tokens an account: a refresh every few minutes for a day stays well under. */
const MAX_PER_ACCOUNT = 64;

export class EarlierTokens {
	private readonly byAccount = new Map<string, Map<string, number>>();

	/** `accessToken` is the account's, valid until `expiresAt` (epoch ms). */
	note(accountId: string, accessToken: string, expiresAt: number): void {
		let tokens = this.byAccount.get(accountId);
		if (!tokens) this.byAccount.set(accountId, tokens = new Map());
		tokens.delete(accessToken);
		tokens.set(accessToken, expiresAt);
		for (const oldest of tokens.keys()) {
			if (tokens.size <= MAX_PER_ACCOUNT) break;
			tokens.delete(oldest);
		}
	}

	/** The account's tokens noted and not expired at `now`, oldest first. */
	of(accountId: string, now: number): string[] {
		const tokens = this.byAccount.get(accountId);
		if (!tokens) return [];
		for (const [token, expiresAt] of tokens) if (expiresAt <= now) tokens.delete(token);
		return [...tokens.keys()];
	}

	/** Forgets the accounts not in `ids` (logged out, removed). */
	keepOnly(ids: ReadonlySet<string>): void {
		for (const id of this.byAccount.keys()) if (!ids.has(id)) this.byAccount.delete(id);
	}
}
