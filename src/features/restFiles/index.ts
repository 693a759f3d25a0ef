// The REST file features: Insert Authorization Header, Update Tokens in File, the CodeLens,
// the hover and the expired-token diagnostics.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { TokenCodeLensProvider } from './codeLensProvider';
import { TokenDiagnostics } from './diagnostics';
import { TokenHoverProvider } from './hoverProvider';
import { HTTP_SELECTOR } from '../shared/restDocuments';
import { insertAuthorizationHeader } from './insertCommand';
import { MinuteTicker } from './minuteTicker';
import { updateTokensInFile } from './updateTokensCommand';
import { Command } from '../../commands';

export function registerHttpFileFeatures(services: Services): vscode.Disposable {
	const lenses = new TokenCodeLensProvider(services);
	const diagnostics = new TokenDiagnostics(services);
	const ticker = new MinuteTicker(services.clock);
	const onStateChange = (): void => {
		lenses.refresh();
		diagnostics.updateAll();
	};
	return vscode.Disposable.from(
		lenses,
		diagnostics,
		ticker,
		vscode.commands.registerCommand(Command.insertAuthorizationHeader, (arg?: unknown) => insertAuthorizationHeader(services, arg)),
		vscode.commands.registerCommand(Command.updateTokensInFile, (arg?: unknown) => updateTokensInFile(services, arg)),
		vscode.languages.registerCodeLensProvider(HTTP_SELECTOR, lenses),
		vscode.languages.registerHoverProvider(HTTP_SELECTOR, new TokenHoverProvider(services)),
		services.store.onDidChange(onStateChange),
		services.config.onDidChange(() => lenses.refresh()),
		ticker.onTick(onStateChange),
	);
}
