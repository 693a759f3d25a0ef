// What loads on first use (dist/onDemand.js): what the commands do, the API client, the prompter, the REST
// documents' features, the token exposure and a failed refresh's message. startup.ts loads it at the first need.
import * as vscode from 'vscode';
import type { Services } from './services';
import { registerAccountActions } from './features/accounts/accountActions';
import { registerRestFileCommands } from './features/restFiles/index';
import { registerSessionCommands } from './features/login/sessionCommands';
import { chooseTokenExposure } from './features/tokens/exposureCommand';
import { registerTokenCommands } from './features/tokens/tokenCommands';
import { DemoService, openSample, tryDemo } from './features/walkthrough/demo';
import { Command } from './commands';

export { createServiceClient } from './core/api/serviceClient';
export { ScreenPrompter } from './features/shared/prompter';
export { TokenExposure } from './features/tokens/tokenExposure';
export { startDocumentFeatures } from './features/restFiles/index';
export { reportRefreshFailure } from './features/login/sessionCommands';

/** Sets the handler of every command startup.ts leaves to this bundle. */
export function registerCommands(services: Services): vscode.Disposable {
	const demo = new DemoService();
	return vscode.Disposable.from(
		registerSessionCommands(services),
		registerAccountActions(services),
		registerTokenCommands(services),
		registerRestFileCommands(services),
		demo,
		services.commands.set(Command.chooseTokenExposure, () => chooseTokenExposure(services.config)),
		services.commands.set(Command.tryDemo, () => tryDemo(services, demo)),
		services.commands.set(Command.openSample, () => openSample(services)),
	);
}
