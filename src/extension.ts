// Activation: every command registered once, then the rest (startup.ts, dist/startup.js) loads right after
// activate() returns, with V8's code kept from an earlier start. A command run before then waits for it.
import * as vscode from 'vscode';
import type { CommandId } from './commands';
import { CommandHandlers } from './commandHandlers';
import { CodeCache } from './platform/codeCache';
import type { TestHandles } from './startup';

export function activate(context: vscode.ExtensionContext): Promise<TestHandles | undefined> | undefined {
	const marks = { activateStartedAt: performance.now(), activateEndedAt: 0 };
	const handlers = new CommandHandlers();
	// The manifest's commands are the command table's (a unit test holds them together).
	const declared = (context.extension.packageJSON as { contributes: { commands: { command: CommandId }[] } }).contributes.commands;
	context.subscriptions.push(...declared.map(({ command: id }) => vscode.commands.registerCommand(id, async (...args: unknown[]) => {
		await core;
		return handlers.run(id, args);
	})));
	const core: Promise<TestHandles | undefined> = new Promise<void>((resolve) => setImmediate(resolve))
		.then(() => {
			// Compiled code kept in the extension's own storage, except when run from source (F5: a debugger expects require()).
			const storage = context.globalStorageUri;
			const keep = storage.scheme === 'file' && context.extensionMode !== vscode.ExtensionMode.Development;
			const bundles = new CodeCache(__dirname, keep ? vscode.Uri.joinPath(storage, 'compiled').fsPath : undefined);
			const startup = bundles.load<typeof import('./startup')>('startup.js');
			return startup.exports.startCore(context, handlers, { ...marks, bundles, startup });
		});
	marks.activateEndedAt = performance.now();
	if (context.extensionMode === vscode.ExtensionMode.Test) return core;
	core.catch((e: unknown) => console.error(`Telematics Auth could not start: ${e instanceof Error ? e.stack ?? e.message : String(e)}`));
	return undefined;
}

export function deactivate(): void {
	// Everything is in context.subscriptions.
}
