// Before a token is copied or written into a file: is it still good? An expired one is
// offered a refresh ("Refresh Now"); an account that needs a login is offered one.
import vscode = require('../../system/vscodeApi');

import type { AccountToken } from '../../core/restFile/tokenReach';
import type { Services } from '../../services';
import type { Session, StoredTokens } from '../../core/sessions/types';
import { showError } from '../messages/showError';
import { notify, withNotificationProgress } from '../messages/notify';
import { formatElapsed } from '../../core/util/time';
import { Command } from '../../commands';
import { planRefreshAt } from '../../core/sessions/refreshPlan';
import { isSafeToken } from '../../core/util/tokenGrammar';

export type FreshSession = Session & { tokens: StoredTokens };

/** A stored token outside the token grammar (a keychain entry changed behind our back). */
export function unsafeStoredTokenMessage(label: string): string {
	return vscode.l10n.t('The stored token for {0} is not a token this extension will write anywhere. Nothing was copied or changed. Log in again to replace it.', label);
}

/** The session with a token that has not expired, or undefined when the person was told why not. */
export async function ensureFreshToken(services: Services, session: Session): Promise<FreshSession | undefined> {
	const { account, tokens } = session;
	if (!tokens || session.state === 'needsLogin') {
		const again = vscode.l10n.t('Log In Again…');
		void notify('warning', vscode.l10n.t('{0} needs a new login before its token can be used.', account.label), again).then((choice) => {
			if (choice === again) void vscode.commands.executeCommand(Command.loginAgain, { accountId: account.id });
		});
		return undefined;
	}
	const now = services.clock.now();
	if (tokens.expiresAt > now) return { ...session, tokens };
	const refresh = vscode.l10n.t('Refresh Now');
	const choice = await notify('warning', vscode.l10n.t('The access token for {0} expired {1} ago. Refresh it first?', account.label, formatElapsed(now - tokens.expiresAt)), refresh);
	if (choice !== refresh) return undefined;
	try {
		const refreshed = await withNotificationProgress(
			vscode.l10n.t('Refreshing the token for {0}…', account.label),
			() => services.scheduler.refreshNow(account.id),
		);
		return refreshed.tokens ? { ...refreshed, tokens: refreshed.tokens } : undefined;
	} catch (error) {
		showError(services, error, { prefix: vscode.l10n.t('Could not refresh the token for {0}.', account.label) });
		return undefined;
	}
}

/**
 * For a program that asks without a person at hand (a terminal's command, the agent's tool): the
 * account's session with a token to send now, refreshed first when due, as the scheduler allows (a
 * refresh token, never a login); undefined when there is none to hand over.
 */
export async function liveSession(services: Services, accountId: string): Promise<FreshSession | undefined> {
	const { store, scheduler, clock, config } = services;
	const session = store.get(accountId);
	if (session?.tokens && session.state !== 'needsLogin' && clock.now() >= planRefreshAt(session.tokens, config.refreshBeforeExpiryMs())) {
		await scheduler.refreshIfAllowed(accountId);
	}
	const current = store.get(accountId);
	return current?.tokens && current.state === 'valid' && isSafeToken(current.tokens.accessToken) ? { ...current, tokens: current.tokens } : undefined;
}

/** Every account's current access token and its service, for telling whose a token in a file is and where it may go. */
export function knownTokens(services: Services): AccountToken[] {
	return services.store.list().flatMap((s) => s.tokens ? [{ accountId: s.account.id, accessToken: s.tokens.accessToken, expiresAt: s.tokens.expiresAt, serviceUrl: s.account.serviceUrl }] : []);
}
