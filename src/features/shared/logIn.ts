// Login with cancellable progress, the answer stored through the one road of core/sessions/tokenAnswer.ts:
// the step after the login questions, and the demo's login. A failed or cancelled login changes nothing.
import vscode = require('vscode');
import { ApiError } from '../../core/api/errors';
import type { AccountKind } from '../../core/api/types';
import type { Services } from '../../services';
import { accountLabel, tokensFromLogin } from '../../core/sessions/tokenAnswer';
import type { Session } from '../../core/sessions/types';
import { hostOf } from '../../core/util/url';
import { formatRemaining } from '../../core/util/time';
import { showError } from './showError';
import { notify, withNotificationProgress } from './notify';
import { asksWhetherProduction, isProduction } from '../../core/sessions/production';
import { Command } from '../../commands';

export interface LoginAnswers {
	serviceUrl: string;
	instanceId: string;
	login: string;
	password: string;
}

/**
 * Calls Login with `answers` and stores the session (after the login questions, or the demo's).
 * On failure the person is told, with `tryAgain` behind "Try Again"; nothing stored changes.
 */
export async function logIn(services: Services, kind: AccountKind, answers: LoginAnswers, tryAgain: () => unknown): Promise<Session | undefined> {
	const { serviceUrl, instanceId, login, password } = answers;
	const host = hostOf(serviceUrl);
	const masking = services.log.addSecrets([password, kind === 'user' ? login : undefined]);
	try {
		services.log.info(`Logging in as ${kind} to ${host}…`);
		const response = await withNotificationProgress(
			vscode.l10n.t('Logging in to {0}…', host),
			(token) => {
				const controller = new AbortController();
				const cancel = token.onCancellationRequested(() => controller.abort());
				return services.api
					.login(
						{ kind, baseUrl: serviceUrl, instanceId, login, password, loginFieldsFormat: services.config.loginFieldsFormat() },
						{ timeoutMs: services.config.requestTimeoutMs(), signal: controller.signal, proxy: services.config.proxy() },
					)
					.finally(() => cancel.dispose());
			},
			true,
		);
		const { tokens, expiryNote } = tokensFromLogin(kind, login, response, services.clock.now());
		if (expiryNote) services.log.warn(`The new token: ${expiryNote}.`);
		const label = accountLabel(kind, login, response.accessToken);
		const session = await services.store.saveLogin({ kind, serviceUrl, instanceId, login, label }, tokens);
		const left = formatRemaining(tokens.expiresAt - services.clock.now());
		services.log.info(`Logged in as ${kind} ${label} to ${host}; token valid for ${left}.`);
		tellLoggedIn(services, session, vscode.l10n.t('Logged in as {0} (token valid for {1}).', label, left));
		return session;
	} catch (e) {
		if (e instanceof ApiError && e.kind === 'cancelled') {
			services.log.info('Login cancelled; nothing changed.');
			return undefined;
		}
		showError(services, e, {
			prefix: vscode.l10n.t('Could not log in to {0}.', host),
			tryAgain,
		});
		return undefined;
	} finally {
		masking?.dispose();
	}
}

/**
 * The login's message, and the production question kept light: an account on the vendor's hosts is said
 * to be production (with a way to unmark it); one on another host that is not this machine asks.
 */
function tellLoggedIn(services: Services, session: Session, loggedIn: string): void {
	const { account } = session;
	const arg = { accountId: account.id };
	if (isProduction(account) && account.production === undefined) {
		const unmark = vscode.l10n.t('Not Production…');
		void notify('info', `${loggedIn} ${vscode.l10n.t('It is on the vendor\'s service, so it is a production account: the agent\'s changing requests ask first.')}`, unmark).then((choice) => {
			if (choice === unmark) void vscode.commands.executeCommand(Command.unmarkProduction, arg);
		});
		return;
	}
	if (asksWhetherProduction(account)) {
		const yes = vscode.l10n.t('Mark as Production');
		const no = vscode.l10n.t('Not Production');
		void notify('info', `${loggedIn} ${vscode.l10n.t('Is it a production account? The agent\'s changing requests to a production account ask first.')}`, yes, no).then(async (choice) => {
			if (choice === yes || choice === no) await services.store.setProduction(account.id, choice === yes);
		}).then(undefined, (error: unknown) => showError(services, error, { prefix: vscode.l10n.t('Could not save whether {0} is production.', account.label) }));
		return;
	}
	void notify('info', loggedIn);
}
