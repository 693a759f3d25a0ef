// What runs only when a person does something: the login flow and its multi-step input, the
// session, token and account commands, the REST-file features (commands, CodeLens, hover,
// diagnostics), error display, the authentication provider's implementation and the Accounts
// view's rendering. Bundled apart (dist/features.js) and loaded by lazyFeatures.ts on first use.
// It works on the activation bundle's services: it never makes its own store, scheduler, config or log.
import * as vscode from 'vscode';
import type { Services } from './services';
import type { RefreshFailure } from './core/sessions/contracts';
import { registerAccountActions } from './features/accounts/accountActions';
import { AccountsTreeRenderer } from './features/accounts/accountsTree';
import { DemoService, openSample, tryDemo } from './features/walkthrough/demo';
import { chooseTokenExposure } from './features/tokens/exposureCommand';
import { TokenExposure } from './features/tokens/tokenExposure';
import { TelematicsAuthProvider } from './features/authProvider/authProvider';
import { registerHttpFileFeatures } from './features/restFiles/index';
import { MultiStepInput } from './features/login/multiStepInput';
import { recordMessages, type ShownMessage } from './features/notifications/notifications';
import type { PrompterSlot } from './features/login/prompter';
import { registerSessionCommands, reportRefreshFailure } from './features/login/sessionCommands';
import { registerTokenCommands } from './features/tokens/tokenCommands';
import { Command } from './commands';

export interface Features extends vscode.Disposable {
	/** The real login prompter: one quick input per step. */
	readonly multiStepInput: MultiStepInput;
	/** The `telematics` authentication provider's implementation. */
	readonly authProvider: vscode.AuthenticationProvider;
	/** The Accounts view's nodes and items (the view itself is registered at activation). */
	readonly accountsTree: AccountsTreeRenderer;
	/** Reports an automatic refresh that failed before this bundle was loaded. */
	reportRefreshFailure(failure: RefreshFailure): void;
	/** The last notifications shown; in ExtensionMode.Test only (TestApi.messages()), else none. */
	recentMessages(): readonly ShownMessage[];
	/** Starts keeping the live token where tools read it (telematicsAuth.exposeToken); once. */
	startTokenExposure(): void;
}

/**
 * Registers every command and the REST-file providers; `prompts` answers the login steps.
 * All or nothing: if one part throws, what was registered is disposed again, so the
 * activation bundle can put its stubs back and the next command tries again.
 */
export function activateFeatures(services: Services, prompts: PrompterSlot): Features {
	const parts: vscode.Disposable[] = [];
	let multiStepInput: MultiStepInput;
	let authProvider: TelematicsAuthProvider;
	try {
		multiStepInput = new MultiStepInput();
		authProvider = new TelematicsAuthProvider(services);
		parts.push(authProvider);
		parts.push(registerSessionCommands(services, prompts));
		parts.push(registerAccountActions(services));
		parts.push(registerTokenCommands(services));
		parts.push(registerHttpFileFeatures(services));
		parts.push(vscode.commands.registerCommand(Command.chooseTokenExposure, () => chooseTokenExposure()));
		const demo = new DemoService();
		parts.push(demo);
		parts.push(vscode.commands.registerCommand(Command.tryDemo, () => tryDemo(services, prompts, demo)));
		parts.push(vscode.commands.registerCommand(Command.openSample, () => openSample(services)));
	} catch (error) {
		for (const part of parts.reverse()) part.dispose();
		throw error;
	}
	const loginAgain = (arg: unknown) => vscode.commands.executeCommand(Command.loginAgain, arg);
	let exposure: TokenExposure | undefined;
	const registered = vscode.Disposable.from(...parts, { dispose: () => exposure?.dispose() });
	return {
		multiStepInput,
		authProvider,
		accountsTree: new AccountsTreeRenderer(services),
		reportRefreshFailure: (failure) => reportRefreshFailure(services, failure, loginAgain),
		recentMessages: services.context.extensionMode === vscode.ExtensionMode.Test ? recordMessages() : () => [],
		startTokenExposure: () => {
			exposure ??= new TokenExposure(services);
		},
		dispose: () => registered.dispose(),
	};
}
