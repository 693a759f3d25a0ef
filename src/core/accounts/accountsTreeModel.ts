// The Accounts view as plain data: one node per account and the rows beneath it.
// Pure: no `vscode` import. Never carries a token; the device token only masked.
import { redact, maskSecret } from '../util/redact';
import type { RefreshStatus } from '../sessions/types';
import { untranslated } from '../util/translate';

import { effectiveState } from '../statusBar/statusModel';
import { decodeClaims } from '../sessions/token';
import type { Session } from '../sessions/types';
import { isProduction } from '../sessions/production';
import { describeExpiry, type ExpiryTextOptions, formatClockTime, formatRemaining } from '../util/time';

export { describeExpiry };

export type ModelOptions = ExpiryTextOptions;

export interface AccountNodeModel {
	accountId: string;
	label: string;
	kind: Session['account']['kind'];
	active: boolean;
	state: Session['state'];
	/** A production account (production.ts). */
	production: boolean;
	/** Codicon id. */
	icon: 'person' | 'shield' | 'warning' | 'flame';
	/** Theme color id for the icon, if not the default. */
	iconColor?: 'list.warningForeground' | 'list.errorForeground';
	/** `active · 1h 59m`, `1h 59m`, `expired`, `log in again`. */
	description: string;
	/** `account.<kind>[.active][.expired|.needsLogin][.production]`, matched by package.json menus. */
	contextValue: string;
}

export type RowKey = 'service' | 'instanceId' | 'deviceToken' | 'expiry' | 'refreshToken' | 'lastRefresh' | 'lastError' | 'claims' | 'claim';

export interface RowModel {
	key: RowKey;
	/** Codicon id. */
	icon: string;
	label: string;
	description?: string;
	tooltip?: string;
	/** Present (possibly empty) only for collapsible rows. */
	children?: RowModel[];
}

/** Claims shown as clock times. */
const TIME_CLAIMS = new Set(['iat', 'exp', 'nbf', 'auth_time']);

/** Longest claim value shown before it is cut with an ellipsis. */
export const MAX_CLAIM_LENGTH = 64;

export function truncate(text: string, max = MAX_CLAIM_LENGTH): string {
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function accountContextValue(session: Session, activeId: string | undefined, now: number): string {
	const state = effectiveState(session, now);
	let value = `account.${session.account.kind}`;
	if (session.account.id === activeId) value += '.active';
	if (state !== 'valid') value += `.${state}`;
	if (isProduction(session.account)) value += '.production';
	return value;
}

export function accountNode(session: Session, now: number, activeId: string | undefined, options: ModelOptions = {}): AccountNodeModel {
	const t = options.t ?? untranslated;
	const state = effectiveState(session, now);
	const active = session.account.id === activeId;
	const production = isProduction(session.account);
	const status = state === 'needsLogin'
		? t('log in again')
		: state === 'expired' ? t('expired') : formatRemaining(session.tokens!.expiresAt - now);
	const node: AccountNodeModel = {
		accountId: session.account.id,
		label: session.account.label,
		kind: session.account.kind,
		active,
		production,
		state,
		icon: state !== 'valid' ? 'warning' : production ? 'flame' : session.account.kind === 'admin' ? 'shield' : 'person',
		// The short name first (`user`, `admin-2`): what files, terminals and the agent call the account.
		description: [session.account.name, production ? t('PRODUCTION') : undefined, active ? t('active') : undefined, status].filter(Boolean).join(' · '),
		contextValue: accountContextValue(session, activeId, now),
	};
	if (state !== 'valid') node.iconColor = state === 'needsLogin' ? 'list.errorForeground' : 'list.warningForeground';
	return node;
}

function claimValue(key: string, value: unknown, formatTime: (ms: number) => string): string {
	if (TIME_CLAIMS.has(key) && typeof value === 'number' && Number.isFinite(value)) return formatTime(value * 1000);
	if (typeof value === 'string') return value;
	return JSON.stringify(value) ?? String(value);
}

/**
 * The decoded claims of a JWT as `key: value` rows. Values that equal a known secret are
 * masked, JWT-looking values too, and long values are cut. Never the token itself.
 */
export function claimRows(accessToken: string, knownSecrets: readonly string[] = [], options: ModelOptions = {}): RowModel[] {
	const claims = decodeClaims(accessToken);
	if (!claims) return [];
	const formatTime = options.formatTime ?? ((ms: number) => formatClockTime(ms, Date.now()));
	return Object.entries(claims).map(([key, value]) => {
		const full = redact(claimValue(key, value, formatTime), [accessToken, ...knownSecrets]);
		const shown = truncate(full);
		const row: RowModel = { key: 'claim', icon: 'symbol-field', label: `${key}: ${shown}` };
		if (shown !== full) row.tooltip = truncate(full, 1024);
		return row;
	});
}

/** The rows under an account node, in display order. */
export function accountRows(session: Session, now: number, status: RefreshStatus | undefined = undefined, options: ModelOptions = {}): RowModel[] {
	const t = options.t ?? untranslated;
	const formatTime = options.formatTime ?? ((ms: number) => formatClockTime(ms, now));
	const { account, tokens } = session;
	const rows: RowModel[] = [{ key: 'service', icon: 'globe', label: t('Service'), description: account.serviceUrl }];
	if (account.instanceId) rows.push({ key: 'instanceId', icon: 'symbol-key', label: t('Instance ID'), description: account.instanceId });
	if (account.kind === 'user') {
		rows.push({
			key: 'deviceToken',
			icon: 'device-mobile',
			label: t('Device token'),
			description: tokens?.deviceToken ? maskSecret(tokens.deviceToken) : t('missing'),
		});
	}
	rows.push(
		{
			key: 'expiry',
			icon: 'clock',
			label: t('Access token expiry'),
			description: tokens ? describeExpiry(tokens.expiresAt, now, { t, formatTime }) : t('no token'),
		},
		{
			key: 'refreshToken',
			icon: tokens?.refreshToken ? 'pass' : 'circle-slash',
			label: t('Refresh token'),
			description: tokens?.refreshToken ? t('present') : t('missing'),
		},
		{
			key: 'lastRefresh',
			icon: 'history',
			label: t('Last refresh'),
			description: tokens?.lastRefreshAt !== undefined ? formatTime(tokens.lastRefreshAt) : t('never'),
		},
	);
	if (status?.lastError) {
		rows.push({
			key: 'lastError',
			icon: 'error',
			label: t('Last refresh failed'),
			description: truncate(status.lastError.message, 120),
			tooltip: t('{0} at {1}', status.lastError.message, formatTime(status.lastError.at)),
		});
	}
	if (tokens?.accessToken) {
		const secrets = [tokens.refreshToken, tokens.deviceToken ?? ''].filter((s) => s.length > 0);
		rows.push({ key: 'claims', icon: 'json', label: t('Token claims'), children: claimRows(tokens.accessToken, secrets, { t, formatTime }) });
	}
	return rows;
}
