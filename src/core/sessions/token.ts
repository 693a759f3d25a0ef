// The token model: when an access token expires and what it says about itself. The JWT's own `exp`
// first, then `ExpiresIn` (seconds in practice, "milliseconds" per the spec), then 2 hours.
import { jwtDecode, type JwtPayload } from 'jwt-decode';
import type { StoredTokens } from './types';

/** The spec's stated lifetime and refresh period. */
export const DEFAULT_LIFETIME_MS = 2 * 60 * 60 * 1000;

/**
 * Longest access-token lifetime we believe from `ExpiresIn` (the service sends 86400 s).
 * Kept at 7 days so the spec's own "2 hours in milliseconds" (7200000) is read as ms,
 * not as 83 days; anything longer falls back to the 2-hour default (an early refresh is harmless).
 */
const MAX_PLAUSIBLE_SECONDS = 7 * 24 * 60 * 60;

/** Furthest ahead of now a JWT `exp` is believed; a later one falls back to `ExpiresIn`. */
export const MAX_BELIEVED_EXP_AHEAD_MS = 30 * 24 * 60 * 60 * 1000;

export interface Expiry {
	expiresAt: number;
	source: StoredTokens['expirySource'];
	/** Why a source was passed over, for the log (no token content). */
	note?: string;
}

/** Decoded JWT payload, or undefined when the token is not a readable JWT. */
export function decodeClaims(token: string): (JwtPayload & Record<string, unknown>) | undefined {
	try {
		return jwtDecode<JwtPayload & Record<string, unknown>>(token);
	} catch {
		return undefined;
	}
}

/** Decoded JWT header, or undefined. */
export function decodeHeader(token: string): Record<string, unknown> | undefined {
	try {
		return jwtDecode<Record<string, unknown>>(token, { header: true });
	} catch {
		return undefined;
	}
}

/**
 * Reads `ExpiresIn` as a lifetime in ms. Seconds is what the service sends; a value too
 * large to be seconds but plausible as milliseconds (the spec's label) is read as ms.
 */
export function expiresInToMs(expiresIn: number | undefined): number | undefined {
	if (expiresIn === undefined || !Number.isFinite(expiresIn) || expiresIn <= 0) return undefined;
	if (expiresIn <= MAX_PLAUSIBLE_SECONDS) return expiresIn * 1000;
	if (expiresIn <= MAX_PLAUSIBLE_SECONDS * 1000) return expiresIn;
	return undefined;
}

/**
 * When `accessToken` expires. The JWT's `exp` is believed only inside a plausible window:
 * not before the token's own issue time (`iat`, or 30 days back when it has none) and at
 * most 30 days ahead of `now`. Otherwise `ExpiresIn`, then the 2-hour default; `note` says why.
 * An `exp` in the recent past is believed: the token is expired, and the scheduler's
 * minimum interval (refreshPlan.ts) keeps that from turning into a refresh loop.
 */
export function computeExpiry(accessToken: string, expiresIn: number | undefined, now: number): Expiry {
	const claims = decodeClaims(accessToken);
	const exp = claims?.exp;
	let note: string | undefined;
	if (exp !== undefined) {
		const expMs = typeof exp === 'number' ? exp * 1000 : NaN;
		const iat = claims?.iat;
		const issuedMs = typeof iat === 'number' && Number.isFinite(iat) ? iat * 1000 : now - MAX_BELIEVED_EXP_AHEAD_MS;
		if (Number.isFinite(expMs) && expMs > issuedMs && expMs >= now - MAX_BELIEVED_EXP_AHEAD_MS && expMs <= now + MAX_BELIEVED_EXP_AHEAD_MS) {
			return { expiresAt: expMs, source: 'jwt' };
		}
		note = 'the token\'s exp claim is outside the plausible window (its issue time to 30 days ahead)';
	}
	const lifetime = expiresInToMs(expiresIn);
	if (lifetime !== undefined) return { expiresAt: now + lifetime, source: 'expiresIn', ...(note && { note }) };
	if (expiresIn !== undefined) note = `${note ? `${note}; ` : ''}ExpiresIn is not a plausible lifetime`;
	return { expiresAt: now + DEFAULT_LIFETIME_MS, source: 'default', ...(note && { note }) };
}
