// A short lease in SecretStorage so that of several windows sharing an account only one refreshes it
// (refresh tokens rotate: two refreshes with one token spend it twice). Stored under `telematicsAuth.lease.<id>`;
// beside it, a mark of the refresh token the last refresh spent (`telematicsAuth.spent.<id>`, a hash).

import { createHash, randomUUID } from 'node:crypto';
import type { SecretBackend } from './types';
import type { Clock } from '../util/clock';

export const LEASE_PREFIX = 'telematicsAuth.lease.';
export const SPENT_PREFIX = 'telematicsAuth.spent.';

const digest = (refreshToken: string): string => createHash('sha256').update(refreshToken).digest('hex');

interface LeaseRecord {
	owner: string;
	until: number;
}

export class Lease {
	/**
	 * @param id this window's name in the lease (tests name theirs).
	 * @param ttlMs how long a lease lasts; a window that crashes holding it blocks others this long.
	 * @param settleMs how long to wait between writing the lease and reading it back, so that a
	 *   window writing at the same moment has written too (last writer wins on a shared backend).
	 */
	constructor(
		private readonly secrets: SecretBackend,
		private readonly clock: Clock,
		private id?: string,
		readonly ttlMs = 30_000,
		readonly settleMs = 250,
	) {}

	/**
	 * Whose lease it is: the name given, else a random one made at the first lease (not at start-up:
	 * a process's first random bytes seed OpenSSL's generator, milliseconds of the host's thread).
	 */
	get windowId(): string {
		return this.id ??= randomUUID();
	}

	/** True if this window now holds the lease for `accountId`. Storage failures do not block a refresh. */
	async tryAcquire(accountId: string): Promise<boolean> {
		const key = LEASE_PREFIX + accountId;
		try {
			const current = parseLease(await this.secrets.get(key));
			if (current && current.owner !== this.windowId && current.until > this.clock.now()) return false;
			const mine: LeaseRecord = { owner: this.windowId, until: this.clock.now() + this.ttlMs };
			await this.secrets.store(key, JSON.stringify(mine));
			if (this.settleMs > 0) await this.sleep(this.settleMs);
			return parseLease(await this.secrets.get(key))?.owner === this.windowId;
		} catch {
			return true;
		}
	}

	/** Gives the lease up if this window holds it. */
	async release(accountId: string): Promise<void> {
		const key = LEASE_PREFIX + accountId;
		try {
			if (parseLease(await this.secrets.get(key))?.owner === this.windowId) await this.secrets.delete(key);
		} catch {
			// A lease left behind expires by itself.
		}
	}

	/**
	 * Keeps this window's lease for `accountId` alive (renewed every third of its lifetime) until the
	 * returned function is called: a refresh may take up to the request timeout, and rotated tokens
	 * may wait in memory for the keychain, both longer than a lease lasts.
	 */
	keep(accountId: string): () => void {
		const key = LEASE_PREFIX + accountId;
		let timer: unknown;
		let stopped = false;
		const renew = (): void => {
			timer = this.clock.setTimeout(() => {
				void (async () => {
					try {
						if (parseLease(await this.secrets.get(key))?.owner !== this.windowId || stopped) return;
						await this.secrets.store(key, JSON.stringify({ owner: this.windowId, until: this.clock.now() + this.ttlMs }));
					} catch {
						// The next renewal tries again; a lease that lapses lets another window wait for the spent mark.
					}
					if (!stopped) renew();
				})();
			}, Math.max(1, Math.floor(this.ttlMs / 3)));
		};
		renew();
		return () => {
			stopped = true;
			if (timer !== undefined) this.clock.clearTimeout(timer);
		};
	}

	/** Marks `refreshToken` as spent (the service answered it): no window may send it again. */
	async markSpent(accountId: string, refreshToken: string): Promise<void> {
		try {
			await this.secrets.store(SPENT_PREFIX + accountId, digest(refreshToken));
		} catch {
			// The lease, kept until the new tokens are stored, still holds other windows back.
		}
	}

	/** Whether a refresh already spent `refreshToken` (another window's answer never reached the keychain). */
	async isSpent(accountId: string, refreshToken: string): Promise<boolean> {
		try {
			return (await this.secrets.get(SPENT_PREFIX + accountId)) === digest(refreshToken);
		} catch {
			return false;
		}
	}

	private sleep(ms: number): Promise<void> {
		return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
	}
}

export function parseLease(raw: string | undefined): LeaseRecord | undefined {
	if (raw === undefined) return undefined;
	try {
		const value = JSON.parse(raw) as Partial<LeaseRecord> | null;
		if (value && typeof value.owner === 'string' && typeof value.until === 'number') return { owner: value.owner, until: value.until };
	} catch {
		// unreadable: treated as no lease
	}
	return undefined;
}
