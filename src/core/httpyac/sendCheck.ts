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
	/** got option keys the check does not read (gotOptionsRead): they may send the request elsewhere. */
	unreadOptions?: readonly string[];
}

/** Why a token's trip is asked about. */
export type SendReason =
	| { kind: 'otherSite' }
	/** `proxy` as shown: protocol://host:port (proxyShown). */
	| { kind: 'proxy'; proxy: string }
	| { kind: 'certificatesOff' }
	| { kind: 'options'; keys: string[] };

/** Where in the request a token is. */
export type TokenPlace = 'url' | 'header' | 'body';

export interface AskedAccount {
	name: string;
	label: string;
	/** Where the token is ('body' also for a body that could not be read). */
	places: TokenPlace[];
	reasons: SendReason[];
}

/** `destination` is the URL's origin; undefined when the URL is none (never shown raw: it may hold the token). */
export type SendDecision = { kind: 'send' } | { kind: 'ask'; destination: string | undefined; accounts: AskedAccount[] };

/** Shortest text that counts as a token: nothing shorter is searched for (an empty or one-letter "token" would match anything). */
const MIN_TOKEN_CHARS = 16;

/** The URL's origin, or undefined when it is no URL with an origin of its own. */
export function originOf(url: string): string | undefined {
	try {
		const parsed = new URL(url);
		// The catch's block, from here: without its return, undefined is returned all the same.
		// Stryker disable BlockStatement: equivalent
		return parsed.origin === 'null' ? undefined : parsed.origin;
	} catch {
		return undefined;
	}
	// Stryker restore BlockStatement
}

/**
 * `text` and its percent-decoded form (a token written `%2E`-escaped is still the token). A text without
 * `%` is its own decoding: decodeURIComponent over a 1 MB body took 5 ms at every send.
 */
function readings(text: string): string[] {
	// Stryker disable next-line ConditionalExpression,StringLiteral: equivalent
	if (!text.includes('%')) return [text];
	try {
		// A valid escape always decodes to other text.
		return [text, decodeURIComponent(text)];
	} catch {
		return [text];
	}
}

/** A word of a header value that may be base64 or base64url (`Basic dXNlcjp0b2tlbg==`). */
const BASE64_WORD = /[A-Za-z0-9+/_-]{16,}={0,2}/g;

/** The UTF-8 text of each base64/base64url word of `text` (a token in `Authorization: Basic base64(user:token)`). */
function base64Readings(text: string): string[] {
	return [...text.matchAll(BASE64_WORD)].map(([word]) => Buffer.from(word, 'base64').toString('utf8'));
}

/** A proxy address as it may be shown: `protocol://host:port`, never its `user:password@`. */
export function proxyShown(proxy: string): string {
	try {
		// Stryker disable next-line MethodExpression: equivalent
		const u = new URL(proxy.trim());
		return `${u.protocol}//${u.host}`;
	} catch {
		return 'a proxy address that is not a URL';
	}
}

/**
 * The person's proxy, as httpYac would pick it up: VS Code's `http.proxy`, else HTTPS_PROXY, https_proxy,
 * HTTP_PROXY, http_proxy from the extension host's environment.
 */
export function personProxyFrom(httpProxy: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
	for (const value of [httpProxy, env.HTTPS_PROXY, env.https_proxy, env.HTTP_PROXY, env.http_proxy]) {
		if (value?.trim()) return value.trim();
	}
	return undefined;
}

/** A proxy address as written, compared without case in its scheme and host and without a trailing slash. */
export function sameProxy(a: string, b: string): boolean {
	const norm = (p: string): string => {
		// util/url's withoutTrailingSlashes, written here: the httpYac plugin's bundle holds this file alone.
		const trimmed = p.trim().replace(/(?<!\/)\/+$/, '');
		try {
			const u = new URL(trimmed);
			return `${u.protocol}//${u.username}:${u.password}@${u.host}`;
		} catch {
			// Stryker disable next-line MethodExpression: equivalent
			return trimmed.toLowerCase();
		}
	};
	return norm(a) === norm(b);
}

/**
 * Whether a `Host` header names another host than the URL: shared front ends (a CDN, an ingress) route by
 * it, and TLS takes its server name from it, so the request goes where it says, not where the URL does.
 */
export function hostHeaderDiffers(request: Pick<OutgoingRequest, 'url' | 'headers'>): boolean {
	const hostHeaders = request.headers.filter(([name]) => name.toLowerCase() === 'host');
	// The URL parser trims and lowers a host itself.
	// Stryker disable next-line MethodExpression: equivalent
	const hosts = hostHeaders.map(([, value]) => value.trim().toLowerCase());
	if (hosts.length === 0) return false;
	let url: URL;
	try {
		// The catch's block, from here: without its return, reading the unset URL below throws into a catch that returns true.
		// Stryker disable BlockStatement: equivalent
		url = new URL(request.url);
	} catch {
		return true;
	}
	// Stryker restore BlockStatement
	return hosts.some((host) => {
		try {
			return new URL(`${url.protocol}//${host}`).host !== url.host;
		} catch {
			return true;
		}
	});
}

/**
 * Send, or ask (and about what): every account whose live token appears in the URL, a header (name or
 * value) or the body, when the destination's origin is not one of that account's platform origins, when
 * the request goes through a proxy other than `personProxy` (VS Code's `http.proxy`), or when
 * certificate checks are off. A body that could not be read counts as holding every account's tokens.
 */
export function decideSend(request: OutgoingRequest, accounts: readonly HeldAccount[], personProxy: string | undefined, places = tokenPlaces(request, accounts)): SendDecision {
	const origin = originOf(request.url);
	const asked: AskedAccount[] = [];
	for (const { account, places: where } of places) {
		const reasons = sendReasons(request, account.platformOrigins, personProxy);
		if (reasons.length > 0) asked.push({ name: account.name, label: account.label, places: where, reasons });
	}
	return asked.length === 0 ? { kind: 'send' } : { kind: 'ask', destination: origin, accounts: asked };
}

/**
 * Why a token's trip to `request`'s destination is asked about, for an account whose origins are
 * `platformOrigins`: another site (or a Host header naming one), a proxy other than `personProxy`,
 * certificate checks off, got options the check does not read. None: it may go.
 */
export function sendReasons(request: OutgoingRequest, platformOrigins: readonly string[], personProxy: string | undefined): SendReason[] {
	// No origin: a text that is no platform origin.
	// Stryker disable next-line StringLiteral: equivalent
	const origin = originOf(request.url) ?? '';
	return [
		...(platformOrigins.includes(origin) && !hostHeaderDiffers(request) ? [] : [{ kind: 'otherSite' as const }]),
		...(request.proxy && !(personProxy && sameProxy(request.proxy, personProxy)) ? [{ kind: 'proxy' as const, proxy: proxyShown(request.proxy) }] : []),
		...(request.certificatesOff ? [{ kind: 'certificatesOff' as const }] : []),
		...(request.unreadOptions && request.unreadOptions.length > 0 ? [{ kind: 'options' as const, keys: [...request.unreadOptions] }] : []),
	];
}

/**
 * Where each account's live tokens are in the request: the URL, a header (name or value, each base64 word
 * too), the body (or a body that could not be read); also percent-decoded. Accounts with none are left out.
 */
export function tokenPlaces(request: OutgoingRequest, accounts: readonly HeldAccount[]): Array<{ account: HeldAccount; places: TokenPlace[] }> {
	const urlTexts = readings(request.url);
	const headerTexts = request.headers.flatMap(([name, value]) => [...readings(name), ...readings(value), ...readings(value).flatMap(base64Readings)]);
	// No body: an empty text, or any other that holds no token.
	// Stryker disable next-line StringLiteral: equivalent
	const bodyTexts = readings(request.body ?? '');
	const found: Array<{ account: HeldAccount; places: TokenPlace[] }> = [];
	for (const account of accounts) {
		const tokens = account.tokens.filter((t) => t.length >= MIN_TOKEN_CHARS);
		if (tokens.length === 0) continue;
		const holds = (texts: readonly string[]): boolean => texts.some((text) => tokens.some((t) => text.includes(t)));
		const places: TokenPlace[] = [
			...(holds(urlTexts) ? ['url' as const] : []),
			...(holds(headerTexts) ? ['header' as const] : []),
			...(holds(bodyTexts) || request.bodyUnread ? ['body' as const] : []),
		];
		if (places.length > 0) found.push({ account, places });
	}
	return found;
}

/** Whether got-style request options turn certificate checks off (`rejectUnauthorized: false`, at the top or under `https`). */
export function turnsCertificatesOff(options: unknown): boolean {
	if (typeof options !== 'object' || options === null) return false;
	const o = options as { rejectUnauthorized?: unknown; https?: unknown };
	if (o.rejectUnauthorized === false) return true;
	return typeof o.https === 'object' && o.https !== null && (o.https as { rejectUnauthorized?: unknown }).rejectUnauthorized === false;
}

/**
 * got option keys the check reads completely, as httpYac 6.16.7 fills them (its got call merges
 * `{ decompress, retry, throwHttpErrors, allowGetBody }`, `httpyac.requestGotOptions`, the request's
 * method, headers, body and timeout, then `request.options`): none of them changes where the request goes.
 * `headers`, `body` and `cookieJar` are read into the request by the caller (gotOptionsRead).
 */
const READ_OPTION_KEYS = new Set(['timeout', 'retry', 'throwHttpErrors', 'decompress', 'allowGetBody', 'followRedirect', 'maxRedirects', 'method', 'http2', 'headers', 'body', 'cookieJar', 'https', 'hooks']);
/** Under `https`: httpYac's client certificate (clientCertificates) and certificate checks (`false` is asked about on its own). */
const READ_HTTPS_KEYS = new Set(['rejectUnauthorized', 'certificate', 'key', 'pfx', 'passphrase']);
/** The hooks httpYac adds itself, at most as many as it adds: redirect logging, post-redirect-get, digest auth. */
const HTTPYAC_HOOKS: Readonly<Record<string, number>> = { beforeRequest: 1, beforeRedirect: 2, afterResponse: 1 };

/** Read keys whose values are data only: a function in them (`retry.calculateDelay`) runs inside got, where it sees the request. */
const FUNCTION_FREE_KEYS = new Set(['timeout', 'retry', 'throwHttpErrors', 'decompress', 'allowGetBody', 'followRedirect', 'maxRedirects', 'method', 'http2', 'headers']);

/** Whether `value` holds a function, at any depth (a bounded walk: past it, it counts as holding one). */
function holdsFunction(value: unknown, budget = { left: 1000 }): boolean {
	if (typeof value === 'function') return true;
	if (typeof value !== 'object' || value === null) return false;
	if (--budget.left < 0) return true;
	return Object.values(value).some((v) => holdsFunction(v, budget));
}

/** What the check read of one set of got options. */
export interface GotOptionsReading {
	/** Keys it does not read (`https.<key>`, `hooks.<name>` for those below): any of them may move the request. */
	unread: string[];
	/** Headers got adds: `options.headers`, and the cookie jar's Cookie header for `url`. */
	headers: Array<[string, string]>;
	/** `options.body`, when present (it replaces the request's). */
	body?: unknown;
	hasBody: boolean;
}

/**
 * got options (`request.options` or `httpyac.requestGotOptions`) read against an allow-list: only keys
 * httpYac sets itself count as read; a cookie jar is read through `getCookieStringSync(url)`, and one of
 * another shape, or one that throws, is unread. `holdsHttpyacHooks`: false for `requestGotOptions`,
 * where httpYac puts no hook.
 */
export function gotOptionsRead(options: unknown, url: string, holdsHttpyacHooks = true): GotOptionsReading {
	const reading: GotOptionsReading = { unread: [], headers: [], hasBody: false };
	if (options === undefined || options === null) return reading;
	if (typeof options !== 'object') return { ...reading, unread: ['(options)'] };
	for (const [key, value] of Object.entries(options as Record<string, unknown>)) {
		if (value === undefined) continue;
		if (!READ_OPTION_KEYS.has(key) || (FUNCTION_FREE_KEYS.has(key) && holdsFunction(value))) {
			reading.unread.push(key);
		} else if (key === 'https') {
			if (typeof value !== 'object' || value === null) reading.unread.push(key);
			else for (const [k, v] of Object.entries(value)) if (v !== undefined && !READ_HTTPS_KEYS.has(k)) reading.unread.push(`https.${k}`);
		} else if (key === 'hooks') {
			if (typeof value !== 'object' || value === null) reading.unread.push(key);
			else for (const [name, list] of Object.entries(value)) {
				const count = Array.isArray(list) ? list.length : list === undefined ? 0 : Infinity;
				if (count > (holdsHttpyacHooks ? HTTPYAC_HOOKS[name] ?? 0 : 0)) reading.unread.push(`hooks.${name}`);
			}
		} else if (key === 'headers') {
			// No headers (null) are read whole; they threw here, and the send failed in the check.
			if (value === null) continue;
			if (typeof value !== 'object') { reading.unread.push(key); continue; }
			for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
				for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined && one !== null) reading.headers.push([name, String(one)]);
			}
		} else if (key === 'body') {
			reading.body = value;
			reading.hasBody = true;
		} else if (key === 'cookieJar') {
			// A null jar is no jar (got sends no Cookie header from it).
			if (value === null) continue;
			const jar = value as { getCookieStringSync?: unknown };
			if (typeof jar !== 'object') { reading.unread.push(key); continue; }
			// A jar without the method would throw below, and be unread there.
			// Stryker disable next-line ConditionalExpression,BlockStatement: equivalent
			if (typeof jar.getCookieStringSync !== 'function') { reading.unread.push(key); continue; }
			try {
				const cookie: unknown = (jar.getCookieStringSync as (u: string) => unknown).call(jar, url);
				if (typeof cookie !== 'string') reading.unread.push(key);
				else if (cookie) reading.headers.push(['Cookie', cookie]);
			} catch {
				reading.unread.push(key);
			}
		}
	}
	return reading;
}
