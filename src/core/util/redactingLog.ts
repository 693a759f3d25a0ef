// The extension's log: every line is redacted with the secrets known right now (stored tokens, a login's
// credentials) before it reaches the output channel. In ExtensionMode.Test it keeps the last lines.

import type { Log } from './log';
import { redact } from './redact';
import type { Disposable } from './event';

type Level = Exclude<keyof Log, 'logLevel'>;

/** Each level's number in VS Code's LogLevel. */
const LEVEL_NUMBER: Record<Level, number> = { trace: 1, debug: 2, info: 3, warn: 4, error: 5 };

export class RedactingLog implements Log {
	private secretSource: () => Iterable<string> = () => [];
	private readonly transient = new Set<string[]>();
	private readonly ring: string[] = [];

	/** `ringSize`: how many recent lines to keep (test mode); 0 keeps none. */
	constructor(
		private readonly sink: Log,
		private readonly ringSize = 0,
	) {}

	/** Where the secrets of stored sessions come from (set once the store exists). */
	setSecretSource(source: () => Iterable<string>): void {
		this.secretSource = source;
	}

	/** Masks these values too until the returned Disposable is disposed (a login in progress). */
	addSecrets(values: readonly (string | undefined)[]): Disposable {
		const entry = values.filter((v): v is string => typeof v === 'string' && v.length > 0);
		this.transient.add(entry);
		return { dispose: () => void this.transient.delete(entry) };
	}

	/** The last lines written, already redacted, oldest first. */
	recent(): readonly string[] {
		return [...this.ring];
	}

	/** `text` as it would be logged: with every known secret masked. */
	redact(text: string): string {
		const secrets: string[] = [];
		try {
			for (const s of this.secretSource()) secrets.push(s);
		} catch {
			// A broken source must not stop logging; the patterns in redact() still apply.
		}
		for (const entry of this.transient) secrets.push(...entry);
		return redact(text, secrets);
	}

	trace(message: string): void { this.write('trace', message); }
	debug(message: string): void { this.write('debug', message); }
	info(message: string): void { this.write('info', message); }
	warn(message: string): void { this.write('warn', message); }
	error(message: string): void { this.write('error', message); }

	private write(level: Level, message: string): void {
		const { logLevel } = this.sink;
		const shown = logLevel === undefined || (logLevel > 0 && LEVEL_NUMBER[level] >= logLevel);
		// A line nobody will see is not redacted (tests keep every line).
		if (!shown && this.ringSize === 0) return;
		const line = this.redact(message);
		if (this.ringSize > 0) {
			this.ring.push(`[${level}] ${line}`);
			if (this.ring.length > this.ringSize) this.ring.splice(0, this.ring.length - this.ringSize);
		}
		if (shown) this.sink[level](line);
	}
}

/** The secret values of sessions, for `setSecretSource`. */
export function* sessionSecrets(sessions: Iterable<{ tokens?: { accessToken: string; refreshToken: string; deviceToken?: string } }>): Iterable<string> {
	for (const s of sessions) {
		if (!s.tokens) continue;
		yield s.tokens.accessToken;
		yield s.tokens.refreshToken;
		if (s.tokens.deviceToken) yield s.tokens.deviceToken;
	}
}
