// What the agent's `telematics_operations` tool answers: the platform's operations that match its words,
// each with its id, method, host key, path, the account kind it needs, whether it changes data or cannot be
// undone, and (for a few) its parameters, so the agent names an operation instead of guessing a path.
// Pure: no I/O, no `vscode`.
import { HOST_KEYS } from '../platform/hosts';
import type { Platform } from '../platform/load';
import type { NeededToken, Operation, Parameter } from '../platform/operations';

/** Up to this many operations are listed with their parameters; more are listed in one line each. */
export const DETAILED_OPERATIONS = 8;

const NEEDS: Record<NeededToken, string> = {
	admin: 'needs an admin account',
	user: 'needs a user account',
	none: 'takes no account token (InstanceId and InstanceKey headers; not sent by telematics_request)',
	unknown: 'needs an account of a kind nobody knows (read from the host\'s OpenAPI document, which cannot say; a 403 means the other kind)',
};

function effect(op: Operation): string {
	if (op.irreversible) return `changes data and cannot be undone (${op.irreversible}; the person is asked first)`;
	return op.changesData ? 'changes data (the person is asked first)' : 'reads only';
}

function parameter(p: Parameter): string {
	const example = p.example === undefined ? '' : `, e.g. ${JSON.stringify(p.example)}`;
	return `${p.name} (${p.in}, ${p.type}${p.required ? ', required' : ''}${example}): ${p.description}`;
}

function line(op: Operation, detailed: boolean): string {
	const head = `- ${op.id}: ${op.method} ${op.host} ${op.path} — ${op.summary}; ${NEEDS[op.token]}; ${effect(op)}.`;
	if (!detailed) return head;
	const parameters = op.parameters.length === 0 ? '  Parameters: none.' : `  Parameters:\n${op.parameters.map((p) => `    - ${parameter(p)}`).join('\n')}`;
	return `${head}\n${parameters}${op.contentType ? `\n  Body as ${op.contentType}; body fields with a dot (Identifiers.UserId) nest.` : ''}`;
}

/**
 * The tool's answer for its input: `operation` (one id, in full), or `query` (words of the id, path or
 * summary), narrowed by `host` (a host key) and `kind` (admin, user); every operation when none is given.
 */
export function describeOperations(input: unknown, platform: Platform): string {
	const { query, operation, host, kind } = (typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
	if (operation !== undefined) {
		const op = typeof operation === 'string' ? platform.operationById(operation.trim()) : undefined;
		return op ? line(op, true) : `No operation has the id "${String(operation).slice(0, 80)}". Search with "query" (words such as "trips" or "delete user").`;
	}
	if (host !== undefined && !HOST_KEYS.some((key) => key === host)) return `"host" must be one of ${HOST_KEYS.map((k) => `"${k}"`).join(', ')}.`;
	if (kind !== undefined && kind !== 'admin' && kind !== 'user') return '"kind" must be "admin" or "user".';
	const words = typeof query === 'string' ? query.slice(0, 200) : '';
	const found = platform.searchOperations(words).filter((op) => (host === undefined || op.host === host) && (kind === undefined || op.token === kind || op.token === 'unknown'));
	if (found.length === 0) return `No operation matches${words ? ` "${words}"` : ''}. Try fewer words, or leave "query" out to list them all.`;
	const detailed = found.length <= DETAILED_OPERATIONS;
	return [
		`${found.length} of the platform's ${platform.OPERATIONS.length} operations${words ? ` match "${words}"` : ''}. Call telematics_request with "operation": "<id>" (and "pathParameters" for each {name} in its path, "query" and "body" as listed); it goes to that host of the account's platform with an account of the kind needed.`,
		...found.map((op) => line(op, detailed)),
		...(detailed ? [] : [`Parameters are listed for ${DETAILED_OPERATIONS} operations or fewer: ask with "operation": "<id>", or with narrower words.`]),
	].join('\n');
}
