// Wires the extension right after activate() returned (dist/startup.js): the store, the scheduler, the views,
// the authentication provider and the terminals at once; what the commands do loads on first use (onDemand.ts).
import * as vscode from 'vscode';
import type { ApiClient } from './core/api/types';
import { loadedOnFirstCall } from './core/util/loadedOnFirstCall';
import type { RefreshFn } from './core/sessions/contracts';
import { Config } from './platform/config';
import { RedactingLog, sessionSecrets } from './core/util/logger';
import type { Services } from './services';
import { Lease } from './core/sessions/lease';
import { RefreshScheduler } from './core/sessions/refreshScheduler';
import { SessionStore } from './core/sessions/sessionStore';
import { AccountsView } from './features/accounts/accountsView';
import { registerAuthenticationProvider } from './features/authProvider/authProvider';
import { PrompterSlot, type Prompter } from './core/models/prompter';
import { notify, recordMessages, type ShownMessage } from './features/shared/notify';
import { StatusBar } from './features/statusBar/statusBar';
import { TerminalToken } from './features/terminal/terminalToken';
import { KeychainSecretBackend } from './platform/secretBackend';
import { systemClock } from './core/util/clock';
import type { CommandHandlers } from './commandHandlers';
import { onFirstRestDocument } from './features/shared/restDocuments';
import { errorMessage } from './core/util/errorMessage';
import type { CodeCache, LoadedBundle } from './platform/codeCache';

/** How long after a bundle loads its compiled code is kept: what start-up (or a first command) runs is compiled by then. */
const KEEP_COMPILED_CODE_AFTER_MS = 2000;

/** How this bundle was started (extension.ts). */
export interface Boot {
	/** When activate() ran. */
	readonly activateStartedAt: number;
	readonly activateEndedAt: number;
	/** Loads our later bundles with the code compiled at an earlier start. */
	readonly bundles: CodeCache;
	/** This bundle, as loaded. */
	readonly startup: LoadedBundle<unknown>;
}

/** The live parts `activate()` hands out in ExtensionMode.Test (test/integration/testApi.ts reads them). */
export interface TestHandles {
	readonly services: Services;
	readonly statusBar: StatusBar;
	readonly accountsView: AccountsView;
	/** The notifications shown lately (recorded in ExtensionMode.Test only). */
	readonly recentMessages: () => readonly ShownMessage[];
	/** Loads onDemand.js, which sets the commands' handlers (once; a first command does the same). */
	readonly loadOnDemand: () => Promise<unknown>;
}

/**
 * Starts everything. `commands`: what the commands activate() registered run; a command run before
 * this promise settles waits for it.
 */
export async function startCore(context: vscode.ExtensionContext, commands: CommandHandlers, { activateStartedAt, activateEndedAt, bundles, startup }: Boot): Promise<TestHandles | undefined> {
	const coreStartedAt = performance.now();
	const msSince = (start: number): number => Math.round(performance.now() - start);
	const add = (...registered: vscode.Disposable[]): void => void context.subscriptions.push(...registered);
	const testMode = context.extensionMode === vscode.ExtensionMode.Test;

	const config = new Config();
	const output = vscode.window.createOutputChannel('Telematics Auth', { log: true });
	const log = new RedactingLog(output, testMode ? 500 : 0);
	add(config, output);

	const secrets = new KeychainSecretBackend(context.secrets, log, vscode.l10n.t);
	const store = new SessionStore(secrets, context.globalState, { clock: systemClock, log });
	log.setSecretSource(() => sessionSecrets(store.list()));
	add(store, store.onDidLoseSecret(({ label }) => void notify('warning', vscode.l10n.t('The system keychain returned no tokens for {0}, which is still logged in. This window kept its tokens and stored them again; if this repeats, check that the keychain is unlocked.', label))));

	/** Keeps V8's code for a bundle that had to be compiled, once what it starts has run (codeCache.ts). */
	const keepCompiledCode = (name: string, bundle: LoadedBundle<unknown>): void => {
		log.debug(`${name} ${bundle.cacheUsed ? 'ran the code compiled at an earlier start' : 'was compiled'}.`);
		if (bundle.cacheUsed) return;
		const timer = setTimeout(() => void bundle.saveCache().then(
			(kept) => kept && log.debug(`Kept the compiled code of ${name} for the next start.`),
			(e: unknown) => log.warn(`Could not keep the compiled code of ${name} (the next start compiles it again): ${errorMessage(e)}`),
		), KEEP_COMPILED_CODE_AFTER_MS);
		add({ dispose: () => clearTimeout(timer) });
	};
	keepCompiledCode('startup.js', startup);

	// What loads on first use (onDemand.js): a command's work, the API client, the prompter, the REST
	// documents' features, the token exposure, a failed refresh's message.
	let onDemandLoaded: Promise<typeof import('./onDemand')> | undefined;
	const onDemand = (): Promise<typeof import('./onDemand')> => onDemandLoaded ??= Promise.resolve().then(() => {
		const bundle = bundles.load<typeof import('./onDemand')>('onDemand.js');
		keepCompiledCode('onDemand.js', bundle);
		add(bundle.exports.registerCommands(services));
		return bundle.exports;
	});
	/** For what nobody waits on: a failure (the bundle's or the work's) is logged, not left unhandled. */
	const withOnDemand = (use: (m: typeof import('./onDemand')) => void): void =>
		void onDemand().then(use).catch((e: unknown) => log.error(`Could not run what loads on first use: ${errorMessage(e)}`));

	const api = loadedOnFirstCall<ApiClient>(async () => (await onDemand()).createServiceClient(log, vscode.l10n.t), { login: true, refresh: true });
	const refresh: RefreshFn = (request, options) =>
		api.refresh(request, { timeoutMs: config.requestTimeoutMs(), proxy: config.proxy(), ...options });
	const scheduler = new RefreshScheduler({
		store,
		refresh,
		clock: systemClock,
		marginMs: () => config.refreshBeforeExpiryMs(),
		enabled: () => config.autoRefresh(),
		log,
		lease: new Lease(secrets, systemClock),
		t: vscode.l10n.t,
	});
	add(scheduler);

	const screenPrompter = loadedOnFirstCall<Prompter>(async () => new (await onDemand()).ScreenPrompter(), { pickKind: true, ask: true, confirm: true, askTrackedFile: true, askReplaceForeign: true });
	const services: Services = { context, config, log, output, clock: systemClock, store, scheduler, api, prompts: new PrompterSlot(screenPrompter), commands };
	const recentMessages = testMode ? recordMessages() : () => [];

	// Not awaited here: each secret read may be a round trip to wherever SecretStorage lives.
	const loaded = store.load().then(() => {
		log.debug(`Read ${store.list().length} stored account(s) ${msSince(activateStartedAt)} ms after activation started.`);
	}, (e: unknown) => {
		// The store marks unreadable accounts itself; this is a last resort.
		log.error(`Could not read the stored sessions: ${errorMessage(e)}`);
	});

	const statusBar = new StatusBar(services);
	const accountsView = new AccountsView(services);
	add(statusBar, accountsView, registerAuthenticationProvider(services));

	// Once chosen, the exposure follows the setting itself (off included) until the window closes.
	let exposing = false;
	const exposeIfChosen = (): void => {
		if (exposing || config.exposeToken() === 'off') return;
		exposing = true;
		withOnDemand((m) => add(new m.TokenExposure(services)));
	};
	exposeIfChosen();
	add(config.onDidChange(exposeIfChosen));

	scheduler.start();
	add(config.onDidChange(() => scheduler.reschedule()));
	// After sleep, timers may be late: look again as soon as the window has focus.
	add(vscode.window.onDidChangeWindowState((state) => {
		if (state.focused) scheduler.checkDue();
	}));
	log.debug(`activate() took ${(activateEndedAt - activateStartedAt).toFixed(1)} ms; the rest started ${Math.round(coreStartedAt - activateStartedAt)} ms after it began and took ${msSince(coreStartedAt)} ms.`);

	add(scheduler.onDidFail((failure) => withOnDemand((m) => m.reportRefreshFailure(services, failure))));

	// The commands act on the stored sessions: until they are read, a command waits.
	await loaded;
	add(
		new TerminalToken(services),
		onFirstRestDocument(() => withOnDemand((m) => add(m.startDocumentFeatures(services)))),
		commands.setLoader(onDemand),
	);
	return testMode ? { services, statusBar, accountsView, recentMessages, loadOnDemand: onDemand } : undefined;
}
