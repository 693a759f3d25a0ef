// Our sessions as VS Code authentication sessions, as plain data: which accounts a caller of
// `vscode.authentication.getSession('telematics', scopes)` may get, and what changed between two lists.
import type { AccountKind } from '../api/types';
import type { Session } from './types';
import { hostOf } from '../util/url';

/** What VS Code's AuthenticationSession needs, as plain data. */
export interface AuthSessionData {
	/** The account id: one session per account, so a refresh is a change, not a new session. */
	id: string;
	accessToken: string;
	account: { id: string; label: string };
	scopes: readonly string[];
}

export interface ScopeFilter {
	kind?: AccountKind;
	accountId?: string;
}

export type ParsedScopes = { ok: true; filter: ScopeFilter } | { ok: false; message: string };

export interface AuthSessionsDiff {
	added: AuthSessionData[];
	removed: AuthSessionData[];
	changed: AuthSessionData[];
}

const ACCOUNT_SCOPE = 'account:';

/**
 * Reads the scopes a caller asked for (kept small on purpose): `[]` every account with a usable
 * token; `['user']`/`['admin']` accounts of that kind; `['account:<id>']` that account (the stable
 * AccountRecord.id). A kind and an account scope must both hold. Anything else is refused with a
 * reason, so a caller asking for something we do not offer gets nothing, not a token that means something else.
 */
export function parseScopes(scopes: readonly string[] | undefined): ParsedScopes {
	const filter: ScopeFilter = {};
	for (const raw of scopes ?? []) {
		const scope = raw.trim();
		if (scope === 'user' || scope === 'admin') {
			if (filter.kind && filter.kind !== scope) return { ok: false, message: 'Scopes "user" and "admin" cannot be combined.' };
			filter.kind = scope;
		} else if (scope.startsWith(ACCOUNT_SCOPE) && scope.length > ACCOUNT_SCOPE.length) {
			const id = scope.slice(ACCOUNT_SCOPE.length);
			if (filter.accountId && filter.accountId !== id) return { ok: false, message: 'Only one "account:<id>" scope may be given.' };
			filter.accountId = id;
		} else {
			return { ok: false, message: `Unknown scope "${scope}". Use "user", "admin" or "account:<id>".` };
		}
	}
	return { ok: true, filter };
}

export function matchesFilter(session: Session, filter: ScopeFilter): boolean {
	if (filter.kind && session.account.kind !== filter.kind) return false;
	if (filter.accountId && session.account.id !== filter.accountId) return false;
	return true;
}

/**
 * The label VS Code shows in the Accounts menu and keys its access grants by (and keeps them under
 * after a logout): our label, the service host and the start of the account's stable id, so two
 * accounts never share a label (a user whose name is an admin's login, two drivers with the same
 * last characters, one login on two services) and consent never carries over between them, while
 * the same credentials logging in again get their own grants back.
 */
export function accountLabelFor(session: Session): string {
	return `${session.account.label} (${hostOf(session.account.serviceUrl, session.account.serviceUrl)} · ${session.account.id.slice(0, 8)})`;
}

/** Whether an account can be offered at all: it has tokens and a refresh may still work. */
export function isOfferable(session: Session): boolean {
	return session.tokens !== undefined && session.state !== 'needsLogin';
}

/** One account as an authentication session, or undefined when it has no usable tokens. */
export function toAuthSession(session: Session): AuthSessionData | undefined {
	if (!isOfferable(session) || !session.tokens) return undefined;
	return {
		id: session.account.id,
		accessToken: session.tokens.accessToken,
		account: { id: session.account.id, label: accountLabelFor(session) },
		scopes: [session.account.kind],
	};
}

/** Every offerable account, in store order. */
export function toAuthSessions(sessions: readonly Session[], filter: ScopeFilter = {}): AuthSessionData[] {
	const result: AuthSessionData[] = [];
	for (const session of sessions) {
		if (!matchesFilter(session, filter)) continue;
		const data = toAuthSession(session);
		if (data) result.push(data);
	}
	return result;
}

function sameSession(a: AuthSessionData, b: AuthSessionData): boolean {
	return a.accessToken === b.accessToken
		&& a.account.id === b.account.id
		&& a.account.label === b.account.label
		&& a.scopes.length === b.scopes.length
		&& a.scopes.every((scope, i) => scope === b.scopes[i]);
}

/** What changed from `before` to `after`, by session id. A new token for the same account is `changed`. */
export function diffAuthSessions(before: readonly AuthSessionData[], after: readonly AuthSessionData[]): AuthSessionsDiff {
	const beforeById = new Map(before.map((s) => [s.id, s]));
	const afterIds = new Set(after.map((s) => s.id));
	const diff: AuthSessionsDiff = { added: [], removed: [], changed: [] };
	for (const next of after) {
		const previous = beforeById.get(next.id);
		if (!previous) diff.added.push(next);
		else if (!sameSession(previous, next)) diff.changed.push(next);
	}
	for (const previous of before) {
		if (!afterIds.has(previous.id)) diff.removed.push(previous);
	}
	return diff;
}

export function isEmptyDiff(diff: AuthSessionsDiff): boolean {
	return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}
