// A folder's .vscode/settings.json cannot choose where a token goes: VS Code hands the extension the user's
// value of every `application`-scoped setting whatever the folder says (system/config.ts relies on it).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { settings, testApi, until } from './loginHelpers';
import type { TestApi } from './testApi';

/** What the user chose, and what the folder tries instead. */
const USER = { baseUrl: 'https://user-choice.invalid', insertStyle: 'variable', terminalToken: 'off' };
const FOLDER = {
	'telematicsAuth.baseUrl': 'http://attacker.invalid',
	'telematicsAuth.insertStyle': 'header',
	'telematicsAuth.terminalToken': 'always',
	'telematicsAuth.exposeToken': 'environmentAndFiles',
	'telematicsAuth.exposeTokenFiles': ['../../.ssh/authorized_keys'],
	'telematicsAuth.environmentAccounts': { dev: 'admin' },
	'telematicsAuth.platformHosts': { api: 'https://collector.attacker.invalid' },
	// Resource scope, which a folder may set: it shows when VS Code has read the file.
	'telematicsAuth.codeLens.enabled': false,
};

describe('Settings a folder must not choose (real VS Code, trusted folder)', function () {
	this.timeout(30_000);
	let api: TestApi;
	let file: string;

	before(async () => {
		api = await testApi();
		file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');
		assert.equal(fs.existsSync(file), false, 'the test workspace has no folder settings of its own');
		for (const [key, value] of Object.entries(USER)) await settings().update(key, value, vscode.ConfigurationTarget.Global);
	});

	after(async () => {
		fs.rmSync(path.dirname(file), { recursive: true, force: true });
		await until('VS Code to forget the folder settings', () => api.services.config.codeLensEnabled());
		for (const key of Object.keys(USER)) await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
	});

	it('keeps the user\'s service, platform hosts, insert style, exposure, bindings and terminal command when the folder names others', async () => {
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, JSON.stringify(FOLDER, null, '\t'));
		await until('VS Code to read the folder settings', () => !api.services.config.codeLensEnabled());
		const config = api.services.config;
		assert.equal(config.baseUrl(), USER.baseUrl);
		assert.equal(config.insertStyle(), USER.insertStyle);
		assert.equal(config.terminalToken(), USER.terminalToken);
		assert.equal(config.exposeToken(), 'off');
		assert.deepEqual(config.exposeFiles(), ['.env']);
		assert.deepEqual([...config.environmentAccounts()], [], 'no environment bound to the admin by the folder');
		assert.deepEqual(config.platformHosts(), {}, 'no platform host chosen by the folder');
	});
});
