// The login's questions: the step table (a user's and an admin's four fields, their words and
// checks) and the walker that asks them one by one (Back, validation, the admin's optional
// InstanceID). Pure: the screen is whatever `StepAsker` the caller hands in.
import type { AccountKind } from '../api/types';
import { untranslated, type Translate } from '../util/translate';
import { withoutTrailingSlashes } from '../util/url';
import { checkDeviceToken, checkEmail, checkInstanceId, checkOptionalInstanceId, checkPassword, checkServiceUrl } from './checks';
import type { Checked } from '../util/checked';

export type LoginField = 'serviceUrl' | 'instanceId' | 'login' | 'password';

/** One step of the login input. */
export interface LoginStep {
	field: LoginField;
	/** 1-based, shown as `step/totalSteps`. */
	step: number;
	totalSteps: number;
	title: string;
	prompt: string;
	placeholder?: string;
	/** Prefilled value (never for the password). */
	value?: string;
	password: boolean;
	/** Choices to pick from (the service URL step); typing a new value is allowed too. */
	suggestions?: readonly string[];
	/** Set when the previous answer to this step was rejected. */
	validationMessage?: string;
	/** The value as it will be used (trimmed, normalized), or a message saying what to fix. */
	check(value: string): Checked;
}

/** A step as the table writes it; the walker numbers it and fills in what was typed. */
export type StepTemplate = Omit<LoginStep, 'step' | 'totalSteps'>;

/**
 * A value; `back` or `{ back: true, value }` (the Back button, with what was typed so far,
 * kept for when the person comes forward again); or `undefined` (Escape: cancel).
 */
export type StepAnswer = { value: string; back?: boolean } | 'back' | undefined;

/** Whoever shows a step and brings back the answer (the screen, or a test's script). */
export interface StepAsker {
	ask(step: LoginStep): Promise<StepAnswer>;
}

/** What a login sends. */
export interface LoginAnswers {
	serviceUrl: string;
	/** Absent for an admin without an API InstanceID. */
	instanceId?: string;
	login: string;
	password: string;
}

/** What a login again starts with. The password is never prefilled. */
export interface LoginPrefill {
	serviceUrl?: string;
	instanceId?: string;
	login?: string;
}

/** What the first step offers: the configured service URL and those of the stored accounts. */
export interface ServiceChoices {
	/** `telematicsAuth.baseUrl`: the first step's value unless prefilled. */
	baseUrl: string;
	known: readonly string[];
}

/** The four steps of a user's or an admin's login, in the order they are asked. */
export function loginSteps(kind: AccountKind, prefill: LoginPrefill, services: ServiceChoices, t: Translate = untranslated): StepTemplate[] {
	const user = kind === 'user';
	const title = user ? t('Log In as User') : t('Log In as Admin');
	const baseUrl = withoutTrailingSlashes(services.baseUrl);
	return [
		{
			field: 'serviceUrl',
			title,
			prompt: t('Service URL'),
			placeholder: t('Press Enter for the service URL, or type another one (https://…)'),
			value: prefill.serviceUrl ?? baseUrl,
			suggestions: [...new Set([baseUrl, ...services.known])],
			password: false,
			check: (value) => checkServiceUrl(value, t),
		},
		{
			field: 'instanceId',
			title,
			prompt: user ? t('User Group InstanceID') : t('API InstanceID (leave empty if your credentials have none)'),
			placeholder: user ? t('The InstanceID of your user group') : t('The API InstanceID from the management page, or empty'),
			value: prefill.instanceId,
			password: false,
			check: (value) => (user ? checkInstanceId(value, t) : checkOptionalInstanceId(value, t)),
		},
		{
			field: 'login',
			title,
			prompt: user ? t('Device token') : t('API login (email)'),
			placeholder: user ? t('The device token of the user') : t('The API login, an email address'),
			value: prefill.login,
			password: false,
			check: (value) => (user ? checkDeviceToken(value, t) : checkEmail(value, t)),
		},
		{
			field: 'password',
			title,
			prompt: user ? t('InstanceKey') : t('API password'),
			placeholder: user ? t('The User Group InstanceKey') : t('The API password'),
			password: true,
			check: (value) => checkPassword(value, user ? 'InstanceKey' : 'API password', t),
		},
	];
}

/**
 * Walks the steps: Back goes one step back (keeping what was typed there), Escape cancels,
 * an answer that fails its check asks the same step again with the message. Returns the
 * checked values by field, or undefined when cancelled.
 */
export async function runSteps(asker: StepAsker, steps: readonly StepTemplate[]): Promise<Partial<Record<LoginField, string>> | undefined> {
	const values: Partial<Record<LoginField, string>> = {};
	const typed: Partial<Record<LoginField, string>> = {};
	let index = 0;
	let rejection: string | undefined;
	while (index < steps.length) {
		const base = steps[index];
		if (!base) break;
		const answer = await asker.ask({
			...base,
			step: index + 1,
			totalSteps: steps.length,
			value: base.password ? undefined : (typed[base.field] ?? base.value),
			validationMessage: rejection,
		});
		rejection = undefined;
		if (answer === undefined) return undefined;
		if (answer === 'back' || answer.back) {
			if (answer !== 'back' && !base.password) typed[base.field] = answer.value;
			index = Math.max(0, index - 1);
			continue;
		}
		const checked = base.check(answer.value);
		if (!checked.ok) {
			if (!base.password) typed[base.field] = answer.value;
			rejection = checked.message;
			continue;
		}
		if (!base.password) typed[base.field] = answer.value;
		values[base.field] = checked.value;
		index++;
	}
	return values;
}

/** Asks a user's or an admin's four fields; undefined when the person cancelled. An admin's empty InstanceID is left out. */
export async function askLogin(asker: StepAsker, kind: AccountKind, prefill: LoginPrefill, services: ServiceChoices, t: Translate = untranslated): Promise<LoginAnswers | undefined> {
	const values = await runSteps(asker, loginSteps(kind, prefill, services, t));
	if (!values?.serviceUrl || values.instanceId === undefined || !values.login || values.password === undefined) return undefined;
	if (kind === 'user' && !values.instanceId) return undefined;
	return { serviceUrl: values.serviceUrl, ...(values.instanceId ? { instanceId: values.instanceId } : {}), login: values.login, password: values.password };
}
