// The copy commands and the API explorer in the real extension host: what lands on the
// clipboard, for which account, and what the person is told.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { Session } from '../../src/core/sessions/types';
import type { TestApi } from './testApi';
import { logIn, useEmulatorSuite } from './loginHelpers';

describe('Token commands (real VS Code)', () => {
	let api: TestApi;
	let emu: RiggedEmulator;
	let user: Session;
	let admin: Session;

	const tokenOf = (session: Session) => api.services.store.get(session.account.id)!.tokens!.accessToken;
	const lastInfo = () => [...api.messages()].reverse().find((m) => m.severity === 'info')?.text ?? '';

	useEmulatorSuite({ rateLimit: 'default', logOutBetweenTests: false }, (started) => ({ api, emu } = started));

	before(async () => {
		user = await logIn(api, emu, 'user');
		admin = await logIn(api, emu, 'admin');
		assert.equal(api.services.store.active()?.account.id, admin.account.id);
	});

	beforeEach(async () => {
		await vscode.env.clipboard.writeText('before');
	});

	const cases: Array<{ command: string; expected: (token: string) => string; what: string }> = [
		{ command: 'telematicsAuth.copyAuthorizationHeader', expected: (t) => `Authorization: Bearer ${t}`, what: 'the Authorization header' },
		{ command: 'telematicsAuth.copyAccessToken', expected: (t) => t, what: 'the access token' },
		{ command: 'telematicsAuth.copyAsCurl', expected: (t) => `-H 'Authorization: Bearer ${t}'`, what: 'the curl header' },
	];
	for (const c of cases) {
		it(`${c.command} copies ${c.what} of the active account and says for how long it is valid`, async () => {
			assert.equal(await vscode.commands.executeCommand(c.command), true);
			assert.equal(await vscode.env.clipboard.readText(), c.expected(tokenOf(admin)));
			assert.match(lastInfo(), new RegExp(`^Copied ${c.what} for ${admin.account.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} — valid for \\d+(h \\d+m|m)\\.$`));
		});
	}

	it('copies the token of the account passed as { accountId }, not the active one', async () => {
		await vscode.commands.executeCommand('telematicsAuth.copyAuthorizationHeader', { accountId: user.account.id });
		assert.equal(await vscode.env.clipboard.readText(), `Authorization: Bearer ${tokenOf(user)}`);
		assert.ok(lastInfo().includes(`for ${user.account.label}`), lastInfo());
	});

	it('openApiExplorer copies "Bearer <token>" and says to paste it into Authorize', async () => {
		await vscode.commands.executeCommand('telematicsAuth.openApiExplorer');
		assert.equal(await vscode.env.clipboard.readText(), `Bearer ${tokenOf(admin)}`);
		assert.ok(lastInfo().includes('Authorize'), lastInfo());
		assert.ok(lastInfo().includes(admin.account.label), lastInfo());
	});
});
