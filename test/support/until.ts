// The one "poll until" of the tests (unit, integration, e2e, host): reads until a value is accepted,
// tolerating errors on the way, and fails naming what it waited for and the last thing it saw.

export interface UntilOptions<T> {
	/** Default: a value that is not undefined, null or false. */
	accept?: (value: T) => boolean;
	timeoutMs?: number;
	everyMs?: number;
}

const isSomething = (value: unknown): boolean => value !== undefined && value !== null && value !== false;

/** Polls `read` until `accept` holds; `options` as a number is the timeout. */
export async function until<T>(what: string, read: () => T | Promise<T>, options: UntilOptions<T> | number = {}): Promise<Exclude<T, undefined | null | false>> {
	const { accept = isSomething, timeoutMs = 30_000, everyMs = 50 } = typeof options === 'number' ? { timeoutMs: options } : options;
	const deadline = Date.now() + timeoutMs;
	let last: T | undefined;
	let lastError: unknown;
	for (;;) {
		try {
			last = await read();
			if (accept(last)) return last as Exclude<T, undefined | null | false>;
		} catch (e) {
			lastError = e;
		}
		if (Date.now() >= deadline) break;
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
	const seen = last !== undefined ? String(JSON.stringify(last)).slice(0, 300) : lastError instanceof Error ? lastError.message : 'nothing';
	throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}; last seen: ${seen}`);
}
