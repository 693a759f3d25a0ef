// Completion of the platform's paths in a request line: after `GET https://api.telematicssdk.com/`, the
// paths that host serves for that method. Pure: no I/O, no `vscode`.
import type { Operation } from './operations';
import { HOST_KEYS, type HostKey, type PlatformHosts } from './hosts';

/** A request line up to the cursor: an optional method, an http(s) origin, and the path typed so far (no space, no query yet). */
const LINE = /^(\s*(?:([A-Za-z]+)[ \t]+)?)(https?:\/\/[^/\s?#]+)(\/[^\s?#]*)?$/;

/** Origin → the host keys it serves, over every account's platform (the demo serves every key on one origin). */
export function originIndex(platforms: Iterable<PlatformHosts>): Map<string, Set<HostKey>> {
	const index = new Map<string, Set<HostKey>>();
	for (const hosts of platforms) {
		for (const key of HOST_KEYS) (index.get(hosts[key]) ?? index.set(hosts[key], new Set()).get(hosts[key])!).add(key);
	}
	return index;
}

export interface PathCompletions {
	/** Where the typed path starts in the line (the replaced range runs from here to the cursor). */
	pathStart: number;
	typed: string;
	operations: Operation[];
}

/**
 * The operations (of `operations`, the description's: the catalog loads on first use) to offer for `before` (the line's text before the cursor): those of the hosts its origin
 * serves, for its method (any method when the line names none); undefined when the line is not a request
 * line to a platform host.
 */
export function pathCompletions(before: string, index: ReadonlyMap<string, ReadonlySet<HostKey>>, operations: readonly Operation[]): PathCompletions | undefined {
	const match = LINE.exec(before);
	if (!match) return undefined;
	let origin: string;
	try {
		origin = new URL(match[3]!).origin;
	} catch {
		return undefined;
	}
	const keys = index.get(origin);
	if (!keys) return undefined;
	const method = match[2]?.toUpperCase();
	const offered = operations.filter((op) => keys.has(op.host) && (method === undefined || op.method === method));
	return { pathStart: match[1]!.length + match[3]!.length, typed: match[4] ?? '', operations: offered };
}
