// A refresh a person asked for (the Refresh command, or Refresh instead of a login the service may block):
// progress in the status bar, the time left when it worked, the error with its actions when it did not.
import vscode = require('vscode');
import { ApiError } from '../../core/api/errors';
import type { Services } from '../../services';
import type { Session } from '../../core/sessions/types';
import { formatRemaining } from '../../core/util/time';
import { showError, type ErrorAction } from './showError';

/** Refreshes `session` now; `logInAgain` is offered when the service refused the refresh token. Undefined when it failed (shown). */
export async function refreshAccount(services: Services, session: Session, logInAgain?: () => unknown): Promise<Session | undefined> {
	const { label } = session.account;
	try {
		const { session: current, refreshed } = await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Refreshing the token for {0}…', label) },
			() => services.scheduler.refreshOnRequest(session.account.id),
		);
		const left = current.tokens ? formatRemaining(current.tokens.expiresAt - services.clock.now()) : '';
		vscode.window.setStatusBarMessage(refreshed
			? `$(check) ${vscode.l10n.t('Token for {0} refreshed (valid for {1})', label, left)}`
			: `$(check) ${vscode.l10n.t('The token for {0} was obtained moments ago and is valid for {1}: not refreshed again yet', label, left)}`, 5000);
		return current;
	} catch (e) {
		const needsLogin = e instanceof ApiError && (e.kind === 'badCredentials' || e.kind === 'forbidden');
		const actions: ErrorAction[] = needsLogin && logInAgain ? [{ title: vscode.l10n.t('Log In Again'), run: logInAgain }] : [];
		showError(services, e, { prefix: vscode.l10n.t('Could not refresh the token for {0}.', label), actions });
		return undefined;
	}
}
