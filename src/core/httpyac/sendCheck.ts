// The check at Send for httpYac (features/httpyac/): the request exactly as httpYac will send it, after
// every script, environment and config has had its say, against every account's live tokens. A token
// that goes to its own service, directly or through the proxy the person set, with certificate checks
// on, goes with no question; anything else is asked about, naming the account, the destination and why.
// Pure: no `vscode`, no I/O.

/** An account's live tokens and where they may go. */
export interface HeldAccount {
	/** Its short name and label, for the question. */
	name: string;
	label: string;
	/** Its live access token and refresh token (either may be absent). */
	tokens: readonly string[];
	/** The exact origins of its platform (features/accounts/accountPlatformHosts.ts). */
	platformOrigins: readonly string[];
}

/** The request as httpYac will send it, its body already read to text where it could be. */
export interface OutgoingRequest {
	url: string;
	/** Header name → value(s), as httpYac holds them. */
	headers: ReadonlyArray<readonly [string, string]>;
	/** The body's text (every part httpYac holds, read); undefined when there is none. */
	body?: string;
	/** True when a part of the body could not be read (a stream): it may hold any token. */
	bodyUnread?: boolean;
	/** The proxy httpYac will send through, if any. */
	proxy?: string;
	/** Certificate checks are off (`# @noRejectUnauthorized`, `rejectUnauthorized: false` in its options). */
	certificatesOff: boolean;
}

/** Why a token's trip is asked about. */
export type SendReason =
	| { kind: 'otherSite' }
	| { kind: 'proxy'; proxy: string }
	| { kind: 'certificatesOff' };

/** Where in the request a token is. */
export type TokenPlace = 'url' | 'header' | 'body';

export interface AskedAccount {
	name: string;
	label: string;
	/** Where the token is ('body' also for a body that could not be read). */
	places: TokenPlace[];
	reasons: SendReason[];
}

export type SendDecision = { kind: 'send' } | { kind: 'ask'; destination: string; accounts: AskedAccount[] };

/** Shortest text that counts as a token: nothing shorter is searched for (an empty or one-letter "token" would match anything). */
const MIN_TOKEN_CHARS = 16;

/** The URL's origin, or undefined when it is no URL with an origin of its own. */
export function originOf(url: string): string | undefined {
	try {
		const parsed = new URL(url);
		return parsed.origin === 'null' ? undefined : parsed.origin;
	} catch {
		return undefined;
	}
}

/** `text` and its percent-decoded form (a token written `%2E`-escaped is still the token). */
function readings(text: string): string[] {
	try {
		const decoded = decodeURIComponent(text);
		return decoded === text ? [text] : [text, decoded];
	} catch {
		return [text];
	}
}

/** A proxy address as written, compared without case in its scheme and host and without a trailing slash. */
function sameProxy(a: string, b: string): boolean {
	const norm = (p: string): string => {
		const trimmed = p.trim().replace(/\/+$/, '');
		try {
			const u = new URL(trimmed);
			return `${u.protocol}//${u.username}:${u.password}@${u.host}`;
		} catch {
			return trimmed.toLowerCase();
		}
	};
	return norm(a) === norm(b);
}

/**
 * Send, or ask (and about what): every account whose live token appears in the URL, a header (name or
 * value) or the body, when the destination's origin is not one of that account's platform origins, when
 * the request goes through a proxy other than `personProxy` (VS Code's `http.proxy`), or when
 * certificate checks are off. A body that could not be read counts as holding every account's tokens.
 */
export function decideSend(request: OutgoingRequest, accounts: readonly HeldAccount[], personProxy: string | undefined): SendDecision {
	const origin = originOf(request.url);
	const urlTexts = readings(request.url);
	const headerTexts = request.headers.flatMap(([name, value]) => [...readings(name), ...readings(value)]);
	const bodyTexts = request.body === undefined ? [] : readings(request.body);
	const asked: AskedAccount[] = [];
	for (const account of accounts) {
		const tokens = account.tokens.filter((t) => t.length >= MIN_TOKEN_CHARS);
		if (tokens.length === 0) continue;
		const holds = (texts: readonly string[]): boolean => texts.some((text) => tokens.some((t) => text.includes(t)));
		const places: TokenPlace[] = [
			...(holds(urlTexts) ? ['url' as const] : []),
			...(holds(headerTexts) ? ['header' as const] : []),
			...(holds(bodyTexts) || request.bodyUnread ? ['body' as const] : []),
		];
		if (places.length === 0) continue;
		const reasons: SendReason[] = [
			...(origin !== undefined && account.platformOrigins.includes(origin) ? [] : [{ kind: 'otherSite' as const }]),
			...(request.proxy && !(personProxy && sameProxy(request.proxy, personProxy)) ? [{ kind: 'proxy' as const, proxy: request.proxy }] : []),
			...(request.certificatesOff ? [{ kind: 'certificatesOff' as const }] : []),
		];
		if (reasons.length > 0) asked.push({ name: account.name, label: account.label, places, reasons });
	}
	return asked.length === 0 ? { kind: 'send' } : { kind: 'ask', destination: origin ?? request.url, accounts: asked };
}

/** Whether got-style request options turn certificate checks off (`rejectUnauthorized: false`, at the top or under `https`). */
export function turnsCertificatesOff(options: unknown): boolean {
	if (typeof options !== 'object' || options === null) return false;
	const o = options as { rejectUnauthorized?: unknown; https?: unknown };
	if (o.rejectUnauthorized === false) return true;
	return typeof o.https === 'object' && o.https !== null && (o.https as { rejectUnauthorized?: unknown }).rejectUnauthorized === false;
}
