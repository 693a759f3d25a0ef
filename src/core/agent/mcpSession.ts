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
