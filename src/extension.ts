// Activation: every command registered once, then the rest (startup.ts, dist/startup.js) loads right
// after activate() returns. A command run before then waits for it, then runs its handler.
import * as vscode from 'vscode';
import type { CommandId } from './commands';
import { CommandHandlers } from './commandHandlers';
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
		.then(() => import('./startup'))
		.then((m) => m.startCore(context, handlers, marks));
	marks.activateEndedAt = performance.now();
	if (context.extensionMode === vscode.ExtensionMode.Test) return core;
	core.catch((e: unknown) => console.error(`Telematics Auth could not start: ${e instanceof Error ? e.stack ?? e.message : String(e)}`));
	return undefined;
}

export function deactivate(): void {
	// Everything is in context.subscriptions.
}
