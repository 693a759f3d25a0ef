// Activation: a stub for each declared command, then the rest (startup.ts, dist/startup.js) loads
// right after activate() returns. A command run before the real ones are registered waits for them.
import * as vscode from 'vscode';
import type { TestHandles } from './startup';

export function activate(context: vscode.ExtensionContext): Promise<TestHandles | undefined> | undefined {
	const marks = { activateStartedAt: performance.now(), activateEndedAt: 0 };
	const declared = (context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
	const stubs = declared.map(({ command }) => vscode.commands.registerCommand(command, async (...args: unknown[]) => {
		await core;
		return vscode.commands.executeCommand(command, ...args);
	}));
	context.subscriptions.push(...stubs);
	const core: Promise<TestHandles | undefined> = new Promise<void>((resolve) => setImmediate(resolve))
		.then(() => import('./startup'))
		.then((m) => m.startCore(context, stubs, marks));
	marks.activateEndedAt = performance.now();
	if (context.extensionMode === vscode.ExtensionMode.Test) return core;
	core.catch((e: unknown) => console.error(`Telematics Auth could not start: ${e instanceof Error ? e.stack ?? e.message : String(e)}`));
	return undefined;
}

export function deactivate(): void {
	// Everything is in context.subscriptions.
}
