// The operations on the platform that cannot be undone: those the shipped description marks `irreversible`
// (deleting a user and all their data, an application or an instance, moving a user to another instance).
// They are asked about on every account, production or not, with no snooze. Only the shipped description
// knows them: an operation read from a host's OpenAPI document never makes a request less guarded. Pure:
// no `vscode`.
import type { Platform } from '../platform/load';
import { HOST_KEYS } from '../platform/hosts';
import { routedSegments } from '../platform/servicePath';
import { operationTarget } from './serviceRequest';

export interface IrreversibleOperation {
	/** What it does, in words: "Delete the user and all their data". */
	name: string;
	/** What it acts on, in words: `DeviceToken "…"`. */
	target: string;
}

/** Longest target shown; the rest is cut with an ellipsis. */
const MAX_TARGET_CHARS = 120;

const shown = (text: string): string => {
	const plain = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
	return plain.length > MAX_TARGET_CHARS ? `${plain.slice(0, MAX_TARGET_CHARS - 1)}…` : plain;
};

/**
 * The irreversible operation `method` `path` is, or undefined. `path` is the request's path (a query after
 * `?` is ignored), read as a server that routes it would: percent-decoded, and as written (a router that
 * keeps "%2F" inside a segment reads `users/a%2Fb` as one id), `;` parameters dropped from each segment as
 * servlet-style routers drop them (`/v1;/Management/users;x/abc`), repeated and trailing slashes folded, any
 * prefix before the operation's own path (a service URL with a path of its own) allowed, on any host of
 * the platform (several may share an origin). A path that does not decode is treated as irreversible for
 * every changing method, since nobody can say what it names. `body`: the request's, to name the target of
 * an operation with no path parameters.
 */
export function irreversibleOperation(method: string, path: string, platform: Platform, body?: string): IrreversibleOperation | undefined {
	const verb = method.toUpperCase();
	const forms = routedSegments(path);
	if (forms === undefined) return verb === 'GET' || verb === 'HEAD' ? undefined : { name: 'An operation whose path cannot be read', target: `the path "${shown(path.split(/[?#]/, 1)[0]!)}"` };
	const { shipped } = platform;
	for (const segments of forms) {
		// Stryker disable next-line EqualityOperator: equivalent
		for (let start = 0; start < segments.length; start++) {
			const own = `/${segments.slice(start).join('/')}`;
			for (const key of HOST_KEYS) {
				const op = shipped.operationFor(verb, key, own);
				if (!op?.irreversible) continue;
				const target = operationTarget(shipped, op, own, body);
				return { name: op.irreversible, target: target ? shown(target) : `what the request body names (${op.parameters.filter((p) => p.in === 'body' && p.required).map((p) => p.name).join(', ')})` };
			}
		}
	}
	return undefined;
}
