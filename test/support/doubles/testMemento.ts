// A Map-backed globalState. Pass the same instance to several stores to model windows that
// share desktop globalState. Values round-trip through JSON, as VS Code stores them.
import type { MementoBackend } from '../../../src/core/sessions/types';

export class TestMemento implements MementoBackend {
	private readonly data = new Map<string, string>();
	/** Return true to make `update(key)` reject. */
	failUpdate: (key: string) => boolean = () => false;

	get<T>(key: string): T | undefined {
		const raw = this.data.get(key);
		return raw === undefined ? undefined : (JSON.parse(raw) as T);
	}

	async update(key: string, value: unknown): Promise<void> {
		await Promise.resolve();
		if (this.failUpdate(key)) throw new Error('storage unavailable');
		if (value === undefined) this.data.delete(key);
		else this.data.set(key, JSON.stringify(value));
	}

	keys(): readonly string[] {
		return [...this.data.keys()];
	}

	/** Everything stored, as one string: tests scan it for secrets. */
	dump(): string {
		return JSON.stringify([...this.data]);
	}
}
