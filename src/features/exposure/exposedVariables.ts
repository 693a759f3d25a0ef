// The variables the process environment holds a token in now, and whose each one is
// (core/exposure/exposedTokens.ts), from the store and the settings.
import type { ExposedVariable } from '../../core/restFile/tokenReach';
import { exposedVariables as variablesFor } from '../../core/exposure/exposedTokens';
import type { Services } from '../../services';

export function exposedVariables(services: Services): ExposedVariable[] {
	const { store, config } = services;
	return variablesFor(config.exposeToken() !== 'off', store.active(), store.list(), config.environmentAccounts());
}
