// Wires the extension together, right after activate() returned (extension.ts loads this
// bundle, dist/startup.js): settings, the log, the store, the scheduler, the status bar, the
// Accounts view's shell and thin registrations. The stored sessions are read after that (the
// UI shows a neutral state until then); the commands, the login flow and the REST-file
// features load on first use (lazyFeatures.ts), the API client and undici on the first
// request (core/api/lazyClient.ts). Nothing logs in by itself.
import { elapsedMs, type ActivationTimings } from './core/util/startTime';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { lazyApiClient } from './core/api/lazyClient';
import type { RefreshFn } from './core/sessions/contracts';

import { Config } from './platform/config';
import { LazyFeatures } from './lazyFeatures';
import { RedactingLog, sessionSecrets } from './core/util/logger';
import type { Services } from './services';
import { Lease } from './core/sessions/lease';
import { RefreshScheduler } from './core/sessions/refreshScheduler';
import { SessionStore } from './core/sessions/sessionStore';
import { createTestApi, type TestApi } from './testApi';
import { registerAccountsView } from './features/accounts/accountsView';
import { registerLazyAuthenticationProvider } from './features/authProvider/lazyAuthProvider';
import { registerStatusBar } from './features/statusBar/statusBar';
import { KeychainSecretBackend } from './platform/secretBackend';
import { systemClock } from './core/util/clock';

/**
 * Starts everything. `stubs`: the command stubs activate() registered so that a command run
 * before this point waits for it; they make way for the real registrations here.
 */
export function startCore(context: vscode.ExtensionContext, stubs: vscode.Disposable[], timings: ActivationTimings, activateStartedAt: number): TestApi | undefined {
	const coreStartedAt = performance.now();
	const subscriptions = context.subscriptions;
	const add = (registered: vscode.Disposable | readonly vscode.Disposable[]): void => {
		if (Array.isArray(registered)) subscriptions.push(...(registered as vscode.Disposable[]));
		else subscriptions.push(registered as vscode.Disposable);
	};

	const config = new Config();
	const output = vscode.window.createOutputChannel('Telematics Auth', { log: true });
	const testMode = context.extensionMode === vscode.ExtensionMode.Test;
	const log = new RedactingLog(output, testMode ? 500 : 0);
	add([config, output]);

	const secrets = new KeychainSecretBackend(context.secrets, log);
	const store = new SessionStore(secrets, context.globalState, { clock: systemClock, log });
	log.setSecretSource(() => sessionSecrets(store.list()));
	add(store);

	const api = lazyApiClient(log, vscode.l10n.t);
	const refresh: RefreshFn = (request, options) =>
		api.refresh(request, { timeoutMs: config.requestTimeoutMs(), proxy: config.proxy(), ...options });
	const windowId = randomUUID();
	const scheduler = new RefreshScheduler({
		store,
		refresh,
		clock: systemClock,
		marginMs: () => config.refreshBeforeExpiryMs(),
		enabled: () => config.autoRefresh(),
		log,
		lease: new Lease(secrets, systemClock, windowId),
		windowId,
	});
	add(scheduler);

	const services: Services = { context, config, log, output, clock: systemClock, store, scheduler, api };

	// Not awaited: each secret read may be a round trip to wherever SecretStorage lives.
	store.load().then(() => {
		timings.storeReadyMs = elapsedMs(activateStartedAt);
		log.info(`Read ${store.list().length} stored account(s) ${timings.storeReadyMs} ms after activation started.`);
	}, (e: unknown) => {
		// The store marks unreadable accounts itself; this is a last resort.
		log.error(`Could not read the stored sessions: ${e instanceof Error ? e.message : String(e)}`);
	});

	const declared = (context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
	for (const stub of stubs.splice(0)) stub.dispose();
	const features = new LazyFeatures(services, declared.map((c) => c.command));
	add(features);
	const statusBar = registerStatusBar(services);
	add(statusBar);
	const accountsView = registerAccountsView(services, features);
	add(accountsView);
	add(registerLazyAuthenticationProvider(() => features.load().then((f) => f.authProvider)));
	// Exposing the token (off by default) lives in the features bundle: loaded only when chosen.
	const exposeIfChosen = (): void => {
		if (config.exposeToken() !== 'off') features.load().then((f) => f.startTokenExposure(), () => undefined);
	};
	exposeIfChosen();
	add(config.onDidChange(exposeIfChosen));

	scheduler.start();
	add(config.onDidChange(() => scheduler.reschedule()));
	// After sleep, timers may be late: look again as soon as the window has focus.
	add(vscode.window.onDidChangeWindowState((state) => {
		if (state.focused) scheduler.checkDue();
	}));

	const testApi = testMode
		? createTestApi({ services, features, log, statusBar, accountsView, timings })
		: undefined;
	timings.coreMs = elapsedMs(coreStartedAt);
	log.info(`Telematics Auth activated in ${timings.activationMs} ms (bundle evaluation ${timings.bundleEvalMs} ms, then ${timings.hostWaitMs} ms until activate()); the core started ${elapsedMs(activateStartedAt, coreStartedAt)} ms later and took ${timings.coreMs} ms.`);
	return testApi;
}
