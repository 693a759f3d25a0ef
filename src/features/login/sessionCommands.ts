// The session commands (the login commands from logIn.ts, log out, switch, rename, make active, refresh,
// show log). What a person is told about a refresh, asked for or automatic, is shared/refreshAccount.ts.
import vscode = require('../../system/vscodeApi');
import { checkAccountName } from '../../core/sessions/accountNames';
import type { Services } from '../../services';
import { accountResult, type AccountResult, type Session } from '../../core/sessions/types';

import { hostOf } from '../../core/util/url';
import { accountIdOf, pickAccount, resolveAccount } from '../accounts/accountPicker';
import { showError } from '../messages/showError';
import { logInAgain, loginCommands } from './logIn';
import { notify } from '../messages/notify';
import { refreshAccount } from './refreshAccount';
import { Command, type CommandId } from '../../commands';
import { registerCommand } from '../commands/registerCommand';

export function registerSessionCommands(services: Services): vscode.Disposable {
	const refreshOne = async (session: Session): Promise<AccountResult | undefined> =>
		accountResult(await refreshAccount(services, session, () => logInAgain(services, { accountId: session.account.id })));

	const commands: Partial<Record<CommandId, (...args: never[]) => unknown>> = {
		...loginCommands(services),
		[Command.logout]: async (arg?: unknown) => {
			const session = await resolveAccount(services, arg, { pick: true, placeHolder: vscode.l10n.t('Log out of which account?') });
			if (!session) return false;
			const { label } = session.account;
			const confirmed = await services.prompts.current.confirm(
				vscode.l10n.t('Log out of {0}?', label),
				vscode.l10n.t('Its tokens are deleted from this machine.'),
				vscode.l10n.t('Log Out'),
			);
			if (!confirmed) return false;
			try {
				await services.store.remove(session.account.id);
				services.log.info(`Logged out of ${label} (${hostOf(session.account.serviceUrl)}).`);
				vscode.window.setStatusBarMessage(`$(sign-out) ${vscode.l10n.t('Logged out of {0}', label)}`, 5000);
				return true;
			} catch (e) {
				showError(services, e, { prefix: vscode.l10n.t('Could not log out of {0}.', label) });
				return false;
			}
		},
		[Command.switchAccount]: async () => {
			if (services.store.list().length === 0) {
				await resolveAccount(services, undefined);
				return;
			}
			const session = await pickAccount(services, vscode.l10n.t('Switch to which Telematics account?'));
			if (session) await services.store.setActive(session.account.id);
		},
		[Command.renameAccount]: async (arg?: unknown) => {
			const session = await resolveAccount(services, arg, { pick: true, placeHolder: vscode.l10n.t('Rename which account?') });
			if (!session) return undefined;
			const others = services.store.namesBesides(session.account.id);
			const given = typeof (arg as { name?: unknown } | undefined)?.name === 'string' ? (arg as { name: string }).name : undefined;
			const name = given ?? await vscode.window.showInputBox({
				title: vscode.l10n.t('Rename {0}', session.account.label),
				prompt: vscode.l10n.t('The name files, terminals and the agent use for this account: {{$processEnv TELEMATICS_TOKEN_<NAME>}}, telematics-token --account <name>.'),
				value: session.account.name,
				validateInput: (value) => {
					const checked = checkAccountName(value, others);
					return checked.ok ? undefined : checked.message;
				},
				ignoreFocusOut: true,
			});
			if (name === undefined) return undefined;
			const before = session.account.name;
			const renamed = await services.store.rename(session.account.id, name);
			if (!renamed.ok) {
				void notify('warning', renamed.message);
				return undefined;
			}
			// The environments bound to the account follow it (telematicsAuth.environmentAccounts).
			const after = services.store.get(session.account.id)?.account.name;
			if (before && after && before !== after) await services.config.renameInBindings(before, after);
			return accountResult(services.store.get(session.account.id)!);
		},
		[Command.makeActive]: async (arg?: unknown) => {
			const id = accountIdOf(arg);
			if (id && services.store.get(id)) await services.store.setActive(id);
		},
		[Command.refresh]: async (arg?: unknown) => {
			const session = await resolveAccount(services, arg, { placeHolder: vscode.l10n.t('Refresh the token of which account?') });
			return session ? refreshOne(session) : undefined;
		},
		[Command.refreshAll]: async () => {
			const sessions = services.store.list().filter((s) => s.tokens);
			const results = await Promise.all(sessions.map((s) => refreshOne(s)));
			return results.filter((s) => s !== undefined).length;
		},
		[Command.showLog]: () => services.output.show(),
	};

	return vscode.Disposable.from(...(Object.entries(commands) as [CommandId, (...args: unknown[]) => unknown][]).map(([id, handler]) => registerCommand(services, id, handler)));
}
