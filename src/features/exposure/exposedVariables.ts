// The variables the process environment holds a token in while telematicsAuth.exposeToken is on, and whose each
// one is, for the warning on a request that sends one to another site: the active account's
// `TELEMATICS_TOKEN`, each named account's `TELEMATICS_TOKEN_<NAME>`, and `TELEMATICS_TOKEN` again for the
// account each bound environment gives it (telematicsAuth.environmentAccounts).
import type { ExposedVariable } from '../../core/restFile/tokenReach';
import { TOKEN_KEY } from '../../core/restFile/envFiles';
import { tokenVariableFor } from '../../core/sessions/accountNames';
import type { Services } from '../../services';

export function exposedVariables(services: Services): ExposedVariable[] {
	if (services.config.exposeToken() === 'off') return [];
	// Every account, held token or not: a warning too many costs a glance, one too few a token.
	const sessions = services.store.list();
	const active = services.store.active();
	const exposed: ExposedVariable[] = active ? [{ name: TOKEN_KEY, accountId: active.account.id }] : [];
	for (const session of sessions) {
		if (session.account.name) exposed.push({ name: tokenVariableFor(session.account.name), accountId: session.account.id });
	}
	const byName = new Map(sessions.map((s) => [s.account.name, s.account.id]));
	for (const name of new Set(services.config.environmentAccounts().values())) {
		const accountId = byName.get(name);
		if (accountId !== undefined && accountId !== active?.account.id) exposed.push({ name: TOKEN_KEY, accountId });
	}
	return exposed;
}
