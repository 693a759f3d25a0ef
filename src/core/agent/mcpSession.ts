// What the window does with a tool call of an MCP session (one `telematics-mcp` process): answer it, ask the
// person about the session first, or refuse. Pure: no I/O, no `vscode`.

/** What the window knows when a session's call arrives. */
export interface SessionFacts {
	/** telematicsAuth.terminalToken: `ask` (the default), `always`, `off`. */
	setting: 'ask' | 'always' | 'off';
	/** The call carries a grant this window handed to a server VS Code started itself. */
	granted: boolean;
	/** The person allowed this session, and the allowance has not lapsed. */
	allowed: boolean;
	/** The person denied this session. */
	denied: boolean;
}

/**
 * `off`: nothing at all. A server VS Code started with this window's grant, `always`, or a session the
 * person allowed: answered. A session the person denied: refused, without asking again (the agent would
 * ask on every call). Any other: the person is asked, once for the session.
 */
export function sessionStep(facts: SessionFacts): 'answer' | 'ask' | 'refuse' {
	if (facts.setting === 'off') return 'refuse';
	if (facts.granted || facts.setting === 'always' || facts.allowed) return 'answer';
	return facts.denied ? 'refuse' : 'ask';
}

/** A process as the kernel knows it: its id and its start time (clock ticks after boot), so a reused id is another process. */
export interface ProcessIdentity {
	pid: number;
	startTime: number;
}

/**
 * The start time in `/proc/<pid>/stat` (field 22): counted from the last `)`, since the command name in
 * parentheses may hold anything. Undefined for anything else.
 */
export function startTimeOf(stat: string): number | undefined {
	const close = stat.lastIndexOf(')');
	if (close < 0) return undefined;
	const field = String(stat.slice(close + 1).trim().split(/\s+/)[19]); // "undefined" when there is none
	return /^\d+$/.test(field) && Number.isSafeInteger(Number(field)) ? Number(field) : undefined;
}

/**
 * Which process each allowed MCP session was allowed for. A session's id is a secret the server sends, but
 * another process that learns it must not be answered without a question: the allowance holds only for
 * the process the kernel named when the person allowed it (its id and start time). Where the system named
 * none, the allowance is the session id's alone, as before; where it named one, a call the system cannot
 * place, or places in another process, is asked about again. Memory only.
 */
export class SessionBindings {
	private readonly bound = new Map<string, ProcessIdentity | undefined>();

	/** The person allowed `session`, asked by `process` (undefined: the system did not say). */
	bind(session: string, process: ProcessIdentity | undefined): void {
		this.bound.set(session, process);
	}

	/** Whether a call of `session` from `process` is from the process that was allowed. */
	holds(session: string, process: ProcessIdentity | undefined): boolean {
		if (!this.bound.has(session)) return false;
		const allowed = this.bound.get(session);
		if (allowed === undefined) return true;
		return process !== undefined && process.pid === allowed.pid && process.startTime === allowed.startTime;
	}

	clear(): void {
		this.bound.clear();
	}
}
