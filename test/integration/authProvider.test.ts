// The `telematics` authentication provider in the real host: what another extension gets from
// `vscode.authentication`, refresh before handing out, sign-in, and sign-out from the Accounts menu.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { AUTH_PROVIDER_ID, TelematicsAuthProvider } from '../../src/features/authProvider/authProvider';
import { adminCredentials, logIn, ScriptedPrompter, settings, until, useEmulatorSuite } from './loginHelpers';

function activeToken(api: TestApi): string {
	const token = api.services.store.active()?.tokens?.accessToken;
	assert.ok(token, 'the active account has an access token');
	return token;
}

const silently = () => vscode.authentication.getSession(AUTH_PROVIDER_ID, [], { silent: true });

/**
 * What a person does when an extension asks for a Telematics session: VS Code adds "Grant
 * access" to the Accounts menu, they choose it and pick the account. Modal consent dialogs
 * cannot be answered in tests (VS Code refuses to show them), this quick pick can.
 */
async function grantAccessThroughAccountsMenu(): Promise<void> {
	if (await silently()) return;
	assert.equal(await vscode.authentication.getSession(AUTH_PROVIDER_ID, [], {}), undefined, 'no session before access is granted');
	const grant = await until('VS Code offers to grant access in the Accounts menu', async () =>
		(await vscode.commands.getCommands(false)).find((c) => c.startsWith(AUTH_PROVIDER_ID) && c.endsWith('Access') && !c.startsWith('telematicsAuth.')));
	await vscode.commands.executeCommand(grant);
	await until('the account was picked and access granted', async () => {
		await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
		return silently();
	});
}

describe('Authentication provider (real VS Code)', () => {
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, accessTokenLifetimeSeconds: 7200, resetsSettings: ['autoRefresh'] }, (started) => ({ api, emu } = started));

	describe('through vscode.authentication', () => {
		it('lists the logged-in account in VS Code\'s accounts and drops it after logout', async () => {
			const user = await logIn(api, emu, 'user');
			const accounts = await vscode.authentication.getAccounts(AUTH_PROVIDER_ID);
			assert.deepEqual(accounts.map((a) => a.id), [user.account.id]);
			assert.ok(accounts[0]!.label.startsWith(user.account.label), 'the account is shown under our label');

			await vscode.commands.executeCommand('telematicsAuth.logout', { accountId: user.account.id });
			assert.deepEqual(await vscode.authentication.getAccounts(AUTH_PROVIDER_ID), []);
		});

		it('hands the active token to an extension with access, follows a refresh, and gives nothing after logout', async () => {
			const user = await logIn(api, emu, 'user');
			await grantAccessThroughAccountsMenu();

			const first = await silently();
			assert.ok(first);
			assert.equal(first.account.id, user.account.id);
			assert.equal(first.accessToken, activeToken(api));

			let changes = 0;
			const listening = vscode.authentication.onDidChangeSessions((e) => {
				if (e.provider.id === AUTH_PROVIDER_ID) changes++;
			});
			try {
				await api.services.scheduler.refreshNow(user.account.id);
				await until('VS Code reported the changed session', () => changes > 0);
			} finally {
				listening.dispose();
			}
			const refreshed = await silently();
			assert.ok(refreshed);
			assert.notEqual(refreshed.accessToken, first.accessToken, 'the refresh gave a new token');
			assert.equal(refreshed.accessToken, activeToken(api));

			await vscode.commands.executeCommand('telematicsAuth.logout', { accountId: user.account.id });
			assert.equal(await silently(), undefined);
		});
	});

	describe('the provider itself', () => {
		let provider: TelematicsAuthProvider;
		let events: vscode.AuthenticationProviderAuthenticationSessionsChangeEvent[];
		let subscription: vscode.Disposable;

		beforeEach(() => {
			provider = new TelematicsAuthProvider(api.services);
			events = [];
			subscription = provider.onDidChangeSessions((e) => events.push(e));
		});

		afterEach(async () => {
			subscription.dispose();
			provider.dispose();
			await settings().update('autoRefresh', undefined, vscode.ConfigurationTarget.Global);
		});

		it('offers every account, filtered by the kind scope, and reports logins as added', async () => {
			const user = await logIn(api, emu, 'user');
			const admin = await logIn(api, emu, 'admin');
			const added = events.flatMap((e) => e.added ?? []).map((s) => s.id);
			assert.deepEqual(added, [user.account.id, admin.account.id]);

			const all = await provider.getSessions([], {});
			assert.deepEqual(all.map((s) => s.id).sort(), [user.account.id, admin.account.id].sort());
			assert.equal(all.find((s) => s.id === admin.account.id)!.accessToken, activeToken(api));
			assert.deepEqual((await provider.getSessions(['user'], {})).map((s) => s.id), [user.account.id]);
			assert.deepEqual((await provider.getSessions(['admin'], {})).map((s) => s.id), [admin.account.id]);
			assert.deepEqual((await provider.getSessions([`account:${user.account.id}`], {})).map((s) => s.id), [user.account.id]);
			// VS Code's own way for a caller to choose the account (getSession(…, { account })): ours answers for it alone.
			const adminAccount = all.find((s) => s.id === admin.account.id)!.account;
			assert.deepEqual((await provider.getSessions([], { account: adminAccount })).map((s) => s.id), [admin.account.id]);
			assert.deepEqual(await provider.getSessions(['repo'], {}), [], 'a scope we do not offer gives nothing');
		});

		it('reports a refresh as a changed session with the new token', async () => {
			const user = await logIn(api, emu, 'user');
			const before = (await provider.getSessions([], {}))[0]!.accessToken;
			events = [];
			await api.services.scheduler.refreshNow(user.account.id);
			const changed = await until('the refresh is reported', () => events.flatMap((e) => e.changed ?? []).find((s) => s.id === user.account.id));
			const now = activeToken(api);
			assert.notEqual(now, before);
			assert.equal(changed.accessToken, now);
			assert.equal((await provider.getSessions([], {}))[0]!.accessToken, now);
		});

		it('refreshes an expired token before handing it out', async () => {
			await settings().update('autoRefresh', false, vscode.ConfigurationTarget.Global);
			emu.setAccessTokenLifetime(2);
			const user = await logIn(api, emu, 'user');
			const old = user.tokens!.accessToken;
			await until('the token has expired', () => api.services.store.get(user.account.id)?.state === 'expired');
			emu.setAccessTokenLifetime(7200);

			const sessions = await provider.getSessions([], {});
			assert.equal(sessions.length, 1);
			assert.notEqual(sessions[0]!.accessToken, old, 'the expired token is not handed out');
			assert.equal(api.services.store.get(user.account.id)?.state, 'valid');
			assert.equal(sessions[0]!.accessToken, activeToken(api));
		});

		it('leaves out an expired account whose refresh is refused', async () => {
			await settings().update('autoRefresh', false, vscode.ConfigurationTarget.Global);
			emu.setAccessTokenLifetime(2);
			emu.setRefreshTokenLifetime(1);
			try {
				const user = await logIn(api, emu, 'user');
				await until('the token has expired', () => api.services.store.get(user.account.id)?.state === 'expired');
				assert.deepEqual(await provider.getSessions([], {}), []);
				assert.equal(api.services.store.get(user.account.id)?.state, 'needsLogin', 'the refresh was refused');
			} finally {
				emu.setRefreshTokenLifetime(90 * 24 * 60 * 60);
			}
		});

		it('signs in through our login flow for the kind asked for, and makes it active', async () => {
			api.setPrompter(ScriptedPrompter.answering(adminCredentials(emu), 'admin'));
			const session = await provider.createSession(['admin']);
			const active = api.services.store.active();
			assert.equal(active?.account.kind, 'admin');
			assert.equal(session.id, active.account.id);
			assert.equal(session.accessToken, activeToken(api));
		});

		it('rejects with a clear error when the sign-in is cancelled, and stores nothing', async () => {
			api.setPrompter(new ScriptedPrompter([], undefined)); // Escape at the kind pick
			await assert.rejects(provider.createSession([]), /cancelled/);
			assert.deepEqual(api.services.store.list(), []);
		});

		it('signs out from the Accounts menu by removing the account', async () => {
			const user = await logIn(api, emu, 'user');
			events = [];
			await provider.removeSession(user.account.id);
			assert.equal(api.services.store.get(user.account.id), undefined);
			assert.deepEqual(events.flatMap((e) => e.removed ?? []).map((s) => s.id), [user.account.id]);
			assert.deepEqual(await provider.getSessions([], {}), []);
		});
	});
});
