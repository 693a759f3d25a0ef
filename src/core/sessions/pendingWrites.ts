// Tokens held in memory because storing them failed (a keychain that refused a write right after a
// refresh). They are the live ones: sent on the next refresh, written again later, 2 s, 4 s, … up
// to a minute apart. `base` is the refresh token they replaced, to tell our stale secret from a newer one.
import type { Clock } from '../util/clock';
import type { StoreEntry } from './types';

const RETRY_BASE_MS = 2_000;
const RETRY_CAP_MS = 60_000;

export interface PendingWrite {
	readonly entry: StoreEntry;
	/** The refresh token these tokens replaced. */
	readonly base: string;
	/** Failed writes so far. */
	readonly attempt: number;
}

export class PendingWrites {
	private readonly pending = new Map<string, { record: PendingWrite; timer: unknown }>();

	constructor(private readonly clock: Clock) {}

	get(accountId: string): PendingWrite | undefined {
		return this.pending.get(accountId)?.record;
	}

	has(accountId: string): boolean {
		return this.pending.has(accountId);
	}

	/**
	 * Holds `entry` after a failed write (keeping the first `base` of a run of failures) and calls
	 * `retry` with the record after the back-off; the delay in ms.
	 */
	hold(entry: StoreEntry, base: string, retry: (record: PendingWrite) => void): number {
		const id = entry.account.id;
		const previous = this.get(id);
		const record: PendingWrite = { entry, base: previous?.base ?? base, attempt: (previous?.attempt ?? 0) + 1 };
		this.drop(id);
		const delay = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.min(record.attempt - 1, 10));
		const timer = this.clock.setTimeout(() => retry(record), delay);
		this.pending.set(id, { record, timer });
		return delay;
	}

	/** Whether `record` is still the one held for its account. */
	isCurrent(record: PendingWrite): boolean {
		return this.get(record.entry.account.id) === record;
	}

	drop(accountId: string): void {
		const held = this.pending.get(accountId);
		if (held) this.clock.clearTimeout(held.timer);
		this.pending.delete(accountId);
	}

	dispose(): void {
		for (const id of [...this.pending.keys()]) this.drop(id);
	}
}
