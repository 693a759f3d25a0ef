// The session store: accounts in globalState (no secrets), tokens in SecretStorage (one key
// per account), kept in step with other windows. Pure: no `vscode` import; the VS Code
// layer hands in `context.secrets` and `context.globalState`.
import { Emitter } from '../util/emitter';
import { silentLog, type Log } from '../util/log';
import { accountIdFor } from './accountId';
import { systemClock, type Clock, type ISessionStore, type NewAccount } from './contracts';
import type { AccountRecord, Disposable, MementoBackend, SecretBackend, Session, SessionState, StoredTokens } from './types';

export const SECRET_PREFIX = 'telematicsAuth.session.';
export const ACCOUNTS_KEY = 'telematicsAuth.accounts';
export const ACTIVE_KEY = 'telematicsAuth.activeAccount';

export function secretKeyFor(id: string): string {
	return SECRET_PREFIX + id;
}

/**
 * What one secret holds. `account` repeats the (non-secret) index record so another window
 * can show a new account as soon as its secret arrives, before globalState catches up.
 */
export interface SecretPayload extends StoredTokens {
	v: 1;
	needsLogin?: boolean;
	account?: AccountRecord;
}

/** What reading one secret gave: tokens, or nothing (missing), or unreadable. */
type SecretRead =
	| { status: 'ok'; tokens: StoredTokens; needsLogin: boolean; account?: AccountRecord }
	| { status: 'missing' }
	| { status: 'corrupt' }
	| { status: 'failed' };

interface Entry {
	account: AccountRecord;
	tokens?: StoredTokens;
	/** Set when the secret was unreadable or the refresh token was refused. */
	needsLogin: boolean;
}

export interface SessionStoreOptions {
	clock?: Clock;
	log?: Log;
}

export class SessionStore implements ISessionStore {
	private readonly clock: Clock;
	private readonly log: Log;
	private readonly changeEmitter = new Emitter<void>();
	private readonly subscriptions: Disposable[] = [];
	/** Accounts in index order (oldest first). */
	private entries: Entry[] = [];
	private activeId: string | undefined;
	/** Serializes writes, loads and cross-window reconciliation. */
	private tail: Promise<unknown> = Promise.resolve();
	private disposed = false;
	private markReady!: () => void;
	private isLoaded = false;

	readonly onDidChange = this.changeEmitter.event;
	/** Settles (never rejects) once the first `load()` has finished, whatever it found. */
	readonly ready: Promise<void> = new Promise((resolve) => (this.markReady = resolve));

	constructor(
		private readonly secrets: SecretBackend,
		private readonly memento: MementoBackend,
		options: SessionStoreOptions = {},
	) {
		this.clock = options.clock ?? systemClock;
		this.log = options.log ?? silentLog;
		this.subscriptions.push(secrets.onDidChange((e) => this.onSecretChanged(e.key)));
	}

	/** Whether the first `load()` has finished. Until then `list()` is empty. */
	get loaded(): boolean {
		return this.isLoaded;
	}

	load(): Promise<void> {
		const loading = this.serialize(async () => {
			const before = this.snapshot();
			const records = this.readIndex();
			// All secrets at once: each read may be a round trip to where SecretStorage lives.
			const reads = await Promise.all(records.map((account) => this.readSecret(account)));
			this.entries = records.map((account, i) => this.entryFrom(account, reads[i]!));
			this.activeId = this.readActive();
			this.isLoaded = true;
			this.fireIfChanged(before);
		});
		const done = (): void => {
			this.isLoaded = true;
			this.markReady();
		};
		void loading.then(done, done);
		return loading;
	}

	list(): readonly Session[] {
		const now = this.clock.now();
		return this.entries.map((entry) => toSession(entry, now));
	}

	get(id: string): Session | undefined {
		const entry = this.find(id);
		return entry && toSession(entry, this.clock.now());
	}

	active(): Session | undefined {
		return this.activeId === undefined ? undefined : this.get(this.activeId);
	}

	setActive(id: string): Promise<void> {
		return this.serialize(async () => {
			if (!this.find(id)) throw new Error(`Unknown account ${id}.`);
			if (this.activeId === id) return;
			await this.memento.update(ACTIVE_KEY, id);
			this.activeId = id;
			this.changeEmitter.fire();
		});
	}

	saveLogin(newAccount: NewAccount, tokens: StoredTokens): Promise<Session> {
		return this.serialize(async () => {
			const id = accountIdFor(newAccount.kind, newAccount.serviceUrl, newAccount.instanceId, newAccount.login);
			const previous = this.find(id);
			const account: AccountRecord = {
				id,
				kind: newAccount.kind,
				label: newAccount.label,
				instanceId: newAccount.instanceId,
				serviceUrl: newAccount.serviceUrl,
				createdAt: previous?.account.createdAt ?? this.clock.now(),
			};
			const entry: Entry = { account, tokens: { ...tokens }, needsLogin: false };
			const previousSecret = previous ? await this.readRaw(id) : undefined;

			// 1. The secret. A failure here leaves everything as it was.
			await this.secrets.store(secretKeyFor(id), serialize(entry));

			// 2. The index. A failure here puts the secret back as it was (best effort).
			const index = this.entries.map((e) => (e.account.id === id ? account : e.account));
			if (!previous) index.push(account);
			if (!previous || !sameJson(previous.account, account)) {
				try {
					await this.memento.update(ACCOUNTS_KEY, index);
				} catch (error) {
					await this.restoreSecret(id, previousSecret, account.label);
					throw error;
				}
			}
			this.entries = previous ? this.entries.map((e) => (e.account.id === id ? entry : e)) : [...this.entries, entry];

			// 3. The active account. The session is saved even if this fails.
			try {
				if (this.activeId !== id) await this.memento.update(ACTIVE_KEY, id);
				this.activeId = id;
			} finally {
				this.changeEmitter.fire();
			}
			return toSession(entry, this.clock.now());
		});
	}

	updateTokens(id: string, tokens: StoredTokens): Promise<void> {
		return this.serialize(async () => {
			const previous = this.find(id);
			if (!previous) throw new Error(`Unknown account ${id}.`);
			const entry: Entry = { account: previous.account, tokens: { ...tokens }, needsLogin: false };
			await this.secrets.store(secretKeyFor(id), serialize(entry));
			const before = this.snapshot();
			this.replace(entry);
			this.fireIfChanged(before);
		});
	}

	markNeedsLogin(id: string): Promise<void> {
		return this.serialize(async () => {
			const previous = this.find(id);
			if (!previous || previous.needsLogin) return;
			const entry: Entry = { ...previous, needsLogin: true };
			if (entry.tokens) {
				try {
					await this.secrets.store(secretKeyFor(id), serialize(entry));
				} catch {
					this.log.warn(`Could not save that account "${entry.account.label}" needs a new login; this window remembers it until reload.`);
				}
			}
			this.replace(entry);
			this.changeEmitter.fire();
		});
	}

	remove(id: string): Promise<void> {
		return this.serialize(async () => {
			const index = this.entries.findIndex((e) => e.account.id === id);
			if (index < 0) return;
			// The secret goes first: a failure to update the index must not leave tokens behind.
			await this.secrets.delete(secretKeyFor(id));
			const remaining = this.entries.filter((e) => e.account.id !== id);
			await this.memento.update(ACCOUNTS_KEY, remaining.map((e) => e.account));
			this.entries = remaining;
			if (this.activeId === id) {
				const next = remaining[Math.min(index, remaining.length - 1)]?.account.id;
				this.activeId = next;
				try {
					await this.memento.update(ACTIVE_KEY, next);
				} catch {
					this.log.warn('Could not save the newly active account.');
				}
			}
			this.changeEmitter.fire();
		});
	}

	/**
	 * Re-reads one account's secret (and the index) from storage, so a caller sees what
	 * another window may have written. Fires `onDidChange` if anything changed.
	 */
	reloadAccount(id: string): Promise<Session | undefined> {
		return this.serialize(async () => {
			await this.reconcile(id);
			return this.get(id);
		});
	}

	dispose(): void {
		this.disposed = true;
		for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
		this.changeEmitter.dispose();
	}

	// --- cross-window -------------------------------------------------------------------

	private onSecretChanged(key: string): void {
		if (this.disposed || !key.startsWith(SECRET_PREFIX)) return;
		const id = key.slice(SECRET_PREFIX.length);
		this.serialize(() => this.reconcile(id)).catch((error) => {
			this.log.warn(`Could not follow a change from another window: ${errorName(error)}.`);
		});
	}

	/**
	 * Brings this window in step with storage after account `id` changed somewhere: the index
	 * and active account from globalState, `id`'s secret from SecretStorage. Fires only if
	 * something actually changed (the host may send duplicates, and our own writes echo back).
	 */
	private async reconcile(id: string): Promise<void> {
		if (this.disposed) return;
		const before = this.snapshot();
		const read = await this.readSecret(this.find(id)?.account ?? { id, label: id });
		if (read.status === 'failed') return; // keep what we have; the next event tries again
		const known = new Map(this.entries.map((e) => [e.account.id, e]));
		const index = this.readIndex();
		const listed = new Set(index.map((a) => a.id));
		// globalState may lag behind the secret: keep accounts we know of that it does not list yet.
		const records = [...index, ...this.entries.map((e) => e.account).filter((a) => !listed.has(a.id))];
		if (read.status === 'ok' && read.account && !records.some((a) => a.id === id)) records.push(read.account);

		const entries: Entry[] = [];
		for (const account of records) {
			if (account.id === id) {
				// A secret deleted by another window means that window logged the account out.
				if (read.status === 'missing') continue;
				entries.push(this.entryFrom(account, read));
				continue;
			}
			const entry = known.get(account.id);
			entries.push(entry ? { ...entry, account } : this.entryFrom(account, await this.readSecret(account)));
		}
		this.entries = entries;
		const active = this.readActive();
		this.activeId = active;
		this.fireIfChanged(before);
	}

	// --- reading ------------------------------------------------------------------------

	private readIndex(): AccountRecord[] {
		let raw: unknown;
		try {
			raw = this.memento.get<unknown>(ACCOUNTS_KEY);
		} catch {
			this.log.warn('Could not read the account list.');
			return this.entries.map((e) => e.account);
		}
		if (!Array.isArray(raw)) return [];
		const seen = new Set<string>();
		return raw.filter((r): r is AccountRecord => {
			if (!isAccountRecord(r) || seen.has(r.id)) return false;
			seen.add(r.id);
			return true;
		});
	}

	/** The stored active account if it exists, else the first account, else none. */
	private readActive(): string | undefined {
		let stored: unknown;
		try {
			stored = this.memento.get<unknown>(ACTIVE_KEY);
		} catch {
			stored = this.activeId;
		}
		if (typeof stored === 'string' && this.find(stored)) return stored;
		return this.entries[0]?.account.id;
	}

	private async readRaw(id: string): Promise<string | undefined> {
		try {
			return await this.secrets.get(secretKeyFor(id));
		} catch {
			return undefined;
		}
	}

	/** Reads and checks one secret. Logs the account's label on trouble, never the content. */
	private async readSecret(account: Pick<AccountRecord, 'id' | 'label'>): Promise<SecretRead> {
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
		const { v: _v, needsLogin, account: record, ...tokens } = payload;
		return { status: 'ok', tokens, needsLogin: needsLogin === true, account: record };
	}

	private entryFrom(account: AccountRecord, read: SecretRead): Entry {
		if (read.status === 'ok') return { account, tokens: read.tokens, needsLogin: read.needsLogin };
		if (read.status === 'missing') this.log.warn(`No stored tokens for "${account.label}"; it needs a new login.`);
		return { account, needsLogin: true };
	}

	// --- helpers ------------------------------------------------------------------------

	private async restoreSecret(id: string, previousSecret: string | undefined, label: string): Promise<void> {
		try {
			if (previousSecret === undefined) await this.secrets.delete(secretKeyFor(id));
			else await this.secrets.store(secretKeyFor(id), previousSecret);
		} catch {
			this.log.warn(`Could not undo a failed save for "${label}".`);
		}
	}

	private find(id: string): Entry | undefined {
		return this.entries.find((e) => e.account.id === id);
	}

	private replace(entry: Entry): void {
		this.entries = this.entries.map((e) => (e.account.id === entry.account.id ? entry : e));
	}

	/** Everything a listener could see, as one comparable string. Held in memory only. */
	private snapshot(): string {
		return JSON.stringify([this.activeId ?? null, this.entries]);
	}

	private fireIfChanged(before: string): void {
		if (this.snapshot() !== before) this.changeEmitter.fire();
	}

	private serialize<T>(operation: () => Promise<T>): Promise<T> {
		const result = this.tail.then(operation);
		this.tail = result.then(
			() => undefined,
			() => undefined,
		);
		return result;
	}
}

/** Session state, computed at read time: `list()` is always current. */
export function sessionState(tokens: StoredTokens | undefined, needsLogin: boolean, now: number): SessionState {
	if (!tokens || needsLogin) return 'needsLogin';
	if (tokens.expiresAt <= now) return 'expired';
	return 'valid';
}

function toSession(entry: Entry, now: number): Session {
	const session: Session = { account: { ...entry.account }, state: sessionState(entry.tokens, entry.needsLogin, now) };
	if (entry.tokens) session.tokens = { ...entry.tokens };
	return session;
}

function serialize(entry: Entry): string {
	const payload: SecretPayload = { v: 1, ...(entry.tokens as StoredTokens), account: entry.account };
	if (entry.needsLogin) payload.needsLogin = true;
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
	const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;
	const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
	if (p.v !== 1 || !nonEmpty(p.accessToken) || !nonEmpty(p.refreshToken)) return undefined;
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

function isAccountRecord(value: unknown): value is AccountRecord {
	if (typeof value !== 'object' || value === null) return false;
	const r = value as Record<string, unknown>;
	return (
		typeof r.id === 'string' &&
		r.id.length > 0 &&
		(r.kind === 'user' || r.kind === 'admin') &&
		typeof r.label === 'string' &&
		typeof r.instanceId === 'string' &&
		typeof r.serviceUrl === 'string' &&
		typeof r.createdAt === 'number'
	);
}

function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** An error's name only: storage errors can quote what they were given. */
function errorName(error: unknown): string {
	return error instanceof Error ? error.name : 'unknown error';
}
