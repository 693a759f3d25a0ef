// URL pieces that are safe to show or log. Pure: no `vscode`.

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
