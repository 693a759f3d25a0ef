// A hostile folder opened in Restricted Mode (real VS Code, workspace trust on): logging in, exposing the
// token and inserting a header run no program of the folder, change no file outside it and write no env file;
// the exposed token is withheld until the person trusts the folder (the last test does).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as httpyac from 'httpyac';
import type { RiggedEmulator } from '../../emulator/rig';
import { NONCE_ENV } from '../../../src/core/terminal/protocol';
import { TERMINAL_ALLOWED_KEY } from '../../../src/features/terminal/terminalToken';
import { HOSTILE_ENV, hostileFolderFacts, type HostileFolder } from '../../support/hostileFolder';
import { logIn, ScriptedPrompter, settings, until, useEmulatorSuite } from '../loginHelpers';
import { inTerminal, openTerminalWithCommand, terminalEnvironment } from '../terminalCommand';
import type { TestApi } from '../testApi';

describe('A hostile folder in Restricted Mode (real VS Code, workspace trust on)', function () {
	this.timeout(30_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	let folder: string;
	let hostile: HostileFolder;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, resetsSettings: ['exposeToken', 'exposeTokenFiles'] }, (started) => ({ api, emu } = started));

	before(async () => {
		folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		hostile = hostileFolderFacts(process.env[HOSTILE_ENV]!);
		// REST Client runs in Restricted Mode here because the user settings allow it (extensions.supportUntrustedWorkspaces).
		const restClient = vscode.extensions.getExtension('humao.rest-client');
		assert.ok(restClient, 'REST Client is installed in the test host');
		await restClient.activate();
	});

	afterEach(async () => {
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
		api.setPrompter(undefined);
	});

	/** Nothing of the folder ran, nothing outside it changed, and .env and .gitignore are still the planted symlinks. */
	function assertFolderGotNothing(): void {
		assert.equal(fs.existsSync(hostile.marker), false, 'a program of the folder ran');
		for (const [file, text] of Object.entries(hostile.outsideFiles)) assert.equal(fs.readFileSync(file, 'utf8'), text, `${file} changed`);
		for (const name of ['.env', '.gitignore']) assert.ok(fs.lstatSync(path.join(folder, name)).isSymbolicLink(), `${name} was replaced`);
		assert.deepEqual(fs.readdirSync(folder).filter((n) => n.startsWith('http-client') || n.endsWith('.tmp')), [], 'an env file was written');
	}

	async function insertIntoRequest(prompter: ScriptedPrompter): Promise<vscode.TextEditor> {
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(folder, 'request.http')));
		editor.selection = new vscode.Selection(0, 0, 0, 0);
		api.setPrompter(prompter);
		await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
		return editor;
	}

	it('opens the folder untrusted, with the hostile files in place', () => {
		assert.equal(vscode.workspace.isTrusted, false);
		assert.ok(fs.existsSync(path.join(folder, '.git', 'config')));
		assertFolderGotNothing();
	});

	let sent = 0;
	/** Sends `GET <emulator>/v1/Me` with `Authorization: Bearer {{$processEnv TELEMATICS_TOKEN…}}` from a file of the folder with REST Client; the Authorization the emulator received. */
	async function sendWithRestClient(variable: string): Promise<string | null | undefined> {
		const file = path.join(folder, `restricted-send-${++sent}.http`); // a new name each time: VS Code may keep a closed document
		fs.writeFileSync(file, `GET ${emu.url}/v1/Me\nAuthorization: Bearer {{$processEnv ${variable}}}\n`);
		try {
			const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
			editor.selection = new vscode.Selection(0, 0, 0, 0);
			emu.resetStats();
			await vscode.commands.executeCommand('rest-client.request');
			await until('REST Client\'s request to reach the emulator', () => emu.stats.requests.some((r) => r.path.toLowerCase() === '/v1/me'), 90_000);
			return emu.stats.lastMeAuthorization;
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			fs.rmSync(file, { force: true });
		}
	}

	/** The same request sent by httpyac's engine in this extension host, as vscode-httpyac sends it; the Authorization received. */
	async function sendWithHttpyac(variable: string): Promise<string | null | undefined> {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		const file = path.join(folder, `restricted-httpyac-${++sent}.http`);
		const text = `GET ${emu.url}/v1/Me\nAuthorization: Bearer {{$processEnv ${variable}}}\n`;
		const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(file, async () => text, Date.now(), { workingDir: folder });
		emu.resetStats();
		await httpyac.send({ httpFile, logResponse: async () => undefined });
		return emu.stats.lastMeAuthorization;
	}

	const exposedVariables = (): Record<string, string | undefined> => Object.fromEntries(Object.keys(process.env).filter((k) => k.startsWith('TELEMATICS_TOKEN') || k === 'TELEMATICS_BASE_URL').map((k) => [k, process.env[k]]));

	it('withholds the exposed token while the folder is not trusted: no variable, no env file; REST Client and httpyac send none', async function () {
		this.timeout(120_000);
		await settings().update('exposeTokenFiles', ['.env', 'http-client.private.env.json'], vscode.ConfigurationTarget.Global);
		await settings().update('exposeToken', 'environmentAndFiles', vscode.ConfigurationTarget.Global);
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		const tokens = [user, admin].map((s) => api.services.store.get(s.account.id)!.tokens!.accessToken);
		const told = await until('the Restricted Mode message', () => api.messages().find((m) => /not exposed to REST clients here: this folder is not trusted/.test(m.text)));
		assert.deepEqual(told.actions, ['Manage Workspace Trust']);
		for (const variable of ['TELEMATICS_TOKEN', 'TELEMATICS_TOKEN_USER', 'TELEMATICS_TOKEN_ADMIN']) {
			const sent = [await sendWithRestClient(variable), await sendWithHttpyac(variable)];
			for (const authorization of sent) assert.ok(!tokens.some((t) => String(authorization).includes(t)), `${variable}: ${String(authorization).slice(0, 40)}`);
		}
		assert.deepEqual(exposedVariables(), {}, 'nothing in the extension host\'s environment');
		assertFolderGotNothing();
	});

	it('inserts a token only after a question that says the folder is not trusted, and runs no git', async () => {
		const session = await logIn(api, emu, 'admin');
		const token = api.services.store.get(session.account.id)!.tokens!.accessToken;
		const declined = new ScriptedPrompter([]);
		let editor = await insertIntoRequest(declined);
		assert.deepEqual(declined.trackedAsked, ['untrusted:true']);
		assert.equal(editor.document.getText().includes(token), false, 'cancelled: nothing written');
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

		const accepted = new ScriptedPrompter([]);
		accepted.trackedAnswers.push('continue');
		editor = await insertIntoRequest(accepted);
		assert.deepEqual(accepted.trackedAsked, ['untrusted:true']);
		assert.ok(editor.document.getText().includes(`Authorization: Bearer ${token}`));

		// Asked again the next time: nothing is remembered for an untrusted folder.
		const again = new ScriptedPrompter([]);
		await insertIntoRequest(again);
		assert.deepEqual(again.trackedAsked, ['untrusted:true']);
		assertFolderGotNothing();
	});

	it('telematics-token answers in an untrusted folder only after the person allowed it for the folder, once', async () => {
		const session = await logIn(api, emu, 'user');
		const collection = api.services.context.environmentVariableCollection;
		await until('the channel in the environment collection', () => collection.get(NONCE_ENV) !== undefined);
		const env = terminalEnvironment(collection);
		const terminal = await openTerminalWithCommand(collection);
		const run = async () => {
			const { code, stdout } = await inTerminal('telematics-token', env);
			return { code, stdout };
		};
		const declining = new ScriptedPrompter([], 'user', false);
		api.setPrompter(declining);
		assert.deepEqual(await run(), { code: 1, stdout: '' });
		assert.equal(declining.confirmations.length, 1);
		assert.match(declining.confirmations[0]!, /untrusted folder asks for the Telematics token/);
		assert.deepEqual(await run(), { code: 1, stdout: '' }, 'declined: not asked again in this window');
		assert.equal(declining.confirmations.length, 1);
		await api.services.context.workspaceState.update(TERMINAL_ALLOWED_KEY, true); // as "Allow for This Folder" stores it
		const token = api.services.store.get(session.account.id)!.tokens!.accessToken;
		declining.terminalAnswers.push(true); // then the question every program is asked ("ask", the default)
		assert.deepEqual(await run(), { code: 0, stdout: `${token}\n` });
		assert.equal(declining.terminalAsked.length, 1, 'refused for the folder, nothing was asked about the program');
		await api.services.context.workspaceState.update(TERMINAL_ALLOWED_KEY, undefined);
		terminal.dispose();
		assertFolderGotNothing();
	});

	// Last: it trusts the folder (the runner clicks Trust in the editor this opens, as the person would).
	it('brings the exposed token back when the person trusts the folder, without a reload; REST Client then sends it', async function () {
		this.timeout(60_000);
		await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
		const user = await logIn(api, emu, 'user');
		const token = api.services.store.get(user.account.id)!.tokens!.accessToken;
		assert.equal(vscode.workspace.isTrusted, false);
		assert.deepEqual(exposedVariables(), {});
		const granted = new Promise<void>((resolve) => vscode.workspace.onDidGrantWorkspaceTrust(() => resolve()));
		await vscode.commands.executeCommand('workbench.trust.manage');
		await Promise.race([granted, new Promise((_, reject) => setTimeout(() => reject(new Error('trust was not granted')), 90_000))]);
		await until('the token in the environment', () => process.env.TELEMATICS_TOKEN === token && process.env.TELEMATICS_TOKEN_USER === token);
		assert.equal(process.env.TELEMATICS_BASE_URL, emu.url);
		assert.equal(await sendWithRestClient('TELEMATICS_TOKEN_USER'), `Bearer ${token}`);
		assert.equal(await sendWithHttpyac('TELEMATICS_TOKEN'), `Bearer ${token}`);
		// No folder check here: trusted, the folder's git config runs its programs through VS Code's own Git extension.
	});
});
