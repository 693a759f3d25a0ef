// Where a request in a REST file goes, when the file says it (a literal URL, or one built from the file's
// own variables), and whether that is the account's service: the same site by the public suffix list.
import { bareHostname, isLoopbackHost } from '../util/url';
import type { ParsedFile, ParsedRequest } from './requestParser';

/** `{{name}}` references filled from the file's variables, a few levels deep; a reference it cannot fill stays. */
function resolveVariables(value: string, variables: ReadonlyMap<string, string>): string {
	let current = value;
	for (let depth = 0; depth < 8 && current.includes('{{'); depth++) {
		const next = current.replace(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g, (whole, name: string) => variables.get(name) ?? whole);
		if (next === current) break;
		current = next;
	}
	return current;
}

/**
 * The host (lower case, no port) a request line names, or undefined when the file does not say. A
 * reference the file cannot fill (an environment's, a script's) after the host leaves the host known.
 */
export function requestLineHost(line: string, variables: ReadonlyMap<string, string>): string | undefined {
	const parts = line.trim().split(/\s+/);
	const target = parts.length > 1 && /^[A-Z]+$/i.test(parts[0]!) ? parts[1] : parts[0];
	if (!target) return undefined;
	const resolved = resolveVariables(target, variables);
	const unfilled = resolved.indexOf('{{');
	const known = unfilled < 0 ? resolved : /^https?:\/\/[^/?#\\]*[/?#\\]/i.exec(resolved.slice(0, unfilled))?.[0];
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
