// Turns a command's argument into the account it acts on: a tree node or `{ accountId }`
// names one; otherwise the active account; otherwise the user picks one.
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import type { Session } from '../../core/sessions/types';
import { Command } from '../../commands';
import type { AccountChoice } from '../../core/models/prompter';
import { notify } from '../messages/notify';
import { isProduction } from '../../core/sessions/production';

/** What tree items and other callers pass to account commands. */
export interface AccountArg {
	accountId: string;
}

export function accountIdOf(arg: unknown): string | undefined {
	if (typeof arg === 'string') return arg;
	if (arg && typeof arg === 'object' && typeof (arg as Partial<AccountArg>).accountId === 'string') {
		return (arg as AccountArg).accountId;
	}
	return undefined;
}

/**
 * The session a command should act on, or undefined when there is none (the user was
 * told and offered a login) or the user cancelled the pick.
 */
export async function resolveAccount(services: Services, arg: unknown, options: { pick?: boolean; placeHolder?: string } = {}): Promise<Session | undefined> {
	const id = accountIdOf(arg);
	if (id) return services.store.get(id);
	const sessions = services.store.list();
	if (sessions.length === 0) {
		const logIn = vscode.l10n.t('Log In…');
		const choice = await notify('info', vscode.l10n.t('No Telematics account is logged in.'), logIn);
		if (choice === logIn) await vscode.commands.executeCommand(Command.login);
		return undefined;
	}
	const active = services.store.active();
	if (active && !options.pick) return active;
	if (sessions.length === 1) return sessions[0];
	return pickAccount(services, options.placeHolder ?? vscode.l10n.t('Select a Telematics account'));
}

/** `sessions` as the account pickers offer them. */
export function accountChoices(services: Services, sessions: readonly Session[]): AccountChoice[] {
	const activeId = services.store.active()?.account.id;
	return sessions.map((s) => ({
		id: s.account.id, name: s.account.name ?? '', label: s.account.label, kind: s.account.kind,
		serviceUrl: s.account.serviceUrl, instanceId: s.account.instanceId, active: s.account.id === activeId, production: isProduction(s.account),
	}));
}

/** The person picks one of `sessions` (every logged-in account by default), names first. */
export async function pickAccount(services: Services, placeHolder: string, sessions: readonly Session[] = services.store.list(), title?: string): Promise<Session | undefined> {
	const id = await services.prompts.current.pickAccount(accountChoices(services, sessions), placeHolder, title);
	return sessions.find((s) => s.account.id === id);
}
