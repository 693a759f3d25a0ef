// No token left behind (issue 65): a scripted day in a real VS Code with REST Client 0.25.0 and httpYac 6.16.7
// beside the product (a login, a refresh, a send with each client, `telematics-token` in a terminal, Live
// Tracking, an agent through telematics-mcp, a logout), then HOME, VS Code's user-data folder and the temporary folder are read for every token the
// emulator issued (access and refresh; as written, base64, base64url). Only the secret store may hold one:
// in the test host (code-server) it is the workbench's, encrypted in the browser's storage, so no file may.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../../emulator/rig';
import type { TestApi } from '../testApi';
import { logIn, ScriptedPrompter, settings, until, useEmulatorSuite } from '../loginHelpers';
import { inTerminal, openTerminalWithCommand, terminalEnvironment } from '../terminalCommand';
import type { McpCallSpec, McpRun } from '../../support/mcpClient';

const MCP_CLIENT = path.resolve(__dirname, '../../support/mcpClient.js');

/** Files larger than this are not text a tool writes a token into (logs, JSON, state) and are not read. */
const MAX_BYTES = 32 * 1024 * 1024;

/** Every regular file under `root` (no links followed, no node_modules), up to `limit` files. */
function filesUnder(root: string, limit = 50_000): string[] {
	const out: string[] = [];
	const walk = (dir: string): void => {
		let entries: fs.Dirent[];
		try {
			entries = fs.readdirSync(dir, { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			if (out.length >= limit) return;
			const file = path.join(dir, entry.name);
			if (entry.isDirectory() && entry.name !== 'node_modules') walk(file);
			else if (entry.isFile()) out.push(file);
		}
	};
	walk(root);
	return out;
}

/** The files under `roots` that hold one of `tokens` as written, base64 or base64url. */
function holders(roots: readonly string[], tokens: readonly string[]): Array<{ file: string; token: number }> {
	const needles = tokens.flatMap((t, i) => [t, Buffer.from(t).toString('base64'), Buffer.from(t).toString('base64url')].map((n) => [Buffer.from(n), i] as const));
	const found: Array<{ file: string; token: number }> = [];
	for (const file of new Set(roots.flatMap((root) => filesUnder(root)))) {
		let data: Buffer;
		try {
			if (fs.statSync(file).size > MAX_BYTES) continue;
			data = fs.readFileSync(file);
		} catch {
			continue;
		}
		const hit = needles.find(([needle]) => data.includes(needle));
		if (hit) found.push({ file, token: hit[1] });
	}
	return found;
}

describe('No token left behind after a day with both clients (real VS Code, REST Client 0.25.0 and httpYac 6.16.7)', function () {
	this.timeout(180_000);
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: false, resetsSettings: ['exposeToken', 'terminalToken'] }, (started) => ({ api, emu } = started));

	after(async () => {
		api.setPrompter(undefined);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('only the secret store holds a token the emulator issued', async () => {
		const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		const issued: string[] = [];
		const note = (id: string): void => {
			const t = api.services.store.get(id)?.tokens;
			if (t) issued.push(t.accessToken, t.refreshToken);
		};
		await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
		await settings().update('terminalToken', 'always', vscode.ConfigurationTarget.Global);

		// The day: a login and a refresh.
		const session = await logIn(api, emu, 'user');
		note(session.account.id);
		await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: session.account.id });
		note(session.account.id);
		const token = api.services.store.get(session.account.id)!.tokens!.accessToken;
		await until('the token in the environment', () => process.env.TELEMATICS_TOKEN === token);

		// REST Client sends with the exposed token.
		const restClient = vscode.extensions.getExtension('humao.rest-client');
		assert.ok(restClient, 'REST Client is installed beside httpYac in this pass');
		await restClient.activate();
		const restFile = path.join(folder, 'day-rest-client.http');
		fs.writeFileSync(restFile, `GET ${emu.url}/v1/Me?client=rest\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`);
		const restEditor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(restFile));
		restEditor.selection = new vscode.Selection(0, 0, 0, 0);
		await vscode.commands.executeCommand('rest-client.request');
		await until('REST Client\'s request', () => emu.stats.requests.some((r) => r.query === '?client=rest'), 90_000);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');

		// httpYac sends with its variable.
		const httpyacFile = path.join(folder, 'day-httpyac.http');
		fs.writeFileSync(httpyacFile, `GET ${emu.url}/v1/Me?client=httpyac\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`);
		const httpyacDocument = await vscode.workspace.openTextDocument(httpyacFile);
		await vscode.window.showTextDocument(httpyacDocument);
		api.setPrompter(new ScriptedPrompter([], 'user', false));
		await until('httpYac\'s request', async () => {
			if (!emu.stats.requests.some((r) => r.query === '?client=httpyac')) await vscode.commands.executeCommand('httpyac.send', httpyacDocument, 0);
			return emu.stats.requests.some((r) => r.query === '?client=httpyac');
		}, { timeoutMs: 60_000, everyMs: 2_000 });
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');

		// telematics-token in a terminal.
		const collection = api.services.context.environmentVariableCollection;
		const terminal = await openTerminalWithCommand(collection);
		assert.equal((await inTerminal('telematics-token', terminalEnvironment(collection))).stdout.trim(), token);
		terminal.dispose();

		// Live Tracking, as the admin (the realtime service takes an admin's token).
		const admin = await logIn(api, emu, 'admin');
		note(admin.account.id);
		await vscode.commands.executeCommand('telematicsAuth.openLiveTracking', { accountId: admin.account.id });
		await until('Live Tracking live', () => api.livePanels().find((p) => p.accountId === admin.account.id)?.state === 'live', 30_000);
		await until('a frame or two', () => emu.realtime.authenticateTokens.length > 0);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');

		// An agent through telematics-mcp (the MCP SDK's client), as the admin: the session asked and allowed.
		api.setPrompter(new ScriptedPrompter([], 'admin', true));
		const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'day-agent-'));
		const calls: McpCallSpec[] = [{ name: 'telematics_request', arguments: { operation: 'users.me' } }];
		fs.writeFileSync(path.join(agentDir, 'calls.json'), JSON.stringify(calls));
		await inTerminal(`'${process.execPath}' '${MCP_CLIENT}' '${path.join(agentDir, 'calls.json')}' '${path.join(agentDir, 'result.json')}'`, terminalEnvironment(collection));
		const run = JSON.parse(fs.readFileSync(path.join(agentDir, 'result.json'), 'utf8')) as McpRun;
		assert.equal(run.calls.length === 1 && run.calls[0]!.isError, false, `the agent's call was answered: ${JSON.stringify(run).slice(0, 400)}`);
		api.setPrompter(undefined);

		// The end of the day: a logout.
		await api.services.store.remove(admin.account.id);
		await api.services.store.remove(session.account.id);
		await until('no token in the environment', () => process.env.TELEMATICS_TOKEN === undefined);
		fs.rmSync(restFile, { force: true });
		fs.rmSync(httpyacFile, { force: true });

		// REST Client's history is rewritten within its poll; httpYac's and our logs are written by VS Code.
		const history = path.join(os.homedir(), '.rest-client', 'history.json');
		await until('REST Client\'s history without the token', () => fs.existsSync(history) && !fs.readFileSync(history, 'utf8').includes(token), 10_000);
		const userData = path.resolve(api.services.context.globalStorageUri.fsPath, '..', '..', '..');
		const roots = [os.homedir(), userData, os.tmpdir()];
		// The scan finds what it looks for: a decoy holding the first token base64url-encoded, in the temporary folder.
		const decoy = path.join(os.tmpdir(), `telematics-decoy-${process.pid}.txt`);
		fs.writeFileSync(decoy, `x${Buffer.from(issued[0]!).toString('base64url')}x`);
		let found: ReturnType<typeof holders>;
		try {
			found = holders(roots, [...new Set(issued)]);
		} finally {
			fs.rmSync(decoy, { force: true });
		}
		assert.deepEqual(found.filter((f) => f.file === decoy).map((f) => f.token), [0], 'the decoy is found');
		found = found.filter((f) => f.file !== decoy);
		// The test host's SecretStorage is the workbench's, kept encrypted in the browser's storage: no file may hold one.
		assert.deepEqual(found.map((f) => f.file), [], `files holding a token the emulator issued (roots: ${roots.join(', ')})`);
	});
});
