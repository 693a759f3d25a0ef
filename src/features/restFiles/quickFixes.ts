// Quick fixes for the expired-token warnings: "Update Tokens in File" from the light bulb, where the
// warning is, instead of the palette. The update asks its own questions (host, git) as from anywhere else.
import vscode = require('../../system/vscodeApi');
import { Command } from '../../commands';
import { EXPIRED_TOKEN_CODE } from './diagnostics';

export class TokenQuickFixes implements vscode.CodeActionProvider {
	static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

	provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
		const expired = context.diagnostics.filter((d) => d.code === EXPIRED_TOKEN_CODE);
		if (expired.length === 0) return [];
		const update = new vscode.CodeAction(vscode.l10n.t('Update Tokens in File'), vscode.CodeActionKind.QuickFix);
		update.command = { command: Command.updateTokensInFile, title: update.title, arguments: [document.uri] };
		update.diagnostics = expired;
		update.isPreferred = true;
		return [update];
	}
}
