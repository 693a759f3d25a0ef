// REST Client's request history (issue 65): REST Client writes every request it sends, headers resolved,
// to `history.json` (the last 50), so a live token sent with it would rest in the person's home folder
// for a day. Where that file is, by REST Client's own rules, and the file with each token of ours replaced
// by a reference REST Client resolves again on replay, or a placeholder that names the account. A file
// not of REST Client's shape is left alone. Pure: no `vscode`, no I/O.
import { join } from 'node:path';

/**
 * `history.json` as REST Client finds it: `VSC_REST_CLIENT_HOME` (REST Client's continuation), else
 * `~/.rest-client` when it exists, else `$XDG_CACHE_HOME/rest-client` when that is set, else
 * `~/.rest-client` (REST Client 0.25.0's userDataManager.ts).
 */
export function restClientHistoryPath(env: Readonly<Record<string, string | undefined>>, home: string, exists: (folder: string) => boolean): string {
	if (env.VSC_REST_CLIENT_HOME) return join(env.VSC_REST_CLIENT_HOME, 'history.json');
	const root = join(home, '.rest-client');
	if (exists(root)) return join(root, 'history.json');
	if (env.XDG_CACHE_HOME !== undefined) return join(env.XDG_CACHE_HOME, 'rest-client', 'history.json');
	return join(root, 'history.json');
}

/** A token of ours and what takes its place in the history. */
export interface HistoryReplacement {
	token: string;
	replacement: string;
}

export type HistoryRewrite =
	/** No token of ours in it: nothing to write. */
	| { kind: 'clean' }
	| { kind: 'rewritten'; text: string; tokens: number }
	/** Not JSON (REST Client may be writing it): try again later. */
	| { kind: 'unreadable' }
	/** JSON, but not REST Client's list of requests: left alone. */
	| { kind: 'foreign' };

/** One request as REST Client 0.25.0 records it (HistoricalHttpRequest). */
interface HistoryEntry {
	method: string;
	url: string;
	headers: Record<string, unknown>;
	body?: unknown;
	startTime: number;
}

function isEntry(value: unknown): value is HistoryEntry {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const e = value as Partial<HistoryEntry>;
	return typeof e.method === 'string' && typeof e.url === 'string' && typeof e.startTime === 'number'
		&& typeof e.headers === 'object' && e.headers !== null && !Array.isArray(e.headers)
		&& (e.body === undefined || e.body === null || typeof e.body === 'string');
}

/** Shortest text that counts as a token (an empty "token" would match everywhere). */
const MIN_TOKEN_CHARS = 16;

/**
 * `text` (history.json) with every token of `replacements` replaced in each entry's URL, header values
 * and body; the entries, their order and every other field as they were, written as REST Client writes
 * it (compact JSON and a line break).
 */
export function rewriteHistory(text: string, replacements: readonly HistoryReplacement[]): HistoryRewrite {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { kind: 'unreadable' };
	}
	if (!Array.isArray(parsed) || !parsed.every(isEntry)) return { kind: 'foreign' };
	const usable = replacements.filter((r) => r.token.length >= MIN_TOKEN_CHARS).sort((a, b) => b.token.length - a.token.length);
	let tokens = 0;
	const swap = (value: string): string => {
		let out = value;
		for (const { token, replacement } of usable) {
			if (!out.includes(token)) continue;
			const parts = out.split(token);
			tokens += parts.length - 1;
			out = parts.join(replacement);
		}
		return out;
	};
	const entries = parsed.map((entry) => {
		const headers: Record<string, unknown> = {};
		for (const [name, value] of Object.entries(entry.headers)) {
			headers[name] = typeof value === 'string' ? swap(value) : Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? swap(v) : v)) : value;
		}
		return { ...entry, url: swap(entry.url), headers, ...(typeof entry.body === 'string' ? { body: swap(entry.body) } : {}) };
	});
	return tokens === 0 ? { kind: 'clean' } : { kind: 'rewritten', text: `${JSON.stringify(entries)}\n`, tokens };
}

/** REST Client keeps this many requests (userDataManager.ts's historyItemsMaxCount). */
export const HISTORY_MAX = 50;

/**
 * What the history should hold, across REST Client's writes. REST Client reads the whole file, puts its
 * request first and writes it back in place; a read it made before one of our rewrites (or a write that
 * went to the file our rename replaced) drops entries it never saw. The keeper remembers the entries seen
 * lately (the newest 50, tokens replaced) and puts back any that a stale write dropped, each where it
 * was: before the first entry older than it. An empty file (Clear Request History) forgets them all, and a
 * file that shares no entry with them (replaced whole) starts them anew.
 */
export class HistoryKeeper {
	private known: HistoryEntry[] = [];

	constructor(private readonly replacements: () => readonly HistoryReplacement[]) { }

	/** Takes in entries found elsewhere (a write to the file our rename replaced); false when `text` is not a whole list. */
	absorb(text: string): boolean {
		const entries = this.entries(text);
		if (!entries) return false;
		this.known = joined(entries, this.known);
		return true;
	}

	/** The text the file should hold instead of `text`, with how many tokens were replaced. */
	take(text: string): HistoryRewrite {
		const rewritten = rewriteHistory(text, this.replacements());
		if (rewritten.kind === 'unreadable' || rewritten.kind === 'foreign') return rewritten;
		const entries = JSON.parse(rewritten.kind === 'rewritten' ? rewritten.text : text) as HistoryEntry[];
		if (entries.length === 0) {
			this.known = [];
			return { kind: 'clean' };
		}
		// A file that shares no entry with what we saw was replaced whole (another tool, a person): it is the
		// history now. One that shares some is REST Client's next write, perhaps from an older read.
		const keys = new Set(entries.map((e) => JSON.stringify(e)));
		this.known = this.known.some((e) => keys.has(JSON.stringify(e))) ? joined(entries, this.known) : entries.slice(0, HISTORY_MAX);
		const tokens = rewritten.kind === 'rewritten' ? rewritten.tokens : 0;
		if (tokens === 0 && JSON.stringify(this.known) === JSON.stringify(entries)) return { kind: 'clean' };
		return { kind: 'rewritten', text: `${JSON.stringify(this.known)}\n`, tokens };
	}

	private entries(text: string): HistoryEntry[] | undefined {
		const rewritten = rewriteHistory(text, this.replacements());
		if (rewritten.kind === 'unreadable' || rewritten.kind === 'foreign') return undefined;
		return JSON.parse(rewritten.kind === 'rewritten' ? rewritten.text : text) as HistoryEntry[];
	}
}

/** `entries` in their order, each of `known` they lack put back before the first entry older than it; the newest 50. */
function joined(entries: readonly HistoryEntry[], known: readonly HistoryEntry[]): HistoryEntry[] {
	const out = [...entries];
	const keys = new Set(out.map((e) => JSON.stringify(e)));
	for (const entry of known) {
		const key = JSON.stringify(entry);
		if (keys.has(key)) continue;
		keys.add(key);
		const at = out.findIndex((e) => e.startTime < entry.startTime);
		out.splice(at < 0 ? out.length : at, 0, entry);
	}
	return out.slice(0, HISTORY_MAX);
}

/** An account's tokens as the history rewrite needs them. */
export interface HistoryAccount {
	/** Its short name (`user`), empty when it has none. */
	name: string;
	/** Its `TELEMATICS_TOKEN_<NAME>`, when it has a name. */
	variable?: string;
	/** Whether that variable is in the environment REST Client reads (telematicsAuth.exposeToken). */
	exposed: boolean;
	/** Access tokens, current and earlier ones still valid. */
	accessTokens: readonly string[];
	refreshToken?: string;
}

/**
 * What takes each token's place: an access token becomes `{{$processEnv TELEMATICS_TOKEN_<NAME>}}` while
 * the exposure puts that variable in the environment (REST Client resolves it on replay), else a
 * placeholder naming the account and how to send with it; a refresh token, which no request needs, a
 * placeholder that says it was removed.
 */
export function historyReplacements(accounts: readonly HistoryAccount[]): HistoryReplacement[] {
	const out: HistoryReplacement[] = [];
	for (const account of accounts) {
		const who = account.name || 'an account';
		const access = account.exposed && account.variable ? `{{$processEnv ${account.variable}}}` : `<token of ${who}, removed by Telematics Auth: Insert Authorization Header, or set telematicsAuth.exposeToken and use {{$processEnv ${account.variable ?? 'TELEMATICS_TOKEN'}}}>`;
		for (const token of account.accessTokens) out.push({ token, replacement: access });
		if (account.refreshToken) out.push({ token: account.refreshToken, replacement: `<refresh token of ${who}, removed by Telematics Auth>` });
	}
	return out;
}
