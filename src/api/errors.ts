// Typed failures of the API client. Messages are for people: they say what happened and
// what to do, and never carry a token, a password or a raw response body.

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

export class ApiError extends Error {
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

export function isApiError(e: unknown): e is ApiError {
	return e instanceof ApiError;
}
