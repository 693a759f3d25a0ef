// What a person is told when an automatic refresh fails for good: a rate limit (429) is never retried, a
// 5xx is retried with back-off until the token expires; neither logs in by itself (the 401 case: login.test.ts).
import * as assert from 'node:assert/strict';
import type { RiggedEmulator } from '../emulator/rig';
import type { Session } from '../../src/core/sessions/types';
import type { TestApi } from './testApi';
import type { ShownMessage } from '../../src/features/messages/notify';
import { hostOf } from '../../src/core/util/url';
import { logIn, until, useEmulatorSuite } from './loginHelpers';

/**
 * A 6 s token is refreshed automatically after half its life (the default 300 s margin is
 * longer than the token, so `planRefreshAt` takes the half-life), i.e. after about 3 s.
 */
const SHORT_LIFETIME_SECONDS = 6;

describe('Automatic refresh warnings (real VS Code)', () => {
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, accessTokenLifetimeSeconds: 7200 }, (started) => ({ api, emu } = started));

	beforeEach(() => emu.resetStats());

	afterEach(() => emu.setFaults({}));

	/** The warnings shown since `before` was taken (messages are kept as the same objects). */
	const newWarnings = (before: ReadonlySet<ShownMessage>) => api.messages().filter((m) => !before.has(m) && m.severity === 'warning');

	/** Logs in with a short-lived token while `fault` is set on refresh; the warnings before it. */
	async function logInShortLived(fault: 'rateLimited' | 'error500'): Promise<{ session: Session; before: ReadonlySet<ShownMessage> }> {
		emu.setAccessTokenLifetime(SHORT_LIFETIME_SECONDS);
		emu.setFaults({ refresh: fault });
		const before = new Set(api.messages());
		const session = await logIn(api, emu, 'user');
		assert.ok(session.tokens, 'the login stored tokens');
		return { session, before };
	}

	it('a rate-limited automatic refresh warns once, is not retried and does not log in', async function () {
		this.timeout(30_000);
		const { session, before } = await logInShortLived('rateLimited');
		const id = session.account.id;
		const warning = await until('the rate-limit warning', () => newWarnings(before)[0], 90_000);
		assert.equal(warning.text, `${hostOf(emu.url)} is rate-limiting requests, so the token for Demo Driver could not be refreshed. Nothing will be retried automatically; refresh it later.`);
		assert.deepEqual(warning.actions, ['Refresh Now', 'Show Log']);
		assert.equal(emu.stats.refreshCalls, 1, 'one refresh attempt reached the service');
		assert.equal(api.services.scheduler.status(id).lastError?.kind, 'rateLimited');
		assert.equal(api.services.scheduler.status(id).nextRefreshAt, undefined, 'no refresh is planned');

		// Past the token's expiry, nothing was tried again and nobody logged in.
		const expiresAt = session.tokens!.expiresAt;
		await until('the token to expire', () => Date.now() > expiresAt + 1000, 90_000);
		assert.equal(emu.stats.refreshCalls, 1, 'no further refresh attempt');
		assert.equal(emu.stats.loginCalls, 1, 'never logs in by itself');
		assert.equal(newWarnings(before).length, 1, 'warned once');
		const now = api.services.store.get(id);
		assert.equal(now?.tokens?.accessToken, session.tokens!.accessToken);
		assert.equal(now?.tokens?.refreshToken, session.tokens!.refreshToken);
		assert.equal(now?.state, 'expired');
	});

	it('a failing automatic refresh is retried with back-off, then warns at expiry with Refresh Now and Log In Again', async function () {
		this.timeout(70_000);
		const { session, before } = await logInShortLived('error500');
		const id = session.account.id;
		// The first back-off is the 30 s minimum interval (±20 %): the retry meets an expired token.
		const warning = await until('the expiry warning', () => newWarnings(before)[0], 55_000);
		assert.match(warning.text, /^The token for Demo Driver has expired and could not be refreshed: /);
		assert.deepEqual(warning.actions, ['Refresh Now', 'Log In Again']);
		// The first back-off (30 s) ends after a 6 s token has expired: one retry, then stop.
		const calls = emu.stats.refreshCalls;
		assert.ok(calls >= 2, `retried after the first failure (${calls} refresh calls)`);
		assert.ok(calls <= 3, `retries are bounded (${calls} refresh calls)`);
		assert.equal(emu.stats.requests.filter((r) => r.status === 500).length, calls, 'every attempt met the fault');
		assert.equal(api.services.scheduler.status(id).lastError?.kind, 'serverUnavailable');
		assert.equal(api.services.scheduler.status(id).nextRefreshAt, undefined, 'automatic refresh stopped');
		assert.equal(emu.stats.loginCalls, 1, 'never logs in by itself');
		assert.equal(newWarnings(before).length, 1, 'warned once');
		const now = api.services.store.get(id);
		assert.equal(now?.tokens?.accessToken, session.tokens!.accessToken, 'the tokens are kept');
		assert.equal(now?.tokens?.refreshToken, session.tokens!.refreshToken, 'the tokens are kept');
		assert.equal(now?.state, 'expired');
	});
});
