// Mark Account as Production… / Unmark Account as Production…: the person says which accounts are
// production (core/sessions/production.ts), from the palette, the Accounts view or a tooltip. The context
// keys let each menu show only the command that applies.
import vscode = require('../../system/vscodeApi');
import { Command } from '../../commands';
import { isProduction } from '../../core/sessions/production';
import { accountResult, type AccountResult, type Session } from '../../core/sessions/types';
import type { Services } from '../../services';
import { accountIdOf, pickAccount, resolveAccount } from './accountPicker';
import { notify } from '../messages/notify';
import { showError } from '../messages/showError';
import { registerCommand } from '../commands/registerCommand';

/** Some logged-in account is production / is not: the palette offers Unmark / Mark. */
export const HAS_PRODUCTION_CONTEXT = 'telematicsAuth.hasProductionAccount';
export const HAS_OTHER_CONTEXT = 'telematicsAuth.hasNonProductionAccount';

/** The account named by `arg`, else the one the person picks among those the command would change. */
async function chooseAccount(services: Services, arg: unknown, production: boolean, placeHolder: string): Promise<Session | undefined> {
	const id = accountIdOf(arg);
	if (id) return services.store.get(id);
	const all = services.store.list();
	if (all.length === 0) return resolveAccount(services, undefined);
	const candidates = all.filter((s) => isProduction(s.account) !== production);
	if (candidates.length === 0) {
		void notify('info', production ? vscode.l10n.t('Every logged-in account is already production.') : vscode.l10n.t('No logged-in account is production.'));
		return undefined;
	}
	return pickAccount(services, placeHolder, candidates);
}

/** Stores the mark; a failure (globalState refused the write) is shown, and the account stays as it was. */
async function saved(services: Services, session: Session, production: boolean): Promise<boolean> {
	try {
		return await services.store.setProduction(session.account.id, production);
	} catch (error) {
		showError(services, error, { prefix: vscode.l10n.t('Could not save whether {0} is production.', session.account.label) });
		return false;
	}
}

async function mark(services: Services, arg: unknown): Promise<AccountResult | undefined> {
	const session = await chooseAccount(services, arg, true, vscode.l10n.t('Mark which account as production?'));
	if (!session) return undefined;
	if (!await saved(services, session, true)) return undefined;
	services.log.info(`Marked ${session.account.label} as production.`);
	vscode.window.setStatusBarMessage(`$(flame) ${vscode.l10n.t('{0} is a production account: the agent\'s changing requests ask first', session.account.label)}`, 5000);
	return accountResult(services.store.get(session.account.id));
}

async function unmark(services: Services, arg: unknown): Promise<AccountResult | undefined> {
	const session = await chooseAccount(services, arg, false, vscode.l10n.t('Unmark which account as production?'));
	if (!session) return undefined;
	const name = session.account.name ?? session.account.label;
	const confirmed = await services.prompts.current.confirm(
		vscode.l10n.t('Unmark {0} as production?', name),
		vscode.l10n.t('The agent\'s changing requests to {0} ({1}) will no longer ask first, and the status bar will no longer warn while it is active. Operations that cannot be undone still ask.', name, session.account.serviceUrl),
		vscode.l10n.t('Unmark'),
	);
	if (!confirmed) return undefined;
	if (!await saved(services, session, false)) return undefined;
	services.log.info(`Unmarked ${session.account.label} as production.`);
	return accountResult(services.store.get(session.account.id));
}

export function registerProductionCommands(services: Services): vscode.Disposable {
	let known: string | undefined;
	const update = (): void => {
		const sessions = services.store.list();
		const has = sessions.some((s) => isProduction(s.account));
		const other = sessions.some((s) => !isProduction(s.account));
		const key = `${has}/${other}`;
		if (key === known) return;
		known = key;
		void vscode.commands.executeCommand('setContext', HAS_PRODUCTION_CONTEXT, has);
		void vscode.commands.executeCommand('setContext', HAS_OTHER_CONTEXT, other);
	};
	void services.store.ready.then(update);
	return vscode.Disposable.from(
		registerCommand(services, Command.markProduction, (arg?: unknown) => mark(services, arg)),
		registerCommand(services, Command.unmarkProduction, (arg?: unknown) => unmark(services, arg)),
		services.store.onDidChange(update),
	);
}
