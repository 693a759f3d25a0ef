// The login rate limit: at most `max` attempts per sliding window per client, then a block.
// Pure: the caller passes the time.
import type { LoginRateLimit } from './config';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface ClientState {
	attempts: number[];
	blockedUntil: number;
}

export class LoginRateLimiter {
	private readonly clients = new Map<string, ClientState>();

	constructor(private readonly limit: () => LoginRateLimit) { }

	/** Records one attempt by `client` at `now` (ms) and says whether it may proceed. */
	attempt(client: string, now: number): RateDecision {
		const { max, windowSeconds, blockSeconds } = this.limit();
		const state = this.clients.get(client) ?? { attempts: [], blockedUntil: 0 };
		this.clients.set(client, state);
		if (state.blockedUntil > now) return { allowed: false, retryAfterSeconds: secondsUntil(state.blockedUntil, now) };
		const windowStart = now - windowSeconds * 1000;
		state.attempts = state.attempts.filter((t) => t > windowStart);
		if (state.attempts.length >= max) {
			state.attempts = [];
			state.blockedUntil = now + blockSeconds * 1000;
			return { allowed: false, retryAfterSeconds: secondsUntil(state.blockedUntil, now) };
		}
		state.attempts.push(now);
		return { allowed: true };
	}

	reset(): void {
		this.clients.clear();
	}
}

function secondsUntil(until: number, now: number): number {
	return Math.max(1, Math.ceil((until - now) / 1000));
}
