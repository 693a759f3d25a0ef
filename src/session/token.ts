// The token model: when an access token expires, and what it says about itself.
// Pure: no `vscode` import. The JWT's own `exp` is the reliable source; `ExpiresIn`
// (seconds in practice, "milliseconds" per the spec) is the fallback; 2 hours is the last resort.
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

export interface Expiry {
	expiresAt: number;
	source: StoredTokens['expirySource'];
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

export function computeExpiry(accessToken: string, expiresIn: number | undefined, now: number): Expiry {
	const exp = decodeClaims(accessToken)?.exp;
	if (typeof exp === 'number' && Number.isFinite(exp) && exp > 0) {
		return { expiresAt: exp * 1000, source: 'jwt' };
	}
	const lifetime = expiresInToMs(expiresIn);
	if (lifetime !== undefined) return { expiresAt: now + lifetime, source: 'expiresIn' };
	return { expiresAt: now + DEFAULT_LIFETIME_MS, source: 'default' };
}

/**
 * Time left in the compact form the status bar and tree use:
 * `1h 59m`, `12m`, `45s`, or `expired`. Minutes are rounded down; under a minute shows seconds.
 */
export function formatRemaining(ms: number): string {
	if (ms <= 0) return 'expired';
	const totalSeconds = Math.floor(ms / 1000);
	if (totalSeconds < 60) return `${totalSeconds}s`;
	const totalMinutes = Math.floor(totalSeconds / 60);
	const days = Math.floor(totalMinutes / (24 * 60));
	const hours = Math.floor((totalMinutes % (24 * 60)) / 60);
	const minutes = totalMinutes % 60;
	if (days > 0) return hours > 0 ? `${days}d ${hours}h` : `${days}d`;
	if (hours > 0) return `${hours}h ${minutes}m`;
	return `${minutes}m`;
}
