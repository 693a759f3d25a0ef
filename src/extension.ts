// Wires the extension together. Activation stays cheap: settings, the log, the store, the
// scheduler, the status bar, the Accounts view's shell and thin registrations. The stored sessions
// are read after activate() returns (the UI shows a neutral state until then); the commands,
// the login flow and the REST-file features load on first use (lazyFeatures.ts), the API
// client and undici on the first request (api/lazyClient.ts). Nothing logs in by itself.
import { bundleStartedAt, elapsedMs, type ActivationTimings } from './util/startTime';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { lazyApiClient } from './api/lazyClient';
import type { RefreshFn } from './session/contracts';
import { systemClock } from './session/contracts';
import { Config } from './config';
import { LazyFeatures } from './lazyFeatures';
import { RedactingLog, sessionSecrets } from './logger';
import type { Services } from './services';
import { Lease } from './session/lease';
import { RefreshScheduler } from './session/refreshScheduler';
import { SessionStore } from './session/sessionStore';
import { createTestApi, type TestApi } from './testApi';
import { registerAccountsView } from './ui/accountsView';
import { registerLazyAuthenticationProvider } from './ui/lazyAuthProvider';
import { registerStatusBar } from './ui/statusBar';
import { KeychainSecretBackend } from './vscode/secretBackend';

/** When every module of this bundle had run (this line runs after all the imports above). */
const bundleEvaluatedAt = performance.now();

export function activate(context: vscode.ExtensionContext): TestApi | undefined {
	const activateStartedAt = performance.now();
	const timings: ActivationTimings = {
		bundleEvalMs: elapsedMs(bundleStartedAt, bundleEvaluatedAt),
		hostWaitMs: elapsedMs(bundleEvaluatedAt, activateStartedAt),
		activationMs: 0,
	};
	const subscriptions = context.subscriptions;
	const add = (registered: vscode.Disposable | readonly vscode.Disposable[]): void => {
		if (Array.isArray(registered)) subscriptions.push(...(registered as vscode.Disposable[]));
		else subscriptions.push(registered as vscode.Disposable);
	};

	const config = new Config();
	const output = vscode.window.createOutputChannel('Telematics Auth', { log: true });
	const log = new RedactingLog(output);
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

	const testApi = context.extensionMode === vscode.ExtensionMode.Test
		? createTestApi({ services, features, log, statusBar, accountsView, timings })
		: undefined;
	timings.activationMs = elapsedMs(activateStartedAt);
	log.info(`Telematics Auth activated in ${timings.activationMs} ms (bundle evaluation ${timings.bundleEvalMs} ms, then ${timings.hostWaitMs} ms until activate()).`);
	return testApi;
}

export function deactivate(): void {
	// Everything is in context.subscriptions.
}
