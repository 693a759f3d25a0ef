// Reading what the session store keeps: the index and the active account from globalState (no
// secrets), one account's secret from SecretStorage. Trouble is logged with the account's label,
// never with the content.
import type { Log } from '../util/log';
import { withNames } from './accountNames';
import { activeAccount } from './production';
import type { SecretRead } from './reconcile';
import { ACCOUNTS_KEY, ACTIVE_KEY, isAccountRecord, normalizedRecord, parsePayload, secretKeyFor } from './storedSecret';
import type { AccountRecord, MementoBackend, SecretBackend, StoreEntry } from './types';

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
