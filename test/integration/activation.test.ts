// The extension in the real VS Code extension host: it is installed, activates, registers
// every command its manifest declares, and shows its status bar item.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, testApi, until } from './loginHelpers';

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

	it('gives every declared command a handler once what the commands do has loaded', async () => {
		const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
		const declared = (ext.packageJSON.contributes.commands as ManifestCommand[]).map((c) => c.command);
		// activate() registers the manifest's ids itself; what each runs is the features' handler table.
		const api = await testApi();
		await api.loadOnDemand();
		const { handlers } = api.services.commands as unknown as { handlers: Map<string, unknown> };
		const missing = declared.filter((id) => !handlers.has(id));
		assert.deepEqual(missing, [], `declared but without a handler: ${missing.join(', ')}`);
	});

	it("keeps the compiled code of what loads after activation in the extension's own storage, for the next start", async () => {
		const api = await testApi();
		await api.loadOnDemand();
		const folder = vscode.Uri.joinPath(api.services.context.globalStorageUri, 'compiled');
		const kept = await until('startup.js and onDemand.js kept', async () => {
			const names = (await vscode.workspace.fs.readDirectory(folder).then((entries) => entries.map(([name]) => name), () => [])).sort();
			return names.length === 2 ? names : undefined;
		}, 15_000);
		assert.match(kept[0]!, /^onDemand\.js\.[0-9a-f]{16}\.v8cache$/);
		assert.match(kept[1]!, /^startup\.js\.[0-9a-f]{16}\.v8cache$/);
		const lines = api.logLines().join('\n');
		assert.match(lines, /startup\.js (was compiled|ran the code compiled at an earlier start)\./);
		assert.match(lines, /onDemand\.js (was compiled|ran the code compiled at an earlier start)\./);
	});

	it('shows its status bar item', async () => {
		const snapshot = (await testApi()).statusBar();
		assert.ok(snapshot.text.length > 0, 'the status bar item has text');
	});
});
