// "New Request…": pick one of the platform's operations, then the account (one of the kind it needs
// first), and a complete request goes in at the cursor: `# @name`, the method and the URL on the account's
// platform host, the Authorization line in the insert style with the same questions as Insert, the content
// type and a body with every required field, in one edit. The text is core/restFile/requestText.ts.
import vscode = require('../../system/vscodeApi');
import type { AuthValue } from '../../core/restFile/authHeaderEdit';
import { DEFAULT_TOKEN_VARIABLE } from '../../core/restFile/fileVariable';
import { parseRestFile } from '../../core/restFile/requestParser';
import { requestDestinations } from '../../core/restFile/requestHost';
import { requestsSending } from '../../core/restFile/tokenReach';
import { applyEdits } from '../../core/restFile/textEdit';
import { namedRequest, planNewRequest } from '../../core/restFile/requestText';
import { loadPlatform } from '../../core/platform/load';
import type { Operation } from '../../core/platform/operations';
import { tokenVariableFor } from '../../core/sessions/accountNames';
import type { Session } from '../../core/sessions/types';
import { isProduction } from '../../core/sessions/production';
import type { Services } from '../../services';
import { accountIdOf, pickAccount, resolveAccount } from '../accounts/accountPicker';
import { notify } from '../messages/notify';
import { accountPlatformHosts } from '../accounts/accountPlatformHosts';
import { targetRestEditor } from './restDocuments';
import { applyUnchanged, passGuards, warnUnexposed } from './writeGuards';

/** What the command takes: an operation and an account to skip their picks, a document and line (the code action), or a Uri (the context menu). */
export interface NewRequestArg {
	operationId?: string;
	accountId?: string;
	uri?: string;
	line?: number;
}

export interface NewRequestOutcome {
	operationId: string;
	accountId: string;
	/** The `# @name` it got. */
	name: string;
	/** The line of its request line. */
	requestLine: number;
}

function argOf(arg: unknown): NewRequestArg {
	return arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? arg as NewRequestArg : {};
}

/** The account kind an operation needs, as the pick shows it. */
function neededPhrase(op: Operation): string {
	return op.token === 'admin' ? vscode.l10n.t('needs an admin token') : op.token === 'user' ? vscode.l10n.t('needs a user token') : op.token === 'unknown' ? vscode.l10n.t('needs a token of a kind nobody knows (from the host\'s OpenAPI)') : vscode.l10n.t('no token: InstanceId and InstanceKey');
}

/** The operations as quick pick rows, by host: the kind each needs, and a mark when it changes data or cannot be undone. */
async function pickOperation(operations: readonly Operation[]): Promise<Operation | undefined> {
	type Item = vscode.QuickPickItem & { op?: Operation };
	const items: Item[] = [];
	let host: string | undefined;
	for (const op of operations) {
		if (op.host !== host) {
			host = op.host;
			items.push({ label: host, kind: vscode.QuickPickItemKind.Separator });
		}
		const marks = [
			`$(${op.token === 'admin' ? 'shield' : op.token === 'user' ? 'person' : op.token === 'unknown' ? 'question' : 'key'}) ${neededPhrase(op)}`,
			...(op.changesData ? [`$(edit) ${vscode.l10n.t('changes data')}`] : []),
			...(op.irreversible ? [`$(warning) ${vscode.l10n.t('cannot be undone')}`] : []),
		];
		items.push({ label: `${op.method} ${op.path}`, description: op.summary, detail: marks.join('  ·  '), op });
	}
	const picked = await vscode.window.showQuickPick(items, {
		title: vscode.l10n.t('New Request'),
		placeHolder: vscode.l10n.t('Which operation? Type words of its path or what it does'),
		matchOnDescription: true,
		matchOnDetail: true,
	});
	return picked?.op;
}

/** The account: the one named, the only one, or the person's pick with those of the needed kind first. */
async function accountFor(services: Services, op: Operation, accountId: string | undefined): Promise<Session | undefined> {
	if (accountId) return services.store.get(accountId);
	const sessions = services.store.list();
	if (sessions.length <= 1) return resolveAccount(services, undefined);
	const activeId = services.store.active()?.account.id;
	const rank = (s: Session) => (s.account.kind === op.token ? 0 : 2) + (s.account.id === activeId ? 0 : 1);
	const ordered = [...sessions].sort((a, b) => rank(a) - rank(b));
	return pickAccount(services, op.token === 'none'
		? vscode.l10n.t('Which account\'s service should it go to?')
		: vscode.l10n.t('Whose token should it send? It {0}.', neededPhrase(op)), ordered, `${op.method} ${op.path}`);
}

export async function newRequest(services: Services, rawArg?: unknown): Promise<NewRequestOutcome | undefined> {
	const arg = argOf(rawArg);
	const target = rawArg instanceof vscode.Uri ? rawArg : arg.uri ? vscode.Uri.parse(arg.uri) : undefined;
	const editor = targetRestEditor(target, vscode.l10n.t('Open a .http or .rest file to add a request to it.'));
	if (!editor) return undefined;
	const platform = await loadPlatform();
	const op = arg.operationId ? platform.operationById(arg.operationId) : await pickOperation(platform.OPERATIONS);
	if (!op) {
		if (arg.operationId) void notify('error', vscode.l10n.t('There is no platform operation {0}.', arg.operationId));
		return undefined;
	}
	const session = await accountFor(services, op, accountIdOf(arg));
	if (!session) return undefined;
	const hosts = accountPlatformHosts(services.config, session.account);
	if (!hosts) {
		void notify('error', vscode.l10n.t('The service of {0} is not one whose platform hosts are known.', session.account.label));
		return undefined;
	}
	const { document } = editor;
	const version = document.version;
	const text = document.getText();
	const offset = arg.line !== undefined && arg.line < document.lineCount ? document.offsetAt(new vscode.Position(arg.line, 0)) : document.offsetAt(editor.selection.active);
	const options = { origin: hosts[op.host], production: isProduction(session.account), operationFor: platform.operationFor };
	let auth: AuthValue | undefined;
	if (op.token !== 'none') {
		const style = services.config.insertStyle();
		if (style === 'processEnv' || style === 'dotenv' || style === 'envVariable') {
			// A reference: no token goes into the file; the account's own variable, whichever account is active.
			auth = { style: 'environment', source: style, ...(session.account.name !== undefined && { variable: tokenVariableFor(session.account.name) }) };
			warnUnexposed(services, style);
		} else {
			// The token itself: Insert's guards, in Insert's order (fresh token, where it goes, git).
			const passed = await passGuards(services, { uri: document.uri, action: vscode.l10n.t('Insert Anyway') }, [{
				session,
				reach: (current) => {
					const token = current.tokens!.accessToken;
					const planned = planNewRequest(text, offset, op, { ...options, auth: style === 'variable' ? { style: 'variable', token } : { style: 'header', token } });
					const file = parseRestFile(applyEdits(text, planned.edits));
					const added = namedRequest(file, planned.name);
					const reached = style === 'variable' ? requestsSending(file, { requests: added ? [added] : [], variables: [DEFAULT_TOKEN_VARIABLE] }) : added ? [added] : [];
					return { file, destinations: requestDestinations(file, reached) };
				},
			}], { fresh: true, git: { offerReference: true } });
			if (!passed) return undefined;
			const token = passed.fresh[0]!.tokens.accessToken;
			auth = passed.reference ? { style: 'reference' } : style === 'variable' ? { style: 'variable', token } : { style: 'header', token };
		}
	}
	const { edits, name } = planNewRequest(text, offset, op, { ...options, auth });
	if (!(await applyUnchanged(editor, version, edits, vscode.l10n.t('The file changed while the request was being added. Try again.')))) return undefined;
	const requestLine = namedRequest(parseRestFile(document.getText()), name)?.requestLine ?? 0;
	const position = new vscode.Position(requestLine, 0);
	editor.selection = new vscode.Selection(position, position);
	editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
	if (auth?.style === 'reference') {
		void notify('info', vscode.l10n.t('Wrote "Authorization: Bearer {0}" without a token. Define {1} in an untracked environment file.', `{{${DEFAULT_TOKEN_VARIABLE}}}`, DEFAULT_TOKEN_VARIABLE));
	}
	return { operationId: op.id, accountId: session.account.id, name, requestLine };
}
