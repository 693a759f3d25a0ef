// The live token with none in any .http file, proved with a real REST client: httpyac sends
// `Authorization: Bearer {{TELEMATICS_TOKEN}}` to the emulator while exposeToken keeps it current.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { Session } from '../../src/core/sessions/types';
import type { TestApi } from './testApi';
import { commandSession, logIn, ourLenses, settings, until, useEmulatorSuite } from './loginHelpers';

import * as httpyac from 'httpyac';

/** Sends every request of `text` (saved as `name` in `dir`) with httpyac; the status codes, or 'not sent'. */
async function sendWithHttpyac(dir: string, name: string, text: string, activeEnvironment?: string[]): Promise<Array<number | 'not sent'>> {
	const file = path.join(dir, name);
	fs.writeFileSync(file, text);
	const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(file, async () => text, Date.now(), { workingDir: dir });
	const statuses: Array<number | 'not sent'> = [];
	await httpyac.send({ httpFile, ...(activeEnvironment && { activeEnvironment }), logResponse: async (response) => void statuses.push(response ? response.statusCode : 'not sent') });
	return statuses.length ? statuses : ['not sent'];
}

describe('The live token for REST clients, no token in any file (real VS Code + httpyac)', function () {
	this.timeout(30_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	let folder: string;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, resetsSettings: ['exposeToken', 'exposeTokenFiles', 'environmentAccounts'] }, (started) => ({ api, emu } = started));

	before(async () => {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		fs.writeFileSync(path.join(folder, '.gitignore'), '.env\nhttp-client.private.env.json\n');
	});

	after(async () => {
		for (const name of ['.env', 'http-client.private.env.json', '.gitignore', 'live.http', 'live-env.http']) fs.rmSync(path.join(folder, name), { force: true });
	});

	const dotenv = () => path.join(folder, '.env');
	const jetbrains = () => path.join(folder, 'http-client.private.env.json');
	const token = (session: Session) => api.services.store.get(session.account.id)!.tokens!.accessToken;

	it('is off by default: nothing in the environment, no file written', async () => {
		await logIn(api, emu, 'user');
		await new Promise((resolve) => setTimeout(resolve, 300));
		assert.equal(process.env.TELEMATICS_TOKEN, undefined);
		assert.equal(fs.existsSync(dotenv()), false);
	});

	it('sends the live token through httpyac, follows a refresh, and carries none after logout', async () => {
		await settings().update('exposeTokenFiles', ['.env', 'http-client.private.env.json'], vscode.ConfigurationTarget.Global);
		await settings().update('exposeToken', 'environmentAndFiles', vscode.ConfigurationTarget.Global);
		const session = await logIn(api, emu, 'user');
		const first = token(session);
		await until('the token in the environment', () => process.env.TELEMATICS_TOKEN === first);
		assert.equal(process.env.TELEMATICS_BASE_URL, emu.url);
		await until('the token in .env', () => fs.existsSync(dotenv()) && fs.readFileSync(dotenv(), 'utf8').includes(first));
		assert.equal(fs.statSync(dotenv()).mode & 0o777, 0o600, 'owner-only');
		await until('the token in the JetBrains env file', () => fs.existsSync(jetbrains()) && fs.readFileSync(jetbrains(), 'utf8').includes(first));

		const fileWithoutToken = 'GET {{TELEMATICS_BASE_URL}}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n';
		const processEnvFile = 'GET {{$processEnv TELEMATICS_BASE_URL}}/v1/Me\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n';
		assert.deepEqual(await sendWithHttpyac(folder, 'live.http', fileWithoutToken), [200], '.env through httpyac');
		assert.equal(emu.stats.lastMeAuthorization, `Bearer ${first}`);
		assert.deepEqual(await sendWithHttpyac(folder, 'live-env.http', processEnvFile), [200], '$processEnv through httpyac');
		assert.deepEqual(await sendWithHttpyac(folder, 'live.http', 'GET {{$dotenv TELEMATICS_BASE_URL}}/v1/Me\nAuthorization: Bearer {{$dotenv TELEMATICS_TOKEN}}\n'), [200], '$dotenv through httpyac');
		assert.deepEqual(await sendWithHttpyac(folder, 'live.http', fileWithoutToken), [200]);
		assert.deepEqual(await sendWithHttpyac(folder, 'live.http', fileWithoutToken, ['telematics']), [200], 'the JetBrains env file through httpyac');

		// The emulator rotates the token; the extension refreshes; the same file sends the new one.
		const refreshed = await commandSession(api, 'telematicsAuth.refresh', { accountId: session.account.id });
		const second = refreshed!.tokens!.accessToken;
		assert.notEqual(second, first);
		await until('the new token in both files', () => fs.readFileSync(dotenv(), 'utf8').includes(second) && fs.readFileSync(jetbrains(), 'utf8').includes(second));
		assert.equal(process.env.TELEMATICS_TOKEN, second);
		assert.deepEqual(await sendWithHttpyac(folder, 'live.http', fileWithoutToken), [200]);
		assert.equal(emu.stats.lastMeAuthorization, `Bearer ${second}`);

		// No file the workspace would commit holds a token.
		for (const name of fs.readdirSync(folder)) {
			const file = path.join(folder, name);
			if (!fs.statSync(file).isFile() || ['.env', 'http-client.private.env.json'].includes(name)) continue;
			assert.ok(!fs.readFileSync(file, 'utf8').includes(second), `${name} holds no token`);
		}

		// Logout: the environment and the files lose it; the request goes out without a token.
		await api.services.store.remove(session.account.id);
		await until('the token gone from the environment', () => process.env.TELEMATICS_TOKEN === undefined);
		await until('both files gone', () => !fs.existsSync(dotenv()) && !fs.existsSync(jetbrains()));
		assert.equal(fs.existsSync(jetbrains()), false);
		const before = emu.stats.lastMeAuthorization;
		const afterLogout = await sendWithHttpyac(folder, 'live-env.http', processEnvFile);
		assert.ok(afterLogout[0] === 'not sent' || afterLogout[0] === 401, `after logout: ${afterLogout}`);
		assert.ok(emu.stats.lastMeAuthorization === before || !emu.stats.lastMeAuthorization?.includes('eyJ'), 'no token was sent');
	});

	it('a .env that git would commit is not written; the person is asked instead', async () => {
		fs.writeFileSync(path.join(folder, '.gitignore'), 'node_modules\n');
		try {
			await settings().update('exposeToken', 'environmentAndFiles', vscode.ConfigurationTarget.Global);
			const session = await logIn(api, emu, 'admin');
			await until('the token in the environment', () => process.env.TELEMATICS_TOKEN === token(session));
			await new Promise((resolve) => setTimeout(resolve, 500));
			assert.equal(fs.existsSync(dotenv()), false, 'nothing written into a file git may commit');
		} finally {
			fs.writeFileSync(path.join(folder, '.gitignore'), '.env\nhttp-client.private.env.json\n');
		}
	});

	it('an environment bound to an account sends that account\'s token through httpyac, whichever is active; after its logout, none (issue 30)', async () => {
		await settings().update('exposeTokenFiles', ['http-client.private.env.json'], vscode.ConfigurationTarget.Global);
		await settings().update('exposeToken', 'environmentAndFiles', vscode.ConfigurationTarget.Global);
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		// Bound through the command (the palette and the Accounts view's menu ask for both; a caller may name them).
		await vscode.commands.executeCommand('telematicsAuth.bindEnvironment', { environment: 'prod', accountId: admin.account.id });
		await vscode.commands.executeCommand('telematicsAuth.bindEnvironment', { environment: 'dev', accountId: user.account.id });
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.bindEnvironment', { environment: '$shared', accountId: admin.account.id }), undefined, '$shared cannot be bound');
		assert.deepEqual(settings().get('environmentAccounts'), { prod: 'admin', dev: 'user' });
		const environment = (name: string) => (JSON.parse(fs.readFileSync(jetbrains(), 'utf8')) as Record<string, Record<string, string>>)[name];
		const written = () => fs.existsSync(jetbrains()) && environment('prod')?.TELEMATICS_TOKEN === token(admin) && environment('dev')?.TELEMATICS_TOKEN === token(user);
		await until('each bound environment with its account\'s token', written);
		const file = 'GET {{TELEMATICS_BASE_URL}}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n';
		for (const active of [user, admin]) {
			await api.services.store.setActive(active.account.id);
			await until('the file after the switch', written);
			assert.deepEqual(await sendWithHttpyac(folder, 'live.http', file, ['prod']), [200]);
			assert.equal(emu.stats.lastMeAuthorization, `Bearer ${token(admin)}`, 'prod is the admin\'s');
			assert.deepEqual(await sendWithHttpyac(folder, 'live.http', file, ['dev']), [200]);
			assert.equal(emu.stats.lastMeAuthorization, `Bearer ${token(user)}`, 'dev is the user\'s');
		}

		// The lens above {{TELEMATICS_TOKEN}} names the bindings beside the active account.
		const lensUri = vscode.Uri.file(path.join(folder, 'live.http'));
		await vscode.workspace.openTextDocument(lensUri);
		const titles = await until('the lens with the bindings', async () => ourLenses(await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', lensUri)).map((l) => l.command!.title),
			{ accept: (l) => l.some((title) => title.includes('prod → admin · dev → user')), timeoutMs: 5000 });
		assert.ok(titles.some((title) => /^\$\(account\) TELEMATICS_TOKEN: admin \(active\) · valid for .* · prod → admin · dev → user$/.test(title)), titles.join(' | '));

		// A refresh and a rename: the binding follows the account.
		await commandSession(api, 'telematicsAuth.refresh', { accountId: admin.account.id });
		await vscode.commands.executeCommand('telematicsAuth.renameAccount', { accountId: admin.account.id, name: 'ops' });
		assert.deepEqual(settings().get('environmentAccounts'), { prod: 'ops', dev: 'user' });
		await until('the refreshed token in prod', written);
		assert.deepEqual(await sendWithHttpyac(folder, 'live.http', file, ['prod']), [200]);
		assert.equal(emu.stats.lastMeAuthorization, `Bearer ${token(admin)}`);

		// The admin logs out: prod carries no token (never the user's), dev still works.
		const last = token(admin);
		await api.services.store.remove(admin.account.id);
		await until('prod emptied', () => environment('prod')?.TELEMATICS_TOKEN === '');
		const before = emu.stats.lastMeAuthorization;
		const afterLogout = await sendWithHttpyac(folder, 'live.http', file, ['prod']);
		assert.notDeepEqual(afterLogout, [200], `after the admin's logout: ${afterLogout}`);
		assert.ok(emu.stats.lastMeAuthorization === before || !/eyJ/.test(emu.stats.lastMeAuthorization ?? ''), `no token in prod: ${emu.stats.lastMeAuthorization}`);
		assert.ok(!fs.readFileSync(jetbrains(), 'utf8').includes(last));
		assert.deepEqual(await sendWithHttpyac(folder, 'live.http', file, ['dev']), [200]);
		assert.equal(emu.stats.lastMeAuthorization, `Bearer ${token(user)}`);

		// Unbound, dev is an environment like any other again: the active account's token.
		await vscode.commands.executeCommand('telematicsAuth.bindEnvironment', { environment: 'dev', unbind: true });
		assert.deepEqual(settings().get('environmentAccounts'), { prod: 'ops' });
		await until('dev with the active account\'s token', () => environment('dev')?.TELEMATICS_TOKEN === token(user));
	});
});
