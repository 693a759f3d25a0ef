// Token exposure (telematicsAuth.exposeToken) as plain data: which sessions' tokens may be exposed, under
// which variable, and which account's token each bound client environment gets. The VS Code layer
// (features/exposure/) writes these into the process environment and the env files. Pure: no `vscode`.
import type { BoundValues, Exposed } from '../restFile/envFiles';
import { TOKEN_KEY } from '../restFile/envFiles';
import type { ExposedVariable } from '../restFile/tokenReach';
import { tokenVariableFor } from '../sessions/accountNames';
import type { Session } from '../sessions/types';
import { isSafeToken } from '../util/tokenGrammar';
import { withoutTrailingSlashes } from '../util/url';

/** A session's access token when it may be exposed: held, not waiting for a login, in the token grammar. */
export function exposableToken(session: Session): string | undefined {
	const token = session.tokens?.accessToken;
	return token !== undefined && session.state !== 'needsLogin' && isSafeToken(token) ? token : undefined;
}

/** Every named account's live token by its variable (`TELEMATICS_TOKEN_ADMIN`); none while exposure is off. */
export function accountVariables(exposing: boolean, sessions: readonly Session[]): Map<string, string> {
	const variables = new Map<string, string>();
	if (!exposing) return variables;
	for (const session of sessions) {
		const token = exposableToken(session);
		if (session.account.name && token !== undefined) variables.set(tokenVariableFor(session.account.name), token);
	}
	return variables;
}

/**
 * Each bound client environment's account's token and service (`bindings`: environment → account name);
 * null where that account holds no live token, so the environment gets none rather than another account's.
 */
export function boundEnvironments(sessions: readonly Session[], bindings: ReadonlyMap<string, string>): Record<string, BoundValues | null> {
	const byName = new Map(sessions.map((s) => [s.account.name, s]));
	const bound: Record<string, BoundValues | null> = {};
	for (const [environment, name] of bindings) {
		const session = byName.get(name);
		const token = session && exposableToken(session);
		bound[environment] = session && token !== undefined ? { token, baseUrl: withoutTrailingSlashes(session.account.serviceUrl) } : null;
	}
	return bound;
}

/** What to expose now: the active account's token and service, every named account's, the bound environments'; or nothing. */
export function exposedTokens(exposing: boolean, active: Session | undefined, sessions: readonly Session[], bindings: ReadonlyMap<string, string>): Exposed | undefined {
	const token = !exposing || !active ? undefined : exposableToken(active);
	if (token === undefined || !active) return undefined;
	return {
		token,
		baseUrl: withoutTrailingSlashes(active.account.serviceUrl),
		accounts: Object.fromEntries(accountVariables(exposing, sessions)),
		environments: boundEnvironments(sessions, bindings),
	};
}

/**
 * The variables the process environment holds a token in while exposure is on, and whose each one is, for
 * the warning on a request that sends one to another site: the active account's `TELEMATICS_TOKEN`, each
 * named account's `TELEMATICS_TOKEN_<NAME>`, and `TELEMATICS_TOKEN` again for the account each bound
 * client environment gives it. Every account, held token or not: a warning too many costs a glance, one
 * too few a token.
 */
export function exposedVariables(exposing: boolean, active: Session | undefined, sessions: readonly Session[], bindings: ReadonlyMap<string, string>): ExposedVariable[] {
	if (!exposing) return [];
	const exposed: ExposedVariable[] = active ? [{ name: TOKEN_KEY, accountId: active.account.id }] : [];
	for (const session of sessions) {
		if (session.account.name) exposed.push({ name: tokenVariableFor(session.account.name), accountId: session.account.id });
	}
	const byName = new Map(sessions.map((s) => [s.account.name, s.account.id]));
	for (const name of new Set(bindings.values())) {
		const accountId = byName.get(name);
		if (accountId !== undefined && accountId !== active?.account.id) exposed.push({ name: TOKEN_KEY, accountId });
	}
	return exposed;
}
