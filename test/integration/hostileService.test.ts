// A hostile service met in the real host: tokens carrying a request or a shell command, expired or absurd
// `exp`. Clear messages, files and clipboard unchanged, no refresh storm (keychain and windows: unit suites).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { Session } from '../../src/core/sessions/types';
import type { TestApi } from './testApi';
import { commandSession, lastError, logIn, ourLenses, ScriptedPrompter, storedSecret, until, useEmulatorSuite, userCredentials } from './loginHelpers';
import { recordMessages, withNotificationProgress } from '../../src/features/messages/notify';

/** How VS Code finds links in a notification's message (its linkedText parser). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;

const HTTP = '### trips\nGET https://api.example.test/v1/trips\nAccept: application/json\n';

let counter = 0;
async function openHttp(content: string): Promise<vscode.TextEditor> {
	const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? fs.mkdtempSync(path.join(os.tmpdir(), 'http-'));
	const file = path.join(folder, `hostile-${process.pid}-${++counter}.http`);
	fs.writeFileSync(file, content);
	return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
}

describe('A hostile or broken service (real VS Code)', () => {
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, accessTokenLifetimeSeconds: 7200 }, (started) => ({ api, emu } = started));

	beforeEach(async () => {
		emu.resetStats();
		await vscode.env.clipboard.writeText('clipboard before');
	});
	afterEach(() => emu.setFaults({}));

	const tokensOf = (session: Session) => api.services.store.get(session.account.id)?.tokens;

	for (const fault of ['injectedToken', 'shellToken'] as const) {
		it(`a login answered with a token holding ${fault === 'injectedToken' ? 'a new .http request' : 'a shell command'} is refused, and the earlier session stays`, async () => {
			const earlier = await logIn(api, emu, 'admin');
			const secretBefore = await storedSecret(api, earlier.account.id);
			emu.setFaults({ login: fault });
			api.setPrompter(ScriptedPrompter.answering(userCredentials(emu), 'user'));
			assert.equal(await vscode.commands.executeCommand('telematicsAuth.loginUser'), undefined);
			assert.match(lastError(api) ?? '', /sent a token this extension will not use .*Nothing was stored and your sessions are unchanged/);
			assert.doesNotMatch(lastError(api) ?? '', /collector|INJECTED/);
			assert.deepEqual(api.services.store.list().map((s) => s.account.id), [earlier.account.id], 'no new account');
			assert.equal(await storedSecret(api, earlier.account.id), secretBefore);
			assert.equal(api.services.store.active()?.account.id, earlier.account.id);
			assert.equal(await vscode.env.clipboard.readText(), 'clipboard before');
		});

		it(`a refresh answered with ${fault} fails clearly; copy, curl and insert then use the earlier token, untouched`, async () => {
			const session = await logIn(api, emu, 'user');
			emu.setFaults({ refresh: fault });
			assert.equal(await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: session.account.id }), undefined);
			assert.match(lastError(api) ?? '', /^Could not refresh the token for Demo Driver\. The service at .* sent a token this extension will not use/);
			const tokens = tokensOf(session)!;
			assert.equal(tokens.accessToken, session.tokens!.accessToken, 'the earlier tokens are kept');
			assert.equal(api.services.store.get(session.account.id)?.state, 'valid', 'still logged in');

			await vscode.commands.executeCommand('telematicsAuth.copyAsCurl');
			assert.equal(await vscode.env.clipboard.readText(), `-H 'Authorization: Bearer ${tokens.accessToken}'`);
			const editor = await openHttp(HTTP);
			editor.selection = new vscode.Selection(1, 1, 1, 1);
			await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader'); // the workspace is outside git: no question
			assert.equal(editor.document.getText(), HTTP.replace('\nAccept', `\nAuthorization: Bearer ${tokens.accessToken}\nAccept`));
			await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
		});
	}

	it('a service error whose Title and Errors carry markdown links is shown as text, never as a link (login and refresh)', async () => {
		emu.setFaults({ login: 'linkInError' });
		api.setPrompter(ScriptedPrompter.answering(userCredentials(emu), 'user'));
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.loginUser'), undefined);
		const loginError = lastError(api) ?? '';
		assert.match(loginError, /The service rejected the login request/);
		assert.ok(loginError.includes('the fix') && loginError.includes('run it'), `the service's words stay: ${loginError}`);
		assert.doesNotMatch(loginError, NOTIFICATION_LINK);

		emu.setFaults({});
		const session = await logIn(api, emu, 'user');
		emu.setFaults({ refresh: 'linkInError' });
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: session.account.id }), undefined);
		const refreshError = lastError(api) ?? '';
		assert.match(refreshError, /rejected the refresh request/);
		assert.doesNotMatch(refreshError, NOTIFICATION_LINK);
		for (const shown of api.messages()) assert.doesNotMatch(shown.text, NOTIFICATION_LINK);
		assert.ok(api.messages().some((m) => m.severity === 'progress' && /^Logging in to /.test(m.text)), 'the login\'s progress title went through the same check');
	});

	it('a notification with progress shows a name holding a command link as text (an account named by a JWT claim)', async () => {
		// Notifications run command links when clicked: one that sent a line to a terminal, had it rendered.
		const label = '[Run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)';
		const shown = recordMessages();
		assert.equal(await withNotificationProgress(`Refreshing the token for ${label}…`, async () => 42), 42);
		const title = shown().at(-1)!;
		assert.equal(title.severity, 'progress');
		assert.ok(title.text.includes('command:workbench.action.terminal.sendSequence'), `the text stays readable: ${title.text}`);
		assert.doesNotMatch(title.text, NOTIFICATION_LINK);
	});

	it('a refresh that keeps answering with an expired token: one call and one warning, and the next waits, not a storm', async function () {
		this.timeout(40_000);
		emu.setAccessTokenLifetime(6); // refreshed automatically after 3 s
		emu.setFaults({ refresh: 'expiredToken' });
		const seen = new Set(api.messages());
		const session = await logIn(api, emu, 'user');
		const warning = await until('the warning', () => api.messages().find((m) => !seen.has(m) && m.severity === 'warning'), 90_000);
		const warnedAt = Date.now();
		assert.match(warning.text, /^The token for Demo Driver was refreshed, but: The service sent a token that has already expired\. Check that this computer's clock is right/);
		// The schedule says it: the next automatic refresh waits the minimum interval (30 s; the unit
		// suite follows the back-off beyond it with a fake clock), though the token it holds has expired.
		const next = await until('the next refresh scheduled', () => api.services.scheduler.status(session.account.id).nextRefreshAt);
		assert.ok(next - warnedAt >= 20_000, `the next refresh comes ${next - warnedAt} ms after the warning`);
		assert.equal(emu.stats.refreshCalls, 1, 'one refresh call');
		assert.equal(emu.stats.loginCalls, 1, 'never logs in by itself');
		assert.equal(api.messages().filter((m) => !seen.has(m) && m.severity === 'warning').length, 1, 'warned once');
		assert.ok(api.services.store.get(session.account.id), 'the account stays');
	});

	it('a token whose exp no Date can hold (1e16) falls back to ExpiresIn; status bar, tree, hover, lens and diagnostics show it without error', async () => {
		const session = await logIn(api, emu, 'user');
		emu.setFaults({ refresh: 'absurdExp' });
		const refreshed = await commandSession(api, 'telematicsAuth.refresh', { accountId: session.account.id });
		assert.ok(refreshed?.tokens, 'the refresh worked');
		assert.equal(refreshed.tokens.expirySource, 'expiresIn');
		assert.ok(Math.abs(refreshed.tokens.expiresAt - (Date.now() + 7200_000)) < 60_000);
		assert.ok(api.services.store.get(session.account.id)?.state === 'valid');
		assert.match(api.statusBar().text, /Demo Driver · (1h 59m|2h 0m)/);
		await api.tree();

		const editor = await openHttp(`### trips\nGET https://api.example.test/v1/trips\nAuthorization: Bearer ${refreshed.tokens.accessToken}\n`);
		const uri = editor.document.uri;
		const position = editor.document.positionAt(editor.document.getText().indexOf('eyJ') + 5);
		const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
		assert.ok(hovers.length > 0, 'the hover shows');
		const lenses = ourLenses(await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri));
		assert.ok(lenses.length > 0, 'the lens shows');
		assert.ok(!api.logLines().some((l) => /RangeError|Invalid time value/.test(l)), 'nothing threw');
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it('any JWT in a file, with exp ±1e16, NaN-like or a string, gets hover, lens and diagnostics without error', async () => {
		const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
		const tokens = [1e16, -1e16, 1e308, 'soon', -1].map((exp) => `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 's', exp, iat: exp })}.c2ln`);
		const editor = await openHttp(tokens.map((t, i) => `### r${i}\nGET https://api.example.test/${i}\nAuthorization: Bearer ${t}\n`).join('\n'));
		const uri = editor.document.uri;
		for (const token of tokens) {
			const position = editor.document.positionAt(editor.document.getText().indexOf(token) + 5);
			const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
			assert.ok(hovers.length > 0, `a hover for exp of ${token}`);
		}
		await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
		vscode.languages.getDiagnostics(uri);
		assert.ok(!api.logLines().some((l) => /RangeError|Invalid time value/.test(l)), 'nothing threw');
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});
});
