// The REST file features: Insert Authorization Header, Update Tokens in File, and, from the
// first REST document on (extension.ts waits for it), the CodeLens, the hover and the expired-token diagnostics.
import vscode = require('vscode');
import type { Services } from '../../services';
import { TokenCodeLensProvider } from './codeLensProvider';
import { TokenDiagnostics } from './diagnostics';
import { TokenHoverProvider } from './hoverProvider';
import { HTTP_SELECTOR } from '../shared/restDocuments';
import { insertAuthorizationHeader } from './insertCommand';
import { MinuteTicker } from './minuteTicker';
import { updateTokensInFile } from './updateTokensCommand';
import { TokenQuickFixes } from './quickFixes';
import { Command } from '../../commands';
import { registerCommand } from '../shared/registerCommand';

export function registerRestFileCommands(services: Services): vscode.Disposable {
	return vscode.Disposable.from(
		registerCommand(services, Command.insertAuthorizationHeader, (arg?: unknown) => insertAuthorizationHeader(services, arg)),
		registerCommand(services, Command.updateTokensInFile, (arg?: unknown) => updateTokensInFile(services, arg)),
	);
}

/** The lenses, the hover, the diagnostics and their quick fix, and the minute tick that keeps them true. */
export function startDocumentFeatures(services: Services): vscode.Disposable {
	const lenses = new TokenCodeLensProvider(services);
	const diagnostics = new TokenDiagnostics(services);
	const onStateChange = (): void => {
		lenses.refresh();
		diagnostics.updateAll();
	};
	return vscode.Disposable.from(
		lenses,
		diagnostics,
		new MinuteTicker(services.ticker, onStateChange),
		vscode.languages.registerCodeLensProvider(HTTP_SELECTOR, lenses),
		vscode.languages.registerHoverProvider(HTTP_SELECTOR, new TokenHoverProvider(services)),
		vscode.languages.registerCodeActionsProvider(HTTP_SELECTOR, new TokenQuickFixes(), TokenQuickFixes.metadata),
		services.store.onDidChange(onStateChange),
		services.config.onDidChange(onStateChange),
	);
}
