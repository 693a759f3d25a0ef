// `telematics-token` in a real VS Code: run as a terminal runs it (the PATH, channel and nonce from the
// window's environment collection), logged in, across a refresh, for another account, and after logout;
// and with "ask", in real terminals of the window and in a process with no terminal of its own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { delimiter, dirname } from 'node:path';
import * as vscode from 'vscode';
import { CHANNEL_ENV, NONCE_ENV } from '../../src/core/terminal/protocol';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { logIn, ScriptedPrompter, settings, until, useEmulatorSuite } from './loginHelpers';
import { join } from 'node:path';
import { commandFile, commandFolder, inTerminal, openTerminalWithCommand, terminalEnvironment } from './terminalCommand';

describe('telematics-token in the terminals (real VS Code)', function () {
	this.timeout(40_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	let collection: vscode.EnvironmentVariableCollection;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, accessTokenLifetimeSeconds: 7200, resetsSettings: ['terminalToken', 'autoRefresh'] }, (started) => ({ api, emu } = started));

	let terminal: vscode.Terminal;
	before(async () => {
		// Today's behaviour first ("always"); "ask" has its own tests below.
		await settings().update('terminalToken', 'always', vscode.ConfigurationTarget.Global);
		collection = api.services.context.environmentVariableCollection;
		await until('the channel in the environment collection', () => collection.get(NONCE_ENV) !== undefined);
		const socket = collection.get(CHANNEL_ENV)!.value;
		assert.equal(fs.existsSync(dirname(socket)), false, 'nothing on disk while the window has no terminal');
		assert.equal(fs.existsSync(commandFile(collection)), false, 'no command either');
		terminal = await openTerminalWithCommand(collection);
		assert.ok(fs.existsSync(socket), 'the command is written once its window listens');
	});
	after(() => terminal.dispose());

	const token = (id: string) => api.services.store.get(id)!.tokens!.accessToken;

	it('puts the command on the PATH and the channel in the terminal\'s environment, never the token, never persisted', async () => {
		const session = await logIn(api, emu, 'user');
		assert.equal(collection.persistent, false);
		const path = collection.get('PATH');
		// Appended: a folder of ours can only answer for a command nothing earlier on the PATH has (never git or ls).
		assert.equal(path?.type, vscode.EnvironmentVariableMutatorType.Append);
		assert.ok(path!.value.startsWith(delimiter), 'after whatever the PATH holds');
		assert.deepEqual([path?.options.applyAtProcessCreation, path?.options.applyAtShellIntegration], [true, false], 'once, as the process starts (applied again by shell integration it would be there twice)');
		const values: string[] = [];
		collection.forEach((_, mutator) => values.push(mutator.value));
		assert.ok(values.every((v) => !v.includes(token(session.account.id))), 'no token in the collection');
		const bin = commandFolder(collection);
		// In a folder of the user's that no other user can replace (channelRoot.ts), not the shared temp folder.
		assert.ok(!bin.startsWith(`${os.tmpdir()}/telematics-token-`), bin);
		for (let dir = bin; dir !== '/'; dir = dirname(dir)) {
			const stat = fs.lstatSync(dir);
			assert.ok(stat.isDirectory() && (stat.mode & 0o022) === 0 || (stat.mode & 0o1000) !== 0, `${dir} is writable by others`);
		}
		for (const file of fs.readdirSync(bin)) assert.ok(!fs.readFileSync(`${bin}/${file}`, 'utf8').includes('eyJ'), 'no token in the script');
		assert.equal(process.env[CHANNEL_ENV], undefined, 'the extension host itself does not get it');
	});

	it('prints the live token, the header and JSON; the new one after a refresh; another account by label', async () => {
		const user = await logIn(api, emu, 'user');
		const env = terminalEnvironment(collection);
		assert.deepEqual(await inTerminal('telematics-token', env), { code: 0, stdout: `${token(user.account.id)}\n`, stderr: '' });
		await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: user.account.id });
		const refreshed = token(user.account.id);
		assert.notEqual(refreshed, user.tokens!.accessToken);
		assert.equal((await inTerminal('telematics-token --header', env)).stdout, `Authorization: Bearer ${refreshed}\n`, 'the same terminal gets the new token');
		const me = await inTerminal(`curl -s -H "$(telematics-token --header)" ${emu.url}/v1/Me`, env);
		assert.match(me.stdout, /"Subject"/, `the emulator's protected resource answers: ${me.stdout}`);

		const admin = await logIn(api, emu, 'admin');
		assert.equal(api.services.store.active()?.account.id, admin.account.id);
		const json = JSON.parse((await inTerminal(`telematics-token --json --account '${user.account.label}'`, env)).stdout) as Record<string, unknown>;
		assert.deepEqual({ ...json, expiresAt: typeof json.expiresAt }, { token: refreshed, expiresAt: 'string', label: user.account.label, serviceUrl: emu.url });
	});

	it('a token inside its refresh window is refreshed first, by the scheduler, never by a login', async () => {
		await settings().update('autoRefresh', false, vscode.ConfigurationTarget.Global);
		emu.setAccessTokenLifetime(20);
		const user = await logIn(api, emu, 'user');
		const old = token(user.account.id);
		// Past half of its 20 s (the refresh window here), by its own expiry, with 8 s left for the command:
		// an expired token would be a question instead, and a slow machine needs the room.
		const expiresAt = api.services.store.get(user.account.id)!.tokens!.expiresAt;
		await until('the token past half its life', () => Date.now() >= expiresAt - 8000, { timeoutMs: 60_000 });
		emu.resetStats();
		const printed = (await inTerminal('telematics-token', terminalEnvironment(collection))).stdout.trim();
		assert.notEqual(printed, old);
		assert.equal(printed, token(user.account.id));
		assert.deepEqual({ refresh: emu.stats.refreshCalls, login: emu.stats.loginCalls }, { refresh: 1, login: 0 });
		emu.setAccessTokenLifetime(7200);
	});

	it('logged out: nothing on stdout, a reason on stderr, a non-zero exit', async () => {
		const user = await logIn(api, emu, 'user');
		await api.services.store.remove(user.account.id);
		const result = await inTerminal('telematics-token', terminalEnvironment(collection));
		assert.deepEqual({ code: result.code, stdout: result.stdout }, { code: 1, stdout: '' });
		assert.match(result.stderr, /No Telematics account is logged in/);
	});

	it('off with one setting (its earlier form, false, too): the collection is cleared and the channel closed', async () => {
		for (const off of ['off', false]) {
			const env = terminalEnvironment(collection);
			await settings().update('terminalToken', off, vscode.ConfigurationTarget.Global);
			await until('the collection to be cleared', () => collection.get(NONCE_ENV) === undefined);
			const result = await inTerminal('telematics-token', env);
			assert.notEqual(result.code, 0);
			await settings().update('terminalToken', 'always', vscode.ConfigurationTarget.Global);
			await until('the channel back', () => collection.get(NONCE_ENV) !== undefined);
		}
	});

	describe('"ask": the person decides which terminal gets a token', () => {
		let prompter: ScriptedPrompter;
		let out: string;
		let counter = 0;
		beforeEach(async () => {
			await settings().update('terminalToken', undefined, vscode.ConfigurationTarget.Global); // the default
			prompter = new ScriptedPrompter([]);
			api.setPrompter(prompter);
			out = fs.mkdtempSync(join(os.tmpdir(), 'terminal-ask-'));
		});
		afterEach(async () => {
			api.setPrompter(undefined);
			await settings().update('terminalToken', 'always', vscode.ConfigurationTarget.Global);
			fs.rmSync(out, { recursive: true, force: true });
		});

		/** Runs `telematics-token` in a real terminal of the window: its stdout, stderr and exit code. */
		async function inRealTerminal(shell: vscode.Terminal): Promise<{ code: string; stdout: string; stderr: string }> {
			const name = join(out, String(++counter));
			shell.sendText(`telematics-token > ${name}.out 2> ${name}.err; echo $? > ${name}.code`);
			const code = await until('the command to finish in the terminal', () => fs.existsSync(`${name}.code`) && fs.readFileSync(`${name}.code`, 'utf8'), { timeoutMs: 20_000, accept: (c) => typeof c === 'string' && c.endsWith('\n') });
			return { code: code.trim(), stdout: fs.readFileSync(`${name}.out`, 'utf8'), stderr: fs.readFileSync(`${name}.err`, 'utf8') };
		}

		it('the default: a terminal is asked about once; Deny gives no token and exit 1, Allow for This Terminal the live token; another terminal is asked again', async () => {
			assert.equal(api.services.config.terminalToken(), 'ask');
			const user = await logIn(api, emu, 'user');
			api.setPrompter(prompter);
			const first = vscode.window.createTerminal({ name: 'first terminal' });
			const second = vscode.window.createTerminal({ name: 'second terminal' });
			try {
				prompter.terminalAnswers.push(false);
				const denied = await inRealTerminal(first);
				assert.deepEqual([denied.code, denied.stdout], ['1', ''], 'denied: no token, a non-zero exit');
				assert.match(denied.stderr, /Denied in VS Code/);
				assert.equal(prompter.terminalAsked.length, 1);
				assert.equal(prompter.terminalAsked[0]!.terminalName, 'first terminal', 'the question names the terminal');
				assert.equal(prompter.terminalAsked[0]!.account, user.account.label);
				assert.match(prompter.terminalAsked[0]!.commandLine ?? '', /^telematics-token \(run by .*sh\b/, 'and the command, run by the terminal\'s shell');
				assert.equal(prompter.terminalAsked[0]!.anyProgram, undefined, 'the kernel said which process asks (Linux: ss and /proc)');

				prompter.terminalAnswers.push(true);
				const allowed = await inRealTerminal(first);
				assert.deepEqual([allowed.code, allowed.stdout], ['0', `${token(user.account.id)}\n`], 'allowed: the live token');
				const again = await inRealTerminal(first);
				assert.equal(again.stdout, `${token(user.account.id)}\n`);
				assert.equal(prompter.terminalAsked.length, 2, 'the allowed terminal is not asked again');

				const other = await inRealTerminal(second);
				assert.deepEqual([other.code, other.stdout], ['1', ''], 'another terminal is asked again (and denied)');
				assert.equal(prompter.terminalAsked.length, 3);
				assert.equal(prompter.terminalAsked[2]!.terminalName, 'second terminal');
			} finally {
				first.dispose();
				second.dispose();
			}
		});

		it('a program with no terminal of its own (as agents run commands) is asked every time; "always" asks nothing', async () => {
			const user = await logIn(api, emu, 'user');
			api.setPrompter(prompter);
			const env = terminalEnvironment(collection);
			prompter.terminalAnswers.push(true, false);
			const once = await inTerminal('setsid telematics-token', env);
			assert.deepEqual([once.code, once.stdout], [0, `${token(user.account.id)}\n`], 'allowed once');
			const next = await inTerminal('setsid telematics-token', env);
			assert.deepEqual([next.code, next.stdout], [1, ''], 'asked again, denied');
			assert.deepEqual(prompter.terminalAsked.map((q) => q.terminalName), [undefined, undefined], 'no terminal of its own');

			await settings().update('terminalToken', 'always', vscode.ConfigurationTarget.Global);
			const always = await inTerminal('setsid telematics-token', env);
			assert.deepEqual([always.code, always.stdout], [0, `${token(user.account.id)}\n`]);
			assert.equal(prompter.terminalAsked.length, 2, '"always" asks nothing');
		});
	});
});
