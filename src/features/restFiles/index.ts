// The REST file features: Insert Authorization Header, Update Tokens in File, and, from the
// first REST document on (extension.ts waits for it), the CodeLens, the hover and the expired-token diagnostics.
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import { TokenCodeLensProvider } from './codeLensProvider';
import { TokenDiagnostics } from './diagnostics';
import { TokenHoverProvider } from './hoverProvider';
import { REST_SELECTOR } from './restDocuments';
import { insertAuthorizationHeader } from './insertCommand';
import { MinuteTicker } from './minuteTicker';
import { updateTokensInFile } from './updateTokensCommand';
import { TokenQuickFixes } from './quickFixes';
import { Command } from '../../commands';
import { registerCommand } from '../commands/registerCommand';
import { newRequest } from './newRequestCommand';
import { IdentityDiagnostics, switchRequestAccount } from './identityDiagnostics';
import { DocumentReadings } from './documentReadings';
import { PATH_TRIGGERS, PlatformPathCompletion } from './platformCompletion';

export function registerRestFileCommands(services: Services): vscode.Disposable {
	return vscode.Disposable.from(
		registerCommand(services, Command.insertAuthorizationHeader, (arg?: unknown) => insertAuthorizationHeader(services, arg)),
		registerCommand(services, Command.updateTokensInFile, (arg?: unknown) => updateTokensInFile(services, arg)),
		// The platform (issue 43): New Request…, and the wrong identity's quick fix for a token in the file.
		registerCommand(services, Command.newRequest, (arg?: unknown) => newRequest(services, arg)),
		registerCommand(services, Command.switchRequestAccount, (arg?: unknown) => switchRequestAccount(services, arg)),
	);
}

/** The lenses, the hover, the diagnostics and their quick fix, and the minute tick that keeps them true. */
export function startDocumentFeatures(services: Services): vscode.Disposable {
	const lenses = new TokenCodeLensProvider(services);
	const diagnostics = new TokenDiagnostics(services);
	const identities = new IdentityDiagnostics(services);
	// One reading of each REST file (one parse, one debounce) for both kinds of warning.
	const readings = new DocumentReadings(services, [diagnostics, identities]);
	const onStateChange = (): void => {
		lenses.refresh();
		readings.updateAll();
	};
	return vscode.Disposable.from(
		lenses,
		readings,
		diagnostics,
		new MinuteTicker(services.ticker, onStateChange),
		vscode.languages.registerCodeLensProvider(REST_SELECTOR, lenses),
		vscode.languages.registerHoverProvider(REST_SELECTOR, new TokenHoverProvider(services)),
		vscode.languages.registerCodeActionsProvider(REST_SELECTOR, new TokenQuickFixes(), TokenQuickFixes.metadata),
		// The platform (issue 43): the wrong identity's warnings and fixes, New Request on an empty line, path completion.
		identities,
		vscode.languages.registerCodeActionsProvider(REST_SELECTOR, identities, IdentityDiagnostics.metadata),
		vscode.languages.registerCompletionItemProvider(REST_SELECTOR, new PlatformPathCompletion(services), ...PATH_TRIGGERS),
		services.store.onDidChange(onStateChange),
		services.config.onDidChange(onStateChange),
	);
}
