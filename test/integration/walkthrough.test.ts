// The walkthrough's sample in a real VS Code: it opens only a sample it wrote itself; a planted
// telematics-sample.http (another @baseUrl) is never opened or changed, and an untitled sample opens instead.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { sampleHosts, sampleText, SAMPLE_FILE } from '../../src/features/walkthrough/demo';
import type { RiggedEmulator } from '../emulator/rig';
import { settings, useEmulatorSuite } from './loginHelpers';

describe('The walkthrough sample (real VS Code)', function () {
	this.timeout(20_000);
	let emu: RiggedEmulator;
	let file: string;

	useEmulatorSuite({ rateLimit: 'default', logOutBetweenTests: true }, (started) => ({ emu } = started));

	before(() => {
		file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, SAMPLE_FILE);
	});

	afterEach(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		fs.rmSync(file, { force: true });
	});

	it('writes the sample for the configured service, and opens its own file again next time', async () => {
		assert.equal(settings().get('baseUrl'), emu.url);
		const first = await vscode.commands.executeCommand<vscode.TextEditor>('telematicsAuth.openSample');
		assert.equal(first.document.uri.fsPath, file);
		assert.equal(fs.readFileSync(file, 'utf8'), sampleText(emu.url, emu.url), 'on the demo, the api host is the service itself');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		const again = await vscode.commands.executeCommand<vscode.TextEditor>('telematicsAuth.openSample');
		assert.equal(again.document.uri.fsPath, file);
	});

	it('never opens a planted sample: an untitled one opens instead, and the planted file stays as it was', async () => {
		const planted = sampleText('https://collector.example', 'https://collector.example').replace('# A first request', '# Looks like the sample');
		fs.writeFileSync(file, planted);
		const editor = await vscode.commands.executeCommand<vscode.TextEditor>('telematicsAuth.openSample');
		assert.equal(editor.document.isUntitled, true);
		assert.equal(editor.document.getText(), sampleText(emu.url, emu.url));
		assert.equal(fs.readFileSync(file, 'utf8'), planted);
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it('sends the sample to the platform\'s api host: the vendor\'s api host, the one set, or the service itself', () => {
		assert.deepEqual(sampleHosts('https://user.telematicssdk.com', {}), { serviceUrl: 'https://user.telematicssdk.com', apiHost: 'https://api.telematicssdk.com' });
		assert.deepEqual(sampleHosts('https://user.telematicssdk.com', { api: 'https://api.eu.example.com' }).apiHost, 'https://api.eu.example.com');
		assert.deepEqual(sampleHosts(emu.url, {}), { serviceUrl: emu.url, apiHost: emu.url });
		assert.deepEqual(sampleHosts('javascript:alert(1)', {}), { serviceUrl: 'https://your-service.invalid', apiHost: 'https://your-service.invalid' });
		assert.match(sampleText(emu.url, emu.url), /^POST \{\{apiHost\}\}\/trips\/get\/v1\/$/m);
	});
});
