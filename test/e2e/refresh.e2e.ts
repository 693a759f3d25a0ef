// With 40-second tokens a person keeps a live token for minutes without logging in again, never seeing
// "expired"; a refresh answered with an HTML 502 page gives a clear message.
import * as assert from 'node:assert/strict';
import { DEMO_USERS } from '../emulator/rig';
import { logInAsUser, startE2e, type E2eEnvironment } from './environment';
import { waitFor } from './workbench';

const USER = DEMO_USERS[0]!;
const LABEL = USER.name!;
const LIFETIME_SECONDS = 40;
/** The watch ends after two refreshes and more than a token's lifetime; at most this long. */
const WATCH_MS = 90_000;

describe('Staying logged in with short-lived tokens (real VS Code in Chromium)', function () {
	let env: E2eEnvironment;

	before(async function () {
		env = await startE2e({ emulator: { accessTokenLifetimeSeconds: LIFETIME_SECONDS } });
		await logInAsUser(env.workbench, USER);
		await env.workbench.waitForStatus(LABEL);
	});

	after(async function () {
		await env?.close();
	});

	it('keeps the status bar live past a token lifetime, through two refreshes and no new login', async function () {
		this.timeout(WATCH_MS + 60_000);
		const wb = env.workbench;
		const loginsBefore = env.emulator.stats.loginCalls;
		const refreshesBefore = env.emulator.stats.refreshCalls;
		const seen = new Set<string>();
		const started = Date.now();
		const end = started + WATCH_MS;
		const watched = (): boolean => env.emulator.stats.refreshCalls - refreshesBefore >= 2 && Date.now() - started > (LIFETIME_SECONDS + 5) * 1000;
		while (Date.now() < end && !watched()) {
			const { text } = await wb.status();
			seen.add(text);
			assert.doesNotMatch(text, /expired|log in again/i, `the status bar showed "${text}"`);
			await new Promise((r) => setTimeout(r, 1000));
		}
		const counting = [...seen].filter((t) => t.includes(LABEL) && /\d+s/.test(t));
		assert.ok(counting.length >= 3, `the time left changed over time; seen: ${[...seen].join(' | ')}`);
		assert.ok(env.emulator.stats.refreshCalls - refreshesBefore >= 2, `refresh calls: ${env.emulator.stats.refreshCalls - refreshesBefore}`);
		assert.equal(env.emulator.stats.loginCalls, loginsBefore, 'no login besides the first');
	});

	it('explains a refresh that the service answers with an HTML 502 page, and keeps the session', async function () {
		const wb = env.workbench;
		// A fresh login, so the session is valid while the fault lasts, and the first refresh asked
		// for goes ahead (one asked within 30 s of the last refresh is declined, as an automatic one would be).
		const logins = env.emulator.stats.loginCalls;
		await logInAsUser(wb, USER);
		await waitFor('the new login', async () => env.emulator.stats.loginCalls, (n) => n > logins, 90_000);
		env.emulator.setFaults({ refresh: 'html502' });
		try {
			await wb.runCommand('Telematics: Refresh Access Token');
			const shown = await wb.waitForNotification(/Could not refresh/);
			assert.doesNotMatch(shown.text, /<\/?[a-z][^>]*>|<!doctype|<html/i, `no HTML in the message: ${shown.text}`);
			assert.match(shown.text, /502|server|service|unavailable|gateway/i, `the message says what happened: ${shown.text}`);
			await wb.screenshot('refresh-error.png');
		} finally {
			env.emulator.setFaults({});
		}
		const status = await wb.status();
		assert.ok(status.text.includes(LABEL), `the session stays: ${status.text}`);
		assert.doesNotMatch(status.text, /expired|log in again/i);
	});
});
