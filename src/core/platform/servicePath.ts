// Paths on an account's platform: a path the model, a file or a host's OpenAPI document names is read as a
// server that routes it would, and the URL built from it must stay on the platform's host (its origin and
// the service's root path). Small and stateless on purpose: the agent's requests, New Request and the
// OpenAPI reader (its own bundle) share it. Pure: no I/O, no `vscode`.
import type { HostKey, PlatformHosts } from './hosts';
import type { Checked } from '../util/checked';
import { withoutTrailingSlashes } from '../util/url';

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** Longest path accepted. */
export const MAX_PATH_CHARS = 2048;

/** `text` percent-decoded until it no longer changes (at most a few rounds); undefined when it does not decode. */
export function fullyDecoded(text: string): string | undefined {
	let current = text;
	for (let round = 0; round < 4; round++) {
		let next: string;
		try {
			next = decodeURIComponent(current);
		} catch {
			return undefined;
		}
		if (next === current) return current;
		current = next;
	}
	return undefined;
}

const LEAVES_THE_SERVICE = 'The path must be a path on the account\'s service, such as "/v1/Me": no URL, host, "//", "\\\\" or "..". To reach another host of the platform, give "host" (a host key such as "api"); no other host can be reached with this tool.';

/**
 * Why `path` as written cannot name a place on the service, or undefined. Refused: a path that does not
 * start with one `/` (so an absolute URL, any scheme, a host as `//host` or `%2F@host`), whitespace and
 * control characters, a backslash (read as "/" by URL parsers), a fragment; and, percent-decoded, a
 * leading `//`, a backslash or control character, or a `.` or `..` segment, which a server or proxy that
 * decodes before it routes may act on. The raw path and the decoded one are both tested.
 */
export function pathRefusal(path: string): string | undefined {
	const pathPart = path.split('?', 1)[0]!;
	const decoded = fullyDecoded(pathPart);
	const decodedWhole = fullyDecoded(path);
	// Stryker disable next-line ConditionalExpression: redundant
	if (decoded === undefined || decodedWhole === undefined) return 'The path holds a percent sign that is not an escape; write "%25" for "%".';
	if (/[\s\u0000-\u001f\u007f-\u009f\\#]/.test(path)) return LEAVES_THE_SERVICE;
	if (/[\u0000-\u001f\u007f-\u009f\\]/.test(decodedWhole)) return LEAVES_THE_SERVICE;
	for (const form of [pathPart, decoded]) {
		if (!form.startsWith('/') || form.startsWith('//')) return LEAVES_THE_SERVICE;
	}
	// A dot segment, also with `;` parameters (`.;`, `..;x`): routers that drop parameters before they
	// resolve dot segments (servlet containers) read `/a/..;/b` as `/b`.
	const dotSegment = (segment: string) => /^\.{1,2}$/.test(segment.split(';', 1)[0]!);
	if ([pathPart, decoded].some((form) => form.split('/').some(dotSegment))) return LEAVES_THE_SERVICE;
	return undefined;
}

/** Whether `href` reads as a URL on the service's origin, under its root path (`root`, no trailing "/"), with no user or password. */
export function staysOnService(href: string, origin: string, root: string): boolean {
	const url = URL.parse(href);
	return url !== null && url.origin === origin && url.username === '' && url.password === '' && (url.pathname === root || url.pathname.startsWith(`${root}/`));
}

/**
 * The URL `path` (and `query`) names on the service at `serviceUrl`, or why it is refused: the path as
 * pathRefusal reads it, and the URL built from it must stay on the service (staysOnService); each is
 * tested on its own, so neither leans on the other.
 */
export function serviceUrlFor(serviceUrl: string, path: string, query?: Record<string, string>): Checked<string> {
	if (path.length > MAX_PATH_CHARS) return fail(`The path is ${path.length} characters; at most ${MAX_PATH_CHARS} are accepted.`);
	let service: URL;
	try {
		service = new URL(serviceUrl);
	} catch {
		return fail('The account\'s service URL cannot be read; log in again.');
	}
	const refusal = pathRefusal(path);
	if (refusal !== undefined) return fail(refusal);
	const root = withoutTrailingSlashes(service.pathname);
	const href = `${service.origin}${root}${path}`;
	// Stryker disable next-line ConditionalExpression: unreachable
	if (!staysOnService(href, service.origin, root)) return fail(LEAVES_THE_SERVICE);
	const url = new URL(href);
	for (const [name, value] of Object.entries(query ?? {})) url.searchParams.append(name, value);
	return { ok: true, value: url.href };
}

/**
 * The segments a server may route `path` by (a query after `?` ignored), in two forms: percent-decoded, and
 * as written (a router that keeps "%2F" inside a segment). In each, a segment's `;` parameters are dropped
 * as servlet-style routers drop them (`users;x=1` → `users`, `v1;` → `v1`, `%3B` decoded alike), and empty
 * segments (repeated or trailing slashes, a lone `;`) go. Undefined when the path does not decode.
 */
export function routedSegments(path: string): string[][] | undefined {
	const raw = path.split(/[?#]/, 1)[0]!; // split always gives one part, '' for an empty path
	const plain = fullyDecoded(raw);
	if (plain === undefined) return undefined;
	return [plain, raw].map((form) => form.split('/').map((segment) => segment.split(';', 1)[0]!).filter((segment) => segment !== ''));
}

const LOGS_IN = 'These tools never log in: the service\'s login and refresh routes (Auth/Login, Auth/RefreshToken) are not sent to. The person logs in in VS Code with "Telematics: Log In"; a token is refreshed by Telematics Auth itself.';

/**
 * Whether `path` names the service's login or refresh route (core/api/client.ts) as a router may read it:
 * any case, any prefix, percent-encoded, with `;` parameters, trailing dots or spaces, or any route that
 * begins so (`Auth/LoginWithCode`, `Auth/Refresh…`). A path that does not decode counts as one.
 */
export function namesLogin(path: string): boolean {
	const forms = routedSegments(path);
	if (forms === undefined) return true;
	return forms.some((segments) => segments.slice(1).some((next, i) => /^auth[. ]*$/i.test(segments[i]!) && /^(log-?in|refresh)/i.test(next)));
}

/** Query keys some servers route as another method than the one sent (`?_method=DELETE`), in lower case. */
const METHOD_OVERRIDE_KEYS: ReadonlySet<string> = new Set(['_method', 'x-http-method', 'x-http-method-override', 'x-method-override']);

/** Why the query of `href` is refused (a key that overrides the method, in any case or encoding), or undefined. */
function queryRefusal(href: string): string | undefined {
	for (const key of new URL(href).searchParams.keys()) {
		const folded = (fullyDecoded(key) ?? key).trim().toLowerCase();
		if (METHOD_OVERRIDE_KEYS.has(folded)) return `The query key "${folded}" is refused: some servers read it as another method than the one sent, so the question would be about the wrong request. Send the method itself.`;
	}
	return undefined;
}

/**
 * The URL of the request on the account's platform: a path on the service for the `user` host (below its
 * root path, as ever), on the host's origin for the others; the same path rules everywhere. Never the
 * service's login or refresh route (namesLogin), never a query key that overrides the method.
 */
export function platformUrlFor(serviceUrl: string, hosts: PlatformHosts | undefined, input: { host: HostKey; path: string; query?: Record<string, string> }): Checked<string> {
	let url: Checked<string>;
	if (input.host === 'user') url = serviceUrlFor(serviceUrl, input.path, input.query);
	else if (!hosts) return fail('The account\'s service URL is no platform origin; only its own paths ("host": "user") can be reached.');
	else url = serviceUrlFor(hosts[input.host], input.path, input.query);
	if (!url.ok) return url;
	if (namesLogin(input.path) || namesLogin(new URL(url.value).pathname)) return fail(LOGS_IN);
	const query = queryRefusal(url.value);
	return query === undefined ? url : fail(query);
}
