// Insert Authorization Header for a production account (issue 44), in the real extension host against the
// emulator: a request to a changing operation of the account's platform gets a `# @note` naming the account
// above its request line, with the header, in one edit; a read gets none; an account that is not production
// gets none. REST Client and httpYac ask before they send a request with a `# @note`.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { logIn, ScriptedPrompter, settings, useEmulatorSuite } from './loginHelpers';

describe('Insert Authorization Header for a production account (issue 44)', function () {
	this.timeout(60_000);
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: false, resetsSettings: ['insertStyle'] }, (started) => ({ api, emu } = started));

	before(async () => {
		await settings().update('insertStyle', 'header', vscode.ConfigurationTarget.Global);
		await logIn(api, emu, 'admin');
	});

	async function insertInto(content: string, accountId: string): Promise<string> {
		const document = await vscode.workspace.openTextDocument({ language: 'http', content });
		const editor = await vscode.window.showTextDocument(document);
		const line = content.split('\n').findIndex((l) => /^(GET|PUT|DELETE) /.test(l));
		editor.selection = new vscode.Selection(line, 2, line, 2);
		await vscode.commands.executeCommand('telematicsAuth.insertAuthorizationHeader', { accountId });
		opened++;
		return editor.document.getText();
	}
	/** Untitled documents stay open until the end: one closed and opened again may come back with its old text. */
	let opened = 0;
	after(async () => {
		for (; opened > 0; opened--) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it('a changing request of a production account gets a # @note naming it; a read gets none; once unmarked, none', async () => {
		const admin = api.services.store.list()[0]!;
		assert.ok(await vscode.commands.executeCommand('telematicsAuth.markProduction', { accountId: admin.account.id }));
		const token = api.services.store.get(admin.account.id)!.tokens!.accessToken;
		const label = admin.account.label;

		const changed = await insertInto(`# @name update\nPUT ${emu.url}/v1/Management/users\nContent-Type: application/json\n\n{}\n`, admin.account.id);
		assert.equal(changed, `# @name update\n# @note Change a user's profile and settings: this changes data on production account ${label}.\nPUT ${emu.url}/v1/Management/users\nAuthorization: Bearer ${token}\nContent-Type: application/json\n\n{}\n`);

		const deleted = await insertInto(`DELETE ${emu.url}/v1/Management/users/abc\n`, admin.account.id);
		assert.match(deleted, new RegExp(`^# @note Delete the user and all their data: this cannot be undone \\(production account ${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)\\.\\nDELETE `));

		const read = await insertInto(`GET ${emu.url}/v1/Management/users/find?Email=a\n`, admin.account.id);
		assert.doesNotMatch(read, /@note/, 'a read is not asked about');

		api.setPrompter(new ScriptedPrompter([])); // confirms the unmark
		assert.ok(await vscode.commands.executeCommand('telematicsAuth.unmarkProduction', { accountId: admin.account.id }));
		api.setPrompter(undefined);
		const unmarked = await insertInto(`PUT ${emu.url}/v1/Management/users\n`, admin.account.id);
		assert.doesNotMatch(unmarked, /@note/, 'an account that is not production is not asked about');
		assert.match(unmarked, /^Authorization: Bearer /m);
	});
});
