// The login budget. The service blocks an address for up to an hour after about five logins, so this machine
// records when it sent each Login (the time only, per service origin, in globalState: no secret), asks before
// the login that would be the fifth within the hour, and after a 429 sends no Login to that service until the
// block ends. Refreshes never count. The decision is one pure function (decideLogin: records, time, service →
// go, ask or blocked until), entered once per login through LoginBudget.claim, which reads and writes the one
// globalState key every window of this machine shares.
import type { MementoBackend } from '../sessions/types';
import type { Clock } from '../util/clock';
import { describeExpiry, type ExpiryTextOptions } from '../util/time';
import { untranslated, type Translate } from '../util/translate';

/** The globalState key (not synced: the count is this machine's, as the service counts per address). */
export const LOGIN_ATTEMPTS_KEY = 'telematicsAuth.loginAttempts';

const MINUTE = 60_000;
/** The window the logins are counted in: an hour (sources say a minute, an hour or a day). */
export const BUDGET_WINDOW_MS = 60 * MINUTE;
/** Logins within the window before the next one is asked about: the next would be the fifth. */
export const ASK_AFTER = 4;
/** A 429 without a usable Retry-After blocks for an hour, the longest block the vendor names. */
export const DEFAULT_BLOCK_MS = 60 * MINUTE;
/** The longest block honoured, whatever Retry-After says: an absurd one must not lock a person out for good. */
export const MAX_BLOCK_MS = 24 * 60 * MINUTE;
/** Attempts kept per service: more than the question ever counts. */
const MAX_ATTEMPTS = 50;

/** What this machine knows of one service's logins. */
export interface ServiceLogins {
	/** When each Login was sent (epoch ms of the clock of the window that sent it). */
	attempts: number[];
	/** The service's last 429: when it came, and until when no Login is sent. */
	block?: { at: number; until: number };
}

/** Per service origin (`https://host:port`). */
export type LoginLog = Record<string, ServiceLogins>;

export type BudgetDecision =
	| { kind: 'go' }
	/** `count` logins within the window, the first of them `sinceMs` ago. */
	| { kind: 'ask'; count: number; sinceMs: number }
	| { kind: 'blocked'; until: number };

/** The key logins are counted under: the service's origin (scheme, host and port), lower case. */
export function serviceOrigin(serviceUrl: string): string {
	try {
		return new URL(serviceUrl.trim()).origin.toLowerCase();
	} catch {
		return serviceUrl.trim().toLowerCase();
	}
}

/**
 * Whether an attempt counts at `now`. Clocks move (a correction, another window's clock): an
 * attempt stamped later than `now` counts as just made, unless it is more than a window ahead,
 * which says the clock went back too far to tell (better one question too few than a day of them).
 */
function counts(at: number, now: number): boolean {
	return at > now - BUDGET_WINDOW_MS && at < now + BUDGET_WINDOW_MS;
}

/** A block holds until its end; one recorded more than a window "after" `now` is dropped (the clock went back). */
function blockHolds(block: ServiceLogins['block'], now: number): block is { at: number; until: number } {
	return block !== undefined && now < block.until && now > block.at - BUDGET_WINDOW_MS;
}

/**
 * The budget's one decision: may a Login go to `serviceUrl` at `now`, by this machine's `records`? Blocked
 * until the end of the service's 429; else go while fewer than ASK_AFTER logins to it count within the hour;
 * else ask, saying how many and since when. `agreed`: the count a person was asked about and agreed to log
 * in after (undefined: not asked); it goes while the records name no more logins than that (another window
 * may have logged in, or met a 429, while the question was open: then it asks again, or is blocked).
 */
export function decideLogin(records: LoginLog, now: number, serviceUrl: string, agreed?: number): BudgetDecision {
	const entry = records[serviceOrigin(serviceUrl)];
	const block = entry?.block;
	if (blockHolds(block, now)) return { kind: 'blocked', until: block.until };
	const recent = (entry?.attempts ?? []).filter((at) => counts(at, now));
	if (recent.length < ASK_AFTER || (agreed !== undefined && recent.length <= agreed)) return { kind: 'go' };
	return { kind: 'ask', count: recent.length, sinceMs: Math.max(0, now - Math.min(...recent)) };
}

/** Until when a 429 at `now` blocks: Retry-After (seconds, already read from seconds or an HTTP date) or an hour, at most a day. */
export function blockEnd(now: number, retryAfterSeconds: number | undefined): number {
	const wait = retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0 ? retryAfterSeconds * 1000 : DEFAULT_BLOCK_MS;
	return now + Math.min(wait, MAX_BLOCK_MS);
}

/** The log as stored, read as warily as any outside value (another version or window wrote it). Pruned at `now`. */
export function readLog(raw: unknown, now: number): LoginLog {
	const log: LoginLog = {};
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return log;
	const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
	for (const [origin, value] of Object.entries(raw as Record<string, unknown>)) {
		if (typeof value !== 'object' || value === null) continue;
		const v = value as Record<string, unknown>;
		const attempts = (Array.isArray(v.attempts) ? v.attempts : []).filter(finite).filter((at) => counts(at, now)).sort((a, b) => a - b).slice(-MAX_ATTEMPTS);
		const b = v.block as Record<string, unknown> | undefined;
		const block = b && finite(b.at) && finite(b.until) ? { at: b.at, until: Math.min(b.until, b.at + MAX_BLOCK_MS) } : undefined;
		const entry: ServiceLogins = { attempts };
		if (blockHolds(block, now)) entry.block = block;
		if (entry.attempts.length || entry.block) log[origin] = entry;
	}
	return log;
}

/** `log` with one more Login to `origin` at `now`. */
export function withAttempt(log: LoginLog, origin: string, now: number): LoginLog {
	const entry = log[origin] ?? { attempts: [] };
	return { ...log, [origin]: { ...entry, attempts: [...entry.attempts, now].slice(-MAX_ATTEMPTS) } };
}

/** `log` with `origin` blocked from `now` until `until`. */
export function withBlock(log: LoginLog, origin: string, now: number, until: number): LoginLog {
	const entry = log[origin] ?? { attempts: [] };
	return { ...log, [origin]: { ...entry, block: { at: now, until } } };
}

/** "4 logins to this service in the last 12 minutes…": the question before a login, as a message and its detail. */
export function askText(count: number, sinceMs: number, t: Translate = untranslated): { message: string; detail: string } {
	const minutes = Math.max(1, Math.ceil(sinceMs / MINUTE));
	const message = minutes === 1
		? t('{0} logins to this service in the last minute.', count)
		: t('{0} logins to this service in the last {1} minutes.', count, minutes);
	return { message, detail: t('The service blocks further logins for up to an hour after about 5. Log in anyway?') };
}

/** Why a login the person agreed to was not sent: more logins went to the service (from another window) while the question was open. */
export function moreLoginsText(count: number, t: Translate = untranslated): string {
	return t('Login not sent: {0} logins to this service within the hour now, more than when you were asked (another window of VS Code logged in meanwhile). The service blocks further logins for up to an hour after about 5; log in again to be asked.', count);
}

/** Why nothing was sent: the service blocks logins until `until`. */
export function blockedText(host: string, until: number, now: number, t: Translate = untranslated, formatTime?: ExpiryTextOptions['formatTime']): string {
	return t('{0} blocks logins from this machine until {1} (it answered "too many logins", HTTP 429). Nothing was sent: Telematics Auth sends no login to this service before then.', host, describeExpiry(until, now, { t, formatTime }));
}

/** After the service's 429: until when it blocks, and that no login goes there before then. */
export function rateLimitedText(until: number, now: number, t: Translate = untranslated, formatTime?: ExpiryTextOptions['formatTime']): string {
	return t('The service answered "too many logins" (HTTP 429) and blocks logins until {0}. Telematics Auth sends no login to this service before then; refreshing a token still works.', describeExpiry(until, now, { t, formatTime }));
}

/**
 * The budget's records over globalState. Each write reads the latest value first (another window may have
 * written since), so two windows lose a record only if they write within the same moment.
 */
export class LoginBudget {
	constructor(private readonly memento: MementoBackend, private readonly clock: Pick<Clock, 'now'>) {}

	/**
	 * The decision right before a Login is sent (decideLogin on the latest records) and, when it may go, the
	 * Login counted in the same step, so a question answered long ago or another window's logins and 429
	 * meanwhile cannot send it unasked. `agreed`: the count the person agreed to log in after. `written`
	 * settles when globalState has the count (at once when nothing was counted).
	 */
	claim(serviceUrl: string, agreed?: number): { decision: BudgetDecision; written: PromiseLike<void> } {
		const now = this.clock.now();
		const records = this.read(now);
		const decision = decideLogin(records, now, serviceUrl, agreed);
		if (decision.kind !== 'go') return { decision, written: Promise.resolve() };
		return { decision, written: this.memento.update(LOGIN_ATTEMPTS_KEY, withAttempt(records, serviceOrigin(serviceUrl), now)) };
	}

	/** Until when the service blocks logins, if it does (Log In Again says so before asking anything). */
	blockedUntil(serviceUrl: string): number | undefined {
		const now = this.clock.now();
		const decision = decideLogin(this.read(now), now, serviceUrl);
		return decision.kind === 'blocked' ? decision.until : undefined;
	}

	/** Records the service's 429; returns until when it blocks. */
	async recordBlock(serviceUrl: string, retryAfterSeconds: number | undefined): Promise<number> {
		const now = this.clock.now();
		const until = blockEnd(now, retryAfterSeconds);
		await this.memento.update(LOGIN_ATTEMPTS_KEY, withBlock(this.read(now), serviceOrigin(serviceUrl), now, until));
		return until;
	}

	private read(now: number): LoginLog {
		return readLog(this.memento.get<unknown>(LOGIN_ATTEMPTS_KEY), now);
	}
}
