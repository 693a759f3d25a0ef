// The grammar a token must fit before it is stored or written anywhere: base64url/JWT characters and
// `-_.~+/=` only, so no line break, quote, brace, space or shell character rides along.

/** A JWT's shape: base64url of `{"` (`eyJ`), then two more base64url segments (the last may be empty). */
export const JWT_SHAPE = 'eyJ[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*';

/** Whether `value` is exactly one JWT-shaped string. */
export function isJwtShaped(value: string): boolean {
	return new RegExp(`^${JWT_SHAPE}$`).test(value);
}

/** Longest token accepted (a JWT with many claims stays well under this). */
export const MAX_TOKEN_LENGTH = 8 * 1024;

const TOKEN = /^[A-Za-z0-9\-_.~+/=]+$/;

/** Whether `value` is a string that fits the token grammar (one character at least: the grammar's `+`). */
export function isSafeToken(value: unknown): value is string {
	return typeof value === 'string' && value.length <= MAX_TOKEN_LENGTH && TOKEN.test(value);
}

/** Thrown where a token is about to leave and does not fit the grammar. Carries no part of it. */
export class UnsafeTokenError extends Error {
	constructor(where: string) {
		super(`Refused to write a token that does not fit the token grammar (${where}).`);
		this.name = 'UnsafeTokenError';
	}
}

/** `value` if it fits the grammar; otherwise throws `UnsafeTokenError` naming `where`. */
export function requireSafeToken(value: string, where: string): string {
	if (!isSafeToken(value)) throw new UnsafeTokenError(where);
	return value;
}

/**
 * A POSIX shell word holding `value` literally: single quotes, with each `'` written as `'\''`.
 * Safe for any string; tokens never hold `'`, but the quoting does not rely on that.
 */
export function shellQuote(value: string): string {
	return `'${value.replace(/'/g, `'\\''`)}'`;
}
