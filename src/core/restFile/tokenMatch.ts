// Which logged-in account a JWT found in a file belongs to: the account's current token, or one with
// the same `sub` (and `iss`/`instanceId` where both carry them); the store keeps no list of past tokens.
// What may be written over one (Update Tokens in File) asks more: the same issuer, subject and instance.
import { decodeClaims } from '../sessions/token';

export interface KnownToken {
	accountId: string;
	/** The account's current access token. */
	accessToken: string;
	/** When the current token expires (epoch ms). */
	expiresAt: number;
}

export interface TokenOwner {
	accountId: string;
	/** The token in the file is the account's current token. */
	isCurrent: boolean;
	/** The account holds a different token that lives longer than the one in the file. */
	newerAvailable: boolean;
}

/** The claims that say whose token it is. */
export interface TokenIdentity {
	sub?: string;
	iss?: string;
	instanceId?: string;
	exp?: number;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

export function identityOf(token: string): TokenIdentity | undefined {
	const claims = decodeClaims(token);
	if (!claims) return undefined;
	const instanceId = text(claims.instanceId) ?? text(claims.InstanceId) ?? text(claims.instance_id);
	return {
		sub: text(claims.sub),
		iss: text(claims.iss),
		instanceId,
		exp: typeof claims.exp === 'number' ? claims.exp : undefined,
	};
}

function sameWhereBoth(a: string | undefined, b: string | undefined): boolean {
	return a === undefined || b === undefined || a === b;
}

export function sameSubject(a: TokenIdentity, b: TokenIdentity): boolean {
	return a.sub !== undefined && a.sub === b.sub && sameWhereBoth(a.iss, b.iss) && sameWhereBoth(a.instanceId, b.instanceId);
}

/**
 * The same account beyond doubt: the same subject, issuer and instance, each present in both or in
 * neither. A planted JWT that shares only the subject is no token of the account's to write over.
 */
export function sameAccount(a: TokenIdentity, b: TokenIdentity): boolean {
	return a.sub !== undefined && a.sub === b.sub && a.iss === b.iss && a.instanceId === b.instanceId;
}

/** `strict`: match by sameAccount (to write over it), else by sameSubject (to say whose it is). */
export function findOwner(token: string, known: readonly KnownToken[], strict = false): TokenOwner | undefined {
	const exact = known.find((k) => k.accessToken === token);
	if (exact) return { accountId: exact.accountId, isCurrent: true, newerAvailable: false };
	const identity = identityOf(token);
	if (!identity) return undefined;
	const owner = known.find((k) => {
		const current = identityOf(k.accessToken);
		return current !== undefined && (strict ? sameAccount(identity, current) : sameSubject(identity, current));
	});
	if (!owner) return undefined;
	const fileExpiresAt = identity.exp === undefined ? undefined : identity.exp * 1000;
	return {
		accountId: owner.accountId,
		isCurrent: false,
		newerAvailable: fileExpiresAt === undefined || owner.expiresAt > fileExpiresAt,
	};
}

/** Old token → the owner's current token, for every token in `tokens` with a newer one, of the same account beyond doubt. */
export function planReplacements(tokens: Iterable<string>, known: readonly KnownToken[]): Map<string, { newToken: string; accountId: string }> {
	const replacements = new Map<string, { newToken: string; accountId: string }>();
	for (const token of tokens) {
		if (replacements.has(token)) continue;
		const owner = findOwner(token, known, true);
		if (!owner || !owner.newerAvailable) continue;
		const current = known.find((k) => k.accountId === owner.accountId)!;
		replacements.set(token, { newToken: current.accessToken, accountId: owner.accountId });
	}
	return replacements;
}
