// Following other windows: when the keychain says an account's secret changed (another window logged in,
// refreshed or logged out, or this window's own write echoes back), this window reads it, decides with
// reconcile.ts, and carries the decision out; it watches a secret no account points to (then removes
// it), and a listed account whose secret went missing (then stores its tokens again). Everything runs
// in the session store's queue, after its other work. The follower reads storage itself (its own readers of
// the keychain, the index and the logout marks) and owns its timers; it meets the store only through
// FollowedStore: what this window holds, and the store's queue and writes.
import { Emitter, type Disposable } from '../util/event';
import type { Log } from '../util/log';
import type { Clock } from '../util/clock';
import { LogoutMarks } from './logoutMarks';
import { decideReconcile, type SecretRead } from './reconcile';
import { RecheckTimers } from './recheckTimers';
import { errorName, SECRET_PREFIX, secretKeyFor, SessionStorage } from './storage';
import type { AccountRecord, MementoBackend, SecretBackend, StoreEntry } from './types';

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

/**
 * Where the session store and the follower meet: what this window holds, and the only ways the follower
 * changes it. The store hands this (and nothing else of its own) to the follower.
 */
export interface FollowedStore {
	/** What this window holds, in index order. */
	entries(): readonly StoreEntry[];
	/** What this window knows of `id`'s refresh tokens: the one its tokens held unsaved replaced, and whether it spent `refreshToken`. */
	refreshTokens(id: string): { pendingBase?: string; spent(refreshToken: string): boolean };
	/**
	 * Takes `entries` as what this window holds (`dropPending`: an account whose tokens held unsaved are
	 * dropped first), reads the active account again, and fires onDidChange if a listener would see a difference.
	 */
	settle(entries: StoreEntry[], dropPending?: string): void;
	/** Stores `entry` (whose tokens replaced refresh token `base`); on failure holds it and tries again. True when stored. */
	write(entry: StoreEntry, base: string): Promise<boolean>;
	/** Runs `operation` after the store's other work. */
	serialize<T>(operation: () => Promise<T>): Promise<T>;
}

/** What the follower reads and listens to: the keychain and globalState every window shares, this window's clock and log. */
export interface FollowerBackends {
	secrets: SecretBackend;
	memento: MementoBackend;
	clock: Clock;
	log: Log;
}

export class WindowFollower implements Disposable {
	/** Secrets seen for ids the index does not list: checked again, then removed. */
	private readonly unlisted: RecheckTimers;
	/** Listed accounts whose secret read as missing: checked again, then stored again (see MISSING_CHECKS_MS). */
	private readonly missing: RecheckTimers;
	/** Accounts whose lost secret this window has reported (once each). */
	private readonly reportedMissing = new Set<string>();
	private readonly missingEmitter = new Emitter<{ accountId: string; label: string }>();
	private readonly subscription: Disposable;
	private readonly storage: SessionStorage;
	private readonly logouts: LogoutMarks;
	private readonly log: Log;
	private disposed = false;
	/** The keychain answered nothing for an account still logged in; this window stored its tokens again. Once per account. */
	readonly onDidLoseSecret = this.missingEmitter.event;

	constructor(private readonly store: FollowedStore, { secrets, memento, clock, log }: FollowerBackends) {
		this.log = log;
		this.storage = new SessionStorage(secrets, memento, log);
		this.logouts = new LogoutMarks(memento, clock, log);
		this.unlisted = new RecheckTimers(clock, UNLISTED_CHECKS_MS);
		this.missing = new RecheckTimers(clock, MISSING_CHECKS_MS);
		this.subscription = secrets.onDidChange((e) => this.onSecretChanged(e.key));
	}

	/**
	 * Brings this window in step with storage after account `id` changed somewhere: the index and the
	 * active account from globalState, `id`'s secret from SecretStorage (`read`, when the caller has just
	 * read it in the same turn of the queue). Fires only if something changed (the host may send
	 * duplicates, and this window's own writes echo back). Call inside the store's queue.
	 */
	async reconcile(id: string, read?: SecretRead): Promise<void> {
		if (this.disposed) return;
		const { store, storage } = this;
		const mine = this.find(id);
		read ??= await storage.readSecret(mine?.account ?? { id, label: id });
		const index = this.readIndex();
		const listed = new Set(index.map((a) => a.id));
		const { pendingBase, spent } = store.refreshTokens(id);
		const decision = decideReconcile({
			read,
			...(mine && { mine: { ...(mine.tokens && { refreshToken: mine.tokens.refreshToken }) } }),
			listed: listed.has(id),
			loggedOut: this.logouts.markedAt(id) !== undefined,
			...(pendingBase !== undefined && { pendingBase }),
			spent,
		});
		if (decision.action === 'keep') return;
		if (decision.action === 'dropLoggedOut') return this.dropLoggedOut(id);
		if (decision.watchUnlisted) this.watchUnlisted(id);
		if (decision.stopMissing) this.missing.stop(id);

		// globalState may lag behind the secret: accounts this window holds that it does not list yet stay.
		const known = new Map(store.entries().map((e) => [e.account.id, e]));
		const records = [...index, ...store.entries().map((e) => e.account).filter((a) => !listed.has(a.id))];
		const entries: StoreEntry[] = [];
		for (const account of records) {
			if (account.id !== id) {
				const entry = known.get(account.id);
				entries.push(entry ? { ...entry, account } : storage.entryFrom(account, await storage.readSecret(account)));
			} else if (decision.account === 'mine') {
				entries.push({ ...mine!, account });
			} else if (decision.account === 'stored') {
				entries.push(storage.entryFrom(account, read));
			}
		}
		store.settle(entries, decision.dropPending ? id : undefined);
		if (decision.watchMissing) this.watchMissing(id);
		if (decision.restore && read.status === 'ok') {
			const entry = this.find(id)!;
			this.log.warn(`The stored tokens of "${entry.account.label}" went back to a refresh token this window already spent; its newer tokens are stored again.`);
			await store.write(entry, read.tokens.refreshToken);
		}
	}

	dispose(): void {
		this.disposed = true;
		this.subscription.dispose();
		this.unlisted.dispose();
		this.missing.dispose();
		this.missingEmitter.dispose();
	}

	private onSecretChanged(key: string): void {
		if (this.disposed || !key.startsWith(SECRET_PREFIX)) return;
		const id = key.slice(SECRET_PREFIX.length);
		this.store.serialize(() => this.reconcile(id)).catch((error) => {
			this.log.warn(`Could not follow a change from another window: ${errorName(error)}.`);
		});
	}

	/**
	 * Looks at an unlisted secret again, after 1, 5, 20 and 60 s (globalState reaches other
	 * windows later than the secret does): listed by then, it is followed as usual; still
	 * unlisted after `UNLISTED_GRACE_MS`, it is deleted.
	 */
	private watchUnlisted(id: string, step = 0): void {
		this.recheck(this.unlisted, id, step, async () => {
			const { storage } = this;
			if (this.find(id) || this.readIndex().some((a) => a.id === id)) return this.reconcile(id);
			if ((await storage.readRaw(id)) === undefined) return;
			if (this.unlisted.hasNext(step)) return this.watchUnlisted(id, step + 1);
			await storage.secrets.delete(secretKeyFor(id));
			this.log.warn('Removed stored tokens that no account points to (left behind by a logout or an interrupted save).');
		}, 'Could not remove stored tokens that no account points to');
	}

	/** Looks again at a listed account whose secret read as missing (MISSING_CHECKS_MS). */
	private watchMissing(id: string, step = 0): void {
		this.recheck(this.missing, id, step, async () => {
			const entry = this.find(id);
			if (!entry) return;
			const read = await this.storage.readSecret(entry.account);
			if (!this.readIndex().some((a) => a.id === id) || this.logouts.markedAt(id) !== undefined) return this.dropLoggedOut(id);
			if (read.status === 'ok' || read.status === 'corrupt') return this.reconcile(id, read);
			// Missing, or the keychain could not be read: look again later; a read that keeps failing is not written over.
			if (this.missing.hasNext(step)) return this.watchMissing(id, step + 1);
			if (read.status === 'failed') return;
			if (!entry.tokens) return;
			// The keychain lost the secret of an account still logged in: ours are the live tokens.
			const stored = await this.store.write(entry, entry.tokens.refreshToken);
			this.log.warn(`The system keychain returned no tokens for "${entry.account.label}", which is still logged in; this window ${stored ? 'stored its tokens again' : 'keeps its tokens and tries again'}.`);
			if (!this.reportedMissing.has(id)) {
				this.reportedMissing.add(id);
				this.missingEmitter.fire({ accountId: id, label: entry.account.label });
			}
		}, 'Could not check a missing secret again');
	}

	/** Runs `check` at look `step` of `timers`' schedule for `id`, after the store's other work. */
	private recheck(timers: RecheckTimers, id: string, step: number, check: () => Promise<void>, failure: string): void {
		timers.plan(id, step, () => {
			if (this.disposed) return;
			this.store.serialize(check).catch((error) => this.log.warn(`${failure}: ${errorName(error)}.`));
		});
	}

	/** Another window logged `id` out: it goes here too, and a secret this window wrote meanwhile goes as well. */
	private async dropLoggedOut(id: string): Promise<void> {
		const { store, storage } = this;
		this.missing.stop(id);
		store.settle(store.entries().filter((e) => e.account.id !== id), id);
		if ((await storage.readRaw(id)) !== undefined) await storage.secrets.delete(secretKeyFor(id)).then(undefined, () => undefined);
	}

	/** What this window holds of `id`. */
	private find(id: string): StoreEntry | undefined {
		return this.store.entries().find((e) => e.account.id === id);
	}

	/** The index as stored (what this window holds when globalState cannot be read). */
	private readIndex(): AccountRecord[] {
		return this.storage.readIndex(() => this.store.entries().map((e) => e.account));
	}
}
