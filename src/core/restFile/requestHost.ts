// Where a request in a REST file goes, when the file says it (a literal URL, or one built from the file's
// own variables), and whether that is the account's service: the same site by the public suffix list.
import { bareHostname, isLoopbackHost } from '../util/url';
import type { ParsedFile, ParsedRequest } from './requestParser';

/** Longest target read while its variables are filled in: an authority comes long before it. */
const MAX_TARGET = 4096;
/** How many references are filled in, at most, before the authority must be known. */
const MAX_FILLS = 64;
/** `https://authority` and what ends it. */
const AUTHORITY = /^https?:\/\/[^/?#\\]*[/?#\\]/i;
/** A `{{name}}` reference, where the search stands. */
const REFERENCE = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/y;

/**
 * The target as far as it decides the host: the references before the authority ends filled in
 * from the file's variables, one at a time, left to right (never the rest: variables that each
 * repeat the next one many times would grow the whole without bound); undefined when the file does
 * not say it (an unknown name, an expression, or no authority within MAX_FILLS and MAX_TARGET).
 */
function knownPrefix(target: string, variables: ReadonlyMap<string, string>): string | undefined {
	let current = target.slice(0, MAX_TARGET);
	for (let fill = 0; fill <= MAX_FILLS; fill++) {
		const open = current.indexOf('{{');
		if (open < 0) return current;
		const authority = AUTHORITY.exec(current.slice(0, open))?.[0];
		if (authority !== undefined) return authority;
		REFERENCE.lastIndex = open;
		const reference = REFERENCE.exec(current);
		const value = reference && variables.get(reference[1]!);
		if (!reference || value === undefined) return undefined;
		current = (current.slice(0, open) + value + current.slice(open + reference[0].length)).slice(0, MAX_TARGET);
	}
	return undefined;
}

/**
 * The host (lower case, no port) a request line names, or undefined when the file does not say. A
 * reference the file cannot fill (an environment's, a script's) after the host leaves the host known.
 */
export function requestLineHost(line: string, variables: ReadonlyMap<string, string>): string | undefined {
	const parts = line.trim().split(/\s+/);
	const target = parts.length > 1 && /^[A-Z]+$/i.test(parts[0]!) ? parts[1] : parts[0];
	const known = target ? knownPrefix(target, variables) : undefined;
	if (!known || !/^https?:\/\//i.test(known)) return undefined;
	try {
		return bareHostname(new URL(known).hostname) || undefined;
	} catch {
		return undefined;
	}
}

/** The hosts `requests` name, one per distinct request, undefined where the file does not say. */
export function requestHosts(file: ParsedFile, requests: Iterable<ParsedRequest | undefined>): (string | undefined)[] {
	const variables = new Map(file.variables.map((v) => [v.name, v.value.trim()]));
	const seen = new Set<number>();
	const hosts: (string | undefined)[] = [];
	for (const request of requests) {
		if (!request || seen.has(request.requestLine)) continue;
		seen.add(request.requestLine);
		hosts.push(requestLineHost(file.lines[request.requestLine]!.text, variables));
	}
	return hosts;
}

/**
 * Whether a request to `host` stays with the service at `serviceUrl`: the same registrable domain
 * by the public suffix list (the vendor serves one platform from `user.`, `api.` and
 * `portal-apis.` of one domain), the same address for IPs and names without one, and loopback
 * with loopback.
 */
export async function isSameSite(host: string, serviceUrl: string): Promise<boolean> {
	let service: string;
	try {
		service = bareHostname(new URL(serviceUrl).hostname);
	} catch {
		return false;
	}
	const target = host.toLowerCase();
	if (target === service) return true;
	if (isLoopbackHost(target) && isLoopbackHost(service)) return true;
	const { getDomain } = await import('./publicSuffix');
	const a = getDomain(target, { allowPrivateDomains: true });
	const b = getDomain(service, { allowPrivateDomains: true });
	return a !== null && a === b;
}
