// An in-memory SecretStorage several "windows" share, like the OS keychain: every view sees every write and
// gets onDidChange (asynchronously, as in VS Code); hooks make reads or writes fail.
import { Emitter } from '../../../src/core/util/event';
import type { SecretBackend } from '../../../src/core/sessions/types';
import type { Disposable } from '../../../src/core/util/event';

export interface SecretView extends SecretBackend, Disposable {}

export class SharedSecretBackend {
	readonly data = new Map<string, string>();
	/** Return true to make `get(key)` reject. */
	failGet: (key: string) => boolean = () => false;
	/**
	 * As VS Code's own SecretStorage on a locked or unreadable keychain: `get(key)` resolves to
	 * undefined instead of failing, and with `drop` the entry is deleted (one it cannot decrypt).
	 */
	loseOnGet: (key: string) => 'undefined' | 'drop' | false = () => false;
	/** Return true to make `store(key)` / `delete(key)` reject. */
	failStore: (key: string) => boolean = () => false;
	/** Every successful write, in order: which key, and whether it was a delete. */
	readonly writes: Array<{ key: string; deleted: boolean }> = [];
	private readonly emitters = new Set<Emitter<{ key: string }>>();

	/** A window's SecretStorage. `deaf`: it never hears change events (a host that drops them). */
	view(options: { deaf?: boolean } = {}): SecretView {
		const emitter = new Emitter<{ key: string }>();
		if (!options.deaf) this.emitters.add(emitter);
		return {
			get: async (key) => {
				await Promise.resolve();
				if (this.failGet(key)) throw new Error('keychain unavailable');
				const lost = this.loseOnGet(key);
				if (lost === 'drop') this.data.delete(key);
				if (lost) return undefined;
				return this.data.get(key);
			},
			store: async (key, value) => {
				await Promise.resolve();
				if (this.failStore(key)) throw new Error('keychain unavailable');
				this.data.set(key, value);
				this.writes.push({ key, deleted: false });
				this.announce(key);
			},
			delete: async (key) => {
				await Promise.resolve();
				if (this.failStore(key)) throw new Error('keychain unavailable');
				this.data.delete(key);
				this.writes.push({ key, deleted: true });
				this.announce(key);
			},
			onDidChange: emitter.event,
			dispose: () => {
				this.emitters.delete(emitter);
				emitter.dispose();
			},
		};
	}

	/** Sends a change event without a change, as the host sometimes does. */
	announce(key: string): void {
		const emitters = [...this.emitters];
		void Promise.resolve().then(() => {
			for (const emitter of emitters) emitter.fire({ key });
		});
	}

	/** Every stored value, joined: tests scan it (or the memento) for token strings. */
	dump(): string {
		return JSON.stringify([...this.data]);
	}
}
