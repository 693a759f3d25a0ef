// Wires the extension together. Activation stays cheap: settings, the log, reading a few
// secrets. No network here: the API client loads its network code (undici) on the first
// request, and nothing logs in by itself.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { createApiClient } from './api/client';
import { lazyUndiciTransport } from './api/transport';
import type { RefreshFn } from './session/contracts';
import { systemClock } from './session/contracts';
import { Config } from './config';
import { RedactingLog, sessionSecrets } from './logger';
import type { Services } from './services';
import { Lease } from './session/lease';
import { RefreshScheduler } from './session/refreshScheduler';
import { SessionStore } from './session/sessionStore';
import { createTestApi, type TestApi } from './testApi';
import { registerAccountActions } from './ui/accountActions';
import { registerAccountsView } from './ui/accountsTree';
import { registerAuthenticationProvider } from './ui/authProvider';
import { registerHttpFileFeatures } from './ui/http';
import { MultiStepInput } from './ui/multiStepInput';
import { PrompterSlot } from './ui/prompter';
import { registerSessionCommands } from './ui/sessionCommands';
import { registerStatusBar } from './ui/statusBar';
import { registerTokenCommands } from './ui/tokenCommands';
import { KeychainSecretBackend } from './vscode/secretBackend';

export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
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

	const api = createApiClient(lazyUndiciTransport(), log);
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
	const multiStepInput = new MultiStepInput();
	const prompts = new PrompterSlot(multiStepInput);

	try {
		await store.load();
	} catch (e) {
		// The store marks unreadable accounts itself; this is a last resort so the commands still register.
		log.error(`Could not read the stored sessions: ${e instanceof Error ? e.message : String(e)}`);
	}
	log.info(`Telematics Auth activated (${store.list().length} account(s)).`);

	add(registerSessionCommands(services, prompts));
	const statusBar = registerStatusBar(services);
	add(statusBar);
	const accountsView = registerAccountsView(services);
	add(accountsView);
	add(registerAccountActions(services));
	add(registerTokenCommands(services));
	add(registerHttpFileFeatures(services));
	add(registerAuthenticationProvider(services));

	scheduler.start();
	add(config.onDidChange(() => scheduler.reschedule()));
	// After sleep, timers may be late: look again as soon as the window has focus.
	add(vscode.window.onDidChangeWindowState((state) => {
		if (state.focused) scheduler.checkDue();
	}));

	if (context.extensionMode === vscode.ExtensionMode.Test) {
		return createTestApi({ services, prompts, multiStepInput, log, statusBar, accountsView });
	}
	return undefined;
}

export function deactivate(): void {
	// Everything is in context.subscriptions.
}
