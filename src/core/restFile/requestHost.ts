// Where a request in a REST file goes (when the file says it), which requests send what a place in the file
// holds (a request, or a file variable other requests read), and whether a host is the account's site.
import { bareHostname, isLoopbackHost } from '../util/url';
import { lineAt, requestAt, type ParsedFile, type ParsedRequest } from './requestParser';

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

const WORD_CHARACTER = /[\w$]/;

/** Whether `name` stands in `text` as a whole word (no letter, digit, `_` or `$` either side). */
function holdsWord(text: string, name: string): boolean {
	for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
		const before = text[at - 1];
		const after = text[at + name.length];
		if ((before === undefined || !WORD_CHARACTER.test(before)) && (after === undefined || !WORD_CHARACTER.test(after))) return true;
	}
	return false;
}

/**
 * Whether a `{{…}}` in `text` may read one of `names`: `{{name}}`, or an expression (httpYac runs
 * JavaScript there) that holds the name as a word. Generous on purpose: a false yes costs a question.
 */
function mentionsAny(text: string, names: ReadonlySet<string>): boolean {
	for (const match of text.matchAll(/\{\{([^]*?)\}\}/g)) {
		for (const name of names) if (holdsWord(match[1]!, name)) return true;
	}
	return false;
}

/** A request's name (`# @name trips`, `// @name=trips`), which other requests read its headers by. */
const REQUEST_NAME = /^\s*(?:#|\/\/)\s*@name\s*[=\s]\s*(\S+)\s*$/;

function requestName(file: ParsedFile, request: ParsedRequest): string | undefined {
	for (let line = request.blockStart; line < request.requestLine; line++) {
		const name = REQUEST_NAME.exec(file.lines[line]!.text)?.[1];
		if (name) return name;
	}
	return undefined;
}

/** Where a token is: in these requests, in these file variables. */
export interface TokenPlaces {
	requests?: readonly ParsedRequest[];
	variables?: readonly string[];
}

/**
 * Every request that sends what `places` hold once the requests run: the requests themselves, those
 * that read one of the variables, and those that read a named one among them (REST Client's
 * `{{trips.request.headers.Authorization}}`), through file variables built from any of these, however deep.
 */
export function requestsSending(file: ParsedFile, places: TokenPlaces): ParsedRequest[] {
	const sending = new Set(places.requests ?? []);
	const names = new Set(places.variables ?? []);
	const definitions = new Set(file.variables.map((v) => v.line));
	const blockText = (request: ParsedRequest): string => file.lines.slice(request.blockStart, request.blockEnd + 1)
		.filter((_, i) => !definitions.has(request.blockStart + i)).map((line) => line.text).join('\n');
	for (let grown = true; grown;) {
		grown = false;
		for (const request of sending) {
			const name = requestName(file, request);
			if (name !== undefined && !names.has(name)) {
				names.add(name);
				grown = true;
			}
		}
		for (const variable of file.variables) {
			if (!names.has(variable.name) && mentionsAny(variable.value, names)) {
				names.add(variable.name);
				grown = true;
			}
		}
		for (const request of file.requests) {
			if (!sending.has(request) && names.size > 0 && mentionsAny(blockText(request), names)) {
				sending.add(request);
				grown = true;
			}
		}
	}
	return file.requests.filter((request) => sending.has(request));
}

/**
 * The hosts that receive what sits at `offsets` once the requests run: in a file variable's value,
 * every request that reads the variable; elsewhere, the request around it and those that read it.
 */
export function receivingHostsAt(file: ParsedFile, offsets: readonly number[]): (string | undefined)[] {
	const requests: ParsedRequest[] = [];
	const variables: string[] = [];
	for (const offset of offsets) {
		const line = lineAt(file.lines, offset);
		const variable = file.variables.find((v) => v.line === line);
		const request = variable ? undefined : requestAt(file, offset);
		if (variable) variables.push(variable.name);
		else if (request) requests.push(request);
	}
	return requestHosts(file, requestsSending(file, { requests, variables }));
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
