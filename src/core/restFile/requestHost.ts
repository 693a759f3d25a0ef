// Where a request in a REST file goes, when the file says it (a literal URL, or one built from the file's
// own variables), and whether that is the account's service: the same site by the public suffix list.
import { bareHostname, isLoopbackHost } from '../util/url';
import { requestAt, type ParsedFile } from './requestParser';

/** `{{name}}` references resolved from the file's variables, a few levels deep; undefined when one stays unknown. */
function resolveVariables(value: string, variables: ReadonlyMap<string, string>): string | undefined {
	let current = value;
	for (let depth = 0; depth < 8 && current.includes('{{'); depth++) {
		let unknown = false;
		current = current.replace(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g, (_, name: string) => {
			const found = variables.get(name);
			if (found === undefined) unknown = true;
			return found ?? '';
		});
		if (unknown) return undefined;
	}
	return current.includes('{{') ? undefined : current;
}

/** The host (lower case, no port) a request line names, or undefined when the file does not say. */
export function requestLineHost(line: string, variables: ReadonlyMap<string, string>): string | undefined {
	const parts = line.trim().split(/\s+/);
	const target = parts.length > 1 && /^[A-Z]+$/i.test(parts[0]!) ? parts[1] : parts[0];
	if (!target) return undefined;
	const resolved = resolveVariables(target, variables);
	if (!resolved || !/^https?:\/\//i.test(resolved)) return undefined;
	try {
		return bareHostname(new URL(resolved).hostname) || undefined;
	} catch {
		return undefined;
	}
}

/** The hosts the requests under `offsets` name, one each, undefined where the file does not say. */
export function requestHostsAt(file: ParsedFile, offsets: readonly number[]): (string | undefined)[] {
	const variables = new Map(file.variables.map((v) => [v.name, v.value.trim()]));
	const seen = new Set<number>();
	const hosts: (string | undefined)[] = [];
	for (const offset of offsets) {
		const request = requestAt(file, offset);
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
