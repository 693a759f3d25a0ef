// The `telematics` authentication provider as VS Code sees it from activation on. The
// implementation (authProvider.ts) lives in the features bundle and loads on the first
// question VS Code or another extension asks; its change events are passed on from then.
import * as vscode from 'vscode';

export const AUTH_PROVIDER_ID = 'telematics';

/** Registers the provider; `load` gives the real one (the same object every time). */
export function registerLazyAuthenticationProvider(load: () => Promise<vscode.AuthenticationProvider>): vscode.Disposable {
	const changes = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
	let relay: vscode.Disposable | undefined;
	const real = async (): Promise<vscode.AuthenticationProvider> => {
		const provider = await load();
		relay ??= provider.onDidChangeSessions((e) => changes.fire(e));
		return provider;
	};
	const provider: vscode.AuthenticationProvider = {
		onDidChangeSessions: changes.event,
		getSessions: async (scopes, options) => (await real()).getSessions(scopes, options),
		createSession: async (scopes, options) => (await real()).createSession(scopes, options),
		removeSession: async (sessionId) => (await real()).removeSession(sessionId),
	};
	const registration = vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, vscode.l10n.t('Telematics'), provider, { supportsMultipleAccounts: true });
	return vscode.Disposable.from(registration, changes, { dispose: () => relay?.dispose() });
}
