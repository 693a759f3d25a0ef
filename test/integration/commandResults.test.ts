// What another extension gets by running our commands, in the real extension host: never a secret
// (the authentication provider, behind VS Code's consent prompt, is the road to a token), and no
// more refreshes than the automatic ones would make.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SAMPLE_FILE } from '../../src/features/walkthrough/demo';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { EXTENSION_ID, logIn, ScriptedPrompter, useEmulatorSuite } from './loginHelpers';

/** A command that waits for a person (a quick pick of VS Code's own) is left after this long. */
const PERSON_WAIT_MS = 3_000;
/** How long a command is given before a quick pick it may show is dismissed. */
const QUICK_PICK_MS = 500;

describe('Command results (real VS Code)', function () {
	this.timeout(120_000);
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true }, (started) => ({ api, emu } = started));

	it('no contributed command hands back a token, a refresh token or a device token, with or without an account argument', async () => {
		const user = await logIn(api, emu, 'user');
		await logIn(api, emu, 'admin');
		// Every question a command asks through the prompter is answered "no" (as no person is there).
		api.setPrompter(new ScriptedPrompter([]));
		const ids = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command)
			.filter((id) => id !== 'telematicsAuth.logout'); // answered "no" too, but it would end the secrets this test looks for
		// Open a Sample writes its file into the folder: it goes again after this test, as it was before.
		const sample = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, SAMPLE_FILE);
		const sampleBefore = fs.existsSync(sample);
		const results: { id: string; args: string; value: unknown }[] = [];
		try {
			for (const id of ids) {
				for (const args of [[], [{ accountId: user.account.id }]]) {
					const ran = Promise.resolve(vscode.commands.executeCommand(id, ...args)).then((value) => ({ value }), (error: unknown) => ({ value: String(error) }));
					const within = (ms: number) => Promise.race([ran, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);
					// A quick pick of VS Code's own is dismissed as a person would (Escape); a command that
					// still waits after that (a modal, a second pick) is left after PERSON_WAIT_MS.
					let outcome = await within(QUICK_PICK_MS);
					if (!outcome) {
						await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
						outcome = await within(PERSON_WAIT_MS);
					}
					await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
					if (outcome) results.push({ id, args: JSON.stringify(args), value: outcome.value });
				}
			}
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			if (!sampleBefore) fs.rmSync(sample, { force: true });
		}
		assert.ok(results.length >= 20, `${results.length} commands ran without a person`);
		const secrets = api.services.store.list().flatMap((s) => [s.tokens?.accessToken, s.tokens?.refreshToken, s.tokens?.deviceToken]).filter((v): v is string => !!v);
		assert.ok(secrets.length >= 4, 'the accounts hold their secrets');
		for (const { id, args, value } of results) {
			const seen = JSON.stringify(value) ?? '';
			for (const secret of secrets) assert.ok(!seen.includes(secret), `${id} ${args} handed back a secret`);
		}
		const refreshed = results.find((r) => r.id === 'telematicsAuth.refresh' && r.args !== '[]')?.value as Record<string, unknown>;
		assert.deepEqual(Object.keys(refreshed).sort(), ['accountId', 'expiresAt', 'state'], 'Refresh names the account, its state and expiry');
	});

	it('twenty Refresh calls in a row reach the service once while the token is fresh, and the person is told', async () => {
		const user = await logIn(api, emu, 'user');
		const before = emu.stats.refreshCalls;
		const calls = Array.from({ length: 20 }, () => vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: user.account.id }));
		await Promise.all(calls);
		for (let i = 0; i < 20; i++) await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: user.account.id });
		assert.equal(emu.stats.refreshCalls - before, 1, 'one refresh: the others joined it or were declined');
		assert.equal(api.services.store.get(user.account.id)?.state, 'valid');
	});

	// The same floor when the token cannot be made fresh: each state is reached by one press, then 20 more send nothing.
	const refreshesSent = (): number => emu.stats.requests.filter((r) => r.path.toLowerCase() === '/v1/auth/refreshtoken').length;
	const cases: Array<{ state: string; fault: Parameters<RiggedEmulator['setFaults']>[0]; told: RegExp }> = [
		{ state: 'a token refreshed into an expired one', fault: { refresh: 'expiredToken' }, told: /The token for .+ was refreshed \d+ s ago; try again in \d+ s \(at most one refresh every 30 s\)\./ },
		{ state: 'a 429', fault: { refresh: 'rateLimited' }, told: /A refresh for .+ was tried \d+ s ago and failed; try again in \d+ s \(at most one refresh every 30 s\)\./ },
		{ state: 'a refused refresh token', fault: { refresh: 'bodyStatusMismatch' }, told: /The service refused the refresh token of .+, so refreshing cannot help: log in again\./ },
	];
	for (const { state, fault, told } of cases) {
		it(`after ${state}, twenty more Refresh calls reach the service not once, and the person is told why`, async () => {
			const user = await logIn(api, emu, 'user');
			emu.setFaults(fault);
			try {
				const before = refreshesSent();
				await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: user.account.id });
				assert.equal(refreshesSent() - before, 1, 'the first press is sent');
				for (let i = 0; i < 20; i++) await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: user.account.id });
				assert.equal(refreshesSent() - before, 1, 'the twenty after it were held back');
				const messages = api.messages().slice(-20); // each press says why it sent nothing
				assert.equal(messages.length, 20);
				for (const message of messages) assert.match(message.text, told);
			} finally {
				emu.setFaults({});
			}
		});
	}
});
