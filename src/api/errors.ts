// Typed failures of the API client, and the messages people see for them. Messages say what
// happened and what to do, and never carry a token, a password or a raw response body.
import type { Failure } from './parse';
import type { AccountKind } from './types';

export type ApiErrorKind =
	| 'badCredentials' // 401: wrong InstanceID, login or password; or a refresh token that was refused
	| 'forbidden' // 403: wrong token kind (user vs admin)
	| 'validation' // 400/422 with Key/Message details
	| 'rateLimited' // 429: too many logins; never retried automatically
	| 'serverUnavailable' // 5xx, or an HTML error page
	| 'network' // connection refused, reset, DNS failure, TLS failure, proxy failure
	| 'timeout' // no answer within telematicsAuth.requestTimeoutSeconds
	| 'cancelled' // the caller aborted
	| 'badResponse'; // a response we could not understand

export interface ValidationDetail {
	key: string;
	message: string;
}

/**
 * Marks our errors. The extension ships as several bundles (activation, features, network),
 * each with its own copy of this class, so `instanceof` fails across them; the mark does not.
 */
const API_ERROR = Symbol.for('telematicsAuth.ApiError');

export class ApiError extends Error {
	readonly [API_ERROR] = true;

	constructor(
		readonly kind: ApiErrorKind,
		message: string,
		readonly status?: number,
		readonly details: readonly ValidationDetail[] = [],
		/** Seconds the server asked us to wait (Retry-After), when it said. */
		readonly retryAfterSeconds?: number,
	) {
		super(message);
		this.name = 'ApiError';
	}

	/** Failures worth retrying automatically while the token is still valid (refresh only). */
	get isTransient(): boolean {
		return this.kind === 'network' || this.kind === 'timeout' || this.kind === 'serverUnavailable';
	}
}

/** Whether `e` is an ApiError from any of our bundles. Use this, never `instanceof ApiError`. */
export function isApiError(e: unknown): e is ApiError {
	return typeof e === 'object' && e !== null && (e as { [API_ERROR]?: unknown })[API_ERROR] === true;
}

/** What a message needs to know about the request that failed. */
export interface FailureContext {
	operation: 'login' | 'refresh';
	/** The account kind, for login. */
	accountKind?: AccountKind;
	/** `host[:port]` of the service, never the full URL. */
	host: string;
}

const CHECK_NETWORK = 'Check the service URL (telematicsAuth.baseUrl) and your network/proxy settings (http.proxy).';

function credentialsHint(kind: AccountKind | undefined): string {
	if (kind === 'user') return 'Check the User Group InstanceID, the device token and the User Group InstanceKey, then log in again.';
	if (kind === 'admin') return 'Check the API InstanceID, the API Login and the API Password, then log in again.';
	return 'Check the InstanceID, the device token (or API login) and the InstanceKey (or API password), then log in again.';
}

function plural(n: number, unit: string): string {
	return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** Retry-After as words: `about 3 minutes`, `45 seconds`. */
export function formatWait(seconds: number): string {
	return seconds < 60 ? plural(seconds, 'second') : `about ${plural(Math.ceil(seconds / 60), 'minute')}`;
}

/** `30`, `0.3`: a timeout in seconds as a person reads it. */
export function formatSeconds(ms: number): string {
	const seconds = ms / 1000;
	return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

export function formatDetails(details: readonly ValidationDetail[]): string {
	return details.map((d) => (d.key ? `${d.key}: ${d.message || 'invalid'}` : d.message)).join('; ');
}

/** The message for a failure read from a response (see parse.ts). */
export function failureMessage(failure: Failure, context: FailureContext): string {
	const { status } = failure;
	const login = context.operation === 'login';
	switch (failure.kind) {
		case 'badCredentials':
			return login
				? `The service refused these credentials. ${credentialsHint(context.accountKind)} If you are sure they are right, try the other telematicsAuth.loginFieldsFormat setting.`
				: 'The refresh token was refused (it may have expired or been used already). Log in again.';
		case 'forbidden':
			return login
				? `The service refused this login (403): the credentials belong to a different kind of account. Use "Log In as User" for a User Group InstanceID and device token, "Log In as Admin" for an API InstanceID and API Login.`
				: 'The service refused the refresh (403): the token belongs to a different kind of account (user vs admin). Log in again.';
		case 'validation': {
			const listed = formatDetails(failure.details);
			const what = login ? 'login' : 'refresh';
			return listed
				? `The service rejected the ${what} request: ${listed}`
				: `The service rejected the ${what} request (HTTP ${status})${failure.title ? `: ${failure.title}` : '.'}`;
		}
		case 'rateLimited': {
			const wait = failure.retryAfterSeconds !== undefined ? `Wait ${formatWait(failure.retryAfterSeconds)}` : 'Wait a few minutes';
			return login
				? `Logins are rate-limited by the service (HTTP 429). ${wait}, then log in again; the extension will not retry the login by itself.`
				: `The service is rate-limiting requests (HTTP 429). ${wait}, then try again; the extension will not retry the login by itself.`;
		}
		case 'serverUnavailable':
			return failure.html
				? `The service (or a proxy in between) answered with an error page (HTTP ${status}). Try again later.`
				: `The service is unavailable (HTTP ${status}). Try again later.`;
		case 'network':
			return status === 407
				? `The proxy asked for authentication (HTTP 407). ${CHECK_NETWORK}`
				: `Could not reach ${context.host}. ${CHECK_NETWORK}`;
		case 'timeout':
			return `${context.host} did not answer in time (HTTP ${status}). Try again later, or raise telematicsAuth.requestTimeoutSeconds.`;
		case 'cancelled':
			return cancelledMessage();
		case 'badResponse':
			return status === 404
				? `The service answered 404 Not Found: ${context.host} does not look like the telematics user service. Check telematicsAuth.baseUrl.`
				: `The service answered in a form this extension does not understand (HTTP ${status}${failure.problem ? `: ${failure.problem}` : ''}). Check telematicsAuth.baseUrl.`;
	}
}

/** Connection-level failure: `reason` is a short phrase like `connection refused`. */
export function networkMessage(host: string, reason: string): string {
	return `Could not reach ${host} (${reason}). ${CHECK_NETWORK}`;
}

export function timeoutMessage(host: string, timeoutMs: number): string {
	return `${host} did not answer within ${formatSeconds(timeoutMs)} seconds. Try again later, or raise the timeout in the setting telematicsAuth.requestTimeoutSeconds.`;
}

export function cancelledMessage(): string {
	return 'The request was cancelled.';
}

export function tooLargeMessage(host: string, limitBytes: number): string {
	return `The service answered in a form this extension does not understand (the response from ${host} is larger than ${Math.round(limitBytes / 1024)} KiB). Check telematicsAuth.baseUrl.`;
}
