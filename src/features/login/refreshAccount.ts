// What a person is told about a refresh. One they asked for (the Refresh command, or Refresh instead of a
// login the service may block): progress in the status bar, the time left when it worked, why nothing was
// sent when the floor held it back, the error with its actions when it failed. An automatic one that failed
// for good: the scheduler's failure, heard here directly (reportRefreshFailures), with buttons only.
import vscode = require('../../system/vscodeApi');
import { ApiError } from '../../core/api/errors';
import type { RequestedRefresh } from '../../core/sessions/refreshPlan';
import type { Services } from '../../services';
import type { RefreshFailure, Session } from '../../core/sessions/types';
import { formatRemaining } from '../../core/util/time';
import { hostOf } from '../../core/util/url';
import { Command } from '../../commands';
import { notify } from '../messages/notify';
import { errorText, showError, type ErrorAction } from '../messages/showError';

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

/** Tells a person about each automatic refresh that fails for good, for as long as the returned disposable lives. */
export function reportRefreshFailures(services: Services): vscode.Disposable {
	return services.scheduler.onDidFail((failure) => reportRefreshFailure(services, failure));
}

/**
 * Tells a person about an automatic refresh that failed for good. Manual refreshes report
 * their own failure. Offers buttons only: it never logs in by itself.
 */
function reportRefreshFailure(services: Services, failure: RefreshFailure): void {
	if (failure.trigger !== 'auto' && failure.warning === undefined) return;
	const session = services.store.get(failure.accountId);
	if (!session) return;
	const { label, serviceUrl } = session.account;
	const arg = { accountId: failure.accountId };
	const logInAgain = vscode.l10n.t('Log In Again');
	const refreshNow = vscode.l10n.t('Refresh Now');
	const showLog = vscode.l10n.t('Show Log');
	const { error } = failure;
	const reason = errorText(services, error);
	let shown: Thenable<string | undefined>;
	if (failure.warning === 'shortLived') {
		shown = notify('warning', vscode.l10n.t('The token for {0} was refreshed, but: {1}', label, reason), showLog);
	} else if (error.kind === 'badCredentials' || error.kind === 'forbidden') {
		shown = notify('warning', vscode.l10n.t('The session for {0} has expired and could not be refreshed.', label), logInAgain);
	} else if (error.kind === 'rateLimited') {
		shown = notify('warning', vscode.l10n.t('{0} is rate-limiting requests, so the token for {1} could not be refreshed. Nothing will be retried automatically; refresh it later.', hostOf(serviceUrl), label), refreshNow, showLog);
	} else if (error.isTransient) {
		const expired = !session.tokens || session.tokens.expiresAt <= services.clock.now();
		shown = expired
			? notify('warning', vscode.l10n.t('The token for {0} has expired and could not be refreshed: {1}', label, reason), refreshNow, logInAgain)
			: notify('warning', vscode.l10n.t('Could not refresh the token for {0}: {1}', label, reason), refreshNow, showLog);
	} else {
		shown = notify('warning', vscode.l10n.t('Could not refresh the token for {0}: {1}', label, reason), refreshNow, logInAgain, showLog);
	}
	services.log.warn(`Automatic refresh for ${label} failed (${error.kind}): ${reason}`);
	void shown.then((chosen) => {
		if (chosen === logInAgain) void vscode.commands.executeCommand(Command.loginAgain, arg);
		else if (chosen === refreshNow) void vscode.commands.executeCommand(Command.refresh, arg);
		else if (chosen === showLog) services.output.show(true);
	});
}
