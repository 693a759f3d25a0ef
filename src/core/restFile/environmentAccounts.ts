// Environments bound to accounts (telematicsAuth.environmentAccounts, `{ "prod": "admin" }`): in a bound
// environment of `http-client.private.env.json`, `{{TELEMATICS_TOKEN}}` is that account's token, the way
// JetBrains' `$auth.token("id")` names a configuration. The setting is hand-edited JSON: read as data,
// a pair that is not a valid environment and account name is left out. Pure: no `vscode`, no I/O.
import { isAccountName } from '../sessions/accountNames';

/** An environment's name as the JSON env files and REST Client's setting use it: no `$` (`$shared` is every environment's). */
const ENVIRONMENT = /^[A-Za-z0-9_.-]{1,64}$/;

/** Most bindings read: a bound environment is written into every private env file. */
export const MAX_BINDINGS = 32;

/** Whether `name` can be bound (`prod`, `dev-eu`), so it is written as a key of an env file. */
export function isEnvironmentName(name: string): boolean {
	return ENVIRONMENT.test(name);
}

/** The valid pairs of the setting's value, environment → account name, in the order written. */
export function environmentBindings(value: unknown): ReadonlyMap<string, string> {
	const bindings = new Map<string, string>();
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return bindings;
	for (const [environment, account] of Object.entries(value as Record<string, unknown>)) {
		if (bindings.size >= MAX_BINDINGS) break;
		if (isEnvironmentName(environment) && typeof account === 'string' && isAccountName(account)) bindings.set(environment, account);
	}
	return bindings;
}

/** The setting's value with every binding to `from` moved to `to` (a rename), the rest as it was; undefined when none names `from`. */
export function renamedBindings(value: unknown, from: string, to: string): Record<string, unknown> | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const entries = Object.entries(value as Record<string, unknown>);
	if (!entries.some(([, account]) => account === from)) return undefined;
	return Object.fromEntries(entries.map(([environment, account]) => [environment, account === from ? to : account]));
}
