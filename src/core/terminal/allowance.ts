// Which terminals the person allowed to read the token (telematicsAuth.terminalToken: "ask"), as 1Password's
// CLI binds an authorization to one terminal session: it lapses after 10 minutes without a request and
// 12 hours after it was given, and lives in memory only. Pure: the caller passes the time.

/** An allowance lapses after this long without a request from its terminal. */
export const ALLOWANCE_IDLE_MS = 10 * 60_000;
/** And this long after it was given, however busy. */
export const ALLOWANCE_MAX_MS = 12 * 60 * 60_000;

interface Allowance {
	givenAt: number;
	lastUsedAt: number;
}

export class TerminalAllowances {
	private readonly allowed = new Map<string, Allowance>();

	/** The person allowed the terminal `key` at `now`. */
	allow(key: string, now: number): void {
		this.allowed.set(key, { givenAt: now, lastUsedAt: now });
	}

	/** Whether `key` is allowed at `now`; a use keeps it from lapsing idle, a lapsed one is forgotten. */
	use(key: string, now: number): boolean {
		const allowance = this.allowed.get(key);
		if (!allowance) return false;
		if (now - allowance.lastUsedAt >= ALLOWANCE_IDLE_MS || now - allowance.givenAt >= ALLOWANCE_MAX_MS || now < allowance.lastUsedAt) {
			this.allowed.delete(key);
			return false;
		}
		allowance.lastUsedAt = now;
		return true;
	}

	/** The terminal closed, or the setting changed: asked again next time. */
	forget(key: string): void {
		this.allowed.delete(key);
	}

	clear(): void {
		this.allowed.clear();
	}
}

/** What the system says about the process that asks (Linux: /proc/<pid>/stat). */
export interface ProcessTerminal {
	/** The session it belongs to (its leader's process id): a VS Code terminal's shell leads one. */
	sessionId: number;
	/** Whether the process has a controlling terminal (agents run their commands without one). */
	hasTerminal: boolean;
	/** Its parent's process id: the shell line that ran the command. */
	parentId: number;
}

/**
 * `/proc/<pid>/stat` read: the command name sits in parentheses and may hold anything, spaces and `)`
 * included, so the fields are counted from the last `)`. Undefined for anything else.
 */
export function parseProcStat(text: string): ProcessTerminal | undefined {
	const close = text.lastIndexOf(')');
	if (close < 0) return undefined;
	// After the name: state, ppid, pgrp, session, tty_nr, …
	const fields = text.slice(close + 1).trim().split(/\s+/);
	// Stryker disable next-line ConditionalExpression: redundant
	if (fields.length < 5) return undefined;
	const [, ppid, , session, tty] = fields.map((f) => (/^-?\d+$/.test(f) ? Number(f) : Number.NaN));
	if (![ppid, session, tty].every((n) => Number.isSafeInteger(n))) return undefined;
	if (session! <= 0 || ppid! < 0) return undefined;
	return { sessionId: session!, hasTerminal: tty !== 0, parentId: ppid! };
}

/** `/proc/<pid>/cmdline` (arguments separated by NUL) as one line: arguments joined by spaces, control and direction characters gone. */
export function commandLineOf(cmdline: string): string | undefined {
	const line = cmdline.split('\0').filter(Boolean).join(' ').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ').trim();
	return line || undefined;
}
