// Logging in: the login commands (Log In, as User, as Admin, Log In Again), the authentication
// provider's sign-in and the demo's all come here. The questions are core/login/steps.ts, asked
// through the Prompter (on screen: stepInput.ts); then Login with cancellable progress, and the answer
// stored through the one road of core/sessions/tokenAnswer.ts. Every Login sent is counted against
// the service's login budget (core/login/loginBudget.ts) first. A failed or cancelled login
// changes nothing stored; a login only starts from a person's command or button.
import vscode = require('../../system/vscodeApi');
import { ApiError } from '../../core/api/errors';
import type { AccountKind } from '../../core/api/types';
import type { Services } from '../../services';
import { askLogin, type LoginAnswers, type LoginPrefill } from '../../core/login/steps';
import { accountIdFor } from '../../core/sessions/accountId';
import { blockedText, moreLoginsText, rateLimitedText, serviceOrigin } from '../../core/login/loginBudget';
import { accountLabel, tokensFromLogin } from '../../core/sessions/tokenAnswer';
import { accountResult, type Session } from '../../core/sessions/types';
import { displayText } from '../../core/util/displayText';
import { caughtText } from '../../core/util/caughtText';
import { hostOf } from '../../core/util/url';
import { formatRemaining, isoTime } from '../../core/util/time';
import { showError } from '../messages/showError';
import { notify, withNotificationProgress } from '../messages/notify';
import { refreshAccount } from './refreshAccount';
import { accountIdOf, resolveAccount } from '../accounts/accountPicker';
import { asksWhetherProduction, isProduction } from '../../core/sessions/production';
import { Command, type CommandId } from '../../commands';

/** The login commands' handlers; each hands back the account it logged in (no tokens), or undefined. */
export function loginCommands(services: Services): Partial<Record<CommandId, (arg?: unknown) => unknown>> {
	return {
		[Command.login]: async () => accountResult(await logInAnyKind(services)),
		[Command.loginUser]: async () => accountResult(await logInAs(services, 'user')),
		[Command.loginAdmin]: async () => accountResult(await logInAs(services, 'admin')),
		[Command.loginAgain]: async (arg?: unknown) => accountResult(await logInAgain(services, arg)),
	};
}

/** Log In: asks "User or Admin" first. */
export async function logInAnyKind(services: Services): Promise<Session | undefined> {
	const kind = await services.prompts.current.pickKind();
	return kind ? logInAs(services, kind) : undefined;
}

/** Log In Again: the account `arg` names (`{ accountId }`, a tree item), else the one picked; the questions start with its fields. */
export async function logInAgain(services: Services, arg?: unknown): Promise<Session | undefined> {
	const id = accountIdOf(arg);
	const session = id ? services.store.get(id) : await resolveAccount(services, arg, { placeHolder: vscode.l10n.t('Log in again to which account?') });
	return session && logInAs(services, session.account.kind, prefillFor(session));
}

/** The fields to start a new login of this account with. */
function prefillFor(session: Session): LoginPrefill {
	const { account, tokens } = session;
	return {
		serviceUrl: account.serviceUrl,
		instanceId: account.instanceId,
		login: account.kind === 'admin' ? account.label : tokens?.deviceToken,
	};
}

/**
 * The whole login by hand: ask, call Login, store. Returns the stored session, or undefined when
 * cancelled or failed (the failure was shown; nothing stored changed).
 */
export async function logInAs(services: Services, kind: AccountKind, prefill: LoginPrefill = {}): Promise<Session | undefined> {
	// Log In Again knows the service: while it blocks logins, say so before asking for anything.
	const blockedUntil = prefill.serviceUrl ? services.loginBudget.blockedUntil(prefill.serviceUrl) : undefined;
	if (prefill.serviceUrl && blockedUntil !== undefined) {
		tellBlocked(services, kind, { ...prefill, serviceUrl: prefill.serviceUrl }, blockedUntil);
		return undefined;
	}
	const choices = { baseUrl: services.config.baseUrl(), known: services.store.list().map((s) => s.account.serviceUrl) };
	const answers = await askLogin(services.prompts.current, kind, prefill, choices, vscode.l10n.t);
	if (!answers) {
		services.log.info(`Login as ${kind} cancelled; nothing changed.`);
		return undefined;
	}
	return logIn(services, kind, answers, () => logInAs(services, kind, { serviceUrl: answers.serviceUrl, instanceId: answers.instanceId, login: answers.login }));
}

/** Where a login would go, as far as it is known (Log In Again knows it before asking anything). */
type LoginTarget = Pick<LoginAnswers, 'serviceUrl' | 'instanceId'> & { login?: string };

/**
 * An account of the service that can be refreshed instead of logging in: the one this login would
 * replace, else one of the same kind, else any (a refresh never counts against the login budget).
 */
function refreshableAccount(services: Services, kind: AccountKind, target: LoginTarget): Session | undefined {
	const origin = serviceOrigin(target.serviceUrl);
	const candidates = services.store.list().filter((s) => s.tokens && s.state !== 'needsLogin' && serviceOrigin(s.account.serviceUrl) === origin);
	const same = target.login === undefined ? undefined : accountIdFor(kind, target.serviceUrl, target.instanceId, target.login);
	return candidates.find((s) => s.account.id === same) ?? candidates.find((s) => s.account.kind === kind) ?? candidates[0];
}

/** While the service blocks logins (its 429): says until when, with Refresh where an account of the service can be refreshed. */
function tellBlocked(services: Services, kind: AccountKind, target: LoginTarget, until: number): void {
	const host = hostOf(target.serviceUrl);
	const refreshable = refreshableAccount(services, kind, target);
	services.log.warn(`Login to ${host} not sent: the service blocks logins until ${isoTime(until)}.`);
	const refresh = refreshable && vscode.l10n.t('Refresh {0} Instead', displayText(refreshable.account.label));
	const text = blockedText(host, until, services.clock.now(), vscode.l10n.t);
	void notify('warning', text, ...(refresh ? [refresh] : [])).then((chosen) => {
		if (chosen !== undefined && chosen === refresh && refreshable) void refreshAccount(services, refreshable);
	});
}

/** The budget let the Login go (counted: `written` settles once stored), or not (`refreshed`: the refresh chosen instead). */
type BudgetPass = { go: true; written: PromiseLike<void> } | { go: false; refreshed?: Session };

/**
 * The login budget's word, right before the Login is sent: go (counted in the same step); blocked until
 * the service's 429 ends (said, with Refresh where an account can be); or ask, when it would be the fifth
 * within the hour. A refresh the person chooses instead is done here. After "Log In Anyway" the budget
 * decides once more, with the count agreed to: another window may have logged in, or met the 429, while
 * the question was open.
 */
async function passBudget(services: Services, kind: AccountKind, answers: LoginAnswers): Promise<BudgetPass> {
	const host = hostOf(answers.serviceUrl);
	let agreed: number | undefined;
	for (;;) {
		const { decision, written } = services.loginBudget.claim(answers.serviceUrl, agreed);
		if (decision.kind === 'go') return { go: true, written };
		if (decision.kind === 'blocked') {
			tellBlocked(services, kind, answers, decision.until);
			return { go: false };
		}
		if (agreed !== undefined) {
			services.log.warn(`Login to ${host} not sent: ${decision.count} logins within the hour now, more than when the person was asked.`);
			void notify('warning', moreLoginsText(decision.count, vscode.l10n.t));
			return { go: false };
		}
		const refreshable = refreshableAccount(services, kind, answers);
		const answer = await services.prompts.current.askLoginBudget({ count: decision.count, sinceMs: decision.sinceMs, refreshable: refreshable?.account.label });
		if (answer === 'refresh' && refreshable) {
			services.log.info(`${decision.count} logins to ${host} within the hour: refreshing ${refreshable.account.label} instead.`);
			return { go: false, refreshed: await refreshAccount(services, refreshable) };
		}
		if (answer !== 'login') {
			services.log.info(`${decision.count} logins to ${host} within the hour: login not sent.`);
			return { go: false };
		}
		agreed = decision.count;
	}
}

/**
 * Calls Login with `answers` and stores the session (after the login questions, or the demo's).
 * On failure the person is told, with `tryAgain` behind "Try Again"; nothing stored changes.
 */
export async function logIn(services: Services, kind: AccountKind, answers: LoginAnswers, tryAgain: () => unknown): Promise<Session | undefined> {
	const { serviceUrl, instanceId, login, password } = answers;
	const host = hostOf(serviceUrl);
	const budget = await passBudget(services, kind, answers);
	if (!budget.go) return budget.refreshed;
	const masking = services.log.addSecrets([password, kind === 'user' ? login : undefined]);
	try {
		services.log.info(`Logging in as ${kind} to ${host}…`);
		await Promise.resolve(budget.written).catch((e: unknown) => services.log.warn(`Could not count the login to ${host}: ${caughtText(e)}`));
		const response = await withNotificationProgress(
			vscode.l10n.t('Logging in to {0}…', host),
			(token) => {
				const controller = new AbortController();
				const cancel = token.onCancellationRequested(() => controller.abort());
				return services.api
					.login(
						{ kind, baseUrl: serviceUrl, ...(instanceId ? { instanceId } : {}), login, password, loginFieldsFormat: services.config.loginFieldsFormat() },
						{ signal: controller.signal },
					)
					.finally(() => cancel.dispose());
			},
			true,
		);
		const { tokens, expiryNote } = tokensFromLogin(kind, login, response, services.clock.now());
		if (expiryNote) services.log.warn(`The new token: ${expiryNote}.`);
		const label = accountLabel(kind, login, response.accessToken);
		const session = await services.store.saveLogin({ kind, serviceUrl, ...(instanceId ? { instanceId } : {}), login, label }, tokens);
		const left = formatRemaining(tokens.expiresAt - services.clock.now());
		services.log.info(`Logged in as ${kind} ${label} to ${host}; token valid for ${left}.`);
		tellLoggedIn(services, session, vscode.l10n.t('Logged in as {0} (token valid for {1}).', label, left));
		return session;
	} catch (e) {
		if (e instanceof ApiError && e.kind === 'cancelled') {
			services.log.info('Login cancelled; nothing changed.');
			return undefined;
		}
		if (e instanceof ApiError && e.kind === 'rateLimited') {
			const until = await services.loginBudget.recordBlock(serviceUrl, e.retryAfterSeconds).catch((error: unknown) => {
				services.log.warn(`Could not keep the block of ${host}: ${caughtText(error)}`);
				return undefined;
			});
			if (until !== undefined) {
				services.log.warn(`${host} blocks logins until ${isoTime(until)} (HTTP 429).`);
				showError(services, new ApiError(e.kind, rateLimitedText(until, services.clock.now(), vscode.l10n.t), e.status, e.details, e.retryAfterSeconds), {
					prefix: vscode.l10n.t('Could not log in to {0}.', host),
				});
				return undefined;
			}
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
