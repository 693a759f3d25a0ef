// Finding operations: by id, by the request a file or the agent makes, by words. Pure: no I/O, no `vscode`.
// With the description, it is a bundle of its own (dist/platform.js): the extension loads it on first
// use through load.ts; the demo service holds it. A catalog is built over a list of operations: the
// shipped description's, or that list merged with a host's OpenAPI document (openapiImport.ts).
import { OPERATIONS, type HostKey, type Operation } from './operations';

export { OPERATIONS } from './operations';
export type { NeededToken, Operation, Parameter } from './operations';

/** The operations and the ways to find one among them. */
export interface Catalog {
	readonly OPERATIONS: readonly Operation[];
	/** The shipped description's catalog: what cannot be undone is known only there. */
	readonly shipped: Catalog;
	operationById(id: string): Operation | undefined;
	operationFor(method: string, host: HostKey, path: string): Operation | undefined;
	searchOperations(query: string): Operation[];
	pathParameters(template: string, path: string): Record<string, string> | undefined;
	fillPath(op: Operation, values: Readonly<Record<string, unknown>>): { ok: true; path: string } | { ok: false; missing: string[] };
}

/** A segment percent-decoded (as the service decodes it before routing), or as it is when it does not decode. */
function decoded(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** The path's segments, percent-decoded and lower case (the service routes case-insensitively), without empty ones. */
function segments(path: string): string[] {
	return path.split('?')[0]!.split('/').filter((s) => s !== '').map((s) => decoded(s).toLowerCase());
}

const TEMPLATE_PART = /^\{[^}]+\}$/;

/**
 * The operation a request is, by method, host key and path (query ignored, case-insensitive, percent-decoded,
 * a trailing slash or none). A literal segment beats a `{parameter}` at the same place, so `/trips/get/v1/` is
 * the user's list and not a trip's details.
 */
function operationIn(operations: readonly Operation[], method: string, host: HostKey, path: string): Operation | undefined {
	const wanted = segments(path);
	let best: { op: Operation; literals: number } | undefined;
	for (const op of operations) {
		if (op.host !== host || op.method !== method.toUpperCase()) continue;
		const template = segments(op.path);
		if (template.length !== wanted.length) continue;
		let literals = 0;
		const fits = template.every((part, i) => {
			if (TEMPLATE_PART.test(part)) return wanted[i] !== '';
			literals++;
			return part === wanted[i];
		});
		if (fits && (!best || literals > best.literals)) best = { op, literals };
	}
	return best?.op;
}

/**
 * The values of a template's `{parameters}` in `path` (percent-decoded), when `path` fits `template` (as
 * operationFor matches: case-insensitive literals, query ignored, a trailing slash or none); else undefined.
 */
export function pathParameters(template: string, path: string): Record<string, string> | undefined {
	const parts = template.split('/').filter((s) => s !== '');
	const wanted = path.split('?')[0]!.split('/').filter((s) => s !== '');
	if (parts.length !== wanted.length) return undefined;
	const values: Record<string, string> = {};
	for (const [i, part] of parts.entries()) {
		const actual = wanted[i]!;
		if (TEMPLATE_PART.test(part)) {
			try {
				values[part.slice(1, -1)] = decodeURIComponent(actual);
			} catch {
				return undefined;
			}
		} else if (part.toLowerCase() !== actual.toLowerCase()) {
			return undefined;
		}
	}
	return values;
}

/**
 * The operation's path with its `{parameters}` filled from `values` (each percent-encoded as one segment),
 * or the names of those missing or empty.
 */
export function fillPath(op: Operation, values: Readonly<Record<string, unknown>>): { ok: true; path: string } | { ok: false; missing: string[] } {
	const missing: string[] = [];
	const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
		const value = values[name];
		if ((typeof value !== 'string' && typeof value !== 'number') || String(value) === '') {
			missing.push(name);
			return '';
		}
		return encodeURIComponent(String(value));
	});
	return missing.length ? { ok: false, missing } : { ok: true, path };
}

/**
 * The operations whose id, path, summary or method hold every word of `query` (case-insensitive); all of
 * them for an empty query. In the description's order.
 */
function searchIn(operations: readonly Operation[], query: string): Operation[] {
	const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
	return operations.filter((op) => {
		const text = `${op.id} ${op.method} ${op.host} ${op.path} ${op.summary}`.toLowerCase();
		return words.every((word) => text.includes(word));
	});
}

/** The catalog of `operations`; `shipped` is the shipped description's (itself when left out). */
export function catalogOf(operations: readonly Operation[], shipped?: Catalog): Catalog {
	const catalog: Catalog = {
		OPERATIONS: operations,
		get shipped() {
			return shipped ?? catalog;
		},
		operationById: (id) => operations.find((op) => op.id === id),
		operationFor: (method, host, path) => operationIn(operations, method, host, path),
		searchOperations: (query) => searchIn(operations, query),
		pathParameters,
		fillPath,
	};
	return catalog;
}

/** The shipped description's catalog. */
export const SHIPPED: Catalog = catalogOf(OPERATIONS);

/** The operation with this id, in the shipped description. */
export const operationById = SHIPPED.operationById;
/** The operation a request is (as operationIn reads it), in the shipped description. */
export const operationFor = SHIPPED.operationFor;
/** The operations that hold every word of a query (as searchIn reads it), in the shipped description. */
export const searchOperations = SHIPPED.searchOperations;
