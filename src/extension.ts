// Activation: as little as an extension can do. A stub for each declared command (a command
// run early waits), then start-up (startup.ts, dist/startup.js) loads right after activate()
// returns, so VS Code's start-up does not wait for the store, the scheduler and the views.
// In test mode activate() returns the TestApi once start-up has run.
import { bundleStartedAt, elapsedMs, type ActivationTimings } from './core/util/startTime';
import * as vscode from 'vscode';
import type { TestApi } from './testApi';

/** When every module of this bundle had run (this line runs after the imports above). */
const bundleEvaluatedAt = performance.now();

export function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> | undefined {
	const activateStartedAt = performance.now();
	const timings: ActivationTimings = {
		bundleEvalMs: elapsedMs(bundleStartedAt, bundleEvaluatedAt),
		hostWaitMs: elapsedMs(bundleEvaluatedAt, activateStartedAt),
		activationMs: 0,
	};
	const declared = (context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
	const stubs = declared.map(({ command }) => vscode.commands.registerCommand(command, async (...args: unknown[]) => {
		await core;
		return vscode.commands.executeCommand(command, ...args);
	}));
	context.subscriptions.push(...stubs);
	const core: Promise<TestApi | undefined> = new Promise<void>((resolve) => setImmediate(resolve))
		.then(() => import('./startup'))
		.then((m) => m.startCore(context, stubs, timings, activateStartedAt));
	timings.activationMs = elapsedMs(activateStartedAt);
	if (context.extensionMode === vscode.ExtensionMode.Test) return core;
	core.catch((e: unknown) => console.error(`Telematics Auth could not start: ${e instanceof Error ? e.stack ?? e.message : String(e)}`));
	return undefined;
}

export function deactivate(): void {
	// Everything is in context.subscriptions.
}
