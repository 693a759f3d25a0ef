// URL pieces that are safe to show or log, and the one loopback check. Pure: no `vscode`.

/**
 * A loopback host: `localhost`, 127.0.0.0/8, `::1` (bracketed or not) and the IPv4-mapped
 * `::ffff:127.x.x.x`. Not `*.localhost`: Node resolves those through DNS, which may answer
 * another machine. Plain http is allowed only for these; they are never proxied.
 */
export function isLoopbackHost(hostname: string): boolean {
	const host = bareHostname(hostname.trim());
	return host === 'localhost' || host === '::1'
		|| /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A URL's hostname as names compare: lower case, an IPv6 address without its brackets. */
export function bareHostname(hostname: string): string {
	return hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

/** `text` without the slashes it ends with (`https://host/` → `https://host`, `/v1//` → `/v1`). */
export function withoutTrailingSlashes(text: string): string {
	// From the first slash of a run only (`(?<!\/)`): searched from every slash, a long run not at the end was quadratic.
	return text.replace(/(?<!\/)\/+$/, '');
}

/** A service URL fit for a file line, an env value or a JSON string: http(s), no whitespace, quotes or backslashes. */
export function isSafeServiceUrl(value: string): boolean {
	return /^https?:\/\/[^\s"'`\\]+$/.test(value) && value.length <= 2048;
}

/** `host[:port]` of `url`; `fallback` when it has none or does not parse. Never credentials or a query. */
export function hostOf(url: string, fallback = '(invalid URL)'): string {
	try {
		return new URL(url).host || fallback;
	} catch {
		return fallback;
	}
}

/** `https://host/path` without credentials, query or fragment: safe to log. */
export function displayUrl(url: string): string {
	try {
		const u = new URL(url);
		return `${u.protocol}//${u.host}${u.pathname}`;
	} catch {
		return '(invalid URL)';
	}
}
