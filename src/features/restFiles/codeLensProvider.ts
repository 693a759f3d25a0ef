// Above each `Authorization: Bearer <jwt>` line and each `@var = <jwt>` line: whose token it
// is and when it expires, and "Update" when the account holds a newer one.
import vscode = require('vscode');
import { watchedText } from '../shared/restDocuments';
import { findJwts, type FoundJwt } from '../../core/restFile/jwtScan';
import type { Services } from '../../services';
import { expiryPhrase, ownerPhrase, tokenInfo } from './tokenInfo';
import { Command } from '../../commands';

export function hasLens(jwt: FoundJwt): boolean {
	return jwt.context === 'variable' || (jwt.context === 'header' && jwt.name?.toLowerCase() === 'authorization');
}

export class TokenCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<void>();
	readonly onDidChangeCodeLenses = this.changed.event;

	constructor(private readonly services: Services) { }

	/** Asks VS Code to ask again (store change, minute tick, setting change). */
	refresh(): void {
		this.changed.fire();
	}

	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		if (!this.services.config.codeLensEnabled()) return [];
		const text = watchedText(document, this.services.log);
		if (text === undefined) return [];
		const now = this.services.clock.now();
		const lenses: vscode.CodeLens[] = [];
		for (const jwt of findJwts(text).filter(hasLens)) {
			const info = tokenInfo(this.services, jwt.token, now);
			const range = document.lineAt(jwt.line).range;
			const icon = info.expired ? '$(warning)' : info.owner ? '$(account)' : '$(question)';
			lenses.push(new vscode.CodeLens(range, {
				title: `${icon} ${ownerPhrase(info)} · ${expiryPhrase(info, now)}`,
				tooltip: vscode.l10n.t('Hover over the token to see its claims.'),
				command: '',
			}));
			if (info.owner && info.newerAvailable) {
				lenses.push(new vscode.CodeLens(range, {
					title: vscode.l10n.t('$(sync) Update'),
					tooltip: vscode.l10n.t('Replace the tokens of logged-in accounts in this file with their current tokens'),
					command: Command.updateTokensInFile,
					arguments: [document.uri],
				}));
			}
		}
		return lenses;
	}

	dispose(): void {
		this.changed.dispose();
	}
}
