// Whose token a request should carry when several accounts are logged in: the account whose service every
// host the request reaches belongs to (or is one of its platform hosts), when exactly one's does (Insert by account). Pure: no `vscode`.
import { isSameSite } from './requestHost';

/**
 * The accounts whose service is the site of every host in `hosts` (one request's destinations). None
 * when a host is not said (`undefined`) or there is none: then the person chooses.
 */
export async function accountsServing<T extends { serviceUrl: string; platformOrigins?: readonly string[] }>(hosts: readonly (string | undefined)[], accounts: readonly T[]): Promise<T[]> {
	if (hosts.length === 0 || hosts.includes(undefined)) return [];
	const serving: T[] = [];
	for (const account of accounts) {
		let all = true;
		for (const host of hosts) all = all && await isSameSite(host!, account.serviceUrl, account.platformOrigins);
		if (all) serving.push(account);
	}
	return serving;
}
