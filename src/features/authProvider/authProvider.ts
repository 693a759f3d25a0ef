// Our accounts as the `telematics` authentication provider: any extension may ask VS Code for a bearer
// token behind its consent prompt; the access token is the only secret handed out (scopes: authSessions.ts).
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import {
	diffAuthSessions,
	isEmptyDiff,
	isOfferable,
	matchesFilter,
	parseScopes,
	toAuthSession,
	toAuthSessions,
	type AuthSessionData,
} from '../../core/sessions/authSessions';
import type { Session } from '../../core/sessions/types';
import { logInAgain, logInAnyKind, logInAs } from '../login/logIn';

export const AUTH_PROVIDER_ID = 'telematics';

function copy(data: AuthSessionData): vscode.AuthenticationSession {
	return { id: data.id, accessToken: data.accessToken, account: { ...data.account }, scopes: [...data.scopes] };
}

export class TelematicsAuthProvider implements vscode.AuthenticationProvider, vscode.Disposable {
	private readonly changeEmitter = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
	readonly onDidChangeSessions = this.changeEmitter.event;
	private readonly subscriptions: vscode.Disposable[] = [];
	/** What we last told VS Code about; store changes are compared to it. */
	private known: AuthSessionData[];

	constructor(private readonly services: Services) {
		this.known = toAuthSessions(services.store.list());
		this.subscriptions.push(services.store.onDidChange(() => this.storeChanged()));
	}

	async getSessions(scopes: readonly string[] | undefined, options?: vscode.AuthenticationProviderSessionOptions): Promise<vscode.AuthenticationSession[]> {
		await this.services.store.ready;
		const parsed = parseScopes(scopes);
		if (!parsed.ok) {
			this.services.log.debug(`Authentication API: no sessions for the requested scopes (${parsed.message})`);
			return [];
		}
		const wanted = this.services.store.list().filter((s) =>
			isOfferable(s) && matchesFilter(s, parsed.filter) && (!options?.account || options.account.id === s.account.id));
		const usable = await Promise.all(wanted.map((s) => this.usable(s)));
		const result: vscode.AuthenticationSession[] = [];
		for (const session of usable) {
			const data = session && toAuthSession(session);
			if (data) result.push(copy(data));
		}
		return result;
	}

	async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
		const parsed = parseScopes(scopes);
		if (!parsed.ok) throw new Error(vscode.l10n.t('Telematics cannot sign in for these scopes: {0}', parsed.message));
		await this.services.store.ready;
		const { kind, accountId } = parsed.filter;
		if (accountId) {
			const existing = this.services.store.get(accountId);
			if (!existing || (kind && existing.account.kind !== kind)) {
				throw new Error(vscode.l10n.t('There is no matching Telematics account with id {0}.', accountId));
			}
		}
		// What the login commands run (features/login/logIn.ts), called directly.
		const loggedIn = accountId ? await logInAgain(this.services, { accountId })
			: kind ? await logInAs(this.services, kind)
				: await logInAnyKind(this.services);
		const current = this.signedIn(loggedIn);
		const data = current && matchesFilter(current, parsed.filter) ? toAuthSession(current) : undefined;
		if (!data) throw new Error(vscode.l10n.t('Sign-in to Telematics was cancelled or did not succeed.'));
		this.services.log.info(`Authentication API: signed in as ${current!.account.label} for another extension.`);
		// The store's change event has usually told VS Code already; make sure it knows now.
		this.storeChanged();
		return copy(data);
	}

	async removeSession(sessionId: string): Promise<void> {
		await this.services.store.ready;
		const session = this.services.store.get(sessionId);
		if (!session) return;
		await this.services.store.remove(sessionId);
		this.services.log.info(`Signed out of ${session.account.label} from the Accounts menu.`);
	}

	dispose(): void {
		for (const s of this.subscriptions) s.dispose();
		this.changeEmitter.dispose();
	}

	/**
	 * The session with a current token: refreshed first when expired, but only as an automatic
	 * refresh would be (VS Code asks before its consent check, as often as any extension likes).
	 */
	private async usable(session: Session): Promise<Session | undefined> {
		if (session.state === 'valid') return session;
		if (session.state !== 'expired') return undefined;
		const refreshed = await this.services.scheduler.refreshIfAllowed(session.account.id);
		if (refreshed?.state === 'valid') return refreshed;
		this.services.log.debug(`Authentication API: the expired token of ${session.account.label} is not handed out (no refresh allowed now, or it failed).`);
		return undefined;
	}

	/** The session as stored now (a listener of the store may have changed it since the login). */
	private signedIn(session: Session | undefined): Session | undefined {
		return session && this.services.store.get(session.account.id);
	}

	private storeChanged(): void {
		const next = toAuthSessions(this.services.store.list());
		const diff = diffAuthSessions(this.known, next);
		this.known = next;
		if (isEmptyDiff(diff)) return;
		this.changeEmitter.fire({ added: diff.added.map(copy), removed: diff.removed.map(copy), changed: diff.changed.map(copy) });
	}
}

/** Registers the `telematics` provider with VS Code. */
export function registerAuthenticationProvider(services: Services): vscode.Disposable {
	const provider = new TelematicsAuthProvider(services);
	const registration = vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, vscode.l10n.t('Telematics'), provider, { supportsMultipleAccounts: true });
	return vscode.Disposable.from(registration, provider);
}
