// Tokens, device tokens, InstanceKeys and passwords stay in SecretStorage: after real logins and a
// refresh, none is in globalState, workspaceState, settings, the log, a notification, the status bar or the tree.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { logFiles, readText } from './logFiles';
import { adminCredentials, lastError, logIn, ScriptedPrompter, settings, until, useEmulatorSuite, userCredentials } from './loginHelpers';

function assertFree(where: string, text: string, secrets: readonly string[]): void {
	for (const secret of secrets) {
		assert.ok(!text.includes(secret), `${where} contains a secret (${secret.slice(0, 4)}…)`);
	}
}

function mementoText(memento: vscode.Memento): string {
	return memento.keys().map((key) => `${key}=${JSON.stringify(memento.get(key))}`).join('\n');
}

describe('Secrets stay secret (real VS Code)', () => {
	let api: TestApi;
	let emu: RiggedEmulator;
	const secrets: string[] = [];

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: false }, (started) => ({ api, emu } = started));

	before(async () => {
		const user = userCredentials(emu);
		const admin = adminCredentials(emu);
		secrets.push(user.login, user.password, admin.password);
		const userSession = await logIn(api, emu, 'user');
		const adminSession = await logIn(api, emu, 'admin');
		for (const s of [userSession, adminSession]) {
			assert.ok(s.tokens);
			secrets.push(s.tokens.accessToken, s.tokens.refreshToken);
		}
		await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: userSession.account.id });
		const rotated = api.services.store.get(userSession.account.id)?.tokens;
		assert.ok(rotated && rotated.refreshToken !== userSession.tokens?.refreshToken, 'the refresh rotated the tokens');
		secrets.push(rotated.accessToken, rotated.refreshToken);

		// a failed login too: its password must not leak either
		const wrong = 'wrong-key-7f3a9c1e';
		secrets.push(wrong);
		api.setPrompter(ScriptedPrompter.answering({ ...user, password: wrong }, 'user'));
		await vscode.commands.executeCommand('telematicsAuth.loginUser');
	});

	it('the tokens are where they belong: in SecretStorage', async () => {
		const stored = await Promise.all(api.services.store.list().map((s) => api.services.context.secrets.get(`telematicsAuth.session.${s.account.id}`)));
		const all = stored.join('\n');
		const active = api.services.store.list().map((s) => s.tokens?.refreshToken ?? '');
		assert.equal(active.length, 2);
		for (const token of active) assert.ok(token && all.includes(token));
	});

	it('globalState holds the accounts but no secret', () => {
		const text = mementoText(api.services.context.globalState);
		assert.ok(text.includes(emu.url), 'the account index is in globalState (and was read)');
		assertFree('globalState', text, secrets);
	});

	it('workspaceState holds no secret', () => {
		assertFree('workspaceState', mementoText(api.services.context.workspaceState), secrets);
	});

	it('the user settings hold no secret', async () => {
		const file = vscode.Uri.joinPath(api.services.context.globalStorageUri, '..', '..', 'settings.json');
		const text = await readText(file);
		assert.ok(text?.includes(emu.url), `the user settings file was found (${file.toString()})`);
		assertFree('settings.json', text ?? '', secrets);
		assertFree('telematicsAuth settings', JSON.stringify(settings()), secrets);
	});

	it('the log holds no secret, in memory and on disk', async () => {
		const lines = api.logLines().join('\n');
		assert.match(lines, /Logged in as user Demo Driver/, 'the login was logged');
		assert.match(lines, /Could not log in to/, 'the failed login was logged');
		assertFree('log', lines, secrets);
		// The LogOutputChannel writes `<logUri>/Telematics Auth.log`; wait until it has the login line.
		const channelFile = vscode.Uri.joinPath(api.services.context.logUri, 'Telematics Auth.log');
		const written = await until('the log file to have the failed login', async () => (await readText(channelFile)) ?? '', { accept: (text) => /Could not log in to/.test(text) }).catch(async () => (await readText(channelFile)) ?? '');
		assert.match(written, /Logged in as user Demo Driver/, `the log file ${channelFile.path} was found and written`);
		for (const file of await logFiles(api.services.context.logUri)) assertFree(file.path, (await readText(file)) ?? '', secrets);
	});

	it('a failed login says why without repeating any credential', () => {
		const text = lastError(api);
		assert.match(text ?? '', /refused these credentials/);
		assertFree('the error message', text ?? '', secrets);
	});

	it('no notification, status bar text or tree row shows a secret', async () => {
		assertFree('notifications', JSON.stringify(api.messages()), secrets);
		assertFree('status bar', JSON.stringify(api.statusBar()), secrets);
		assertFree('accounts view', JSON.stringify(await api.tree()), secrets);
	});
});
