// Reads the service's answers tolerantly (any casing, token objects or bare strings, several error
// shapes) and decides success from both the HTTP status and the body's Status. No I/O, no messages.
import type { ApiErrorKind, HttpResponse, TokenResponse, ValidationDetail } from './types';

export interface Envelope {
	status?: number;
	title?: string;
	errors: ValidationDetail[];
	result?: unknown;
}

/** Why a response is not a success, before it becomes a message. */
export interface Failure {
	kind: ApiErrorKind;
	/** The status that signalled the failure (HTTP or the body's `Status`). */
	status: number;
	details: ValidationDetail[];
	title?: string;
	retryAfterSeconds?: number;
	/** The body was an HTML page (a proxy's or gateway's error page). */
	html?: boolean;
	/** For `badResponse`: what was missing or wrong, in a few words. */
	problem?: string;
}

/** Tokens as read; the refresh token may be missing (the client decides what that means). */
export type ParsedTokens = Omit<TokenResponse, 'refreshToken'> & { refreshToken?: string };

export type Outcome = { ok: true; tokens: ParsedTokens } | { ok: false; failure: Failure };

/**
 * Most details we keep. Texts are kept whole here (the transport bounds the body): the client
 * cuts them only after redaction, so a cut never leaves part of a secret behind.
 */
const MAX_DETAILS = 10;

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of the first of `names` present in `obj`, compared case-insensitively. */
export function pick(obj: unknown, ...names: string[]): unknown {
	if (!isRecord(obj)) return undefined;
	for (const name of names) {
		if (name in obj) return obj[name];
	}
	const lower = names.map((n) => n.toLowerCase());
	for (const key of Object.keys(obj)) {
		if (lower.includes(key.toLowerCase())) return obj[key];
	}
	return undefined;
}

function text(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const trimmed = value.trim();
	return trimmed ? trimmed : undefined;
}

function nonEmptyString(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function toNumber(value: unknown): number | undefined {
	// Stryker disable next-line ConditionalExpression: redundant
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	// Stryker disable next-line ConditionalExpression: redundant
	if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return undefined;
}

/** The body as JSON, or undefined (empty, blank or broken). */
export function tryParseJson(body: string): unknown {
	try {
		// The catch's block, from here: without its return the function returns undefined all the same.
		// Stryker disable BlockStatement: equivalent
		return JSON.parse(body) as unknown;
	} catch {
		return undefined;
	}
}
// Stryker restore BlockStatement

export function looksLikeHtml(body: string, contentType: string | undefined): boolean {
	// Stryker disable next-line StringLiteral: equivalent
	return /\bhtml\b/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body)\b/i.test(body);
}

/**
 * `Errors` in any of the shapes seen: `[{Key, Message}]` in any casing, `["text"]`,
 * or ASP.NET's `{"Field": ["text", …]}`.
 */
export function readErrors(value: unknown): ValidationDetail[] {
	const details: ValidationDetail[] = [];
	if (Array.isArray(value)) {
		for (const item of value) {
			if (typeof item === 'string') {
				const message = text(item);
				if (message) details.push({ key: '', message });
				continue;
			}
			// Stryker disable next-line ConditionalExpression: redundant
			if (!isRecord(item)) continue;
			const key = text(pick(item, 'Key', 'Field', 'PropertyName', 'Name', 'Code')) ?? '';
			const message = text(pick(item, 'Message', 'ErrorMessage', 'Description', 'Error')) ?? '';
			if (key || message) details.push({ key, message });
		}
	} else if (isRecord(value)) {
		for (const [key, messages] of Object.entries(value)) {
			const list = Array.isArray(messages) ? messages : [messages];
			for (const m of list) {
				const message = text(m);
				if (message) details.push({ key: text(key) ?? '', message });
			}
		}
	} else {
		const message = text(value);
		if (message) details.push({ key: '', message });
	}
	return details.slice(0, MAX_DETAILS);
}

export function readEnvelope(json: unknown): Envelope | undefined {
	if (!isRecord(json)) return undefined;
	return {
		status: toNumber(pick(json, 'Status', 'StatusCode')),
		title: text(pick(json, 'Title')),
		errors: readErrors(pick(json, 'Errors')),
		result: pick(json, 'Result'),
	};
}

/**
 * Tokens from a `Result` (or, when there is none, from the top level). `AccessToken`
 * may be `{Token, ExpiresIn}` or a bare string. Fields not found are left out.
 */
export function readTokens(result: unknown): Partial<TokenResponse> {
	const access = pick(result, 'AccessToken', 'access_token');
	const accessToken = typeof access === 'string' ? nonEmptyString(access) : nonEmptyString(pick(access, 'Token', 'Value', 'AccessToken'));
	const expiresIn = toNumber(pick(access, 'ExpiresIn', 'expires_in')) ?? toNumber(pick(result, 'ExpiresIn', 'expires_in'));
	const refreshValue = pick(result, 'RefreshToken', 'refresh_token');
	const refreshToken = typeof refreshValue === 'string' ? nonEmptyString(refreshValue) : nonEmptyString(pick(refreshValue, 'Token', 'Value'));
	const deviceToken = nonEmptyString(pick(result, 'DeviceToken'));
	// Assigned one by one: conditional spreads showed in the login overhead figure.
	const tokens: Partial<TokenResponse> = {};
	if (accessToken !== undefined) tokens.accessToken = accessToken;
	if (expiresIn !== undefined) tokens.expiresIn = expiresIn;
	if (refreshToken !== undefined) tokens.refreshToken = refreshToken;
	if (deviceToken !== undefined) tokens.deviceToken = deviceToken;
	return tokens;
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
	// Stryker disable next-line ConditionalExpression,MethodExpression: equivalent
	if (!value?.trim()) return undefined;
	const seconds = toNumber(value);
	if (seconds !== undefined) return Math.max(0, Math.ceil(seconds));
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function header(headers: Record<string, string>, name: string): string | undefined {
	return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function isSuccess(status: number): boolean {
	return status >= 200 && status < 300;
}

/** The kind a failing status means. */
export function kindForStatus(status: number): ApiErrorKind {
	if (status === 401) return 'badCredentials';
	if (status === 403) return 'forbidden';
	if (status === 400 || status === 422) return 'validation';
	if (status === 429) return 'rateLimited';
	if (status === 407) return 'network';
	if (status === 408 || status >= 500) return 'serverUnavailable';
	return 'badResponse';
}

/**
 * Success (with tokens) or a failure, from the HTTP status, the body's `Status` and
 * `Errors`, and what the body holds. Whichever status signals failure wins; the HTTP
 * status when both do. A non-empty `Errors` is a failure even under `Status: 200`.
 */
export function interpretResponse(response: HttpResponse, now: number = Date.now()): Outcome {
	const json = tryParseJson(response.body);
	const envelope = readEnvelope(json);
	const html = json === undefined && looksLikeHtml(response.body, header(response.headers, 'content-type'));
	const bodyStatus = envelope?.status;
	const status = !isSuccess(response.status) ? response.status
		: bodyStatus !== undefined && !isSuccess(bodyStatus) ? bodyStatus
		: response.status;
	const fail = (failure: Omit<Failure, 'details'> & { details?: ValidationDetail[] }): Outcome => ({
		ok: false,
		failure: {
			details: envelope?.errors ?? [],
			...(envelope?.title !== undefined && { title: envelope.title }),
			...(html && { html }),
			...failure,
		},
	});

	if (!isSuccess(status)) {
		let kind = kindForStatus(status);
		if (kind === 'badResponse' && html && status !== 404) kind = 'serverUnavailable';
		const retryAfterSeconds = parseRetryAfter(header(response.headers, 'retry-after'), now);
		return fail({ kind, status, ...(retryAfterSeconds !== undefined && { retryAfterSeconds }) });
	}
	if (json === undefined) {
		return html
			? fail({ kind: 'serverUnavailable', status })
			: fail({ kind: 'badResponse', status, problem: response.body.trim() ? 'the body is not JSON' : 'the body is empty' });
	}
	if (!envelope) return fail({ kind: 'badResponse', status, problem: 'the body is not a JSON object' });
	if (envelope.errors.length) return fail({ kind: 'validation', status });
	const tokens = readTokens(envelope.result ?? json);
	if (tokens.accessToken === undefined) return fail({ kind: 'badResponse', status, problem: 'there is no access token in it' });
	return { ok: true, tokens: { ...tokens, accessToken: tokens.accessToken } };
}
