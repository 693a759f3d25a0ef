// Refresh tokens this window sent and got new ones for, per account: the service has spent them. A
// secret that holds one again is older than what this window holds (the keychain lost the newer
// secret, or another window wrote what it had): this window's tokens win. Memory only.

/** How many spent refresh tokens are kept per account. */
const KEEP = 50;

export class SpentRefreshTokens {
	private readonly spent = new Map<string, string[]>();

	has(accountId: string, refreshToken: string): boolean {
		return this.spent.get(accountId)?.includes(refreshToken) === true;
	}

	add(accountId: string, refreshToken: string): void {
		const list = this.spent.get(accountId) ?? [];
		if (!list.includes(refreshToken)) list.push(refreshToken);
		if (list.length > KEEP) list.splice(0, list.length - KEEP);
		this.spent.set(accountId, list);
	}
}
