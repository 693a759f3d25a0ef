// Above each `Authorization: Bearer <jwt>` line and each `@var = <jwt>` line: whose token it
// is and when it expires, and "Update" when the account holds a newer one. Above each reference to an
// exposed token (`{{$processEnv TELEMATICS_TOKEN_ADMIN}}`): which account it reads and its time left,
// or what is missing (no such account, nothing exposed).
import vscode = require('../../system/vscodeApi');
import { watchedText } from './restDocuments';
import { findJwts, type FoundJwt } from '../../core/restFile/jwtScan';
import type { Services } from '../../services';
import { expiryPhrase, ownerPhrase, tokenInfo } from './tokenInfo';
import { Command } from '../../commands';
import { indirectVariables, tokenReferences } from '../../core/restFile/tokenReferences';
import { displayText } from '../../core/util/displayText';
import { TOKEN_KEY } from '../../core/restFile/envFiles';
import { tokenVariableFor } from '../../core/sessions/accountNames';
import { formatRemaining } from '../../core/util/time';
import type { Session } from '../../core/sessions/types';

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
		for (const reference of tokenReferences(text)) {
			const range = document.lineAt(reference.line).range;
			lenses.push('variable' in reference ? this.referenceLens(range, reference.variable, now, reference.environment === true) : this.indirectLens(range, reference.setting, document.uri));
		}
		return lenses;
	}

	/** The account whose token `variable` holds: the active one's for `TELEMATICS_TOKEN`, else the one its name makes. */
	private sessionReadBy(variable: string): Session | undefined {
		const { store } = this.services;
		return variable === TOKEN_KEY ? store.active() : store.list().find((s) => s.account.name !== undefined && tokenVariableFor(s.account.name) === variable);
	}

	/** Above `{{$processEnv %telematicsToken}}`: the account each REST Client environment's `telematicsToken` names. */
	private indirectLens(range: vscode.Range, setting: string, uri: vscode.Uri): vscode.CodeLens {
		const t = vscode.l10n.t;
		const read = indirectVariables(vscode.workspace.getConfiguration('rest-client', uri).get<unknown>('environmentVariables'), setting);
		if (read.length === 0) {
			return new vscode.CodeLens(range, { title: `$(question) %${setting}: ${t('no REST Client environment sets {0}', setting)}`, tooltip: t('Set "{0}": "TELEMATICS_TOKEN_ADMIN" in an environment of rest-client.environmentVariables: the name of the variable, never a token.', setting), command: '' });
		}
		const whose = read.slice(0, 6).map(({ environment, variable }) => {
			const session = variable === undefined ? undefined : this.sessionReadBy(variable);
			return `${displayText(environment, 40)} → ${session?.account.name ?? (variable === undefined ? t('not a Telematics variable') : t('no such account'))}`;
		});
		return new vscode.CodeLens(range, { title: `$(account) %${setting}: ${whose.join(' · ')}${read.length > 6 ? ' · …' : ''}`, tooltip: t('The account whose token this reference reads in each REST Client environment.'), command: '' });
	}

	/** `fromEnvironment`: a bare `{{TELEMATICS_TOKEN}}`, which a bound environment fills with its own account's token. */
	private referenceLens(range: vscode.Range, variable: string, now: number, fromEnvironment: boolean): vscode.CodeLens {
		const t = vscode.l10n.t;
		const { config } = this.services;
		const session = this.sessionReadBy(variable);
		if (!session) {
			const wanted = variable === TOKEN_KEY ? t('no account is logged in') : t('no logged-in account is named {0}', variable.slice(TOKEN_KEY.length + 1).toLowerCase().replace(/_/g, '-'));
			return new vscode.CodeLens(range, { title: `$(question) ${variable}: ${wanted} · ${t('Log In…')}`, command: Command.login });
		}
		const who = `${session.account.name ?? session.account.label}${variable === TOKEN_KEY ? ` (${t('active')})` : ''}`;
		if (config.exposeToken() === 'off') {
			return new vscode.CodeLens(range, { title: `$(warning) ${variable}: ${who}, ${t('but no token is exposed')} · ${t('Choose How Tools Get the Token…')}`, command: Command.chooseTokenExposure });
		}
		const left = session.state === 'valid' && session.tokens ? t('valid for {0}', formatRemaining(session.tokens.expiresAt - now, t)) : t('needs a refresh or a new login');
		const bound = fromEnvironment && variable === TOKEN_KEY ? [...config.environmentAccounts()].slice(0, 4).map(([environment, name]) => `${environment} → ${name}`) : [];
		return new vscode.CodeLens(range, {
			title: `$(account) ${variable}: ${who} · ${left}${bound.length ? ` · ${bound.join(' · ')}` : ''}`,
			tooltip: bound.length ? t('The token this reference reads: the active account\'s, and in a bound environment that account\'s (telematicsAuth.environmentAccounts).') : t('The token this reference reads, kept current by Telematics Auth.'),
			command: '',
		});
	}

	dispose(): void {
		this.changed.dispose();
	}
}
