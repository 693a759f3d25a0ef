// A refresh endpoint that behaves like the real service where it matters: every refresh
// rotates the refresh token, and a spent (or unknown) refresh token gets a 401.
import { ApiError } from '../../../src/core/api/errors';
import type { RefreshRequest, TokenResponse } from '../../../src/core/api/types';
import type { RefreshFn, StoredTokens } from '../../../src/core/sessions/types';
import type { Clock } from '../../../src/core/util/clock';

/** An unsigned JWT whose `exp` is `expiresAt` (ms), as the service's tokens carry one. */
export function fakeJwt(expiresAt: number, subject = 'user-1'): string {
	const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
	return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: subject, exp: Math.floor(expiresAt / 1000) })}.c2ln`;
}

export interface RefreshCall {
	caller: string;
	request: RefreshRequest;
	/** When the request reached the service (clock ms). */
	at: number;
}

export class FakeTokenService {
	/** Every refresh request that reached the service. */
	readonly calls: RefreshCall[] = [];
	/** Failures to answer with, in order, before the service behaves again. */
	readonly failures: ApiError[] = [];
	/** Callers whose requests never return (a window that hangs or crashes mid-refresh). */
	readonly hanging = new Set<string>();
	lifetimeMs = 40_000;
	latencyMs = 0;
	private serial = 0;
	private validRefreshToken = '';

	constructor(private readonly clock: Clock) {}

	/** Tokens from a login: the previous refresh token is no longer valid. */
	login(): StoredTokens {
		const now = this.clock.now();
		const response = this.issue();
		return { accessToken: response.accessToken, refreshToken: response.refreshToken, expiresAt: now + this.lifetimeMs, expirySource: 'jwt', obtainedAt: now };
	}

	get currentRefreshToken(): string {
		return this.validRefreshToken;
	}

	/** A refresh function as one window would bind it; `caller` names the window in `calls`. */
	refreshAs(caller: string): RefreshFn {
		return async (request) => {
			if (this.hanging.has(caller)) return new Promise<TokenResponse>(() => undefined);
			this.calls.push({ caller, request: { ...request }, at: this.clock.now() });
			if (this.latencyMs > 0) await new Promise<void>((resolve) => this.clock.setTimeout(resolve, this.latencyMs));
			const failure = this.failures.shift();
			if (failure) throw failure;
			if (request.refreshToken !== this.validRefreshToken) {
				throw new ApiError('badCredentials', 'The refresh token was refused. Log in again.', 401);
			}
			return this.issue();
		};
	}

	private issue(): TokenResponse {
		this.serial++;
		this.validRefreshToken = `refresh-${this.serial}`;
		return {
			accessToken: fakeJwt(this.clock.now() + this.lifetimeMs, `serial-${this.serial}`),
			expiresIn: this.lifetimeMs / 1000,
			refreshToken: this.validRefreshToken,
		};
	}
}
