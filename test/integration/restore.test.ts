// A new window (or a restart) finds the sessions again: a fresh SessionStore over the same
// SecretStorage and globalState restores them without a single Login call.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import { SessionStore } from '../../src/core/sessions/sessionStore';
import type { TestApi } from './testApi';
import { logIn, useEmulatorSuite } from './loginHelpers';

describe('Restoring sessions (real VS Code)', () => {
	let api: TestApi;
	let emu: RiggedEmulator;
	const opened: SessionStore[] = [];

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true }, (started) => ({ api, emu } = started));

	afterEach(() => {
		for (const s of opened.splice(0)) s.dispose();
	});

	function freshStore(): SessionStore {
		const { context } = api.services;
		const store = new SessionStore(context.secrets, context.globalState);
		opened.push(store);
		return store;
	}

	it('restores the same sessions and the active account without logging in', async () => {
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		await api.services.store.setActive(user.account.id);
		const loginsBefore = emu.stats.loginCalls;
		const refreshesBefore = emu.stats.refreshCalls;

		const store = freshStore();
		await store.load();

		assert.deepEqual(store.list().map((s) => s.account), [user.account, admin.account]);
		assert.equal(store.active()?.account.id, user.account.id);
		assert.equal(store.get(user.account.id)?.tokens?.accessToken, user.tokens?.accessToken);
		assert.equal(store.get(user.account.id)?.tokens?.refreshToken, user.tokens?.refreshToken);
		assert.equal(store.get(user.account.id)?.tokens?.deviceToken, user.tokens?.deviceToken);
		assert.equal(store.get(admin.account.id)?.tokens?.accessToken, admin.tokens?.accessToken);
		assert.equal(store.get(user.account.id)?.state, 'valid');
		assert.equal(emu.stats.loginCalls, loginsBefore, 'no Login call');
		assert.equal(emu.stats.refreshCalls, refreshesBefore, 'no refresh either: the tokens are still valid');
	});

	it('restores refreshed (rotated) tokens, not the ones from the login', async () => {
		const user = await logIn(api, emu, 'user');
		await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: user.account.id });
		const current = api.services.store.get(user.account.id)?.tokens;
		assert.ok(current);
		assert.notEqual(current.refreshToken, user.tokens?.refreshToken);

		const store = freshStore();
		await store.load();
		assert.equal(store.get(user.account.id)?.tokens?.refreshToken, current.refreshToken);
		assert.equal(store.get(user.account.id)?.tokens?.accessToken, current.accessToken);
	});

	it('after logout a fresh store finds nothing', async () => {
		const user = await logIn(api, emu, 'user');
		await api.services.store.remove(user.account.id);
		const store = freshStore();
		await store.load();
		assert.deepEqual(store.list(), []);
		assert.equal(await api.services.context.secrets.get(`telematicsAuth.session.${user.account.id}`), undefined);
	});
});
