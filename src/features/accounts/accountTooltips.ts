// The tooltips the status bar and the Accounts view share: an account's facts and actions, or
// the ways to log in, as trusted markdown whose links may run only the commands listed here.
import vscode = require('../../system/vscodeApi');
import { tokenVariableFor } from '../../core/sessions/accountNames';
import type { RefreshStatus } from '../../core/sessions/types';
import type { Session } from '../../core/sessions/types';
import { describeExpiry, formatClockTime } from '../../core/util/time';
import { Command } from '../../commands';
import { markdownText } from '../../core/util/displayText';
import { isProduction } from '../../core/sessions/production';

/** Commands the tooltips' links may run; nothing else is trusted. */
export const TOOLTIP_COMMANDS = [
	Command.refresh,
	Command.copyAuthorizationHeader,
	Command.switchAccount,
	Command.makeActive,
	Command.loginAgain,
	Command.logout,
	Command.showLog,
	Command.loginUser,
	Command.loginAdmin,
	Command.markProduction,
	Command.unmarkProduction,
];

function commandLink(icon: string, title: string, command: string, args?: unknown): string {
	const query = args === undefined ? '' : `?${encodeURIComponent(JSON.stringify([args]))}`;
	return `[$(${icon}) ${title}](command:${command}${query})`;
}

function newTooltip(): vscode.MarkdownString {
	const md = new vscode.MarkdownString('', true);
	md.isTrusted = { enabledCommands: TOOLTIP_COMMANDS };
	md.supportThemeIcons = true;
	return md;
}

/** The tooltip while the stored sessions are read. */
export function loadingTooltip(): vscode.MarkdownString {
	const md = newTooltip();
	md.appendMarkdown(`**${vscode.l10n.t('Telematics Auth')}**  \n`);
	md.appendMarkdown(markdownText(vscode.l10n.t('Reading the stored sessions…')));
	return md;
}

/** The tooltip for no account: the two ways to log in. */
export function loggedOutTooltip(): vscode.MarkdownString {
	const t = vscode.l10n.t;
	const md = newTooltip();
	md.appendMarkdown(`**${t('Telematics Auth')}**  \n`);
	md.appendMarkdown(markdownText(t('No account is logged in.')));
	md.appendMarkdown('\n\n');
	md.appendMarkdown([
		commandLink('person-add', t('Log in as user'), Command.loginUser),
		commandLink('shield', t('Log in as admin'), Command.loginAdmin),
		commandLink('output', t('Show log'), Command.showLog),
	].join(' · '));
	return md;
}

/** The tooltip when accounts are logged in but none is active: the person chooses one. */
export function chooseAccountTooltip(): vscode.MarkdownString {
	const t = vscode.l10n.t;
	const md = newTooltip();
	md.appendMarkdown(`**${t('Telematics Auth')}**  \n`);
	md.appendMarkdown(markdownText(t('No account is active: a production account never becomes active by itself.'), 300));
	md.appendMarkdown('\n\n');
	md.appendMarkdown([commandLink('arrow-swap', t('Switch account'), Command.switchAccount), commandLink('output', t('Show log'), Command.showLog)].join(' · '));
	return md;
}

/**
 * An account's facts and actions as trusted markdown (status bar and tree). Account data goes
 * through markdownText, so a label cannot inject links or icons. Never a token.
 */
export function accountTooltip(session: Session, status: RefreshStatus | undefined, now: number, active: boolean): vscode.MarkdownString {
	const t = vscode.l10n.t;
	const { account, tokens } = session;
	const md = newTooltip();
	// Values may come from outside (the service, settings): markdownText makes them plain text.
	const line = (name: string, value: string) => md.appendMarkdown(`${name}: ${markdownText(value)}  \n`);
	const production = isProduction(account);
	md.appendMarkdown(`$(${account.kind === 'admin' ? 'shield' : 'account'}) **${markdownText(account.label)}** — ${account.kind === 'admin' ? t('Admin') : t('User')}${active ? ` (${t('active')})` : ''}\n\n`);
	if (production) md.appendMarkdown(`$(flame) **${t('Production account')}**: ${markdownText(t('the agent\'s changing requests ask first'), 300)}\n\n`);
	if (account.name) md.appendMarkdown(`${t('Name')}: \`${account.name}\` (\`${tokenVariableFor(account.name)}\`)\n\n`);
	if (account.instanceId) line(t('Instance ID'), account.instanceId);
	line(t('Service'), account.serviceUrl);
	const clock = (ms: number) => formatClockTime(ms, now);
	if (tokens) {
		line(t('Expires'), describeExpiry(tokens.expiresAt, now, { t, formatTime: clock }));
		line(t('Last refresh'), tokens.lastRefreshAt !== undefined ? clock(tokens.lastRefreshAt) : t('never'));
	} else {
		line(t('Access token'), t('missing: log in again'));
	}
	if (session.state === 'needsLogin') line(t('State'), t('the service refused the refresh token; log in again'));
	if (status?.inFlight) line(t('State'), t('refreshing…'));
	if (status?.lastError) line(t('Last error'), `${status.lastError.message} (${clock(status.lastError.at)})`);
	const arg = { accountId: account.id };
	const links: string[] = [];
	if (session.state !== 'valid' || !tokens || tokens.expiresAt <= now) links.push(commandLink('sign-in', t('Log in again'), Command.loginAgain, arg));
	links.push(
		commandLink('refresh', t('Refresh now'), Command.refresh, arg),
		commandLink('copy', t('Copy header'), Command.copyAuthorizationHeader, arg),
		active
			? commandLink('arrow-swap', t('Switch account'), Command.switchAccount)
			: commandLink('check', t('Make active'), Command.makeActive, arg),
		production
			? commandLink('circle-slash', t('Unmark production'), Command.unmarkProduction, arg)
			: commandLink('flame', t('Mark as production'), Command.markProduction, arg),
		commandLink('sign-out', t('Log out'), Command.logout, arg),
		commandLink('output', t('Show log'), Command.showLog),
	);
	md.appendMarkdown(`\n---\n\n${links.join(' · ')}`);
	return md;
}
