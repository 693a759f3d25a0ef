// The stable id of an account: the same person logging in again to the same service and instance
// gets the same id, so their tokens are replaced, not duplicated. The login is hashed, never kept.
import { createHash } from 'node:crypto';
import type { AccountKind } from '../api/types';
import { withoutTrailingSlashes } from '../util/url';

/** Service URLs compare without case in the scheme/host and without trailing slashes. */
export function normalizeServiceUrl(serviceUrl: string): string {
	const trimmed = withoutTrailingSlashes(serviceUrl.trim());
	try {
		const url = new URL(trimmed);
		const path = withoutTrailingSlashes(url.pathname);
		return `${url.protocol}//${url.host}${path}`.toLowerCase();
	} catch {
		return trimmed.toLowerCase();
	}
}

/**
 * The normalized tuple behind an id. Instance IDs are GUIDs (case-insensitive); an admin
 * login is an email (case-insensitive); a device token is kept as typed, only trimmed.
 */
export function accountKey(kind: AccountKind, serviceUrl: string, instanceId: string | undefined, login: string): string {
	const normalizedLogin = kind === 'admin' ? login.trim().toLowerCase() : login.trim();
	return JSON.stringify([kind, normalizeServiceUrl(serviceUrl), (instanceId ?? '').trim().toLowerCase(), normalizedLogin]);
}

/** sha256 of the normalized tuple, hex, first 16 characters. */
export function accountIdFor(kind: AccountKind, serviceUrl: string, instanceId: string | undefined, login: string): string {
	return createHash('sha256').update(accountKey(kind, serviceUrl, instanceId, login)).digest('hex').slice(0, 16);
}
