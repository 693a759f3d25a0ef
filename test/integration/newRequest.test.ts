// New Request… and the wrong identity (issue 43), in the real extension host against the emulator's
// platform routes: the admin's trips request goes in with the admin's named reference and httpyac gets
// 200 with trips; switched to the user's reference it carries the warning and the emulator answers 403;
// the quick fix puts it right. Path completion after a platform host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as httpyac from 'httpyac';
import type { RiggedEmulator } from '../emulator/rig';
import { DEMO_USERS } from '../emulator/rig';
import type { TestApi } from './testApi';
import { logIn, ScriptedPrompter, settings, until, useEmulatorSuite } from './loginHelpers';

/** Sends `text` with httpyac in this process (it reads `$processEnv` from here); each status and body. */
async function sendWithHttpyac(text: string): Promise<Array<{ status: number; body: string }>> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'new-request-'));
	try {
		const file = path.join(dir, 'platform.http');
		fs.writeFileSync(file, text);
		const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(file, async () => text, Date.now(), { workingDir: dir });
		const answers: Array<{ status: number; body: string }> = [];
		await httpyac.send({ httpFile, logResponse: async (response) => void answers.push({ status: response?.statusCode ?? 0, body: String(response?.body ?? '') }) });
		return answers;
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** The body's placeholders made real: the demo user, and the last 30 days of the emulator's clock. */
function forTheDemoUser(text: string): string {
	const day = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
	return text.replace('00000000-0000-0000-0000-000000000000', DEMO_USERS[0]!.deviceToken)
		.replace(/"StartDate": "[^"]*"/, `"StartDate": "${day(Date.now() - 30 * 86_400_000)}"`)
		.replace(/"EndDate": "[^"]*"/, `"EndDate": "${day(Date.now())}"`);
}

describe('New Request and the wrong identity (issue 43)', function () {
	this.timeout(60_000);
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: false, resetsSettings: ['insertStyle', 'exposeToken'] }, (started) => ({ api, emu } = started));

	before(async () => {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
		await settings().update('insertStyle', 'processEnv', vscode.ConfigurationTarget.Global);
		await logIn(api, emu, 'user');
		await logIn(api, emu, 'admin');
		await until('both accounts exposed', () => process.env.TELEMATICS_TOKEN_USER && process.env.TELEMATICS_TOKEN_ADMIN);
	});

	// Each file its own name: an untitled document's "Untitled-N" is given again once it is closed, and a
	// command sent to that name can still reach the closed one's text.
	let files = 0;
	async function emptyHttp(content = ''): Promise<vscode.TextEditor> {
		const uri = vscode.Uri.from({ scheme: 'untitled', path: `/new-request-${++files}.http` });
		const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'http');
		const editor = await vscode.window.showTextDocument(document);
		if (content) await editor.edit((b) => b.insert(new vscode.Position(0, 0), content));
		return editor;
	}

	it("inserts the admin's trips request with the admin's named reference, offered first, and httpyac gets 200 with trips", async () => {
		const editor = await emptyHttp();
		const prompter = new ScriptedPrompter([]);
		prompter.accountPicks.push('admin');
		api.setPrompter(prompter);
		const outcome = await vscode.commands.executeCommand<{ name: string; requestLine: number } | undefined>('telematicsAuth.newRequest', { operationId: 'trips.admin.list' });
		api.setPrompter(undefined);
		assert.equal(outcome?.name, 'trips_admin_list');
		assert.deepEqual(prompter.accountsOffered[0]?.names, ['admin', 'user'], 'the account of the needed kind first');
		const text = editor.document.getText();
		assert.match(text, /^# @name trips_admin_list$/m);
		assert.match(text, new RegExp(`^POST ${emu.url}/trips/get/admin/v1$`, 'm'));
		assert.match(text, /^Authorization: Bearer \{\{\$processEnv TELEMATICS_TOKEN_ADMIN\}\}$/m);
		assert.match(text, /^Content-Type: application\/json$/m);
		assert.equal(editor.selection.active.line, outcome?.requestLine, 'the cursor on the new request line');
		const [answer] = await sendWithHttpyac(forTheDemoUser(text));
		assert.equal(answer?.status, 200, answer?.body);
		assert.ok((JSON.parse(answer!.body) as { Result: { Trips: unknown[] } }).Result.Trips.length > 0, answer?.body);
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it("warns when the request sends the user's token, the emulator's 403 agrees, and the quick fix puts it right", async () => {
		const editor = await emptyHttp();
		await vscode.commands.executeCommand('telematicsAuth.newRequest', { operationId: 'trips.admin.list', accountId: api.services.store.list().find((s) => s.account.kind === 'admin')!.account.id });
		const uri = editor.document.uri;
		const line = editor.document.getText().split('\n').findIndex((l) => l.startsWith('Authorization'));
		await editor.edit((b) => b.replace(editor.document.lineAt(line).range, 'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}'));
		const warnings = await until('the wrong-identity warning', () => vscode.languages.getDiagnostics(uri).filter((d) => d.code === 'wrongIdentity'), { accept: (d) => d.length === 1, timeoutMs: 5000 });
		assert.equal(warnings[0]!.severity, vscode.DiagnosticSeverity.Warning);
		assert.equal(warnings[0]!.range.start.line, line);
		assert.match(warnings[0]!.message, /needs an admin token; this request sends user's/);
		const [refused] = await sendWithHttpyac(forTheDemoUser(editor.document.getText()));
		assert.equal(refused?.status, 403, 'the service agrees: the user token is refused');
		const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, warnings[0]!.range, vscode.CodeActionKind.QuickFix.value);
		const fix = actions.find((a) => a.title.startsWith("Send admin's token"));
		assert.ok(fix?.edit, actions.map((a) => a.title).join(', '));
		assert.equal(fix.isPreferred, true);
		await vscode.workspace.applyEdit(fix.edit);
		assert.equal(editor.document.lineAt(line).text, 'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}');
		await until('the warning gone', () => vscode.languages.getDiagnostics(uri).filter((d) => d.code === 'wrongIdentity'), { accept: (d) => d.length === 0, timeoutMs: 5000 });
		const [ok] = await sendWithHttpyac(forTheDemoUser(editor.document.getText()));
		assert.equal(ok?.status, 200);
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it('offers New Request on an empty line, and keeps requests around it whole', async () => {
		const editor = await emptyHttp(`GET ${emu.url}/v1/Management/users\n\n`);
		const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, new vscode.Range(1, 0, 1, 0));
		const action = actions.find((a) => a.title === 'New Request…');
		assert.ok(action?.command, actions.map((a) => a.title).join(', '));
		const prompter = new ScriptedPrompter([]);
		prompter.accountPicks.push('user');
		api.setPrompter(prompter);
		await vscode.commands.executeCommand(action.command.command, { ...action.command.arguments![0] as object, operationId: 'trips.user.list' });
		api.setPrompter(undefined);
		const text = editor.document.getText();
		assert.match(text, new RegExp(`^GET ${emu.url}/v1/Management/users\\n\\n###\\n# .*\\n# @name trips_user_list\\nPOST ${emu.url}/trips/get/v1/\\nAuthorization: Bearer \\{\\{\\$processEnv TELEMATICS_TOKEN_USER\\}\\}\\n`), text);
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it("completes the platform's paths after a platform host, for the line's method", async () => {
		const editor = await emptyHttp(`POST ${emu.url}/tri`);
		const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, new vscode.Position(0, editor.document.lineAt(0).text.length), '/');
		const labels = list.items.map((i) => typeof i.label === 'string' ? i.label : i.label.label);
		assert.ok(labels.includes('/trips/get/admin/v1'), labels.join(', '));
		assert.ok(labels.includes('/trips/get/v1/'));
		assert.ok(!labels.includes('/v1/Management/users/find'), 'a GET path is not offered for POST');
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});
});

describe('New Request in the header style and for an operation without a token (issue 43)', function () {
	this.timeout(60_000);
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: false, resetsSettings: ['insertStyle'] }, (started) => ({ api, emu } = started));

	before(async () => {
		await settings().update('insertStyle', 'header', vscode.ConfigurationTarget.Global);
		await logIn(api, emu, 'admin');
	});

	it("writes the account's current token in the header style, and InstanceId/InstanceKey only as variables", async () => {
		const document = await vscode.workspace.openTextDocument({ language: 'http', content: '' });
		const editor = await vscode.window.showTextDocument(document);
		const admin = api.services.store.list()[0]!;
		await vscode.commands.executeCommand('telematicsAuth.newRequest', { operationId: 'users.find', accountId: admin.account.id });
		assert.ok(editor.document.getText().includes(`Authorization: Bearer ${admin.tokens!.accessToken}\n`), 'the current token');
		await vscode.commands.executeCommand('telematicsAuth.newRequest', { operationId: 'registration.create', accountId: admin.account.id });
		const text = editor.document.getText();
		assert.match(text, /\nInstanceId: \{\{InstanceId\}\}\nInstanceKey: \{\{InstanceKey\}\}\n/);
		assert.equal(text.match(/^Authorization/gm)?.length, 1, 'no Authorization for an operation signed by its instance');
		assert.equal(text.match(/^###$/gm)?.length, 1, 'the two requests apart');
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});
});
