// What the status bar says about the active account, and when it next needs a look.
// Pure: no `vscode` import. The VS Code layer passes `vscode.l10n.t` as `t`.
import type { RefreshStatus } from '../sessions/types';

import type { Session } from '../sessions/types';
import { untranslated, type Translate } from '../util/translate';
import { formatRemaining, spellRemaining } from '../util/time';
import { isProduction } from '../sessions/production';

/** The status bar item's background: its own, the warning colour or the error colour. */
export type StatusBackground = 'none' | 'warning' | 'error';

/** Log in, show the active account's actions, or choose the active account. */
export type StatusClick = 'login' | 'showActions' | 'switchAccount';

export type StatusPhase = 'loading' | 'noSession' | 'noActive' | 'valid' | 'refreshing' | 'expired' | 'needsLogin';

export interface StatusDescription {
	phase: StatusPhase;
	text: string;
	severity: StatusBackground;
	/** Spelled-out words for screen readers. */
	accessibilityLabel: string;
	/** What a click does: the features layer runs the command of that name (src/commands.ts). */
	click: StatusClick;
	/** Milliseconds until the text or severity next changes on its own; undefined: only an event changes it. */
	nextTickMs?: number;
	/** The active account is production (production.ts): at least a warning background, and said in words. */
	production?: boolean;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long after a computed boundary the timer fires, so that the display has already
 * changed when it does (`formatRemaining` rounds down, so the value at the boundary is the old one).
 */
export const TICK_SLACK_MS = 20;

/**
 * Milliseconds until `formatRemaining(remainingMs)` shows a different value: the next hour
 * boundary above a day, the next minute boundary above a minute, the next second in the
 * last minute. Undefined once expired. The value changes just after the returned delay
 * (`formatRemaining` rounds down, so exactly on a boundary the change is immediate: 0).
 */
export function nextTickDelay(remainingMs: number): number | undefined {
	if (!(remainingMs > 0) || !Number.isFinite(remainingMs)) return undefined;
	const unit = remainingMs >= DAY ? HOUR : remainingMs >= MINUTE ? MINUTE : SECOND;
	return remainingMs % unit;
}

/** The session's state as the clock sees it: a `valid` token past its expiry is `expired`. */
export function effectiveState(session: Session, now: number): Session['state'] {
	if (session.state === 'needsLogin' || !session.tokens) return 'needsLogin';
	if (session.state === 'expired' || session.tokens.expiresAt <= now) return 'expired';
	return 'valid';
}

/** When the refresh window opens: the planned refresh, or `marginMs` before expiry, whichever is first. */
export function refreshWindowStart(session: Session, status: RefreshStatus | undefined, marginMs: number): number | undefined {
	if (!session.tokens) return undefined;
	const byMargin = session.tokens.expiresAt - Math.max(0, marginMs);
	return status?.nextRefreshAt !== undefined ? Math.min(status.nextRefreshAt, byMargin) : byMargin;
}

function minDefined(...values: Array<number | undefined>): number | undefined {
	const defined = values.filter((v): v is number => v !== undefined);
	return defined.length ? Math.min(...defined) : undefined;
}

/** While the stored sessions are still being read (just after activation): neutral, no claim either way. */
export function loadingStatus(t: Translate = untranslated): StatusDescription {
	return {
		phase: 'loading',
		text: `$(key) ${t('Telematics')}`,
		severity: 'none',
		accessibilityLabel: t('Telematics: reading the stored sessions'),
		click: 'showActions',
	};
}

/**
 * Accounts are logged in but none is active (the active one went away and the others are production, which
 * never becomes active by itself): the person chooses.
 */
export function noActiveStatus(t: Translate = untranslated): StatusDescription {
	return {
		phase: 'noActive',
		text: `$(account) ${t('Telematics: Choose Account')}`,
		severity: 'none',
		accessibilityLabel: t('Telematics: no active account. Choose one'),
		click: 'switchAccount',
	};
}

/**
 * The status bar's text, background severity and next wake-up for the active session.
 * Warning: inside the refresh window or after a failed refresh. Error: expired or needs login.
 * A production account is at least a warning, and its text and spoken label say "production".
 */
export function describeStatus(session: Session | undefined, status: RefreshStatus | undefined, now: number, marginMs: number, t: Translate = untranslated): StatusDescription {
	const described = describeSession(session, status, now, marginMs, t);
	if (!session || !isProduction(session.account)) return described;
	return {
		...described,
		production: true,
		text: described.text.replace(/^(\$\([^)]+\) )/, `$1${t('PRODUCTION')} · `),
		severity: described.severity === 'error' ? 'error' : 'warning',
		accessibilityLabel: `${t('production')}: ${described.accessibilityLabel}`,
	};
}

function describeSession(session: Session | undefined, status: RefreshStatus | undefined, now: number, marginMs: number, t: Translate): StatusDescription {
	if (!session) {
		return {
			phase: 'noSession',
			text: `$(sign-in) ${t('Telematics: Log In')}`,
			severity: 'none',
			accessibilityLabel: t('Telematics: not logged in. Log in'),
			click: 'login',
		};
	}
	const label = session.account.label;
	const state = effectiveState(session, now);
	const click = 'showActions';
	if (state === 'needsLogin') {
		return {
			phase: 'needsLogin',
			text: `$(warning) ${label} · ${t('log in again')}`,
			severity: 'error',
			accessibilityLabel: t('Telematics account {0}, log in again', label),
			click,
		};
	}
	if (status?.inFlight) {
		// While refreshing, the text does not change on its own; the scheduler's event ends it.
		const inWindow = now >= (refreshWindowStart(session, status, marginMs) ?? Infinity);
		return {
			phase: 'refreshing',
			text: `$(sync~spin) ${label} · ${t('refreshing…')}`,
			severity: state === 'expired' ? 'error' : inWindow || status.lastError ? 'warning' : 'none',
			accessibilityLabel: t('Telematics account {0}, refreshing the token', label),
			click,
		};
	}
	if (state === 'expired') {
		return {
			phase: 'expired',
			text: `$(warning) ${label} · ${t('expired')}`,
			severity: 'error',
			accessibilityLabel: t('Telematics account {0}, token expired', label),
			click,
		};
	}
	const tokens = session.tokens!;
	const remaining = tokens.expiresAt - now;
	const windowStart = refreshWindowStart(session, status, marginMs);
	const inWindow = windowStart !== undefined && now >= windowStart;
	const untilDisplayChange = nextTickDelay(remaining);
	const untilWindow = windowStart !== undefined && windowStart > now ? windowStart - now : undefined;
	const next = minDefined(untilDisplayChange, untilWindow);
	const icon = session.account.kind === 'admin' ? '$(shield)' : '$(account)';
	return {
		phase: 'valid',
		text: `${icon} ${label} · ${formatRemaining(remaining)}`,
		severity: inWindow || status?.lastError ? 'warning' : 'none',
		accessibilityLabel: t('Telematics account {0}, token valid for {1}', label, spellRemaining(remaining, t)),
		click,
		nextTickMs: next === undefined ? undefined : next + TICK_SLACK_MS,
	};
}
