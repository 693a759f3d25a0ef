// Logging in by hand: the four fields through the Prompter, then shared/logIn.ts. A failed or
// cancelled login changes nothing stored. Never runs by itself.
import vscode = require('vscode');
import type { AccountKind } from '../../core/api/types';
import type { Services } from '../../services';
import { checkDeviceToken, checkEmail, checkInstanceId, checkOptionalInstanceId, checkPassword, checkServiceUrl } from '../../core/models/loginInput';
import type { Session } from '../../core/sessions/types';
import { withoutTrailingSlashes } from '../../core/util/url';
import { logIn, tellIfBlocked, type LoginAnswers } from '../shared/logIn';
import { runSteps, type LoginStep } from '../../core/models/prompter';

/** What a login again starts with. The password is never prefilled. */
export interface LoginPrefill {
	serviceUrl?: string;
	instanceId?: string;
	login?: string;
}

/** The fields to start a new login of this account with. */
export function prefillFor(session: Session): LoginPrefill {
	const { account, tokens } = session;
	return {
		serviceUrl: account.serviceUrl,
		instanceId: account.instanceId,
		login: account.kind === 'admin' ? account.label : tokens?.deviceToken,
	};
}

function loginSteps(services: Services, kind: AccountKind, prefill: LoginPrefill): Omit<LoginStep, 'step' | 'totalSteps'>[] {
	const t = vscode.l10n.t;
	const user = kind === 'user';
	const title = user ? vscode.l10n.t('Log In as User') : vscode.l10n.t('Log In as Admin');
	const baseUrl = withoutTrailingSlashes(services.config.baseUrl());
	const known = services.store.list().map((s) => s.account.serviceUrl);
	return [
		{
			field: 'serviceUrl',
			title,
			prompt: vscode.l10n.t('Service URL'),
			placeholder: vscode.l10n.t('Press Enter for the service URL, or type another one (https://…)'),
			value: prefill.serviceUrl ?? baseUrl,
			suggestions: [...new Set([baseUrl, ...known])],
			password: false,
			check: (value) => checkServiceUrl(value, t),
		},
		{
			field: 'instanceId',
			title,
			prompt: user ? vscode.l10n.t('User Group InstanceID') : vscode.l10n.t('API InstanceID (leave empty if your credentials have none)'),
			placeholder: user ? vscode.l10n.t('The InstanceID of your user group') : vscode.l10n.t('The API InstanceID from the management page, or empty'),
			value: prefill.instanceId,
			password: false,
			check: (value) => (user ? checkInstanceId(value, t) : checkOptionalInstanceId(value, t)),
		},
		{
			field: 'login',
			title,
			prompt: user ? vscode.l10n.t('Device token') : vscode.l10n.t('API login (email)'),
			placeholder: user ? vscode.l10n.t('The device token of the user') : vscode.l10n.t('The API login, an email address'),
			value: prefill.login,
			password: false,
			check: (value) => (user ? checkDeviceToken(value, t) : checkEmail(value, t)),
		},
		{
			field: 'password',
			title,
			prompt: user ? vscode.l10n.t('InstanceKey') : vscode.l10n.t('API password'),
			placeholder: user ? vscode.l10n.t('The User Group InstanceKey') : vscode.l10n.t('The API password'),
			password: true,
			check: (value) => checkPassword(value, user ? 'InstanceKey' : 'API password', t),
		},
	];
}

/** Asks the four fields; undefined when the person cancelled. An admin's empty InstanceID is left out. */
export async function askLogin(services: Services, kind: AccountKind, prefill: LoginPrefill = {}): Promise<LoginAnswers | undefined> {
	const values = await runSteps(services.prompts.current, loginSteps(services, kind, prefill));
	if (!values?.serviceUrl || values.instanceId === undefined || !values.login || values.password === undefined) return undefined;
	if (kind === 'user' && !values.instanceId) return undefined;
	return { serviceUrl: values.serviceUrl, ...(values.instanceId ? { instanceId: values.instanceId } : {}), login: values.login, password: values.password };
}

/**
 * The whole login: ask, call Login, store. Returns the stored session, or undefined when
 * cancelled or failed (the failure was shown; nothing stored changed).
 */
export async function runLoginFlow(services: Services, kind: AccountKind, prefill: LoginPrefill = {}): Promise<Session | undefined> {
	// Log In Again knows the service: while it blocks logins, say so before asking for anything.
	if (prefill.serviceUrl && tellIfBlocked(services, kind, { ...prefill, serviceUrl: prefill.serviceUrl })) return undefined;
	const answers = await askLogin(services, kind, prefill);
	if (!answers) {
		services.log.info(`Login as ${kind} cancelled; nothing changed.`);
		return undefined;
	}
	return logIn(services, kind, answers, () => runLoginFlow(services, kind, { serviceUrl: answers.serviceUrl, instanceId: answers.instanceId, login: answers.login }));
}
