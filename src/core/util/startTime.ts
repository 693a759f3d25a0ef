// When the activation bundle began to run. extension.ts imports this module first, and
// modules run in import order (esbuild's bundle and tsc's require calls alike), so the
// difference to the start of `activate()` is what evaluating the bundle cost.
// Pure: no `vscode` import.

export const bundleStartedAt = performance.now();

/** Milliseconds since `since`, rounded to 0.1 ms. */
export function elapsedMs(since: number, now = performance.now()): number {
	return Math.round((now - since) * 10) / 10;
}

/** What activation cost, by our own clock (VS Code's figure also counts reading the file). */
export interface ActivationTimings {
	/** From the first line of the bundle to its last (loading and running every module). */
	bundleEvalMs: number;
	/** From the end of the bundle to the start of `activate()`: VS Code preparing the context, other work. */
	hostWaitMs: number;
	/** The `activate()` call itself (it registers the command stubs and starts loading the core). */
	activationMs: number;
	/** Starting the rest (dist/startup.js: store, scheduler, status bar, view), after activate() returned. */
	coreMs?: number;
	/** From the start of `activate()` until the stored sessions were read; undefined until then. */
	storeReadyMs?: number;
}
