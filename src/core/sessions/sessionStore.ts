// The session store: accounts in globalState (no secrets), tokens in SecretStorage (one key per
// account), kept in step with other windows; the VS Code layer hands in `context.secrets` and `globalState`.
import { Emitter } from '../util/event';
import { silentLog, type Log } from '../util/log';
import { accountIdFor } from './accountId';
import { ACCOUNTS_KEY, ACTIVE_KEY, isAccountRecord, normalizedRecord, parsePayload, SECRET_PREFIX, secretKeyFor, secretText } from './storedSecret';
import type { NewAccount, TokenWrite } from './contracts';
import type { AccountRecord, MementoBackend, SecretBackend, Session, SessionState, StoredTokens, StoreEntry } from './types';
import { LogoutMarks } from './logoutMarks';
import { PendingWrites, type PendingWrite } from './pendingWrites';
import { RecheckTimers } from './recheckTimers';
import { SpentRefreshTokens } from './spentRefreshTokens';
import { SPENT_PREFIX } from './lease';
import { checkAccountName, defaultName, withNames } from './accountNames';
import { activeAccount, fallbackActive } from './production';
import { systemClock, type Clock } from '../util/clock';
import type { Disposable } from '../util/event';

/** When an unlisted secret is looked at again; after the last, one still unlisted is removed. */
const UNLISTED_CHECKS_MS = [1_000, 5_000, 20_000, 60_000];
/**
 * A listed account whose secret reads as missing waits this long (1, 5, 20 s) for the logout
 * mark or index change of another window, which reach it later than the secret's change does;
 * neither by then: the keychain lost it, and the tokens this window holds are stored again.
 */
const MISSING_CHECKS_MS = [1_000, 5_000, 20_000];
/** How long an unlisted secret may wait for its index entry (another window's login) before it is removed. */
export const UNLISTED_GRACE_MS = UNLISTED_CHECKS_MS[UNLISTED_CHECKS_MS.length - 1]!;
export { LOGGED_OUT_KEY } from './logoutMarks';

/** What reading one secret gave: tokens, or nothing (missing), or unreadable. */
type SecretRead =
	| { status: 'ok'; tokens: StoredTokens; needsLogin: boolean }
	| { status: 'missing' }
	| { status: 'corrupt' }
	| { status: 'failed' };

type Entry = StoreEntry;

export interface SessionStoreOptions {
	clock?: Clock;
	log?: Log;
}

export class SessionStore implements Disposable {
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
	/** Tokens held in memory because storing them failed: the live ones, written again later. */
	private readonly pending: PendingWrites;
	/** Secrets seen for ids the index does not list: checked again, then removed. */
	private readonly unlisted: RecheckTimers;
	/** Listed accounts whose secret read as missing: checked again, then stored again (see MISSING_CHECKS_MS). */
	private readonly missing: RecheckTimers;
	/** Refresh tokens the service has spent for this window (see spentRefreshTokens.ts). */
	private readonly spent = new SpentRefreshTokens();
	private readonly logouts: LogoutMarks;
	/** Accounts whose lost secret this window has reported (once each). */
	private readonly reportedMissing = new Set<string>();
	private readonly missingEmitter = new Emitter<{ accountId: string; label: string }>();
	/** The keychain answered nothing for an account still logged in; this window stored its tokens again. Once per account. */
	readonly onDidLoseSecret = this.missingEmitter.event;
	private markReady!: () => void;
	private isLoaded = false;

	/** Fires after any change, local or from another window, once the new state is read. */
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
		this.pending = new PendingWrites(this.clock);
		this.unlisted = new RecheckTimers(this.clock, UNLISTED_CHECKS_MS);
		this.missing = new RecheckTimers(this.clock, MISSING_CHECKS_MS);
		this.logouts = new LogoutMarks(memento, this.clock, this.log);
		this.subscriptions.push(secrets.onDidChange((e) => this.onSecretChanged(e.key)));
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
			const previousSecret = previous ? await this.readRaw(id) : undefined;

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
	updateTokens(id: string, tokens: StoredTokens, sentRefreshToken: string): Promise<TokenWrite> {
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
	markNeedsLogin(id: string, sentRefreshToken: string): Promise<TokenWrite> {
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
			await this.reconcile(id);
			return this.get(id);
		});
	}

	dispose(): void {
		this.disposed = true;
		this.pending.dispose();
		this.unlisted.dispose();
		this.missing.dispose();
		this.missingEmitter.dispose();
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
		if (read.status === 'failed') {
			// Keep what we have; the next event tries again. A logout elsewhere still shows without the keychain.
			if (this.find(id) && this.logouts.markedAt(id) !== undefined && !this.readIndex().some((a) => a.id === id)) await this.dropLoggedOut(id);
			return;
		}
		const pending = this.pending.get(id);
		if (pending) {
			// Our refreshed tokens are not stored yet. The secret still holding the refresh token
			// they replaced is our own stale copy: memory wins. Anything else (a logout, a newer
			// login, our write landing) is newer than what we hold.
			if (read.status === 'ok' && read.tokens.refreshToken === pending.base) return;
			this.pending.drop(id);
		}
		const known = new Map(this.entries.map((e) => [e.account.id, e]));
		const index = this.readIndex();
		const listed = new Set(index.map((a) => a.id));
		// globalState may lag behind the secret: keep accounts we know of that it does not list yet.
		const records = [...index, ...this.entries.map((e) => e.account).filter((a) => !listed.has(a.id))];
		// A secret no account points to is never made into an account (a refresh that landed
		// after a logout, a crash between two writes): checked again, then removed.
		if (read.status !== 'missing' && !records.some((a) => a.id === id)) this.watchUnlisted(id);

		const entries: Entry[] = [];
		let restore: { entry: Entry; base: string } | undefined;
		for (const account of records) {
			if (account.id === id) {
				if (read.status === 'missing') {
					// A logout elsewhere marks it or drops it from the index; without either, the
					// keychain may have lost it: the account and its tokens stay while that is checked.
					const entry = known.get(id);
					if (!listed.has(id) || this.logouts.markedAt(id) !== undefined || !entry) continue;
					entries.push({ ...entry, account });
					this.watchMissing(id);
					continue;
				}
				this.missing.stop(id);
				const mine = known.get(id);
				if (read.status === 'ok' && mine?.tokens && this.spent.has(id, read.tokens.refreshToken) && !this.spent.has(id, mine.tokens.refreshToken)) {
					// The keychain went back to a refresh token this window already spent: ours are the live ones.
					entries.push({ ...mine, account });
					restore = { entry: { ...mine, account }, base: read.tokens.refreshToken };
					continue;
				}
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
		if (restore) {
			this.log.warn(`The stored tokens of "${restore.entry.account.label}" went back to a refresh token this window already spent; its newer tokens are stored again.`);
			await this.write(restore.entry, restore.base);
		}
	}

	/**
	 * Looks at an unlisted secret again, after 1, 5, 20 and 60 s (globalState reaches other
	 * windows later than the secret does): listed by then, it is followed as usual; still
	 * unlisted after `UNLISTED_GRACE_MS`, it is deleted.
	 */
	private watchUnlisted(id: string, step = 0): void {
		this.recheck(this.unlisted, id, step, async () => {
			if (this.find(id) || this.readIndex().some((a) => a.id === id)) return this.reconcile(id);
			if ((await this.readRaw(id)) === undefined) return;
			if (this.unlisted.hasNext(step)) return this.watchUnlisted(id, step + 1);
			await this.secrets.delete(secretKeyFor(id));
			this.log.warn('Removed stored tokens that no account points to (left behind by a logout or an interrupted save).');
		}, 'Could not remove stored tokens that no account points to');
	}

	/** Runs `check` at look `step` of `timers`' schedule for `id`, after the store's other work. */
	private recheck(timers: RecheckTimers, id: string, step: number, check: () => Promise<void>, failure: string): void {
		timers.plan(id, step, () => {
			if (this.disposed) return;
			this.serialize(check).catch((error) => this.log.warn(`${failure}: ${errorName(error)}.`));
		});
	}

	/** Looks again at a listed account whose secret read as missing (MISSING_CHECKS_MS). */
	private watchMissing(id: string, step = 0): void {
		this.recheck(this.missing, id, step, async () => {
			const entry = this.find(id);
			if (!entry) return;
			const read = await this.readSecret(entry.account);
			if (!this.readIndex().some((a) => a.id === id) || this.logouts.markedAt(id) !== undefined) return this.dropLoggedOut(id);
			if (read.status === 'ok' || read.status === 'corrupt') return this.reconcile(id);
			// Missing, or the keychain could not be read: look again later; a read that keeps failing is not written over.
			if (this.missing.hasNext(step)) return this.watchMissing(id, step + 1);
			if (read.status === 'failed') return;
			if (!entry.tokens) return;
			// The keychain lost the secret of an account still logged in: ours are the live tokens.
			const stored = await this.write(entry, entry.tokens.refreshToken);
			this.log.warn(`The system keychain returned no tokens for "${entry.account.label}", which is still logged in; this window ${stored ? 'stored its tokens again' : 'keeps its tokens and tries again'}.`);
			if (!this.reportedMissing.has(id)) {
				this.reportedMissing.add(id);
				this.missingEmitter.fire({ accountId: id, label: entry.account.label });
			}
		}, 'Could not check a missing secret again');
	}

	/** Another window logged `id` out: it goes here too, and a secret this window wrote meanwhile goes as well. */
	private async dropLoggedOut(id: string): Promise<void> {
		const before = this.snapshot();
		this.missing.stop(id);
		this.pending.drop(id);
		this.entries = this.entries.filter((e) => e.account.id !== id);
		if ((await this.readRaw(id)) !== undefined) await this.secrets.delete(secretKeyFor(id)).then(undefined, () => undefined);
		this.activeId = this.readActive();
		this.fireIfChanged(before);
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
		if (!pending) {
			const read = await this.readSecret(this.find(id)!.account);
			if (read.status === 'missing') {
				await this.reconcile(id);
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
		await this.reconcile(id);
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
			const read = await this.readSecret(record.entry.account);
			// Storage moved on (a logout, a newer login): that wins over what we hold.
			const ours = read.status === 'ok' && (read.tokens.refreshToken === record.base || read.tokens.refreshToken === record.entry.tokens?.refreshToken);
			if (read.status !== 'failed' && !ours) return this.reconcile(id);
			if (await this.write(record.entry, record.base)) this.log.info(`Stored the refreshed tokens of "${record.entry.account.label}".`);
		}).catch(() => undefined);
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
		return withNames(raw.filter((r): r is AccountRecord => {
			if (!isAccountRecord(r) || seen.has(r.id)) return false;
			seen.add(r.id);
			return true;
		}).map(normalizedRecord));
	}

	/** The stored active account if it exists, else the first that is not production, else none (production.ts). */
	private readActive(): string | undefined {
		let stored: unknown;
		try {
			stored = this.memento.get<unknown>(ACTIVE_KEY);
		} catch {
			stored = this.activeId;
		}
		return activeAccount(stored, this.entries.map((e) => e.account));
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
		const { v: _v, needsLogin, account: _account, ...tokens } = payload;
		return { status: 'ok', tokens, needsLogin: needsLogin === true };
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

function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** An error's name only: storage errors can quote what they were given. */
function errorName(error: unknown): string {
	return error instanceof Error ? error.name : 'unknown error';
}
