// The API client's typed failure (its messages: errorMessages.ts) and which kinds are worth retrying.
import type { ApiErrorKind, ValidationDetail } from './types';

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
		return isTransientKind(this.kind);
	}
}

/** The one retry classification: network, timeout and 5xx may pass; anything else will not. */
export function isTransientKind(kind: ApiErrorKind): boolean {
	return kind === 'network' || kind === 'timeout' || kind === 'serverUnavailable';
}
