// Wires the extension: the shared services, the views, the authentication provider, the terminals and
// every feature's commands. Nothing here waits for the keychain: the stored sessions are read in the
// background, and a command run before they are waits for them (registerCommand.ts). What is heavy
// and rarely needed loads on first use, as its own bundle: undici (dist/undici.js), the public
// suffix list (dist/publicSuffix.js), the demo service (dist/demo.js) and the plugin for httpYac
// (dist/httpyac.js, only when httpYac is installed).
import vscode = require('./system/vscodeApi');
import { createServiceClient } from './core/api/serviceClient';
import { PrompterSlot } from './core/models/prompter';
import { EarlierTokens } from './core/sessions/earlierTokens';
import { Lease } from './core/sessions/lease';
import { LoginBudget } from './core/login/loginBudget';
import { RefreshScheduler } from './core/sessions/refreshScheduler';
import { SessionStore } from './core/sessions/sessionStore';
import { systemClock } from './core/util/clock';
import { Ticker } from './core/util/ticker';
import { caughtText } from './core/util/caughtText';
import { RedactingLog, sessionSecrets } from './core/util/redactingLog';
import { registerAccountActions } from './features/accounts/accountActions';
import { registerProductionCommands } from './features/accounts/productionCommands';
import { registerAgentTools } from './features/agentTools/agentTools';
import { registerPlatformOperationsCommand } from './features/platformOperations/loadOperationsCommand';
import { AccountsView } from './features/accounts/accountsView';
import { registerAuthenticationProvider } from './features/authProvider/authProvider';
import { registerSessionCommands } from './features/login/sessionCommands';
import { reportRefreshFailures } from './features/login/refreshAccount';
import { registerRestFileCommands, startDocumentFeatures } from './features/restFiles/index';
import { notify, recordMessages, type ShownMessage } from './features/messages/notify';
import { ScreenPrompter } from './features/shared/prompter';
import { onFirstRestDocument } from './features/restFiles/restDocuments';
import { StatusBar } from './features/statusBar/statusBar';
import { TerminalToken } from './features/terminal/terminalToken';
import { McpAnswers } from './features/mcp/mcpAnswers';
import { registerMcpServer } from './features/mcp/registerMcp';
import { startRestClientHistoryGuard } from './features/restClient/historyGuard';
import { startHttpyacPlugin } from './features/httpyac/index';
import { registerExposureCommand } from './features/exposure/exposureCommand';
import { registerBindEnvironmentCommand } from './features/exposure/bindEnvironmentCommand';
import { registerTokenCommands } from './features/tokens/tokenCommands';
import { TokenExposure } from './features/exposure/tokenExposure';
import { registerWalkthroughCommands } from './features/walkthrough/demo';
import { registerLiveTracking, type LiveTracking } from './features/liveTracking/liveTrackingCommands';
import { Config } from './system/config';
import { KeychainSecretBackend } from './system/secretBackend';
import type { Services } from './services';

/** The live parts `activate()` hands out in ExtensionMode.Test (test/integration/testApi.ts reads them). */
export interface TestHandles {
	readonly services: Services;
	readonly statusBar: StatusBar;
	readonly accountsView: AccountsView;
	/** The notifications shown lately (recorded in ExtensionMode.Test only). */
	readonly recentMessages: () => readonly ShownMessage[];
	/** telematics-mcp's answers in the window (grants for VS Code's own servers). */
	readonly mcp: McpAnswers;
	/** Live Tracking's open panels, as they show. */
	readonly liveTracking: LiveTracking;
}

/** In ExtensionMode.Test, the live parts once the stored sessions are read; else nothing. */
export function activate(context: vscode.ExtensionContext): Promise<TestHandles> | undefined {
	const startedAt = performance.now();
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

	const api = createServiceClient(log, vscode.l10n.t, { settings: config });
	const scheduler = new RefreshScheduler({
		store,
		api,
		clock: systemClock,
		marginMs: () => config.refreshBeforeExpiryMs(),
		enabled: () => config.autoRefresh(),
		log,
		lease: new Lease(secrets, systemClock),
		t: vscode.l10n.t,
	});
	add(scheduler);

	// Not awaited: each secret read may be a round trip to wherever SecretStorage lives.
	const ready = store.load().then(() => {
		log.debug(`Read ${store.list().length} stored account(s) ${Math.round(performance.now() - startedAt)} ms after activation started.`);
	}, (e: unknown) => {
		// The store marks unreadable accounts itself; this is a last resort.
		log.error(`Could not read the stored sessions: ${caughtText(e)}`);
	});
	const ticker = new Ticker(systemClock);
	add(ticker);
	const loginBudget = new LoginBudget(context.globalState, systemClock);
	const earlierTokens = new EarlierTokens();
	add(store.onDidChange(() => earlierTokens.noteSessions(store.list())));
	void ready.then(() => earlierTokens.noteSessions(store.list()));
	const services: Services = { context, config, log, output, clock: systemClock, ticker, store, scheduler, api, loginBudget, earlierTokens, prompts: new PrompterSlot(new ScreenPrompter()), ready };
	const recentMessages = testMode ? recordMessages() : () => [];

	const statusBar = new StatusBar(services);
	const accountsView = new AccountsView(services);
	const liveTracking = registerLiveTracking(services);
	add(
		liveTracking,
		statusBar,
		accountsView,
		registerAuthenticationProvider(services),
		registerSessionCommands(services),
		registerAccountActions(services),
		registerProductionCommands(services),
		registerTokenCommands(services),
		registerRestFileCommands(services),
		registerExposureCommand(services),
		registerBindEnvironmentCommand(services),
		registerWalkthroughCommands(services),
		...registerAgentTools(services),
		registerPlatformOperationsCommand(services),
	);

	// Once chosen, the exposure follows the setting itself (off included) until the window closes.
	let exposure: TokenExposure | undefined;
	const exposeIfChosen = (): void => {
		if (exposure || config.exposeToken() === 'off') return;
		exposure = new TokenExposure(services);
		add(exposure);
	};
	exposeIfChosen();
	add(config.onDidChange(exposeIfChosen));

	scheduler.start();
	add(
		config.onDidChange(() => scheduler.reschedule()),
		reportRefreshFailures(services),
		// After sleep, timers may be late: look again as soon as the window has focus.
		vscode.window.onDidChangeWindowState((state) => {
			if (state.focused) scheduler.checkDue();
		}),
	);
	log.debug(`activate() took ${(performance.now() - startedAt).toFixed(1)} ms.`);

	// The terminals and the REST files' lenses and warnings act on the stored sessions: they start once those are read.
	const started = ready.then(() => {
		const mcp = new McpAnswers(services);
		const terminals = new TerminalToken(services, mcp);
		add(
			terminals,
			...registerMcpServer(services, terminals, mcp),
			onFirstRestDocument(() => add(startDocumentFeatures(services))),
			// httpYac, when installed: its plugin (dist/httpyac.js) loads once httpYac runs.
			startHttpyacPlugin(services),
			// REST Client, when installed: its request history keeps no token of ours.
			startRestClientHistoryGuard(services),
		);
		return { services, statusBar, accountsView, recentMessages, mcp, liveTracking };
	});
	if (testMode) return started;
	started.catch((e: unknown) => log.error(`Could not start the terminals and the REST file features: ${caughtText(e)}`));
	return undefined;
}

export function deactivate(): void {
	// Everything is in context.subscriptions.
}
