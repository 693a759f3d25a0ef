// The session store: accounts in globalState (no secrets), tokens in SecretStorage (one key per
// account); the VS Code layer hands in `context.secrets` and `globalState`. Its writes are serialized,
// refreshed tokens are stored by compare-and-set (and held and retried when the keychain refuses);
// following other windows is windowFollower.ts, reading storage is storage.ts.
import { Emitter } from '../util/event';
import { silentLog, type Log } from '../util/log';
import { accountIdFor } from './accountId';
import type { AccountRecord, MementoBackend, NewAccount, SecretBackend, Session, SessionState, StoredTokens, StoreEntry, SaveOutcome } from './types';
import { LogoutMarks } from './logoutMarks';
import { PendingWrites, type PendingWrite } from './pendingWrites';
import { SpentRefreshTokens } from './spentRefreshTokens';
import { SPENT_PREFIX } from './lease';
import { checkAccountName, defaultName } from './accountNames';
import { fallbackActive } from './production';
import type { SecretRead } from './reconcile';
import { ACCOUNTS_KEY, ACTIVE_KEY, errorName, secretKeyFor, secretText, SessionStorage } from './storage';
import { WindowFollower } from './windowFollower';
import { systemClock, type Clock } from '../util/clock';
import type { Disposable } from '../util/event';

export { UNLISTED_GRACE_MS } from './windowFollower';
export { LOGGED_OUT_KEY } from './logoutMarks';

type Entry = StoreEntry;

export interface SessionStoreOptions {
	clock?: Clock;
	log?: Log;
}

export class SessionStore implements Disposable {
	private readonly clock: Clock;
	private readonly log: Log;
	private readonly changeEmitter = new Emitter<void>();
	private readonly storage: SessionStorage;
	private readonly secrets: SecretBackend;
	private readonly memento: MementoBackend;
	/** Follows other windows' writes (and this window's echoes). */
	private readonly follower: WindowFollower;
	/** Accounts in index order (oldest first). */
	private entries: Entry[] = [];
	private activeId: string | undefined;
	/** Serializes writes, loads and cross-window reconciliation. */
	private tail: Promise<unknown> = Promise.resolve();
	private disposed = false;
	/** Tokens held in memory because storing them failed: the live ones, written again later. */
	private readonly pending: PendingWrites;
	/** Refresh tokens the service has spent for this window (see spentRefreshTokens.ts). */
	private readonly spent = new SpentRefreshTokens();
	private readonly logouts: LogoutMarks;
	/** The keychain answered nothing for an account still logged in; this window stored its tokens again. Once per account. */
	readonly onDidLoseSecret: WindowFollower['onDidLoseSecret'];
	private markReady!: () => void;
	private isLoaded = false;

	/** Fires after any change, local or from another window, once the new state is read. */
	readonly onDidChange = this.changeEmitter.event;
	/** Settles (never rejects) once the first `load()` has finished, whatever it found. */
	readonly ready: Promise<void> = new Promise((resolve) => (this.markReady = resolve));

	constructor(secrets: SecretBackend, memento: MementoBackend, options: SessionStoreOptions = {}) {
		this.clock = options.clock ?? systemClock;
		this.log = options.log ?? silentLog;
		this.secrets = secrets;
		this.memento = memento;
		this.storage = new SessionStorage(secrets, memento, this.log);
		this.pending = new PendingWrites(this.clock);
		this.logouts = new LogoutMarks(memento, this.clock, this.log);
		// What the follower sees of this store, and all it may change (windowFollower.ts: FollowedStore).
		this.follower = new WindowFollower({
			entries: () => this.entries,
			refreshTokens: (id) => ({ pendingBase: this.pending.get(id)?.base, spent: (refreshToken) => this.spent.has(id, refreshToken) }),
			settle: (entries, dropPending) => {
				if (dropPending !== undefined) this.pending.drop(dropPending);
				const before = this.snapshot();
				this.entries = entries;
				this.activeId = this.readActive();
				this.fireIfChanged(before);
			},
			write: (entry, base) => this.write(entry, base),
			serialize: (operation) => this.serialize(operation),
		}, { secrets, memento, clock: this.clock, log: this.log });
		this.onDidLoseSecret = this.follower.onDidLoseSecret;
	}

	/** Whether the first `load()` has finished. Until then `list()` is empty. */
	get loaded(): boolean {
		return this.isLoaded;
	}

	/** Reads the index and every account's secret. Call once, after activation's cheap work. */
	load(): Promise<void> {
		const loading = this.serialize(async () => {
			const before = this.snapshot();
			const records = this.readIndex();
			// All secrets at once: each read may be a round trip to where SecretStorage lives.
			const reads = await Promise.all(records.map((account) => this.storage.readSecret(account)));
			this.entries = records.map((account, i) => this.storage.entryFrom(account, reads[i]!));
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

	/** All accounts, oldest first. */
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

	/** Stores a login's result (secret first, then index) and makes the account active. Same account again: replaces its tokens. */
	saveLogin(newAccount: NewAccount, tokens: StoredTokens): Promise<Session> {
		return this.serialize(async () => {
			const id = accountIdFor(newAccount.kind, newAccount.serviceUrl, newAccount.instanceId, newAccount.login);
			const previous = this.find(id);
			const account: AccountRecord = {
				id,
				kind: newAccount.kind,
				label: newAccount.label,
				name: previous?.account.name ?? defaultName(newAccount.kind, this.namesBesides()),
				...(previous?.account.production !== undefined && { production: previous.account.production }),
				...(newAccount.instanceId ? { instanceId: newAccount.instanceId } : {}),
				serviceUrl: newAccount.serviceUrl,
				createdAt: previous?.account.createdAt ?? this.clock.now(),
			};
			const entry: Entry = { account, tokens: { ...tokens }, needsLogin: false };
			const previousSecret = previous ? await this.storage.readRaw(id) : undefined;

			// 1. The secret. A failure here leaves everything as it was.
			await this.secrets.store(secretKeyFor(id), secretText(entry));
			await this.logouts.set(id, false);
			this.pending.drop(id); // a new login always wins over refreshed tokens not yet stored

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

	/**
	 * Stores refreshed tokens (access and rotated refresh token in one secret write) only if
	 * the account still holds `sentRefreshToken`: a logout is never undone, a newer login
	 * always wins. A failed write keeps the tokens live in memory and retries (`pending`).
	 */
	updateTokens(id: string, tokens: StoredTokens, sentRefreshToken: string): Promise<SaveOutcome> {
		return this.serialize(async () => {
			const previous = this.find(id);
			if (!previous) return 'gone';
			const check = await this.compare(id, sentRefreshToken);
			if (check !== 'same') return check;
			this.spent.add(id, sentRefreshToken);
			const entry: Entry = { account: previous.account, tokens: { ...tokens }, needsLogin: false };
			const before = this.snapshot();
			this.replace(entry);
			const saved = await this.write(entry, sentRefreshToken);
			this.fireIfChanged(before);
			return saved ? 'saved' : 'pending';
		});
	}

	/** The refresh token `sentRefreshToken` was refused: only a new login helps (same compare-and-set). */
	markNeedsLogin(id: string, sentRefreshToken: string): Promise<SaveOutcome> {
		return this.serialize(async () => {
			const previous = this.find(id);
			if (!previous) return 'gone';
			if (previous.needsLogin) return 'saved';
			const check = await this.compare(id, sentRefreshToken);
			if (check !== 'same') return check;
			const entry: Entry = { ...previous, needsLogin: true };
			this.pending.drop(id);
			this.replace(entry);
			let saved = true;
			if (entry.tokens) {
				try {
					await this.secrets.store(secretKeyFor(id), secretText(entry));
				} catch {
					saved = false;
					this.log.warn(`Could not save that account "${entry.account.label}" needs a new login; this window remembers it until reload.`);
				}
			}
			this.changeEmitter.fire();
			return saved ? 'saved' : 'pending';
		});
	}

	/** Whether refreshed tokens of `id` are held in memory only, waiting to be stored. */
	hasUnsavedTokens(id: string): boolean {
		return this.pending.has(id);
	}

	/** The names the accounts other than `id` have (all of them without `id`): a name is checked against these. */
	namesBesides(id?: string): string[] {
		return this.entries.flatMap((e) => (e.account.id !== id && e.account.name ? [e.account.name] : []));
	}

	/** Gives the account `name` (checked: accountNames.ts); the message says why not. */
	rename(id: string, name: string): Promise<{ ok: true } | { ok: false; message: string }> {
		return this.serialize(async () => {
			const entry = this.find(id);
			if (!entry) return { ok: false as const, message: 'The account is no longer logged in.' };
			const checked = checkAccountName(name, this.namesBesides(id));
			if (!checked.ok) return checked;
			if (entry.account.name === checked.value) return { ok: true as const };
			const account = { ...entry.account, name: checked.value };
			await this.memento.update(ACCOUNTS_KEY, this.entries.map((e) => (e.account.id === id ? account : e.account)));
			this.entries = this.entries.map((e) => (e.account.id === id ? { ...e, account } : e));
			this.changeEmitter.fire();
			return { ok: true as const };
		});
	}

	/**
	 * Says whether the account is production (production.ts). Other windows read it from the index the next
	 * time they follow a change, and the agent's request reads it again before it sends.
	 */
	setProduction(id: string, production: boolean): Promise<boolean> {
		return this.serialize(async () => {
			const entry = this.find(id);
			if (!entry) return false;
			if (entry.account.production === production) return true;
			const account = { ...entry.account, production };
			await this.memento.update(ACCOUNTS_KEY, this.entries.map((e) => (e.account.id === id ? account : e.account)));
			this.entries = this.entries.map((e) => (e.account.id === id ? { ...e, account } : e));
			this.changeEmitter.fire();
			return true;
		});
	}

	/** Log out: deletes the secret and the index entry. */
	remove(id: string): Promise<void> {
		return this.serialize(async () => {
			const index = this.entries.findIndex((e) => e.account.id === id);
			if (index < 0) return;
			// Other windows tell this logout from a keychain that lost the secret by this mark.
			await this.logouts.set(id);
			// The secret goes first: a failure to update the index must not leave tokens behind.
			try {
				await this.secrets.delete(secretKeyFor(id));
			} catch (error) {
				await this.logouts.set(id, false);
				throw error;
			}
			this.pending.drop(id);
			// The mark of the last spent refresh token (lease.ts) has nothing left to guard.
			await this.secrets.delete(SPENT_PREFIX + id).then(undefined, () => undefined);
			const remaining = this.entries.filter((e) => e.account.id !== id);
			await this.memento.update(ACCOUNTS_KEY, remaining.map((e) => e.account));
			this.entries = remaining;
			if (this.activeId === id) {
				// The next account that is not production: switching into production is the person's act.
				const next = fallbackActive(remaining.map((e) => e.account), index);
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
			await this.follower.reconcile(id);
			return this.get(id);
		});
	}

	dispose(): void {
		this.disposed = true;
		this.pending.dispose();
		this.follower.dispose();
		this.changeEmitter.dispose();
	}


	// --- compare-and-set ----------------------------------------------------------------

	/**
	 * Whether `id` still holds `sentRefreshToken` (memory while a write is pending, else
	 * storage). `gone`: another window logged it out (this window follows). `stale`: a newer
	 * login or another window's refresh replaced it (this window follows that).
	 */
	private async compare(id: string, sentRefreshToken: string): Promise<'same' | 'stale' | 'gone'> {
		const pending = this.pending.get(id);
		let current: string | undefined = pending?.entry.tokens?.refreshToken;
		let read: SecretRead | undefined;
		if (!pending) {
			read = await this.storage.readSecret(this.find(id)!.account);
			if (read.status === 'missing') {
				await this.follower.reconcile(id, read);
				if (!this.find(id)) {
					this.log.info('The account was logged out while a refresh was under way; the refreshed tokens are dropped.');
					return 'gone';
				}
			}
			// Unreadable storage: the tokens this window holds are the best knowledge there is.
			current = read.status === 'ok' ? read.tokens.refreshToken : this.find(id)?.tokens?.refreshToken;
		}
		if (current === sentRefreshToken) return 'same';
		// Storage holds a refresh token this window already spent: it is older than what we sent.
		if (current !== undefined && this.spent.has(id, current) && this.find(id)?.tokens?.refreshToken === sentRefreshToken) return 'same';
		this.log.info('The stored tokens changed while a refresh was under way (a new login or another window); the newer ones are kept.');
		await this.follower.reconcile(id, read);
		return 'stale';
	}

	/** Stores `entry`; on failure keeps it as pending and tries again later. True when stored. */
	private async write(entry: Entry, base: string): Promise<boolean> {
		const id = entry.account.id;
		try {
			await this.secrets.store(secretKeyFor(id), secretText(entry));
			this.pending.drop(id);
			return true;
		} catch (error) {
			const delay = this.pending.hold(entry, base, (record) => this.retryPending(record));
			this.log.warn(`Could not store the refreshed tokens of "${entry.account.label}" (${errorName(error)}); this window keeps them and tries again in ${Math.round(delay / 1000)} s.`);
			return false;
		}
	}

	private retryPending(record: PendingWrite): void {
		if (this.disposed || !this.pending.isCurrent(record)) return;
		const id = record.entry.account.id;
		this.serialize(async () => {
			if (this.disposed || !this.pending.isCurrent(record)) return;
			const read = await this.storage.readSecret(record.entry.account);
			// Storage moved on (a logout, a newer login): that wins over what we hold.
			const ours = read.status === 'ok' && (read.tokens.refreshToken === record.base || read.tokens.refreshToken === record.entry.tokens?.refreshToken);
			if (read.status !== 'failed' && !ours) return this.follower.reconcile(id, read);
			if (await this.write(record.entry, record.base)) this.log.info(`Stored the refreshed tokens of "${record.entry.account.label}".`);
		}).catch(() => undefined);
	}

	// --- reading ------------------------------------------------------------------------

	private readIndex(): AccountRecord[] {
		return this.storage.readIndex(() => this.entries.map((e) => e.account));
	}

	/** The stored active account if it exists, else the first that is not production, else none (production.ts). */
	private readActive(): string | undefined {
		return this.storage.readActive(this.activeId, this.entries.map((e) => e.account));
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

function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}
