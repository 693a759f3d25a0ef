// The one road from a Login or RefreshToken answer to the tokens the store keeps: the expiry read
// once (token.ts), the account's label from the token, nothing else taken from the answer.
import type { AccountKind, TokenResponse } from '../api/types';
import { displayText } from '../util/displayText';
import { maskSecret } from '../util/redact';
import { computeExpiry, decodeClaims } from './token';
import type { StoredTokens } from './types';

/** What to store, and why an expiry source was passed over and which one was used (for the log; no token content). */
export interface AnsweredTokens {
	tokens: StoredTokens;
	expiryNote?: string;
}

function fromAnswer(response: TokenResponse, now: number): AnsweredTokens {
	const expiry = computeExpiry(response.accessToken, response.expiresIn, now);
	return {
		tokens: { accessToken: response.accessToken, refreshToken: response.refreshToken, expiresAt: expiry.expiresAt, expirySource: expiry.source, obtainedAt: now },
		...(expiry.note && { expiryNote: `${expiry.note}; using ${expiry.source === 'expiresIn' ? 'ExpiresIn' : 'the 2-hour default'}` }),
	};
}

/** A Login answer received at `now`: a user's device token is the one sent when the answer has none. */
export function tokensFromLogin(kind: AccountKind, login: string, response: TokenResponse, now: number): AnsweredTokens {
	const answered = fromAnswer(response, now);
	const deviceToken = response.deviceToken ?? (kind === 'user' ? login : undefined);
	return { ...answered, tokens: { deviceToken, ...answered.tokens } };
}

/** A RefreshToken answer to the tokens `sent`: what the answer leaves out stays as it was. */
export function tokensFromRefresh(sent: StoredTokens, response: TokenResponse, now: number): AnsweredTokens {
	const answered = fromAnswer(response, now);
	return {
		...answered,
		tokens: {
			...sent,
			...answered.tokens,
			refreshToken: response.refreshToken || sent.refreshToken,
			...(response.deviceToken && { deviceToken: response.deviceToken }),
			lastRefreshAt: now,
		},
	};
}

/**
 * Admin: the API login. User: the JWT's `name` claim when there is one, else the masked device
 * token. The name comes from the service: control and bidi characters go, `$(` cannot start an
 * icon in the status bar, and it is cut to 64 characters.
 */
export function accountLabel(kind: AccountKind, login: string, accessToken: string): string {
	if (kind === 'admin') return login;
	const name = decodeClaims(accessToken)?.['name'];
	const clean = typeof name === 'string' ? displayText(name) : '';
	return clean ? clean : maskSecret(login);
}
