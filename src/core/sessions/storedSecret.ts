// What the store keeps where: the keys in SecretStorage and globalState, and the text of one account's
// secret, read as warily as a service answer (a keychain entry outside the format is unreadable).
import { isSafeToken } from '../util/tokenGrammar';
import type { AccountRecord, StoredTokens } from './types';

export const SECRET_PREFIX = 'telematicsAuth.session.';
export const ACCOUNTS_KEY = 'telematicsAuth.accounts';
export const ACTIVE_KEY = 'telematicsAuth.activeAccount';

export function secretKeyFor(id: string): string {
	return SECRET_PREFIX + id;
}

/**
 * What one secret holds. `account` repeats the (non-secret) index record for windows of
 * earlier versions; this version shows an account only when the index lists it.
 */
export interface SecretPayload extends StoredTokens {
	v: 1;
	needsLogin?: boolean;
	account?: AccountRecord;
}

/** The text of one account's secret: its tokens, whether it needs a login, and its index record. */
export function secretText({ account, tokens, needsLogin }: { account: AccountRecord; tokens?: StoredTokens; needsLogin: boolean }): string {
	const payload: SecretPayload = { v: 1, ...(tokens as StoredTokens), account };
	if (needsLogin) payload.needsLogin = true;
	return JSON.stringify(payload);
}

const EXPIRY_SOURCES: ReadonlySet<string> = new Set(['jwt', 'expiresIn', 'default']);

/** The payload if `raw` is a complete version-1 secret, else undefined. */
export function parsePayload(raw: string): SecretPayload | undefined {
	let value: unknown;
	try {
		value = JSON.parse(raw);
	} catch {
		return undefined;
	}
	if (typeof value !== 'object' || value === null) return undefined;
	const p = value as Record<string, unknown>;
	const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
	// The keychain is no more trusted than the service: tokens outside the grammar make the secret unreadable.
	if (p.v !== 1 || !isSafeToken(p.accessToken) || !isSafeToken(p.refreshToken)) return undefined;
	if (!finite(p.expiresAt) || !finite(p.obtainedAt) || !EXPIRY_SOURCES.has(p.expirySource as string)) return undefined;
	if (p.deviceToken !== undefined && typeof p.deviceToken !== 'string') return undefined;
	if (p.lastRefreshAt !== undefined && !finite(p.lastRefreshAt)) return undefined;
	const payload: SecretPayload = {
		v: 1,
		accessToken: p.accessToken as string,
		refreshToken: p.refreshToken as string,
		expiresAt: p.expiresAt as number,
		expirySource: p.expirySource as StoredTokens['expirySource'],
		obtainedAt: p.obtainedAt as number,
	};
	if (p.deviceToken !== undefined) payload.deviceToken = p.deviceToken as string;
	if (p.lastRefreshAt !== undefined) payload.lastRefreshAt = p.lastRefreshAt as number;
	if (p.needsLogin === true) payload.needsLogin = true;
	if (isAccountRecord(p.account)) payload.account = p.account;
	return payload;
}

/** A record as the store keeps it: a `production` flag that is not a boolean is dropped (the host decides). */
export function normalizedRecord(record: AccountRecord): AccountRecord {
	if (record.production === undefined || typeof record.production === 'boolean') return record;
	const { production: _dropped, ...rest } = record;
	return rest;
}

export function isAccountRecord(value: unknown): value is AccountRecord {
	if (typeof value !== 'object' || value === null) return false;
	const r = value as Record<string, unknown>;
	return (
		typeof r.id === 'string' &&
		r.id.length > 0 &&
		(r.kind === 'user' || r.kind === 'admin') &&
		typeof r.label === 'string' &&
		(r.instanceId === undefined || typeof r.instanceId === 'string') &&
		typeof r.serviceUrl === 'string' &&
		typeof r.createdAt === 'number' &&
		(r.name === undefined || typeof r.name === 'string')
	);
}
