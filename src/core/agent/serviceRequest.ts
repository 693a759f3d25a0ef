// What the agent's `telematics_request` tool may send and what it hands back: a request checked to stay on
// the account's platform (a host key and a path, never a URL, a host name or a way out of the service's
// root), the operation it is (from the platform description) and the account kind it needs, and an answer
// with every token masked, cut at a bound. Pure: no I/O, no `vscode`.
import type { AccountKind } from '../api/types';
import { HOST_KEYS, type HostKey } from '../platform/hosts';
import type { Platform } from '../platform/load';
import type { Operation } from '../platform/operations';
import { redact } from '../util/redact';
import type { Checked } from '../util/checked';

export const AGENT_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type AgentMethod = (typeof AGENT_METHODS)[number];

/** The methods that change nothing run without a question; the others ask the person first. */
export function asksFirst(method: AgentMethod): boolean {
	return method !== 'GET' && method !== 'HEAD';
}

/**
 * A JSON body is sent as JSON.stringify prints what JSON.parse read: exactly what the question shows (it shows
 * the parsed value). Otherwise a body the round trip changes (a duplicate key, an integer beyond 2^53, 1e999)
 * would be shown one way and read by the service another. Text that is not JSON is sent (and shown) as it is.
 */
function asPrinted(body: string): string {
	if (!/^\s*[[{]/.test(body)) return body;
	try {
		return JSON.stringify(JSON.parse(body));
	} catch {
		return body;
	}
}

/** Longest body sent (the service's requests are small). */
export const MAX_REQUEST_BODY_CHARS = 64 * 1024;
/** Longest answer text handed to the model; the rest is cut, and the result says so. */
export const MAX_RESULT_BODY_CHARS = 20_000;

export interface AgentRequestInput {
	method: AgentMethod;
	path: string;
	/** The platform host the path is on: as given, the operation's, the one whose operation the path is, else `user` (the service). */
	host: HostKey;
	/** The operation of the description the request is, when it is a known one. */
	operation?: Operation;
	query?: Record<string, string>;
	/** JSON text, or a value sent as JSON. */
	body?: string;
	account?: string;
}

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

const HOST_KEY_LIST = HOST_KEYS.map((key) => `"${key}"`).join(', ');

/** A host key as the model wrote it, or why it is refused: never a URL, an origin or a host name. */
function checkHost(host: unknown): Checked<HostKey | undefined> {
	if (host === undefined) return { ok: true, value: undefined };
	if (typeof host !== 'string' || !/^[A-Za-z][A-Za-z0-9-]{0,31}$/.test(host)) {
		return fail(`"host" must be a host key of the account's platform (${HOST_KEY_LIST}), never a URL, an origin or a host name. The tool sends only to the account's own hosts.`);
	}
	const key = HOST_KEYS.find((k) => k === host.toLowerCase());
	return key ? { ok: true, value: key } : fail(`"${host}" is not a host of the account's platform. Its hosts are ${HOST_KEY_LIST}.`);
}

/**
 * The operation `path` is with `method`: on `host` first when given, then on any other host, since several
 * keys may share an origin (the demo service, a gateway) and a request is what the server it reaches
 * makes of it: a user's DELETE sent with `"host": "api"` is still asked about.
 */
function operationOf(platform: Platform, method: string, path: string, host: HostKey | undefined): Operation | undefined {
	// Stryker disable next-line ArrayDeclaration,MethodExpression,ArrowFunction,ConditionalExpression: equivalent
	for (const key of host ? [host, ...HOST_KEYS.filter((k) => k !== host)] : HOST_KEYS) {
		const op = platform.operationFor(method, key, path);
		if (op) return op;
	}
	return undefined;
}

/** The path of `op` with its `{parameters}` from `pathParameters`, or why not. */
function operationPath(platform: Platform, op: Operation, values: unknown): Checked<string> {
	if (values !== undefined && (typeof values !== 'object' || values === null || Array.isArray(values))) return fail('"pathParameters" must be an object of names and values, such as {"DeviceToken": "…"}.');
	const filled = platform.fillPath(op, (values ?? {}) as Record<string, unknown>);
	// Stryker disable next-line StringLiteral: unreachable
	if (!filled.ok) return fail(`The operation "${op.id}" needs "pathParameters" with ${filled.missing.map((name) => `"${name}"`).join(', ')} (path ${op.path}).`);
	return { ok: true, value: filled.path };
}

/**
 * The tool's input as the model sent it, checked: an operation id (with its path parameters) or a method
 * and a path, a host key, a flat query of strings, numbers and booleans, a body (an object or array is
 * sent as JSON), an account name. `platform`: the description, to know the operations.
 */
export function checkInput(input: unknown, platform: Platform): Checked<AgentRequestInput> {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('The input must be an object with "operation" (see telematics_operations), or "method" and "path".');
	const { method: givenMethod, path: givenPath, host: givenHost, operation: operationId, pathParameters: values, query, body, account } = input as Record<string, unknown>;
	const host = checkHost(givenHost);
	if (!host.ok) return host;
	let operation: Operation | undefined;
	let method: unknown = givenMethod;
	let path: unknown = givenPath;
	if (operationId !== undefined) {
		// Stryker disable next-line ConditionalExpression: redundant
		operation = typeof operationId === 'string' ? platform.operationById(operationId) : undefined;
		if (!operation) return fail(`"operation" must be an id from telematics_operations, such as "trips.user.list"; "${String(operationId).slice(0, 80)}" is none.`);
		if (host.value && host.value !== operation.host) return fail(`The operation "${operation.id}" is on the "${operation.host}" host, not "${host.value}".`);
		if (method !== undefined && (typeof method !== 'string' || method.toUpperCase() !== operation.method)) return fail(`The operation "${operation.id}" is a ${operation.method}; leave "method" out.`);
		if (path !== undefined) return fail(`Give either "operation" (with "pathParameters") or "path", not both.`);
		const filled = operationPath(platform, operation, values);
		if (!filled.ok) return filled;
		method = operation.method;
		path = filled.value;
	}
	const upper = typeof method === 'string' ? method.toUpperCase() : method;
	if (!AGENT_METHODS.includes(upper as AgentMethod)) return fail(`"method" must be one of ${AGENT_METHODS.join(', ')}.`);
	if (typeof path !== 'string' || path === '') return fail('"path" must be a path on the platform, such as "/v1/Me", or give an "operation" (see telematics_operations).');
	operation ??= operationOf(platform, upper as string, path, host.value);
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
		text = asPrinted(text);
	}
	return {
		ok: true,
		value: {
			method: upper as AgentMethod,
			path,
			host: host.value ?? operation?.host ?? 'user',
			...(operation && { operation }),
			...(flatQuery && { query: flatQuery }),
			...(text !== undefined && { body: text }),
			...(typeof account === 'string' && { account: account.trim() }),
		},
	};
}

/** The account kind an operation needs: admin, user, or either when it is unknown. */
export function neededKind(operation: Operation | undefined): AccountKind | undefined {
	return operation?.token === 'admin' || operation?.token === 'user' ? operation.token : undefined;
}

/**
 * Which account sends: the one named (when its kind fits); else the active one when its kind fits; else
 * the one logged-in account of the needed kind; else why none (which kind is needed).
 */
export function pickAccount<T extends { kind: AccountKind }>(candidates: readonly T[], active: T | undefined, needed: AccountKind | undefined, named?: T): { account: T } | { needs: AccountKind; reason: 'named' | 'none' | 'several' } | { reason: 'noActive' } {
	if (named) return !needed || named.kind === needed ? { account: named } : { needs: needed, reason: 'named' };
	if (active && (!needed || active.kind === needed)) return { account: active };
	if (!needed) return { reason: 'noActive' };
	const fitting = candidates.filter((c) => c.kind === needed);
	if (fitting.length === 1) return { account: fitting[0]! };
	return { needs: needed, reason: fitting.length === 0 ? 'none' : 'several' };
}

/**
 * What an operation that cannot be undone acts on, in words for the person: its path parameters
 * (`DeviceToken "…"`), else the required fields of its body that are no secret.
 */
export function operationTarget(platform: Platform, operation: Operation, path: string, body: string | undefined): string {
	const named = Object.entries(platform.pathParameters(operation.path, path) ?? {}).map(([name, value]) => `${name} "${value}"`);
	// Stryker disable next-line StringLiteral: unreachable
	if (named.length > 0) return named.join(', ');
	let json: unknown;
	try {
		// From here: JSON.parse throws on undefined, and the catch's block without its line leaves json undefined.
		// Stryker disable ConditionalExpression,BlockStatement: equivalent
		json = body === undefined ? undefined : JSON.parse(body);
	} catch {
		json = undefined;
	}
	// Stryker restore ConditionalExpression,BlockStatement
	if (json === null || typeof json !== 'object') return '';
	return operation.parameters
		.filter((p) => p.in === 'body' && p.required && !/key|password|secret/i.test(p.name))
		.map((p) => [p.name, (json as Record<string, unknown>)[p.name]] as const)
		.filter(([, value]) => typeof value === 'string' || typeof value === 'number')
		.map(([name, value]) => `${name} "${String(value)}"`)
		.join(', ');
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
