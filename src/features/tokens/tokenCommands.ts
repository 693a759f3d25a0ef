// Copy the token in the forms people paste it (header, raw, curl), and open the service's
// API explorer with `Bearer <token>` ready for its Authorize form.
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';

import { resolveAccount } from '../accounts/accountPicker';
import { ensureFreshToken, unsafeStoredTokenMessage, type FreshSession } from '../shared/freshToken';
import { notify } from '../messages/notify';
import { isSafeToken, requireSafeToken, shellQuote, UnsafeTokenError } from '../../core/util/tokenGrammar';
import { formatRemaining } from '../../core/util/time';
import { Command } from '../../commands';
import { registerCommand } from '../commands/registerCommand';
import { withoutTrailingSlashes } from '../../core/util/url';

type Format = (token: string) => string;

export const authorizationHeader: Format = (token) => `Authorization: Bearer ${requireSafeToken(token, 'clipboard')}`;
/** A curl argument, shell-quoted whatever the token holds (it is checked against the grammar too). */
export const curlHeader: Format = (token) => `-H ${shellQuote(authorizationHeader(token))}`;
const rawToken: Format = (token) => requireSafeToken(token, 'clipboard');

/** The account's token after the expiry check (and an offered refresh), or undefined. */
async function freshSession(services: Services, arg: unknown): Promise<FreshSession | undefined> {
	const session = await resolveAccount(services, arg);
	return session ? ensureFreshToken(services, session) : undefined;
}

function validFor(services: Services, session: FreshSession): string {
	return formatRemaining(session.tokens.expiresAt - services.clock.now());
}

async function copy(services: Services, arg: unknown, format: Format, what: string): Promise<boolean> {
	const session = await freshSession(services, arg);
	if (!session) return false;
	let text: string;
	try {
		text = format(session.tokens.accessToken);
	} catch (error) {
		if (!(error instanceof UnsafeTokenError)) throw error;
		void notify('error', unsafeStoredTokenMessage(session.account.label));
		return false;
	}
	await vscode.env.clipboard.writeText(text);
	void notify('info', vscode.l10n.t('Copied {0} for {1} — valid for {2}.', what, session.account.label, validFor(services, session)));
	return true;
}

/** `{serviceUrl}/swagger/index.html` */
export function apiExplorerUrl(serviceUrl: string): string {
	return `${withoutTrailingSlashes(serviceUrl)}/swagger/index.html`;
}

async function openApiExplorer(services: Services, arg: unknown): Promise<boolean> {
	const session = await freshSession(services, arg);
	if (!session) return false;
	if (!isSafeToken(session.tokens.accessToken)) {
		void notify('error', unsafeStoredTokenMessage(session.account.label));
		return false;
	}
	await vscode.env.clipboard.writeText(`Bearer ${session.tokens.accessToken}`);
	const opened = await vscode.env.openExternal(vscode.Uri.parse(apiExplorerUrl(session.account.serviceUrl)));
	void notify('info', opened
		? vscode.l10n.t('Opened the API explorer. "Bearer …" for {0} is on the clipboard: paste it into Authorize (valid for {1}).', session.account.label, validFor(services, session))
		: vscode.l10n.t('Could not open {0}. "Bearer …" for {1} is on the clipboard for its Authorize form.', apiExplorerUrl(session.account.serviceUrl), session.account.label));
	return opened;
}

export function registerTokenCommands(services: Services): vscode.Disposable {
	return vscode.Disposable.from(
		registerCommand(services, Command.copyAuthorizationHeader, (arg?: unknown) => copy(services, arg, authorizationHeader, vscode.l10n.t('the Authorization header'))),
		registerCommand(services, Command.copyAccessToken, (arg?: unknown) => copy(services, arg, rawToken, vscode.l10n.t('the access token'))),
		registerCommand(services, Command.copyAsCurl, (arg?: unknown) => copy(services, arg, curlHeader, vscode.l10n.t('the curl header'))),
		registerCommand(services, Command.openApiExplorer, (arg?: unknown) => openApiExplorer(services, arg)),
	);
}
