// A hostile folder opened in Restricted Mode (real VS Code, workspace trust on): logging in, exposing the
// token and inserting a header run no program of the folder, change no file outside it and write no env file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
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

	before(() => {
		folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		hostile = hostileFolderFacts(process.env[HOSTILE_ENV]!);
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

	it('exposes the token to the process environment only, and says why no env file gets it', async () => {
		await settings().update('exposeTokenFiles', ['.env', 'http-client.private.env.json'], vscode.ConfigurationTarget.Global);
		await settings().update('exposeToken', 'environmentAndFiles', vscode.ConfigurationTarget.Global);
		const session = await logIn(api, emu, 'user');
		const token = api.services.store.get(session.account.id)!.tokens!.accessToken;
		await until('the token in the environment', () => process.env.TELEMATICS_TOKEN === token);
		const told = await until('the Restricted Mode message', () => api.messages().find((m) => /not trusted/.test(m.text)));
		assert.deepEqual(told.actions, ['Manage Workspace Trust']);
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
});
