// What the agent's `telematics_request` tool may send and what it hands back: a request checked to stay on
// the account's service (a path, never a URL, a host or a way out of the service's root) and an answer
// with every token masked, cut at a bound. Pure: no I/O, no `vscode`.
import { redact } from '../util/redact';

export const AGENT_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type AgentMethod = (typeof AGENT_METHODS)[number];

/** The methods that change nothing run without a question; the others ask the person first. */
export function asksFirst(method: AgentMethod): boolean {
	return method !== 'GET' && method !== 'HEAD';
}

/** Longest path accepted, and the longest body sent (the service's requests are small). */
export const MAX_PATH_CHARS = 2048;
export const MAX_REQUEST_BODY_CHARS = 64 * 1024;
/** Longest answer text handed to the model; the rest is cut, and the result says so. */
export const MAX_RESULT_BODY_CHARS = 20_000;

export interface AgentRequestInput {
	method: AgentMethod;
	path: string;
	query?: Record<string, string>;
	/** JSON text, or a value sent as JSON. */
	body?: string;
	account?: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/**
 * The tool's input as the model sent it, checked: a known method, a path, a flat query of strings,
 * numbers and booleans, a body (an object or array is sent as JSON), an account name.
 */
export function checkInput(input: unknown): Checked<AgentRequestInput> {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('The input must be an object with "method" and "path".');
	const { method, path, query, body, account } = input as Record<string, unknown>;
	const upper = typeof method === 'string' ? method.toUpperCase() : method;
	if (!AGENT_METHODS.includes(upper as AgentMethod)) return fail(`"method" must be one of ${AGENT_METHODS.join(', ')}.`);
	if (typeof path !== 'string' || path === '') return fail('"path" must be a path on the service, such as "/v1/Me".');
	if (account !== undefined && (typeof account !== 'string' || account.trim() === '' || account.length > 256)) return fail('"account" must be the name of a logged-in account (see telematics_accounts), or left out for the active one.');
	let flatQuery: Record<string, string> | undefined;
	if (query !== undefined) {
		if (typeof query !== 'object' || query === null || Array.isArray(query)) return fail('"query" must be an object of names and values.');
		flatQuery = {};
		for (const [name, value] of Object.entries(query)) {
			if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return fail(`The query value of "${name}" must be a string, a number or a boolean.`);
			flatQuery[name] = String(value);
		}
	}
	let text: string | undefined;
	if (body !== undefined && body !== null) {
		text = typeof body === 'string' ? body : JSON.stringify(body);
		if (text.length > MAX_REQUEST_BODY_CHARS) return fail(`The body is ${text.length} characters; at most ${MAX_REQUEST_BODY_CHARS} are sent.`);
		if (upper === 'GET' || upper === 'HEAD') return fail(`A ${upper} request has no body; use "query" for its parameters.`);
	}
	return { ok: true, value: { method: upper as AgentMethod, path, ...(flatQuery && { query: flatQuery }), ...(text !== undefined && { body: text }), ...(typeof account === 'string' && { account: account.trim() }) } };
}

/** `text` percent-decoded until it no longer changes (at most a few rounds); undefined when it does not decode. */
function fullyDecoded(text: string): string | undefined {
	let current = text;
	for (let round = 0; round < 4; round++) {
		let next: string;
		try {
			next = decodeURIComponent(current);
		} catch {
			return undefined;
		}
		if (next === current) return current;
		current = next;
	}
	return undefined;
}

const LEAVES_THE_SERVICE = 'The path must be a path on the account\'s service, such as "/v1/Me": no URL, host, "//", "\\\\" or "..". Other hosts cannot be reached with this tool.';

/**
 * Why `path` as written cannot name a place on the service, or undefined. Refused: a path that does not
 * start with one `/` (so an absolute URL, any scheme, a host as `//host` or `%2F@host`), whitespace and
 * control characters, a backslash (read as "/" by URL parsers), a fragment; and, percent-decoded, a
 * leading `//`, a backslash or control character, or a `.` or `..` segment, which a server or proxy that
 * decodes before it routes may act on. The raw path and the decoded one are both tested.
 */
export function pathRefusal(path: string): string | undefined {
	const pathPart = path.split('?', 1)[0]!;
	const decoded = fullyDecoded(pathPart);
	const decodedWhole = fullyDecoded(path);
	// Stryker disable next-line ConditionalExpression: a path part that does not decode leaves the whole path undecodable too
	if (decoded === undefined || decodedWhole === undefined) return 'The path holds a percent sign that is not an escape; write "%25" for "%".';
	if (/[\s\u0000-\u001f\u007f-\u009f\\#]/.test(path)) return LEAVES_THE_SERVICE;
	if (/[\u0000-\u001f\u007f-\u009f\\]/.test(decodedWhole)) return LEAVES_THE_SERVICE;
	for (const form of [pathPart, decoded]) {
		if (!form.startsWith('/') || form.startsWith('//')) return LEAVES_THE_SERVICE;
	}
	if (decoded.split('/').some((segment) => segment === '.' || segment === '..')) return LEAVES_THE_SERVICE;
	return undefined;
}

/** Whether `href` reads as a URL on the service's origin, under its root path (`root`, no trailing "/"), with no user or password. */
export function staysOnService(href: string, origin: string, root: string): boolean {
	const url = URL.parse(href);
	return url !== null && url.origin === origin && url.username === '' && url.password === '' && (url.pathname === root || url.pathname.startsWith(`${root}/`));
}

/**
 * The URL `path` (and `query`) names on the service at `serviceUrl`, or why it is refused: the path as
 * pathRefusal reads it, and the URL built from it must stay on the service (staysOnService); each is
 * tested on its own, so neither leans on the other.
 */
export function serviceUrlFor(serviceUrl: string, path: string, query?: Record<string, string>): Checked<string> {
	if (path.length > MAX_PATH_CHARS) return fail(`The path is ${path.length} characters; at most ${MAX_PATH_CHARS} are accepted.`);
	let service: URL;
	try {
		service = new URL(serviceUrl);
	} catch {
		return fail('The account\'s service URL cannot be read; log in again.');
	}
	const refusal = pathRefusal(path);
	if (refusal !== undefined) return fail(refusal);
	const root = service.pathname.replace(/\/+$/, '');
	const href = `${service.origin}${root}${path}`;
	// Stryker disable next-line ConditionalExpression: unreachable while pathRefusal holds; staysOnService is tested on its own
	if (!staysOnService(href, service.origin, root)) return fail(LEAVES_THE_SERVICE);
	const url = new URL(href);
	for (const [name, value] of Object.entries(query ?? {})) url.searchParams.append(name, value);
	return { ok: true, value: url.href };
}

/** Longest part of a request's body the person is shown before it is sent. */
export const MAX_CONFIRMATION_BODY_CHARS = 2_000;

/** The body as the person is shown it before a change: every token masked first, then cut; how much was cut. */
export function bodyPreview(body: string, secrets: readonly string[]): { text: string; cut: number } {
	const masked = redact(body, secrets);
	const shown = masked.slice(0, MAX_CONFIRMATION_BODY_CHARS);
	return { text: shown, cut: masked.length - shown.length };
}

export interface AgentAnswer {
	status: number;
	headers: Record<string, string>;
	body: string;
}

/**
 * The answer as the model reads it: the status, the content type, and the body (JSON pretty-printed,
 * text as it is, anything else described), every token in it masked (JWTs, `Bearer` values, secret
 * fields, and the account's own secrets in any encoding), cut at MAX_RESULT_BODY_CHARS.
 */
export function describeAnswer(answer: AgentAnswer, request: { method: AgentMethod; url: string; account: string }, secrets: readonly string[]): string {
	const contentType = Object.entries(answer.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
	const lines = [`${request.method} ${request.url} as ${request.account} → HTTP ${answer.status}${contentType ? ` (${contentType})` : ''}`];
	let body = answer.body;
	if (request.method === 'HEAD' || body === '') {
		lines.push('The answer has no body.');
	} else if (/\bjson\b/i.test(contentType) || /^\s*[[{]/.test(body)) {
		try {
			body = JSON.stringify(JSON.parse(body), null, 2);
		} catch {
			lines.push('The body is not valid JSON; it is shown as text.');
		}
		lines.push(...cut(redact(body, secrets)));
	} else if (contentType === '' || /^text\/|xml|html|javascript|csv|x-www-form-urlencoded/i.test(contentType)) {
		lines.push(...cut(redact(body, secrets)));
	} else {
		lines.push(`The body (${body.length} characters of ${contentType}) is not text and is not shown.`);
	}
	return redact(lines.join('\n'), secrets);
}

function cut(text: string): string[] {
	if (text.length <= MAX_RESULT_BODY_CHARS) return [text];
	return [text.slice(0, MAX_RESULT_BODY_CHARS), `[The body was cut: ${text.length - MAX_RESULT_BODY_CHARS} more characters not shown (at most ${MAX_RESULT_BODY_CHARS} are). Ask for less, for example with a query.]`];
}
