// What `telematics-token` and `telematics-mcp` say to the window over its private channel: one JSON line
// each way, a nonce, and either a token request or a tool call; and what the token command prints. Pure: no
// I/O, no `vscode`.
import { isSafeToken } from '../util/tokenGrammar';

/** The variables the terminal's process environment gets (through VS Code's collection, never persisted). */
export const CHANNEL_ENV = 'TELEMATICS_TOKEN_CHANNEL';
export const NONCE_ENV = 'TELEMATICS_TOKEN_NONCE';
/** The command's name on the terminal's PATH. */
export const COMMAND_NAME = 'telematics-token';
/** The MCP server's name on the terminal's PATH, beside it. */
export const MCP_COMMAND_NAME = 'telematics-mcp';
/** Only in the process environment of a server VS Code itself starts (vscodeMcp.ts): its per-process secret. */
export const MCP_GRANT_ENV = 'TELEMATICS_MCP_GRANT';

/** Longest request or answer line read; anything longer is refused. */
export const MAX_LINE_BYTES = 16 * 1024;
/** A tool call's line and its answer may be longer: a request body of 64 K characters, an answer of 20 K, escaped. */
export const MAX_TOOL_LINE_BYTES = 512 * 1024;

/** The tools `telematics-mcp` offers, by the names the chat's tools have: the window runs the chat's tool. */
export const MCP_TOOLS = ['telematics_accounts', 'telematics_operations', 'telematics_request'] as const;
export type McpTool = (typeof MCP_TOOLS)[number];

/** One tool call of an MCP session (one `telematics-mcp` process). */
export interface ToolCall {
	/** The session: 32 random hex digits the server picks at start, kept in its memory only. */
	session: string;
	tool: McpTool;
	/** The tool's arguments as the agent sent them; the window checks them as the chat's tool does. */
	input: Record<string, unknown>;
	/** The per-process secret the window handed a server VS Code itself starts (never a terminal's). */
	grant?: string;
}

export interface TokenRequest {
	/** The account's label or id; the active account when absent. */
	account?: string;
	/** The asking process's id, for the window to ask the system which terminal it runs in. */
	pid?: number;
	/** Set for `telematics-mcp`: a tool call instead of the token (never with `account`: it is in the input). */
	call?: ToolCall;
}

export interface TokenAnswer {
	token: string;
	/** Epoch ms. */
	expiresAt: number;
	label: string;
	serviceUrl: string;
}

export type Reply = ({ ok: true } & TokenAnswer) | { ok: false; error: string };

/** The window's answer to a tool call: the tool's text (`isError` when the tool did nothing), or a refusal. */
export type ToolReply = { ok: true; text: string; isError?: boolean } | { ok: false; error: string };

/** A request line: the nonce must match; any other field or shape is refused. */
export function parseRequest(line: string, matchesNonce: (nonce: string) => boolean): { ok: true; request: TokenRequest } | { ok: false; error: string } {
	let value: unknown;
	try {
		// The catch's block, from here: without its return the check below refuses the same line.
		// Stryker disable BlockStatement: redundant
		value = JSON.parse(line);
	} catch {
		return { ok: false, error: 'not a request' };
	}
	// Stryker restore BlockStatement
	// Stryker disable next-line ConditionalExpression: redundant
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'not a request' };
	const { v, nonce, account, pid, call, ...rest } = value as Record<string, unknown>;
	if (v !== 1 || typeof nonce !== 'string' || Object.keys(rest).length > 0) return { ok: false, error: 'not a request' };
	if (!matchesNonce(nonce)) return { ok: false, error: 'refused' };
	if (account !== undefined && (typeof account !== 'string' || account.length === 0 || account.length > 256)) return { ok: false, error: 'not a request' };
	// Stryker disable next-line ConditionalExpression: redundant
	if (pid !== undefined && !(typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0)) return { ok: false, error: 'not a request' };
	const toolCall = call === undefined ? undefined : parseToolCall(call);
	if (toolCall === null || (toolCall && account !== undefined)) return { ok: false, error: 'not a request' };
	return { ok: true, request: { ...(account !== undefined && { account }), ...(pid !== undefined && { pid }), ...(toolCall && { call: toolCall }) } };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A tool call's fields, each of its kind; null for anything else (another field, another tool, a malformed session or grant). */
function parseToolCall(value: unknown): ToolCall | null {
	if (!isPlainObject(value)) return null;
	const { session, tool, input, grant, ...rest } = value;
	if (Object.keys(rest).length > 0 || typeof session !== 'string' || !/^[0-9a-f]{32}$/.test(session)) return null;
	if (!MCP_TOOLS.includes(tool as McpTool) || !isPlainObject(input)) return null;
	if (grant !== undefined && (typeof grant !== 'string' || !/^[0-9a-f]{64}$/.test(grant))) return null;
	return { session, tool: tool as McpTool, input, ...(grant !== undefined && { grant }) };
}

/** The line `telematics-mcp` sends for one tool call. */
export function toolCallLine(nonce: string, call: ToolCall, pid?: number): string {
	// Stryker disable next-line ConditionalExpression: equivalent
	return `${JSON.stringify({ v: 1, nonce, ...(pid !== undefined && { pid }), call })}\n`;
}

/** A reply line as `telematics-mcp` reads it: text, or a refusal; anything else is a refusal. */
export function parseToolReply(line: string): ToolReply {
	let value: unknown;
	try {
		// The catch's block, from here: without its return the check below refuses the same line.
		// Stryker disable BlockStatement: redundant
		value = JSON.parse(line);
	} catch {
		return { ok: false, error: 'the window answered something that is not a reply' };
	}
	// Stryker restore BlockStatement
	if (!isPlainObject(value)) return { ok: false, error: 'the window answered something that is not a reply' };
	if (value.ok === false && typeof value.error === 'string') return { ok: false, error: oneLine(value.error, 1000) };
	if (value.ok === true && typeof value.text === 'string') return { ok: true, text: value.text, ...(value.isError === true && { isError: true }) };
	return { ok: false, error: 'the window answered something that is not a reply' };
}

/** The request line the command sends. */
export function requestLine(nonce: string, account?: string, pid?: number): string {
	// Stryker disable next-line ConditionalExpression: equivalent
	return `${JSON.stringify({ v: 1, nonce, ...(account !== undefined && { account }), ...(pid !== undefined && { pid }) })}\n`;
}

/** The reply line the window sends. */
export function replyLine(reply: Reply | ToolReply): string {
	return `${JSON.stringify(reply)}\n`;
}

/** A reply line as the command reads it; a token outside the grammar is a refusal, never printed. */
export function parseReply(line: string): Reply {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return { ok: false, error: 'the window answered something that is not a reply' };
	}
	const reply = value as Partial<Record<string, unknown>>;
	if (reply?.ok === false && typeof reply.error === 'string') return { ok: false, error: oneLine(reply.error) };
	// Stryker disable next-line ConditionalExpression: redundant
	if (reply?.ok === true && isSafeToken(reply.token) && typeof reply.expiresAt === 'number' && Number.isFinite(reply.expiresAt)
		&& typeof reply.label === 'string' && typeof reply.serviceUrl === 'string') {
		return { ok: true, token: reply.token, expiresAt: reply.expiresAt, label: reply.label, serviceUrl: reply.serviceUrl };
	}
	return { ok: false, error: 'the window answered something that is not a token' };
}

export type OutputMode = 'token' | 'header' | 'json';

export interface CommandArgs {
	mode: OutputMode;
	account?: string;
}

export const USAGE = `Usage: ${COMMAND_NAME} [--header | --json] [--account <name>]
Prints the live access token of the active Telematics account (VS Code: Telematics Auth).
  --header           print "Authorization: Bearer <token>"
  --json             print {"token", "expiresAt", "label", "serviceUrl"}
  --account <name>   another logged-in account: its name (user, admin, user-2, …), its label or its id`;

/** The command line; a message when it is not one we take (or `help`). */
export function parseArgs(argv: readonly string[]): { ok: true; args: CommandArgs } | { ok: false; help: boolean; error?: string } {
	const args: CommandArgs = { mode: 'token' };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === '--help' || arg === '-h') return { ok: false, help: true };
		if (arg === '--header' || arg === '--json') {
			const mode = arg === '--header' ? 'header' : 'json';
			if (args.mode !== 'token' && args.mode !== mode) return { ok: false, help: false, error: '--header and --json cannot be combined.' };
			args.mode = mode;
		} else if (arg === '--account' || arg.startsWith('--account=')) {
			const value = arg === '--account' ? argv[++i] : arg.slice('--account='.length);
			if (!value) return { ok: false, help: false, error: '--account needs a label.' };
			args.account = value;
		} else {
			return { ok: false, help: false, error: `Unknown argument: ${oneLine(arg)}` };
		}
	}
	return { ok: true, args };
}

/** What the command prints on stdout for an answer. */
export function formatAnswer(answer: TokenAnswer, mode: OutputMode): string {
	if (!isSafeToken(answer.token)) throw new Error('not a token');
	switch (mode) {
		case 'token':
			return `${answer.token}\n`;
		case 'header':
			return `Authorization: Bearer ${answer.token}\n`;
		case 'json': {
			const at = new Date(answer.expiresAt);
			const expiresAt = Number.isNaN(at.getTime()) ? null : at.toISOString();
			return `${JSON.stringify({ token: answer.token, expiresAt, label: answer.label, serviceUrl: answer.serviceUrl })}\n`;
		}
	}
}

/** One line of plain text for stderr: control characters go, long text is cut. */
export function oneLine(text: string, max = 300): string {
	const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
