// The wrong identity, before Send: a warning on a request to a known platform operation that carries an
// account of the other kind ("needs an admin token; sends user's"), and quick fixes that switch it to an
// account of the needed kind, in the same style. The decision is core/restFile/wrongIdentity.ts. Also the
// light bulb's "New Request…" on an empty line.
import vscode = require('../../system/vscodeApi');
import { wrongIdentities, type IdentityAccount, type WrongIdentity } from '../../core/restFile/wrongIdentity';
import { loadPlatform } from '../../core/platform/load';
import { caughtText } from '../../core/util/caughtText';
import { environmentReference } from '../../core/restFile/authHeaderEdit';
import { tokenVariableFor } from '../../core/sessions/accountNames';
import { Command } from '../../commands';
import type { Services } from '../../services';
import { accountPlatformHosts } from '../accounts/accountPlatformHosts';
import { targetEditor } from './restDocuments';
import type { DocumentReader, DocumentReading } from './documentReadings';
import { insertAuthorizationHeader } from './insertCommand';

export const WRONG_IDENTITY_CODE = 'wrongIdentity';

/** The accounts as the decision reads them: kind, name, platform hosts, current token. */
function identityAccounts(services: Services): IdentityAccount[] {
	return services.store.list().flatMap((s) => {
		const hosts = accountPlatformHosts(services.config, s.account);
		return hosts ? [{ id: s.account.id, name: s.account.name, kind: s.account.kind, hosts, accessToken: s.tokens?.accessToken, expiresAt: s.tokens?.expiresAt }] : [];
	});
}

function kindPhrase(kind: 'admin' | 'user'): string {
	return kind === 'admin' ? vscode.l10n.t('an admin token') : vscode.l10n.t('a user token');
}

function message(wrong: WrongIdentity): string {
	const t = vscode.l10n.t;
	const needed = wrong.operation.token === 'admin' ? 'admin' : 'user';
	const who = wrong.sent.name ?? wrong.sent.id;
	const how = wrong.carrier === 'active' ? t('the active account') : wrong.carrier === 'environment' ? t('bound to the environment {0}', wrong.environment ?? '') : t('a {0} account', wrong.sent.kind);
	return t('{0} {1} ({2}) needs {3}; this request sends {4}\'s ({5}). The service will answer 403.',
		wrong.operation.method, wrong.operation.path, wrong.operation.summary, kindPhrase(needed), who, how);
}

export class IdentityDiagnostics implements vscode.Disposable, vscode.CodeActionProvider, DocumentReader {
	static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, vscode.CodeActionKind.Refactor] };

	private readonly collection = vscode.languages.createDiagnosticCollection('telematicsAuth.identity');
	/** Per document, the warnings of the last reading, by the Authorization line, for the quick fixes. */
	private readonly found = new Map<string, WrongIdentity[]>();

	constructor(private readonly services: Services) {}

	/** From the document's one reading (documentReadings.ts), shared with the token warnings. */
	update({ document, read, current }: DocumentReading): void {
		const accounts = read === undefined ? [] : identityAccounts(this.services);
		// Only a file with a bearer Authorization can send the wrong account: the description loads for it, on first use.
		if (read === undefined || accounts.length === 0 || !/authorization\s*:\s*bearer/i.test(read.text)) {
			this.show(document, []);
			return;
		}
		const context = { accounts, activeId: this.services.store.active()?.account.id, bindings: this.services.config.environmentAccounts() };
		void loadPlatform().then((platform) => {
			if (current()) this.show(document, wrongIdentities(read.file, context, platform.operationFor));
		}, (error: unknown) => this.services.log.warn(`Could not load the platform's operations: ${caughtText(error)}`));
	}

	private show(document: vscode.TextDocument, wrong: WrongIdentity[]): void {
		this.found.set(document.uri.toString(), wrong);
		this.collection.set(document.uri, wrong.map((w) => {
			const diagnostic = new vscode.Diagnostic(document.lineAt(w.line).range, message(w), vscode.DiagnosticSeverity.Warning);
			diagnostic.source = 'Telematics Auth';
			diagnostic.code = WRONG_IDENTITY_CODE;
			return diagnostic;
		}));
	}

	provideCodeActions(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
		const actions: vscode.CodeAction[] = [];
		const diagnostics = context.diagnostics.filter((d) => d.code === WRONG_IDENTITY_CODE);
		const found = this.found.get(document.uri.toString()) ?? [];
		for (const diagnostic of diagnostics) {
			for (const wrong of found.filter((w) => w.line === diagnostic.range.start.line)) {
				for (const fix of wrong.fixes) {
					const account = this.services.store.get(fix.accountId)?.account;
					if (!account) continue;
					const title = vscode.l10n.t('Send {0}\'s token ({1} account)', account.name ?? account.label, account.kind);
					const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
					// A reference, or a token where the insert style writes references: the account's own variable.
					const style = this.services.config.insertStyle();
					const newText = fix.newText ?? (account.name !== undefined && (style === 'processEnv' || style === 'dotenv' || style === 'envVariable') ? environmentReference(style, tokenVariableFor(account.name)) : undefined);
					if (newText !== undefined) {
						action.edit = new vscode.WorkspaceEdit();
						action.edit.replace(document.uri, new vscode.Range(document.positionAt(fix.start), document.positionAt(fix.end)), newText);
					} else {
						// A token in the file: Insert writes the account's, with its questions.
						action.command = { command: Command.switchRequestAccount, title, arguments: [{ accountId: fix.accountId, uri: document.uri.toString(), line: wrong.line }] };
					}
					action.diagnostics = [diagnostic];
					action.isPreferred = actions.length === 0;
					actions.push(action);
				}
			}
		}
		// On an empty line, with nothing selected: a new request from the platform's operations.
		if (range.isEmpty && document.lineAt(range.start.line).isEmptyOrWhitespace && diagnostics.length === 0) {
			const action = new vscode.CodeAction(vscode.l10n.t('New Request…'), vscode.CodeActionKind.Refactor.append('newRequest'));
			action.command = { command: Command.newRequest, title: action.title, arguments: [{ uri: document.uri.toString(), line: range.start.line }] };
			actions.push(action);
		}
		return actions;
	}

	clear(document: vscode.TextDocument): void {
		this.found.delete(document.uri.toString());
		this.collection.delete(document.uri);
	}

	dispose(): void {
		this.collection.dispose();
	}
}

/**
 * The quick fix for a token in the file: Insert Authorization Header for the account, on that request
 * (the cursor goes to its Authorization line), with every question Insert asks.
 */
export async function switchRequestAccount(services: Services, arg?: unknown): Promise<unknown> {
	const { accountId, uri, line } = (arg ?? {}) as { accountId?: string; uri?: string; line?: number };
	if (typeof accountId !== 'string' || typeof uri !== 'string' || typeof line !== 'number') return undefined;
	const editor = targetEditor(vscode.Uri.parse(uri));
	if (!editor || line >= editor.document.lineCount) return undefined;
	const position = new vscode.Position(line, 0);
	editor.selection = new vscode.Selection(position, position);
	return insertAuthorizationHeader(services, { accountId });
}
