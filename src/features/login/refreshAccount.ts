// A refresh a person asked for (the Refresh command, or Refresh instead of a login the service may block):
// progress in the status bar, the time left when it worked, why nothing was sent when the floor held it
// back, the error with its actions when it failed.
import vscode = require('../../system/vscodeApi');
import { ApiError } from '../../core/api/errors';
import type { RequestedRefresh } from '../../core/sessions/refreshPlan';
import type { Services } from '../../services';
import type { Session } from '../../core/sessions/types';
import { formatRemaining } from '../../core/util/time';
import { notify } from '../messages/notify';
import { showError, type ErrorAction } from '../messages/showError';

/** Refreshes `session` now; `logInAgain` is offered when the service refused the refresh token. Undefined when it failed (shown). */
export async function refreshAccount(services: Services, session: Session, logInAgain?: () => unknown): Promise<Session | undefined> {
	const { label } = session.account;
	try {
		const result = await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Refreshing the token for {0}…', label) },
			() => services.scheduler.refreshOnRequest(session.account.id),
		);
		if (!result.refreshed) {
			tellHeldBack(services, result.session, result.heldBack, logInAgain);
			return result.session;
		}
		const current = result.session;
		const left = current.tokens ? formatRemaining(current.tokens.expiresAt - services.clock.now()) : '';
		vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Token for {0} refreshed (valid for {1})', label, left)}`, 5000);
		return current;
	} catch (e) {
		const needsLogin = e instanceof ApiError && (e.kind === 'badCredentials' || e.kind === 'forbidden');
		const actions: ErrorAction[] = needsLogin && logInAgain ? [{ title: vscode.l10n.t('Log In Again'), run: logInAgain }] : [];
		showError(services, e, { prefix: vscode.l10n.t('Could not refresh the token for {0}.', label), actions });
		return undefined;
	}
}

/** Says why a Refresh sent nothing: too soon after the last one (and when to try), or a refused refresh token. */
function tellHeldBack(services: Services, session: Session, heldBack: Exclude<RequestedRefresh, { send: true }>, logInAgain?: () => unknown): void {
	const { label } = session.account;
	if (heldBack.why === 'needsLogin') {
		const again = vscode.l10n.t('Log In Again');
		const message = vscode.l10n.t('The service refused the refresh token of {0}, so refreshing cannot help: log in again.', label);
		void (logInAgain ? notify('warning', message, again) : notify('warning', message)).then((choice) => {
			if (choice === again) void logInAgain?.();
		});
		return;
	}
	const ago = Math.floor(heldBack.agoMs / 1000);
	const wait = Math.max(1, Math.ceil(heldBack.waitMs / 1000));
	const failed = services.scheduler.status(session.account.id).lastError !== undefined;
	void notify('info', failed
		? vscode.l10n.t('A refresh for {0} was tried {1} s ago and failed; try again in {2} s (at most one refresh every 30 s).', label, ago, wait)
		: vscode.l10n.t('The token for {0} was refreshed {1} s ago; try again in {2} s (at most one refresh every 30 s).', label, ago, wait));
}
