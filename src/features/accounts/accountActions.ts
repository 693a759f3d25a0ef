// `telematicsAuth.showActions`: the quick pick the status bar item opens, with what one can
// do with the active account (or, with none, the two ways to log in).
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import { effectiveState } from '../../core/statusBar/statusModel';

import type { Session } from '../../core/sessions/types';
import { accountIdOf } from './accountPicker';
import { formatRemaining } from '../../core/util/time';
import { Command } from '../../commands';
import { registerCommand } from '../commands/registerCommand';
import { isRestDocument } from '../../core/restFile/restDocument';

export interface AccountAction extends vscode.QuickPickItem {
	command: string;
	args: unknown[];
}

/** Whether the editor is a REST-client file (`.http`, `.rest`, or the `http` language). */
export function isRestEditor(editor: vscode.TextEditor | undefined): boolean {
	return editor !== undefined && isRestDocument(editor.document);
}

function action(icon: string, label: string, command: string, args: unknown[] = [], detail?: string): AccountAction {
	return { label: `$(${icon}) ${label}`, command, args, detail };
}

/** The actions offered, in order. */
export function accountActions(session: Session | undefined, context: { now: number; accountCount: number; restEditor: boolean }): AccountAction[] {
	const t = vscode.l10n.t;
	if (!session) {
		return [
			action('person-add', t('Log In as User…'), Command.loginUser, [], t('User Group InstanceID, DeviceToken and InstanceKey')),
			action('shield', t('Log In as Admin…'), Command.loginAdmin, [], t('API InstanceID, API Login and API Password')),
		];
	}
	const arg = { accountId: session.account.id };
	const items: AccountAction[] = [];
	if (effectiveState(session, context.now) !== 'valid') items.push(action('sign-in', t('Log In Again…'), Command.loginAgain, [arg]));
	items.push(
		action('refresh', t('Refresh Now'), Command.refresh, [arg]),
		action('copy', t('Copy Authorization Header'), Command.copyAuthorizationHeader, [arg]),
		action('key', t('Copy Access Token'), Command.copyAccessToken, [arg]),
	);
	if (context.restEditor) items.push(action('insert', t('Insert into REST File'), Command.insertAuthorizationHeader, [arg]));
	if (context.accountCount > 1) items.push(action('arrow-swap', t('Switch Account…'), Command.switchAccount));
	items.push(
		action('add', t('Log In…'), Command.login),
		action('sign-out', t('Log Out…'), Command.logout, [arg]),
		action('output', t('Show Log'), Command.showLog),
	);
	return items;
}

async function showActions(services: Services, arg: unknown): Promise<void> {
	const { store, clock } = services;
	const id = accountIdOf(arg);
	const session = id ? store.get(id) : store.active();
	const now = clock.now();
	const items = accountActions(session, { now, accountCount: store.list().length, restEditor: isRestEditor(vscode.window.activeTextEditor) });
	const title = session
		? vscode.l10n.t('Telematics: {0} ({1})', session.account.label, effectiveState(session, now) === 'needsLogin' ? vscode.l10n.t('log in again') : formatRemaining(session.tokens!.expiresAt - now))
		: vscode.l10n.t('Telematics: not logged in');
	const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Choose an action') });
	if (picked) await vscode.commands.executeCommand(picked.command, ...picked.args);
}

export function registerAccountActions(services: Services): vscode.Disposable {
	return registerCommand(services, Command.showActions, (arg?: unknown) => showActions(services, arg));
}
