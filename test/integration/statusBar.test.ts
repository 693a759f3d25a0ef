// The status bar item in the real extension host, against the in-process emulator: what it
// says and how it is colored after login, switching, expiry and logout; the actions it offers.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_ADMINS, type RiggedEmulator } from '../emulator/rig';
import type { Session } from '../../src/core/sessions/types';
import type { StatusBarSnapshot, TestApi } from './testApi';
import { accountActions } from '../../src/features/accounts/accountActions';
import { logIn, until, useEmulatorSuite, withSetting } from './loginHelpers';

function snapshot(api: TestApi): StatusBarSnapshot {
	return api.statusBar();
}

/** Markdown source without its escapes (`appendText` escapes `-`, `.`, `_` and such). */
function plain(markdown: string): string {
	return markdown.replace(/\\(.)/g, '$1');
}

function assertNoSecrets(api: TestApi, shown: StatusBarSnapshot): void {
	const text = [shown.text, plain(shown.tooltip), shown.accessibilityText].join('\n');
	for (const s of api.services.store.list()) {
		for (const secret of [s.tokens?.accessToken, s.tokens?.refreshToken, s.tokens?.deviceToken]) {
			if (secret) assert.ok(!text.includes(secret), `a secret of ${s.account.label} is shown`);
		}
	}
}

describe('Status bar (real VS Code)', () => {
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, accessTokenLifetimeSeconds: 7200, resetsSettings: ['autoRefresh'] }, (started) => ({ api, emu } = started));

	it('offers a login when no account is logged in', () => {
		const s = snapshot(api);
		assert.equal(s.text, '$(sign-in) Telematics: Log In');
		assert.equal(s.command, 'telematicsAuth.login');
		assert.equal(s.backgroundColor, undefined);
	});

	it('shows the admin, the time left in words for screen readers, and a tooltip without the token', async () => {
		const session = await logIn(api, emu, 'admin');
		const s = snapshot(api);
		assert.match(s.text, /^\$\(shield\) admin@example\.com · (2h 0m|1h 59m)$/);
		assert.equal(s.command, 'telematicsAuth.showActions');
		assert.equal(s.backgroundColor, undefined);
		assert.match(s.accessibilityText, /^Telematics account admin@example\.com, token valid for (2 hours|1 hour 59 minutes)$/);
		const tooltip = plain(s.tooltip);
		assert.ok(tooltip.includes('Admin'));
		assert.ok(tooltip.includes(DEMO_ADMINS[0]!.instanceId));
		assert.ok(tooltip.includes(emu.url));
		assert.ok(tooltip.includes('never'), 'no refresh yet');
		for (const command of ['telematicsAuth.refresh', 'telematicsAuth.copyAuthorizationHeader', 'telematicsAuth.switchAccount', 'telematicsAuth.logout', 'telematicsAuth.showLog']) {
			assert.ok(s.tooltip.includes(`command:${command}`), `tooltip links ${command}`);
		}
		assertNoSecrets(api, s);
		assert.ok(!plain(s.tooltip).includes(session.tokens!.accessToken));
	});

	it('follows the active account when switching and logging out', async () => {
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		assert.match(snapshot(api).text, /^\$\(shield\) admin@example\.com · /);

		await vscode.commands.executeCommand('telematicsAuth.makeActive', { accountId: user.account.id });
		await until('the user is shown', () => snapshot(api).text.includes(user.account.label));
		assert.match(snapshot(api).text, new RegExp(`^\\$\\(account\\) ${user.account.label} · \\d+h \\d+m$`));
		assertNoSecrets(api, snapshot(api));

		await vscode.commands.executeCommand('telematicsAuth.logout', { accountId: user.account.id });
		await until('the user is gone', () => !snapshot(api).text.includes(user.account.label));
		assert.ok(!plain(snapshot(api).tooltip).includes(user.account.instanceId!), 'the tooltip no longer describes the user');

		await vscode.commands.executeCommand('telematicsAuth.logout', { accountId: admin.account.id });
		await until('the login offer is back', () => snapshot(api).text === '$(sign-in) Telematics: Log In');
		assert.equal(snapshot(api).backgroundColor, undefined);
	});

	it('turns to the warning color inside the refresh window', async () => {
		await withSetting('autoRefresh', false, async () => {
			emu.setAccessTokenLifetime(120); // less than the 5 minute margin
			await logIn(api, emu, 'admin');
			const s = snapshot(api);
			assert.match(s.text, /^\$\(shield\) admin@example\.com · (2m|1m)$/);
			assert.equal(s.backgroundColor, 'statusBarItem.warningBackground');
		});
	});

	it('says expired, in the error color, once the token expires', async () => {
		await withSetting('autoRefresh', false, async () => {
			emu.setAccessTokenLifetime(2);
			await logIn(api, emu, 'admin');
			await until('the status bar says expired', () => snapshot(api).text.endsWith('expired'));
			const s = snapshot(api);
			assert.equal(s.text, '$(warning) admin@example.com · expired');
			assert.equal(s.backgroundColor, 'statusBarItem.errorBackground');
			assert.equal(s.accessibilityText, 'Telematics account admin@example.com, token expired');
			assert.ok(s.tooltip.includes('command:telematicsAuth.loginAgain'), 'the tooltip offers to log in again');
			assertNoSecrets(api, s);
		});
	});

	it('recovers from expiry with a manual refresh', async () => {
		await withSetting('autoRefresh', false, async () => {
			emu.setAccessTokenLifetime(2);
			const admin = await logIn(api, emu, 'admin');
			await until('the status bar says expired', () => snapshot(api).text.endsWith('expired'));
			emu.setAccessTokenLifetime(7200);
			await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: admin.account.id });
			await until('the time left is back', () => /· (2h 0m|1h 59m)$/.test(snapshot(api).text));
			assert.equal(snapshot(api).backgroundColor, undefined);
			assert.ok(!plain(snapshot(api).tooltip).includes('never'), 'the last refresh time is shown');
		});
	});
});

describe('Account actions (the status bar click)', () => {
	const base = { now: Date.now(), accountCount: 1, restEditor: false };
	const commandsOf = (items: ReturnType<typeof accountActions>) => items.map((i) => i.command);
	const session = (expiresIn: number): Session => ({
		account: { id: 'a1', kind: 'admin', label: 'admin@example.com', instanceId: 'i', serviceUrl: 'http://127.0.0.1:1', createdAt: 0 },
		tokens: { accessToken: 'a.b.c', refreshToken: 'r', expiresAt: base.now + expiresIn, expirySource: 'jwt', obtainedAt: 0 },
		state: 'valid',
	});

	it('offers the two logins without a session', () => {
		assert.deepEqual(commandsOf(accountActions(undefined, base)), ['telematicsAuth.loginUser', 'telematicsAuth.loginAdmin']);
	});

	it('offers the account actions, each with an icon and the account as argument', () => {
		const items = accountActions(session(3_600_000), base);
		assert.deepEqual(commandsOf(items), [
			'telematicsAuth.refresh',
			'telematicsAuth.copyAuthorizationHeader',
			'telematicsAuth.copyAccessToken',
			'telematicsAuth.login',
			'telematicsAuth.logout',
			'telematicsAuth.showLog',
		]);
		assert.ok(items.every((i) => /^\$\([a-z-]+\) /.test(i.label)));
		assert.deepEqual(items[0]!.args, [{ accountId: 'a1' }]);
	});

	it('adds Insert for a REST file, Switch for several accounts, Log In Again when expired', () => {
		const items = commandsOf(accountActions(session(-1), { ...base, accountCount: 2, restEditor: true }));
		assert.equal(items[0], 'telematicsAuth.loginAgain');
		assert.ok(items.includes('telematicsAuth.insertAuthorizationHeader'));
		assert.ok(items.includes('telematicsAuth.switchAccount'));
	});

	it('the command is registered', async () => {
		assert.ok((await vscode.commands.getCommands(true)).includes('telematicsAuth.showActions'));
	});
});
