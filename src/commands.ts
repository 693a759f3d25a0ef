// Every command id, from one table that matches package.json's `contributes.commands` (a unit
// test holds them together), and what the commands hand back. Pure: no `vscode`.
import type { Session, SessionState } from './core/sessions/types';

export const Command = {
	login: 'telematicsAuth.login',
	loginUser: 'telematicsAuth.loginUser',
	loginAdmin: 'telematicsAuth.loginAdmin',
	loginAgain: 'telematicsAuth.loginAgain',
	logout: 'telematicsAuth.logout',
	switchAccount: 'telematicsAuth.switchAccount',
	makeActive: 'telematicsAuth.makeActive',
	refresh: 'telematicsAuth.refresh',
	refreshAll: 'telematicsAuth.refreshAll',
	copyAccessToken: 'telematicsAuth.copyAccessToken',
	copyAuthorizationHeader: 'telematicsAuth.copyAuthorizationHeader',
	copyAsCurl: 'telematicsAuth.copyAsCurl',
	insertAuthorizationHeader: 'telematicsAuth.insertAuthorizationHeader',
	updateTokensInFile: 'telematicsAuth.updateTokensInFile',
	openApiExplorer: 'telematicsAuth.openApiExplorer',
	showActions: 'telematicsAuth.showActions',
	showLog: 'telematicsAuth.showLog',
	chooseTokenExposure: 'telematicsAuth.chooseTokenExposure',
	tryDemo: 'telematicsAuth.tryDemo',
	openSample: 'telematicsAuth.openSample',
} as const;

export type CommandId = (typeof Command)[keyof typeof Command];

/**
 * What a command hands back about an account: its id, state and expiry, never a token. Any extension
 * can run our commands; the authentication provider, behind VS Code's consent prompt, is the road to a token.
 */
export interface AccountResult {
	readonly accountId: string;
	readonly state: SessionState;
	readonly expiresAt?: number;
}

export function accountResult(session: Session | undefined): AccountResult | undefined {
	if (!session) return undefined;
	return { accountId: session.account.id, state: session.state, ...(session.tokens ? { expiresAt: session.tokens.expiresAt } : {}) };
}
