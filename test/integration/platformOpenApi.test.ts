// "Load Operations from the Platform's OpenAPI…" in the real extension host against the emulator: the
// command reads the demo's one document (every host key on one origin) with the active account's token,
// and the operation only that document names (`GET /v1/Me`) is then offered by New Request, completion and
// the agent's tools, and answers 200 when sent. A reading that finds no document puts the known ones back.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { logIn, settings, useEmulatorSuite } from './loginHelpers';

interface LoadOutcome {
	accountId: string;
	hosts: Array<{ host: string; keys: string[]; operations?: number; problem?: string }>;
	added: string[];
	filled: number;
}

const textOf = (result: vscode.LanguageModelToolResult): string => result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
const invoke = async (name: string, input: object): Promise<string> => textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));

describe('Operations from the platform\'s OpenAPI (issue 43)', function () {
	this.timeout(60_000);
	let api: TestApi;
	let emu: RiggedEmulator;

	// Before the suite's own teardown (which closes the emulator and logs out): a reading with the service
	// gone finds no document, and the operations the extension knows stand again for the specs that follow.
	after(async () => {
		await emu.close();
		const outcome = await vscode.commands.executeCommand<LoadOutcome | undefined>('telematicsAuth.loadPlatformOperations');
		assert.deepEqual(outcome?.added, []);
		assert.ok(outcome?.hosts.every((h) => h.problem), JSON.stringify(outcome?.hosts));
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'http', content: '' }));
		await vscode.commands.executeCommand('telematicsAuth.newRequest', { operationId: 'openapi.me' });
		assert.equal(editor.document.getText(), '', 'the operation is gone with the reading');
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: false, resetsSettings: ['insertStyle', 'exposeToken'] }, (started) => ({ api, emu } = started));

	before(async () => {
		await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
		await settings().update('insertStyle', 'processEnv', vscode.ConfigurationTarget.Global);
		await logIn(api, emu, 'user');
	});

	it('reads the document once for the demo\'s hosts, with the account\'s token, and adds the operation only it names', async () => {
		emu.resetStats();
		const outcome = await vscode.commands.executeCommand<LoadOutcome | undefined>('telematicsAuth.loadPlatformOperations');
		assert.ok(outcome, 'the command ran');
		assert.equal(outcome.hosts.length, 1, 'every host key is the emulator: one document');
		assert.deepEqual(outcome.hosts[0]!.keys, ['user', 'api', 'accounts', 'portal']);
		assert.equal(outcome.hosts[0]!.problem, undefined);
		assert.deepEqual(outcome.added, ['openapi.me']);
		const fetched = emu.stats.requests.filter((r) => r.path === '/swagger/v1/swagger.json');
		assert.deepEqual(fetched.map((r) => [r.method, r.status, r.bearerRole]), [['GET', 200, 'user']]);
	});

	it('New Request offers it, and the request it writes gets 200 from the emulator', async () => {
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'http', content: '' }));
		const outcome = await vscode.commands.executeCommand<{ name: string } | undefined>('telematicsAuth.newRequest', { operationId: 'openapi.me' });
		assert.equal(outcome?.name, 'openapi_me');
		const text = editor.document.getText();
		assert.match(text, new RegExp(`^GET ${emu.url}/v1/Me$`, 'm'));
		assert.match(text, /^# Who the bearer token belongs to: its subject, role and expiry \(needs a token of a kind its OpenAPI document cannot say\)$/m);
		assert.match(text, /^Authorization: Bearer \{\{\$processEnv TELEMATICS_TOKEN_USER\}\}$/m);
		const answer = await fetch(`${emu.url}/v1/Me`, { headers: { Authorization: `Bearer ${api.services.store.active()!.tokens!.accessToken}` } });
		assert.equal(answer.status, 200);
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it('completion offers its path after the platform host', async () => {
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'http', content: `GET ${emu.url}/v1/` }));
		const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, new vscode.Position(0, editor.document.lineAt(0).text.length), '/');
		const labels = list.items.map((i) => typeof i.label === 'string' ? i.label : i.label.label);
		assert.ok(labels.includes('/v1/Me'), labels.join(', '));
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it('the agent finds it with telematics_operations and calls it with telematics_request', async () => {
		const listed = await invoke('telematics_operations', { query: 'bearer token belongs' });
		assert.match(listed, /- openapi\.me: GET user \/v1\/Me — Who the bearer token belongs to/);
		assert.match(listed, /a kind nobody knows/);
		const answered = await invoke('telematics_request', { operation: 'openapi.me' });
		assert.match(answered, /→ HTTP 200/);
		assert.match(answered, /"Role": "user"/);
	});
});
