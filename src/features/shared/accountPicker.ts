// Turns a command's argument into the account it acts on: a tree node or `{ accountId }`
// names one; otherwise the active account; otherwise the user picks one.
import vscode = require('vscode');
import type { Services } from '../../services';
import type { Session } from '../../core/sessions/types';
import { Command } from '../../commands';
import { displayText } from '../../core/util/displayText';
import { notify } from './notify';

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

export async function pickAccount(services: Services, placeHolder: string): Promise<Session | undefined> {
	const activeId = services.store.active()?.account.id;
	const items = services.store.list().map((s) => ({
		label: `$(${s.account.kind === 'admin' ? 'shield' : 'person'}) ${displayText(s.account.label)}`,
		description: [s.account.name, s.account.id === activeId ? vscode.l10n.t('active') : undefined].filter(Boolean).join(' · ') || undefined,
		detail: displayText(`${s.account.serviceUrl} · ${s.account.instanceId}`, 200),
		session: s,
	}));
	const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true });
	return picked?.session;
}
