// REST Client itself (humao.rest-client 0.25.0, installed beside us in the real host) sends a .http file that
// holds only {{$processEnv TELEMATICS_TOKEN}}: the live token, the refreshed one after a refresh, none after logout.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { logIn, settings, until, useEmulatorSuite } from './loginHelpers';

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
		await until('REST Client\'s request to reach the emulator', () => emu.stats.requests.some((r) => r.path.toLowerCase() === '/v1/me'), 20_000);
		return emu.stats.lastMeAuthorization;
	}

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

		// What stays outside our reach, as REST Client's source says: its history keeps every header it sent
		// (here in the temporary home the test host gave it), so a logout cannot take a sent token back.
		const history = await until('REST Client\'s history', () => {
			const file = path.join(os.homedir(), '.rest-client', 'history.json');
			return fs.existsSync(file) && fs.readFileSync(file, 'utf8');
		});
		assert.ok(history.includes(last), 'REST Client\'s history holds the token it sent');
	});
});
