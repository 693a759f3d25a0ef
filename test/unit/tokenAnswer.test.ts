// The one road from a service answer to stored tokens: Login and RefreshToken read the expiry alike,
// and a refresh keeps what its answer leaves out.
import * as assert from 'node:assert/strict';
import { accountLabel, tokensFromLogin, tokensFromRefresh } from '../../src/core/sessions/tokenAnswer';
import type { StoredTokens } from '../../src/core/sessions/types';
import { fakeJwt } from '../support/doubles/fakeTokenService';

const NOW = Date.UTC(2030, 0, 1, 12);

describe('tokenAnswer', () => {
	it('a Login answer: the JWT\'s exp, and a user\'s device token when the answer has none', () => {
		const { tokens, expiryNote } = tokensFromLogin('user', 'device-1', { accessToken: fakeJwt(NOW + 3_600_000), refreshToken: 'r1', expiresIn: 7200 }, NOW);
		assert.deepEqual(tokens, { deviceToken: 'device-1', accessToken: fakeJwt(NOW + 3_600_000), refreshToken: 'r1', expiresAt: NOW + 3_600_000, expirySource: 'jwt', obtainedAt: NOW });
		assert.equal(expiryNote, undefined);
		assert.equal(tokensFromLogin('admin', 'a@b.c', { accessToken: 'x', refreshToken: 'r' }, NOW).tokens.deviceToken, undefined);
	});

	it('a Login and a RefreshToken answer with the same implausible exp fall back alike, and say so', () => {
		const answer = { accessToken: fakeJwt(NOW + 400 * 86_400_000), refreshToken: 'r2', expiresIn: 600 };
		const login = tokensFromLogin('user', 'd', answer, NOW);
		const sent: StoredTokens = { ...login.tokens, obtainedAt: NOW - 1000 };
		const refresh = tokensFromRefresh(sent, answer, NOW);
		assert.equal(login.tokens.expiresAt, NOW + 600_000);
		assert.equal(refresh.tokens.expiresAt, login.tokens.expiresAt);
		assert.match(login.expiryNote ?? '', /outside the plausible window.*using ExpiresIn/);
		assert.equal(refresh.expiryNote, login.expiryNote);
	});

	it('a RefreshToken answer keeps the device token and the refresh token it leaves out', () => {
		const sent: StoredTokens = { deviceToken: 'device-1', accessToken: 'old', refreshToken: 'r-old', expiresAt: NOW, expirySource: 'jwt', obtainedAt: NOW - 7_200_000 };
		const { tokens } = tokensFromRefresh(sent, { accessToken: fakeJwt(NOW + 7_200_000), refreshToken: '' }, NOW);
		assert.equal(tokens.deviceToken, 'device-1');
		assert.equal(tokens.refreshToken, 'r-old');
		assert.equal(tokens.lastRefreshAt, NOW);
		assert.equal(tokens.expiresAt, NOW + 7_200_000);
	});

	it('labels an admin by login and a user by the token\'s name, else the masked device token', () => {
		assert.equal(accountLabel('admin', 'ops@fleet.example', 'x'), 'ops@fleet.example');
		assert.notEqual(accountLabel('user', 'device-token-123456', 'not-a-jwt'), 'device-token-123456');
	});
});
