// Where a request in a REST file goes, read as REST Client and httpYac read it, and whether that is the
// account's service (its scheme, its port, the same site by the public suffix list). Where the file does
// not say, or the two clients could read it two ways, or the file holds anything outside the allow-list
// (requestShape.ts), the answer says so, and the person is asked: a host this code cannot read never
// counts as safe.
import { bareHostname, isLoopbackHost } from '../util/url';
import type { ParsedFile, ParsedRequest } from './requestParser';
import { outsideAllowList } from './requestShape';

/** Longest target read while its variables are filled in: an authority comes long before it (one that does not end within it does not say). */
const MAX_TARGET = 4096;
/** How many references are filled in, at most, in one reading before the authority must be known. */
const MAX_FILLS = 64;
/** How many readings of one target (a variable defined more than once) are followed before it counts as not said. */
const MAX_READINGS = 16;
/**
 * A `{{name}}` reference, where the search stands: a plain name only. A dotted one (`{{svc.url}}`) httpYac
 * fills from an object of the environments, or by running it as JavaScript, and REST Client from a named
 * request's response: none of them a value of a name, so it does not say.
 */
const REFERENCE = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/y;
/** `scheme://authority` and what ends the authority (never `\`: some clients take it for a path, others not). */
const AUTHORITY = /^(https?):\/\/([^/?#]*)([/?#]|$)/i;
/** An authority both clients read alike: no userinfo, whitespace, backslash, control character, brace or escape. */
const PLAIN_AUTHORITY = /^[^\s@\\{}%\x00-\x1f\x7f]+$/;
/**
 * A request line's ` HTTP/1.1` version. Only from the start of a run of whitespace (`(?<!\s)`): tried
 * from every space of a long run, the search was quadratic in it.
 */
const VERSION = /(?<!\s)\s+HTTP\/\d+(\.\d+)?\s*$/i;
/** A method before the target. */
const METHOD = /^[A-Za-z]+[ \t]+/;
/**
 * Any line that defines a variable, as REST Client reads them: on every line of the file, bodies
 * included, with any name that holds no space or `=`.
 */
const ANY_DEFINITION = /^\s*@([^\s=]+)\s*=([^]*)/;
/** What a pattern's `.` does not take (REST Client's `=\s*(.*?)\s*$`): one inside the value means no definition. */
const NOT_DOT = /[\n\r\u2028\u2029]/;

/** Every value each name is given anywhere in the file: a client may take any of them. */
export type VariableReadings = ReadonlyMap<string, readonly string[]>;

export function variableReadings(file: ParsedFile): VariableReadings {
	const readings = new Map<string, string[]>();
	for (const { name, value } of anyDefinitions(file)) {
		const values = readings.get(name) ?? readings.set(name, []).get(name)!;
		if (!values.includes(value)) values.push(value);
	}
	return readings;
}

/** Every line that defines a variable as REST Client reads them (bodies included, any name): its name and value. */
export function anyDefinitions(file: ParsedFile): { line: number; name: string; value: string }[] {
	const found: { line: number; name: string; value: string }[] = [];
	file.lines.forEach(({ text }, line) => {
		const m = ANY_DEFINITION.exec(text);
		if (!m) return;
		// REST Client's `=\s*(.*?)\s*$`, read in one pass: the lazy `(.*?)` tried the end at every character
		// of a run of spaces, quadratic in it. Its value is the rest trimmed, with nothing `.` refuses inside.
		const value = m[2]!.trim();
		if (!NOT_DOT.test(value)) found.push({ line, name: m[1]!, value });
	});
	return found;
}

/**
 * A request's target as the clients send it: the request line after its method, inner whitespace
 * kept, up to a final ` HTTP/x`, with its continuation lines (`?`/`&` queries, indented parts) joined on.
 */
export function requestTarget(file: ParsedFile, request: ParsedRequest): string {
	const first = file.lines[request.requestLine]!.text.trim().replace(METHOD, '');
	const rest = file.lines.slice(request.requestLine + 1, request.urlEndLine + 1).map((l) => l.text.trim());
	return [first, ...rest].join('').replace(VERSION, '').slice(0, MAX_TARGET + 1);
}

/**
 * Where an authority sends a request, when both clients read it alike (else undefined): its host alone
 * for https on port 443, else `scheme://host:port` (`http://user.telematicssdk.com:8080`), so that a
 * destination says its scheme and port wherever they are not the https default.
 */
function hostOfAuthority(scheme: string, authority: string): string | undefined {
	if (!PLAIN_AUTHORITY.test(authority)) return undefined;
	// Stryker disable next-line MethodExpression: equivalent
	const url = `${scheme.toLowerCase()}://${authority}/`;
	if (!URL.canParse(url)) return undefined;
	const { hostname, port, protocol } = new URL(url);
	// Stryker disable next-line ConditionalExpression: equivalent
	if (!hostname) return undefined;
	if (protocol === 'https:' && port === '') return bareHostname(hostname);
	return `${protocol}//${hostname.toLowerCase()}${port ? `:${port}` : ''}`;
}

/** A destination's scheme, bare host and port (a bare host is https on 443); undefined when it is no URL. */
function originOf(destination: string): { scheme: string; host: string; port: string } | undefined {
	const url = destination.includes('://') ? destination : `https://${destination.includes(':') && !destination.startsWith('[') ? `[${destination}]` : destination}`;
	if (!URL.canParse(url)) return undefined;
	const { protocol, hostname, port } = new URL(url);
	// Stryker disable next-line StringLiteral,EqualityOperator: equivalent
	return { scheme: protocol, host: bareHostname(hostname), port: port || (protocol === 'https:' ? '443' : protocol === 'http:' ? '80' : '') };
}

/**
 * The hosts `target` reaches, one per reading of the file's variables (each reference before the
 * authority ends filled in, one at a time, left to right; never the rest, so variables that repeat
 * each other cannot grow it without bound). An entry is undefined where a reading does not say: an
 * unknown name, an expression, an authority the clients may read differently, a relative target
 * without a `Host` header, or past the bounds.
 */
export function targetHosts(target: string, variables: VariableReadings, hostHeader?: string): (string | undefined)[] {
	const hosts = new Set<string | undefined>();
	// Stryker disable next-line MethodExpression: memory
	let readings = [target.trim().slice(0, MAX_TARGET + 1)];
	for (let fill = 0; readings.length > 0; fill++) {
		if (fill > MAX_FILLS) return [undefined];
		const next: string[] = [];
		for (const current of readings) {
			const open = current.indexOf('{{');
			const head = open < 0 ? current : current.slice(0, open);
			const authority = AUTHORITY.exec(head);
			// Complete where something ends it, or the whole target was read (not cut at MAX_TARGET).
			// Stryker disable next-line EqualityOperator: equivalent
			if (authority && (authority[3] !== '' || (open < 0 && current.length <= MAX_TARGET))) {
				hosts.add(hostOfAuthority(authority[1]!, authority[2]!));
				continue;
			}
			// No scheme, and where it goes is decided before any reference: relative, or `host/path`.
			if (open < 0 || head.startsWith('/') || (!/^https?:/i.test(head) && /[/?#]/.test(head))) {
				hosts.add(schemelessHost(head, variables, hostHeader));
				continue;
			}
			REFERENCE.lastIndex = open;
			const reference = REFERENCE.exec(current);
			const values = reference ? variables.get(reference[1]!) : undefined;
			if (!reference || !values?.length) {
				hosts.add(undefined);
				continue;
			}
			// Stryker disable next-line MethodExpression: memory
			for (const value of values) next.push((current.slice(0, open) + value + current.slice(open + reference[0].length)).slice(0, MAX_TARGET + 1));
		}
		if (next.length > MAX_READINGS) return [undefined];
		readings = next;
	}
	return [...hosts];
}

/** A target without a scheme: relative (`/v1/x`: the `Host` header says where) or a bare `host/path` (http). */
function schemelessHost(target: string, variables: VariableReadings, hostHeader: string | undefined): string | undefined {
	if (target.startsWith('/')) {
		if (hostHeader === undefined) return undefined;
		const hosts = targetHosts(`http://${hostHeader}/`, variables);
		return hosts.length === 1 ? hosts[0] : undefined;
	}
	if (/^[a-z][a-z0-9+.-]*:/i.test(target) && !/^[^/:]+:\d/.test(target)) return undefined; // another scheme
	const authority = target.split(/[/?#]/, 1)[0]!;
	return authority ? hostOfAuthority('http', authority) : undefined;
}

/** Where one request goes: its request line, and a host, or undefined where the file does not say. */
export interface Destination {
	readonly line: number;
	readonly host: string | undefined;
}

/** Why a file's requests do not say where they go, read once per parsed file. */
const outsideOf = new WeakMap<ParsedFile, string | undefined>();

/** Why `file` does not say where its requests go (requestShape.ts), or undefined: its requests are read. */
export function fileOutsideAllowList(file: ParsedFile): string | undefined {
	// Stryker disable next-line ConditionalExpression: speed
	if (!outsideOf.has(file)) outsideOf.set(file, outsideAllowList(file));
	return outsideOf.get(file);
}

/**
 * Where `requests` go, one entry per distinct request and host it may reach. Every request of a file
 * outside the allow-list, or of a folder whose configuration the check does not read (`outside`: why), does not say.
 */
export function requestDestinations(file: ParsedFile, requests: Iterable<ParsedRequest | undefined>, variables: VariableReadings = variableReadings(file), outside?: string): Destination[] {
	const unsaid = outside !== undefined || fileOutsideAllowList(file) !== undefined;
	const seen = new Set<number>();
	const destinations: Destination[] = [];
	const read = new Map<string, (string | undefined)[]>(); // requests alike are read once
	for (const request of requests) {
		if (!request || seen.has(request.requestLine)) continue;
		seen.add(request.requestLine);
		const hostHeader = request.headers.find((h) => h.name.toLowerCase() === 'host')?.value;
		const target = requestTarget(file, request);
		// Stryker disable next-line StringLiteral: equivalent
		const key = `${hostHeader ?? ''}\n${target}`;
		const hosts = unsaid ? [undefined] : read.get(key) ?? read.set(key, targetHosts(target, variables, hostHeader)).get(key)!;
		for (const host of hosts) destinations.push({ line: request.requestLine, host });
	}
	return destinations;
}

/**
 * Whether a request to `destination` (a host: https on 443; or `scheme://host:port`) stays with the
 * service at `serviceUrl`: the service's port, the service's scheme (https; a loopback service may be
 * reached over either), and the same registrable domain by the public suffix list (the vendor serves
 * one platform from `user.`, `api.` and `portal-apis.` of one domain), the same address for IPs and
 * names without one, and on loopback the same name or address: `127.0.0.2` or `localhost` (which may
 * resolve to `::1`) can be another user's server on the same port. `platformOrigins` (the account's
 * platform hosts, `telematicsAuth.platformHosts`, a user setting) count as the service by exact origin,
 * wherever their site is: the token is meant for them.
 */
// Stryker disable next-line ArrayDeclaration: equivalent
export async function isSameSite(destination: string, serviceUrl: string, platformOrigins: readonly string[] = []): Promise<boolean> {
	const service = URL.canParse(serviceUrl) ? originOf(serviceUrl) : undefined;
	const origin = originOf(destination);
	if (origin && platformOrigins.some((platform) => sameOrigin(origin, platform))) return true;
	if (!service || !origin || origin.port !== service.port) return false;
	// Stryker disable next-line LogicalOperator: equivalent
	const loopback = isLoopbackHost(origin.host) && isLoopbackHost(service.host);
	if (!loopback && (origin.scheme !== 'https:' || service.scheme !== 'https:')) return false;
	// Stryker disable next-line ConditionalExpression: equivalent
	if (loopback) return origin.host === service.host;
	const target = origin.host;
	if (target === service.host) return true;
	const { getDomain } = await import('./publicSuffix');
	const a = getDomain(target, { allowPrivateDomains: true });
	const b = getDomain(service.host, { allowPrivateDomains: true });
	return a !== null && a === b;
}

/** Whether `origin` (originOf) is exactly the origin `url` names: scheme, host and port. */
function sameOrigin(origin: { scheme: string; host: string; port: string }, url: string): boolean {
	const other = originOf(url);
	return other !== undefined && other.scheme === origin.scheme && other.host === origin.host && other.port === origin.port;
}
