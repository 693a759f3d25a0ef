// The operations on the platform that cannot be undone, by method and path: deleting a user (and all their
// data), an application or an instance, and moving a user to another instance. They are asked about on
// every account, production or not, with no snooze. The facts are the platform's (the vendor's agent-skill
// references); one function, so that their source can change without its callers. Pure: no `vscode`.
import { fullyDecoded } from './serviceRequest';

export interface IrreversibleOperation {
	/** What it does, in words: "Delete a user and all their data". */
	name: string;
	/** What it acts on, in words: `the user with the device token "…"`. */
	target: string;
}

/** Longest part of a target shown; the rest is cut with an ellipsis. */
const MAX_TARGET_CHARS = 80;

interface Rule {
	method: string;
	/** Matched against the end of the path, decoded and as written, without case (the platform's routes ignore it). */
	path: RegExp;
	name: string;
	target: (segment: string) => string;
}

const shown = (segment: string): string => {
	const text = segment.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
	return text.length > MAX_TARGET_CHARS ? `${text.slice(0, MAX_TARGET_CHARS - 1)}…` : text;
};

const RULES: readonly Rule[] = [
	{ method: 'DELETE', path: /\/v1\/management\/users\/([^/]+)$/i, name: 'Delete a user and all their data', target: (s) => `the user with the device token "${shown(s)}"` },
	{ method: 'POST', path: /\/v1\/management\/users\/instances\/change$/i, name: 'Move a user to another instance', target: () => 'the user and the instance named in the request body (DeviceToken, ToInstanceId)' },
	{ method: 'DELETE', path: /\/v1\/applications\/applications\/([^/]+)$/i, name: 'Delete an application', target: (s) => `the application "${shown(s)}"` },
	{ method: 'DELETE', path: /\/v1\/instances\/([^/]+)$/i, name: 'Delete an instance', target: (s) => `the instance "${shown(s)}"` },
];

/**
 * The irreversible operation `method` `path` is, or undefined. `path` is the request's path (a query after
 * `?` is ignored), read as a server that routes it would: percent-decoded, repeated and trailing slashes
 * folded, any prefix before the operation's own path (a service URL with a path of its own) allowed. A path
 * that does not decode is treated as irreversible for every changing method, since nobody can say what it names.
 */
export function irreversibleOperation(method: string, path: string): IrreversibleOperation | undefined {
	const verb = method.toUpperCase();
	const raw = path.split(/[?#]/, 1)[0]!; // split always gives one part, '' for an empty path
	const plain = fullyDecoded(raw);
	if (plain === undefined) return verb === 'GET' || verb === 'HEAD' ? undefined : { name: 'An operation whose path cannot be read', target: `the path "${shown(raw)}"` };
	const fold = (text: string): string => text.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
	// Both as decoded and as written: a router that keeps "%2F" inside a segment reads `users/a%2Fb` as one id.
	for (const form of [fold(plain), fold(raw)]) {
		for (const rule of RULES) {
			if (rule.method !== verb) continue;
			const match = rule.path.exec(form);
			if (!match) continue;
			// Stryker disable next-line StringLiteral: equivalent
			const [, segment = ''] = match;
			return { name: rule.name, target: rule.target(segment) };
		}
	}
	return undefined;
}
