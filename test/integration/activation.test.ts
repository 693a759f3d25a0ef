// The extension in the real VS Code extension host: it is installed, activates, registers
// every command its manifest declares, and shows its status bar item.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, testApi } from './loginHelpers';

interface ManifestCommand { command: string; title: string }

describe('Extension activation (real VS Code)', () => {
	it('is installed under its published id', () => {
		const ext = vscode.extensions.getExtension(EXTENSION_ID);
		assert.ok(ext, `${EXTENSION_ID} is not loaded in the extension host`);
		assert.equal(ext.packageJSON.name, 'telematics-auth');
	});

	it('activates without an error', async () => {
		const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
		await ext.activate();
		assert.equal(ext.isActive, true);
	});

	it('registers every command declared in package.json', async () => {
		const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
		await ext.activate();
		const declared = (ext.packageJSON.contributes.commands as ManifestCommand[]).map((c) => c.command);
		assert.ok(declared.length > 0);
		const registered = new Set(await vscode.commands.getCommands(true));
		const missing = declared.filter((id) => !registered.has(id));
		assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
	});

	it('shows its status bar item', async () => {
		const snapshot = (await testApi()).statusBar();
		assert.ok(snapshot.text.length > 0, 'the status bar item has text');
	});
});
