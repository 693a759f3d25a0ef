// Issuing access and refresh tokens, and rotating them: a refresh token is good once, and (by default)
// a new login or refresh for the same subject spends the one before.
import { createHash, randomBytes } from 'node:crypto';
import type { Identity } from './authenticate';
import type { TokenResult } from './envelope';
import { newJti, newSecret, signJwt, verifyJwt, type EmulatorClaims } from './jwt';

export const AUDIENCE = 'telematics-api';

export interface TokenPolicy {
	/** The emulator's URL, the `iss` claim. */
	issuer(): string;
	accessLifetimeSeconds(): number;
	refreshLifetimeSeconds(): number;
	singleRefreshTokenPerSubject(): boolean;
	now(): number;
}

interface RefreshRecord {
	subject: string;
	identity: Identity;
	expiresAt: number;
	spent: boolean;
}

export class TokenIssuer {
	private readonly secret = newSecret();
	private readonly refreshTokens = new Map<string, RefreshRecord>();
	private readonly currentBySubject = new Map<string, string>();

	constructor(private readonly policy: TokenPolicy) { }

	/** `exp`: overrides the access token's `exp` claim (the `expiredToken` and `absurdExp` faults). */
	issue(identity: Identity, exp?: number): TokenResult {
		const now = this.policy.now();
		const lifetime = this.policy.accessLifetimeSeconds();
		// An `exp` in the past (the expiredToken fault) comes with an issue time before it, as a
		// server with a wrong clock would send; `absurdExp` keeps the real issue time.
		const iat = exp !== undefined && exp <= Math.floor(now / 1000) ? exp - lifetime : Math.floor(now / 1000);
		const subject = subjectOf(identity);
		const claims: EmulatorClaims = {
			sub: subject,
			iss: this.policy.issuer(),
			aud: AUDIENCE,
			iat,
			exp: exp ?? iat + lifetime,
			nbf: iat,
			jti: newJti(),
			role: identity.role,
			instanceId: identity.role === 'user' ? identity.user.instanceId : identity.admin.instanceId,
			name: identity.role === 'user' ? identity.user.name ?? `user-${subject.slice(-8)}` : identity.admin.email,
		};
		const refreshToken = randomBytes(48).toString('base64url');
		if (this.policy.singleRefreshTokenPerSubject()) {
			const previous = this.currentBySubject.get(subject);
			const record = previous === undefined ? undefined : this.refreshTokens.get(previous);
			if (record) record.spent = true;
		}
		this.refreshTokens.set(refreshToken, {
			subject,
			identity,
			expiresAt: now + this.policy.refreshLifetimeSeconds() * 1000,
			spent: false,
		});
		this.currentBySubject.set(subject, refreshToken);
		return {
			...(identity.role === 'user' ? { DeviceToken: identity.user.deviceToken } : {}),
			AccessToken: { Token: signJwt(claims, this.secret), ExpiresIn: lifetime },
			RefreshToken: refreshToken,
		};
	}

	/**
	 * New tokens for a signed (possibly expired) access token and its subject's live refresh
	 * token; undefined when either is refused. The refresh token given is spent either way it succeeds.
	 */
	refresh(accessToken: string, refreshToken: string, exp?: number): TokenResult | undefined {
		const claims = verifyJwt(accessToken, this.secret);
		const record = this.refreshTokens.get(refreshToken);
		if (!claims || !record || record.spent) return undefined;
		if (record.expiresAt <= this.policy.now() || claims.sub !== record.subject) return undefined;
		record.spent = true;
		return this.issue(record.identity, exp);
	}

	/** The claims of a token this emulator signed (expired or not), else undefined. `GET /v1/Me` asks this. */
	verify(accessToken: string): Record<string, unknown> | undefined {
		return verifyJwt(accessToken, this.secret);
	}
}

/** A stable subject id that does not reveal the device token or the email. */
export function subjectOf(identity: Identity): string {
	const source = identity.role === 'user'
		? `user\n${identity.user.instanceId}\n${identity.user.deviceToken}`
		: `admin\n${identity.admin.instanceId}\n${identity.admin.email.toLowerCase()}`;
	return `${identity.role}-${createHash('sha256').update(source).digest('hex').slice(0, 24)}`;
}
