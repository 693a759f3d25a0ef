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
		void notify('info', vscode.l10n.t('Logged in as {0} (token valid for {1}).', label, left));
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
