// REST Client itself (humao.rest-client 0.25.0, installed beside us in the real host) sends a .http file that
// holds only {{$processEnv TELEMATICS_TOKEN}}: the live token, the refreshed one after a refresh, none after logout.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { logIn, ourLenses, settings, until, useEmulatorSuite } from './loginHelpers';

describe('REST Client sends the live token from the process environment (real VS Code, REST Client 0.25.0)', function () {
	this.timeout(60_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	let file: string;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, resetsSettings: ['exposeToken'] }, (started) => ({ api, emu } = started));

	before(async () => {
		const restClient = vscode.extensions.getExtension('humao.rest-client');
		assert.ok(restClient, 'REST Client is installed in the test host');
		await restClient.activate();
		file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'rest-client-live.http');
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		fs.rmSync(file, { force: true });
	});

	/** Sends the file's one request with REST Client; the Authorization the emulator received. */
	async function sendWithRestClient(): Promise<string | null | undefined> {
		fs.writeFileSync(file, `GET ${emu.url}/v1/Me\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`);
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
		editor.selection = new vscode.Selection(0, 0, 0, 0);
		emu.resetStats();
		await vscode.commands.executeCommand('rest-client.request');
		await until('REST Client\'s request to reach the emulator', () => emu.stats.requests.some((r) => r.path.toLowerCase() === '/v1/me'), 90_000);
		return emu.stats.lastMeAuthorization;
	}

	let sent = 0;
	/** Sends the request on `line` of `text` (a file of its own) with REST Client; the Authorization the emulator received. */
	async function sendLine(text: string, line: number): Promise<string | null | undefined> {
		const own = file.replace(/\.http$/, `-${++sent}.http`);
		fs.writeFileSync(own, text);
		try {
			const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(own));
			editor.selection = new vscode.Selection(line, 0, line, 0);
			emu.resetStats();
			await vscode.commands.executeCommand('rest-client.request');
			await until('REST Client\'s request to reach the emulator', () => emu.stats.requests.some((r) => r.path.toLowerCase() === '/v1/me'), 90_000);
			return emu.stats.lastMeAuthorization;
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			fs.rmSync(own, { force: true });
		}
	}

	it('sends each account\'s own token from one file by its name, whichever is active, after a refresh and a rename; a logged-out one sends none (issue 30)', async () => {
		await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		assert.deepEqual([user.account.name, admin.account.name], ['user', 'admin']);
		const token = (id: string) => api.services.store.get(id)!.tokens!.accessToken;
		const twoRoles = (userVariable: string, adminVariable: string) => [
			'### as the user', `GET ${emu.url}/v1/Me`, `Authorization: Bearer {{$processEnv ${userVariable}}}`, '',
			'### as the admin', `GET ${emu.url}/v1/Me`, `Authorization: Bearer {{$processEnv ${adminVariable}}}`, '',
		].join('\n');
		const text = twoRoles('TELEMATICS_TOKEN_USER', 'TELEMATICS_TOKEN_ADMIN');
		await until('both variables', () => process.env.TELEMATICS_TOKEN_USER === token(user.account.id) && process.env.TELEMATICS_TOKEN_ADMIN === token(admin.account.id));
		for (const active of [admin, user]) {
			await api.services.store.setActive(active.account.id);
			assert.equal(await sendLine(text, 1), `Bearer ${token(user.account.id)}`, 'the user\'s request carries the user\'s token');
			assert.equal(await sendLine(text, 5), `Bearer ${token(admin.account.id)}`, 'the admin\'s request carries the admin\'s token');
		}

		// The lens above each reference says whose token it reads, or what is missing.
		const lensFile = file.replace(/\.http$/, '-lenses.http');
		fs.writeFileSync(lensFile, `${text}\n### nobody\nGET ${emu.url}/v1/Me\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_OPS}}\n`);
		try {
			const doc = await vscode.workspace.openTextDocument(lensFile);
			const titles = await until('the reference lenses', async () => ourLenses(await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)).map((l) => [l.range.start.line, l.command!.title] as const),
				{ accept: (l) => l.length === 3, timeoutMs: 5000 });
			assert.match(titles[0]![1], /^\$\(account\) TELEMATICS_TOKEN_USER: user · valid for /);
			assert.match(titles[1]![1], /^\$\(account\) TELEMATICS_TOKEN_ADMIN: admin · valid for /);
			assert.deepEqual([titles[2]![0], titles[2]![1]], [10, '$(question) TELEMATICS_TOKEN_OPS: no logged-in account is named ops · Log In…']);
		} finally {
			fs.rmSync(lensFile, { force: true });
		}

		// A named reference sent to another site is warned about, as the active account's is.
		const warnedFile = file.replace(/\.http$/, '-warned.http');
		fs.writeFileSync(warnedFile, '### elsewhere\nGET https://collector.example/x\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}\n\n### home\nGET ' + emu.url + '/v1/Me\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}\n');
		try {
			const doc = await vscode.workspace.openTextDocument(warnedFile);
			const warnings = await until('the warning on the request to another site', () => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.code === 'tokenToAnotherSite'), { accept: (d) => d.length > 0, timeoutMs: 5000 });
			assert.deepEqual(warnings.map((d) => d.range.start.line), [1], 'only the request to collector.example');
			assert.match(warnings[0]!.message, /collector\.example/);
		} finally {
			fs.rmSync(warnedFile, { force: true });
		}

		const before = token(admin.account.id);
		await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: admin.account.id });
		assert.notEqual(token(admin.account.id), before);
		await until('the refreshed token in the environment', () => process.env.TELEMATICS_TOKEN_ADMIN === token(admin.account.id));
		assert.equal(await sendLine(text, 5), `Bearer ${token(admin.account.id)}`, 'after a refresh, the new one');

		await vscode.commands.executeCommand('telematicsAuth.renameAccount', { accountId: admin.account.id, name: 'ops' });
		await until('the renamed variable', () => process.env.TELEMATICS_TOKEN_OPS === token(admin.account.id) && process.env.TELEMATICS_TOKEN_ADMIN === undefined);
		assert.equal(await sendLine(twoRoles('TELEMATICS_TOKEN_USER', 'TELEMATICS_TOKEN_OPS'), 5), `Bearer ${token(admin.account.id)}`);

		const last = token(admin.account.id);
		await api.services.store.remove(admin.account.id);
		await until('the admin\'s variable gone', () => process.env.TELEMATICS_TOKEN_OPS === undefined);
		const afterLogout = await sendLine(twoRoles('TELEMATICS_TOKEN_USER', 'TELEMATICS_TOKEN_OPS'), 5);
		assert.ok(!afterLogout?.includes(last) && !/eyJ/.test(afterLogout ?? ''), `no token after logout: ${afterLogout}`);
		assert.equal(await sendLine(text, 1), `Bearer ${token(user.account.id)}`, 'the user\'s request still works');
	});

	it('REST Client\'s own indirection: {{$processEnv %telematicsToken}} reads the account its environment names, with no token in settings (issue 30)', async () => {
		await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
		const restClient = vscode.workspace.getConfiguration('rest-client');
		await restClient.update('environmentVariables', { $shared: {}, prod: { telematicsToken: 'TELEMATICS_TOKEN_ADMIN' }, dev: { telematicsToken: 'TELEMATICS_TOKEN_USER' } }, vscode.ConfigurationTarget.Global);
		// REST Client keeps the environment chosen in its status bar in environment.json, and reads it on every send:
		// under ~/.rest-client when that existed as it loaded, else under $XDG_CONFIG_HOME/rest-client (its source).
		const places = [path.join(os.homedir(), '.rest-client'), ...(process.env.XDG_CONFIG_HOME ? [path.join(process.env.XDG_CONFIG_HOME, 'rest-client')] : [])];
		const choose = (environment: string) => {
			for (const dir of places) {
				fs.mkdirSync(dir, { recursive: true });
				fs.writeFileSync(path.join(dir, 'environment.json'), JSON.stringify({ label: environment, name: environment }));
			}
		};
		try {
			const user = await logIn(api, emu, 'user');
			const admin = await logIn(api, emu, 'admin');
			const token = (id: string) => api.services.store.get(id)!.tokens!.accessToken;
			await until('both variables', () => process.env.TELEMATICS_TOKEN_USER === token(user.account.id) && process.env.TELEMATICS_TOKEN_ADMIN === token(admin.account.id));
			const text = `GET ${emu.url}/v1/Me\nAuthorization: Bearer {{$processEnv %telematicsToken}}\n`;
			for (const [environment, account] of [['prod', admin], ['dev', user]] as const) {
				choose(environment);
				assert.equal(await sendLine(text, 0), `Bearer ${token(account.account.id)}`, `${environment} sends the token of ${account.account.name}`);
			}
			// The lens above the reference says whose token each environment reads.
			const lensFile = file.replace(/\.http$/, '-indirect.http');
			fs.writeFileSync(lensFile, text);
			try {
				const doc = await vscode.workspace.openTextDocument(lensFile);
				const titles = await until('the lens on %telematicsToken', async () => ourLenses(await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)).map((l) => l.command!.title),
					{ accept: (l) => l.length === 1, timeoutMs: 5000 });
				assert.deepEqual(titles, ['$(account) %telematicsToken: prod → admin · dev → user']);
			} finally {
				fs.rmSync(lensFile, { force: true });
			}
			const settingsText = JSON.stringify(vscode.workspace.getConfiguration('rest-client').inspect('environmentVariables'));
			assert.ok(!settingsText.includes(token(admin.account.id)) && !/eyJ/.test(settingsText), 'no token in settings');
		} finally {
			for (const dir of places) fs.rmSync(path.join(dir, 'environment.json'), { force: true });
			await restClient.update('environmentVariables', undefined, vscode.ConfigurationTarget.Global);
		}
	});

	it('sends the token exposeToken keeps current, the new one after a refresh, and none after logout', async () => {
		await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
		const session = await logIn(api, emu, 'user');
		const token = () => api.services.store.get(session.account.id)!.tokens!.accessToken;
		await until('the token in the environment', () => process.env.TELEMATICS_TOKEN === token());
		assert.equal(await sendWithRestClient(), `Bearer ${token()}`);

		const before = token();
		await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: session.account.id });
		assert.notEqual(token(), before);
		await until('the refreshed token in the environment', () => process.env.TELEMATICS_TOKEN === token());
		assert.equal(await sendWithRestClient(), `Bearer ${token()}`, 'the next send carries the refreshed token');

		const last = token();
		await api.services.store.remove(session.account.id);
		await until('no token in the environment', () => process.env.TELEMATICS_TOKEN === undefined);
		const afterLogout = await sendWithRestClient();
		assert.ok(!afterLogout?.includes(last) && !/eyJ/.test(afterLogout ?? ''), `no token after logout: ${afterLogout}`);

		// REST Client's history keeps every request it sent, headers resolved (here in the temporary home the test
		// host gave it); Telematics Auth takes the tokens out again (issue 65), the logged-out account's too.
		const file = path.join(os.homedir(), '.rest-client', 'history.json');
		const history = await until('REST Client\'s history without the tokens it sent', () => fs.existsSync(file) && fs.readFileSync(file, 'utf8'),
			{ accept: (text) => typeof text === 'string' && /token of user|TELEMATICS_TOKEN_USER/.test(text) && !text.includes(last) && !text.includes(before) });
		assert.ok((JSON.parse(history) as unknown[]).length >= 3, 'every request REST Client recorded is still there');
	});

	it('REST Client\'s Request History replays a recorded request with the live token, and the file holds none (issue 65)', async () => {
		await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
		const session = await logIn(api, emu, 'user');
		const token = api.services.store.get(session.account.id)!.tokens!.accessToken;
		await until('the token in the environment', () => process.env.TELEMATICS_TOKEN_USER === token);
		assert.equal(await sendWithRestClient(), `Bearer ${token}`);
		const file = path.join(os.homedir(), '.rest-client', 'history.json');
		await until('the history to hold the reference, not the token', () => fs.readFileSync(file, 'utf8'), { accept: (text) => !text.includes(token) && text.includes('{{$processEnv TELEMATICS_TOKEN_USER}}') });
		// The person's way: Request History, the newest entry, then Send Request in the document it opens.
		void vscode.commands.executeCommand('rest-client.history');
		const replay = await until('REST Client to open the recorded request', async () => {
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			return vscode.window.activeTextEditor?.document.getText().includes('TELEMATICS_TOKEN_USER') && vscode.window.activeTextEditor;
		}, { timeoutMs: 20_000, everyMs: 250 });
		assert.ok(!replay.document.getText().includes(token), 'the replayed request holds the reference');
		emu.resetStats();
		await vscode.commands.executeCommand('rest-client.request');
		await until('the replay to reach the service', () => emu.stats.lastMeAuthorization, 90_000);
		assert.equal(emu.stats.lastMeAuthorization, `Bearer ${token}`, 'replayed with the live token');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});
	it('a history of 50 entries rewritten while REST Client sends in a loop loses nothing and keeps no token (issue 65)', async () => {
		await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
		const session = await logIn(api, emu, 'user');
		const token = api.services.store.get(session.account.id)!.tokens!.accessToken;
		await until('the token in the environment', () => process.env.TELEMATICS_TOKEN_USER === token);
		const file = path.join(os.homedir(), '.rest-client', 'history.json');
		const seeded = Array.from({ length: 50 }, (_, i) => ({ method: 'GET', url: `${emu.url}/v1/Me?seed=${49 - i}`, headers: { 'X-Seed': String(49 - i) }, body: null, startTime: 1_700_000_000_000 + 49 - i }));
		fs.writeFileSync(file, `${JSON.stringify(seeded)}\n`);
		const sends = 10;
		for (let n = 0; n < sends; n++) {
			const own = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, `rest-client-loop-${n}.http`);
			fs.writeFileSync(own, `GET ${emu.url}/v1/Me?loop=${n}\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`);
			try {
				const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(own));
				editor.selection = new vscode.Selection(0, 0, 0, 0);
				await vscode.commands.executeCommand('rest-client.request');
				await until('REST Client\'s request to reach the service', () => emu.stats.requests.some((r) => r.query === `?loop=${n}`), 90_000);
			} finally {
				await vscode.commands.executeCommand('workbench.action.closeAllEditors');
				fs.rmSync(own, { force: true });
			}
		}
		const history = await until('the history with every send and no token', () => fs.readFileSync(file, 'utf8'), {
			accept: (text) => !text.includes(token) && (JSON.parse(text) as Array<{ url: string }>)[0]?.url.endsWith(`loop=${sends - 1}`),
			timeoutMs: 10_000,
		});
		const urls = (JSON.parse(history) as Array<{ url: string }>).map((e) => new URL(e.url).search);
		assert.deepEqual(urls, [...Array.from({ length: sends }, (_, i) => `?loop=${sends - 1 - i}`), ...Array.from({ length: 50 - sends }, (_, i) => `?seed=${49 - i}`)], 'the 50 newest, newest first, none lost');
		assert.ok(history.includes('{{$processEnv TELEMATICS_TOKEN_USER}}'), 'each send\'s token became the reference');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});
});
