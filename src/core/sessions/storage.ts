// What the session store keeps where: the index and the active account in globalState (no secrets), one
// secret per account in SecretStorage, whose text is read as warily as a service answer (a keychain entry
// outside the format is unreadable); and `SessionStorage`, which reads them, logging trouble with the
// account's label, never with the content.
import type { Log } from '../util/log';
import { isSafeToken } from '../util/tokenGrammar';
import { withNames } from './accountNames';
import { activeAccount } from './production';
import type { SecretRead } from './reconcile';
import type { AccountRecord, MementoBackend, SecretBackend, StoredTokens, StoreEntry } from './types';

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


export class SessionStorage {
	constructor(
		readonly secrets: SecretBackend,
		readonly memento: MementoBackend,
		private readonly log: Log,
	) {}

	/** The accounts the index lists, checked and named; `unreadable()` when globalState cannot be read. */
	readIndex(unreadable: () => AccountRecord[]): AccountRecord[] {
		let raw: unknown;
		try {
			raw = this.memento.get<unknown>(ACCOUNTS_KEY);
		} catch {
			this.log.warn('Could not read the account list.');
			return unreadable();
		}
		if (!Array.isArray(raw)) return [];
		const seen = new Set<string>();
		return withNames(raw.filter((r): r is AccountRecord => {
			if (!isAccountRecord(r) || seen.has(r.id)) return false;
			seen.add(r.id);
			return true;
		}).map(normalizedRecord));
	}

	/**
	 * The stored active account if it is one of `accounts`, else the first that is not production, else
	 * none (production.ts); `current` stands for the stored one when globalState cannot be read.
	 */
	readActive(current: string | undefined, accounts: readonly AccountRecord[]): string | undefined {
		let stored: unknown;
		try {
			stored = this.memento.get<unknown>(ACTIVE_KEY);
		} catch {
			stored = current;
		}
		return activeAccount(stored, accounts);
	}

	/** One secret as it is stored; undefined when missing or unreadable. */
	async readRaw(id: string): Promise<string | undefined> {
		try {
			return await this.secrets.get(secretKeyFor(id));
		} catch {
			return undefined;
		}
	}

	/** Reads and checks one secret. Logs the account's label on trouble, never the content. */
	async readSecret(account: Pick<AccountRecord, 'id' | 'label'>): Promise<SecretRead> {
		let raw: string | undefined;
		try {
			raw = await this.secrets.get(secretKeyFor(account.id));
		} catch (error) {
			this.log.warn(`Could not read the stored tokens of "${account.label}" (${errorName(error)}); it needs a new login.`);
			return { status: 'failed' };
		}
		if (raw === undefined) return { status: 'missing' };
		const payload = parsePayload(raw);
		if (!payload) {
			this.log.warn(`The stored tokens of "${account.label}" are unreadable; it needs a new login.`);
			return { status: 'corrupt' };
		}
		const { v: _v, needsLogin, account: _account, ...tokens } = payload;
		return { status: 'ok', tokens, needsLogin: needsLogin === true };
	}

	/** What the store holds of `account` after reading its secret: without readable tokens, it needs a login. */
	entryFrom(account: AccountRecord, read: SecretRead): StoreEntry {
		if (read.status === 'ok') return { account, tokens: read.tokens, needsLogin: read.needsLogin };
		if (read.status === 'missing') this.log.warn(`No stored tokens for "${account.label}"; it needs a new login.`);
		return { account, needsLogin: true };
	}
}

/** An error's name only: storage errors can quote what they were given. */
export function errorName(error: unknown): string {
	return error instanceof Error ? error.name : 'unknown error';
}
