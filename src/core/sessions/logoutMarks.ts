// Logout marks in globalState: how another window tells a logout from a keychain that lost a
// secret (the secret's change reaches it before the index's). Best effort: a failed read is no mark.
import type { Clock } from '../util/clock';
import type { Log } from '../util/log';
import type { MementoBackend } from './types';

/** Accounts logged out lately, by id → when. */
export const LOGGED_OUT_KEY = 'telematicsAuth.loggedOut';
/** Marks older than this are dropped when the next one is written. */
const KEEP_MS = 24 * 60 * 60 * 1000;

export class LogoutMarks {
	constructor(private readonly memento: MementoBackend, private readonly clock: Clock, private readonly log: Log) {}

	/** When `id` was logged out in any window, if it was lately and has not logged in since. */
	markedAt(id: string): number | undefined {
		try {
			const at = this.read()[id];
			return typeof at === 'number' ? at : undefined;
		} catch {
			return undefined;
		}
	}

	/** Sets (`true`) or clears `id`'s mark, dropping old ones; no write when there is nothing to clear. */
	async set(id: string, loggedOut = true): Promise<void> {
		try {
			const current = this.read();
			if (!loggedOut && !(id in current)) return;
			const now = this.clock.now();
			const marks: Record<string, number> = {};
			for (const [key, at] of Object.entries(current)) {
				if (typeof at === 'number' && now - at < KEEP_MS && key !== id) marks[key] = at;
			}
			if (loggedOut) marks[id] = now;
			await this.memento.update(LOGGED_OUT_KEY, marks);
		} catch {
			this.log.warn('Could not write the logout mark other windows read.');
		}
	}

	private read(): Record<string, unknown> {
		const raw = this.memento.get<unknown>(LOGGED_OUT_KEY);
		return raw && typeof raw === 'object' ? raw as Record<string, unknown> : {};
	}
}
