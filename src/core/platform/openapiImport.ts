// A platform host's OpenAPI document (`/swagger/v1/swagger.json`), read as data from a stranger: bounded
// (bytes, paths, operations, parameters, text), every path on the path grammar, methods and parameter
// places from allow-lists, every text that reaches a person, a REST file or the agent cut to a safe
// alphabet. Its internal `$ref`s are followed by @apidevtools/json-schema-ref-parser with external
// resolution off: a document cannot make us read a file or fetch a URL. Then merged with the shipped
// description, which keeps what OpenAPI cannot say (the account kind, what cannot be undone, the source).
// Its own bundle (dist/openapi.js), loaded when the person asks for it. Pure: no `vscode`.
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { pathRefusal, platformUrlFor } from './servicePath';
import { displayText } from '../util/displayText';
import type { Catalog } from './catalog';
import { HOST_KEYS, type HostKey, type PlatformHosts } from './hosts';
import type { Operation, Parameter, ParameterType } from './operations';

/** Where an ASP.NET host publishes its document. */
export const OPENAPI_PATH = '/swagger/v1/swagger.json';

/** What is read of a document, at most. */
export const LIMITS = {
	/** The transport reads no more either (core/api/transport.ts). */
	documentBytes: 1024 * 1024,
	paths: 500,
	operations: 1000,
	parameters: 40,
	bodyFields: 60,
	/** `Identifiers.UserId` is two deep. */
	bodyDepth: 3,
	pathChars: 256,
	summaryChars: 120,
	descriptionChars: 200,
	exampleChars: 100,
	arrayExamples: 10,
	/** The most time the dereferencer may spend. */
	dereferenceMs: 5_000,
} as const;

type Method = Operation['method'];
/** OpenAPI's method keys that are read; HEAD, OPTIONS and TRACE are not operations of the platform. */
const METHODS: ReadonlyMap<string, Method> = new Map([['get', 'GET'], ['post', 'POST'], ['put', 'PUT'], ['patch', 'PATCH'], ['delete', 'DELETE']]);
/** A path template: segments of URL-safe characters, or a whole `{name}`. */
const PATH_TEMPLATE = /^(\/([A-Za-z0-9._~-]+|\{[A-Za-z][A-Za-z0-9_]{0,63}\}))+\/?$/;
/** A parameter's or a body field's name (one segment): it becomes a query name, a header or a JSON key. */
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const OPERATION_ID = /^[A-Za-z][A-Za-z0-9_.-]{0,79}$/;
/** A JSON body's content type: `application/json`, `application/json-patch+json`, `text/json`, `application/*+json`. */
const JSON_CONTENT_TYPE = /^(application|text)\/[a-z0-9.+-]{0,60}json$/;
/** Headers the request's own lines set (the token, the body's type), or the connection's: never a parameter. */
const HTTP_OWN_HEADER = /^(authorization|cookie|host|connection|accept|accept-[a-z-]+|content-[a-z-]+|transfer-encoding|te|trailer|upgrade|proxy-[a-z-]+|keep-alive|expect)$/i;
/**
 * What a text from the document may hold once shown: letters, digits, spaces and plain punctuation. No
 * braces (`{{…}}` runs in httpYac and expands in REST Client), backslashes, quotes, backticks, `$` or `#`.
 */
const TEXT_CHAR = /[^\p{L}\p{N} .,:;!?()[\]/+*=<>|~^&%'_@-]/gu;
/** The service's Login and RefreshToken (core/api/client.ts): the extension's own business, never an operation to offer. */
const AUTH_PATH = /^\/v1\/auth\/(login|refreshtoken)\/?$/i;
/** An example value: what a REST file may carry as a value, never a variable or a script. */
const EXAMPLE = /^[\p{L}\p{N} ._:+/@,()-]*$/u;

/** One operation as a document says it, checked. */
export interface ReadOperation {
	readonly method: Method;
	readonly path: string;
	readonly summary: string;
	readonly operationId?: string;
	readonly contentType?: string;
	readonly parameters: readonly Parameter[];
}

export type OpenApiReading =
	| { ok: true; operations: ReadOperation[]; skipped: number }
	| { ok: false; reason: string };

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A text from the document as it may be shown: one line, in the safe alphabet, never starting with `@` (a REST file's metadata), cut. */
export function safeText(value: unknown, max: number): string {
	if (typeof value !== 'string') return '';
	return displayText(value.replace(TEXT_CHAR, ' '), max).replace(/^[@\s]+/, '');
}

/** The parameter type a schema says; a string when it says none that is known. */
function typeOf(schema: JsonObject): ParameterType {
	// A reference left unfollowed (outside the document): a shape nobody knows.
	if (typeof schema.$ref === 'string') return 'object';
	const declared = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
	switch (declared) {
		case 'string':
			return schema.format === 'date' ? 'date' : schema.format === 'date-time' ? 'date-time' : 'string';
		case 'integer':
		case 'number':
			return 'integer';
		case 'boolean':
			return 'boolean';
		case 'array':
			return 'array';
		case 'object':
			return 'object';
		default:
			return isObject(schema.properties) ? 'object' : 'string';
	}
}

/** The first example the document gives that fits `type` and the example alphabet; undefined when none does. */
function exampleOf(type: ParameterType, candidates: readonly unknown[]): Parameter['example'] {
	const fits = (v: unknown): v is string => typeof v === 'string' && v.length <= LIMITS.exampleChars && EXAMPLE.test(v);
	for (const value of candidates) {
		if (type === 'integer' && typeof value === 'number' && Number.isFinite(value)) return value;
		if (type === 'boolean' && typeof value === 'boolean') return value;
		if ((type === 'string' || type === 'date' || type === 'date-time') && fits(value)) return value;
		if (type === 'array' && Array.isArray(value) && value.length <= LIMITS.arrayExamples && value.every(fits)) return value as string[];
	}
	return undefined;
}

function parameter(name: string, place: Parameter['in'], schema: JsonObject, required: boolean, description: unknown, example: unknown): Parameter {
	const type = typeOf(schema);
	// A path parameter's example is one whole segment: never empty, `.`, `..` or with a `/` (requestText.ts, pathValue).
	const candidates = [example, schema.example, schema.default, Array.isArray(schema.enum) ? schema.enum[0] : undefined].filter((v) => place !== 'path' || typeof v !== 'string' || !(v === '' || v === '.' || v === '..' || v.includes('/')));
	const found = exampleOf(type, candidates);
	return { name, in: place, type, required, description: safeText(description ?? schema.description, LIMITS.descriptionChars), ...(found !== undefined && { example: found }) };
}

/** A path, query or header parameter object, checked; undefined when it is none that is read. */
function readParameter(value: unknown): Parameter | undefined {
	if (!isObject(value) || typeof value.name !== 'string' || !NAME.test(value.name)) return undefined;
	const place = value.in;
	if (place !== 'path' && place !== 'query' && place !== 'header') return undefined;
	if (place === 'header' && HTTP_OWN_HEADER.test(value.name)) return undefined;
	const schema = isObject(value.schema) ? value.schema : {};
	return parameter(value.name, place, schema, place === 'path' || value.required === true, value.description, value.example);
}

/** A schema's properties and required names, `allOf` folded in (one level). */
function propertiesOf(schema: JsonObject): { properties: Array<[string, unknown]>; required: Set<string> } {
	const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.slice(0, 10).filter(isObject) : [])];
	const properties: Array<[string, unknown]> = [];
	const required = new Set<string>();
	for (const part of parts) {
		if (isObject(part.properties)) properties.push(...Object.entries(part.properties).slice(0, LIMITS.bodyFields));
		if (Array.isArray(part.required)) for (const name of part.required.slice(0, LIMITS.bodyFields)) if (typeof name === 'string') required.add(name);
	}
	return { properties, required };
}

/** A body schema's fields as dotted names (`Identifiers.UserId`), at most LIMITS.bodyFields, LIMITS.bodyDepth deep. */
function bodyFields(schema: JsonObject): Parameter[] {
	const fields: Parameter[] = [];
	const walk = (node: JsonObject, prefix: string, depth: number, parentRequired: boolean): void => {
		const { properties, required } = propertiesOf(node);
		for (const [name, value] of properties) {
			if (fields.length >= LIMITS.bodyFields) return;
			if (!NAME.test(name) || !isObject(value) || fields.some((f) => f.name.toLowerCase() === `${prefix}${name}`.toLowerCase())) continue;
			const isRequired = parentRequired && required.has(name);
			if (typeOf(value) === 'object' && depth < LIMITS.bodyDepth && propertiesOf(value).properties.length > 0) {
				walk(value, `${prefix}${name}.`, depth + 1, isRequired);
			} else {
				fields.push(parameter(`${prefix}${name}`, 'body', value, isRequired, value.description, value.example));
			}
		}
	};
	walk(schema, '', 1, true);
	return fields;
}

/** The request body's content type and fields, when it is JSON. */
function readBody(value: unknown): { contentType: string; fields: Parameter[] } | undefined {
	if (!isObject(value) || !isObject(value.content)) return undefined;
	for (const [type, media] of Object.entries(value.content)) {
		const contentType = type.split(';')[0]!.trim().toLowerCase();
		if (!JSON_CONTENT_TYPE.test(contentType) || !isObject(media)) continue;
		return { contentType, fields: isObject(media.schema) ? bodyFields(media.schema) : [] };
	}
	return undefined;
}

function readOperation(method: Method, path: string, value: JsonObject, shared: readonly unknown[]): ReadOperation {
	const byPlace = new Map<string, Parameter>();
	for (const raw of [...shared, ...(Array.isArray(value.parameters) ? value.parameters : [])].slice(0, LIMITS.parameters * 2)) {
		const p = readParameter(raw);
		// An operation's own parameter replaces the path item's of the same name and place, as OpenAPI says.
		if (p) byPlace.set(`${p.in}:${p.name.toLowerCase()}`, p);
	}
	const template = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
	const parameters = [...byPlace.values()].filter((p) => p.in !== 'path' || template.includes(p.name));
	for (const name of template) {
		if (!parameters.some((p) => p.in === 'path' && p.name === name)) parameters.unshift({ name, in: 'path', type: 'string', required: true, description: '' });
	}
	const body = readBody(value.requestBody);
	const summary = safeText(value.summary, LIMITS.summaryChars) || safeText(value.description, LIMITS.summaryChars) || `${method} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
	return {
		method,
		path,
		summary,
		...(typeof value.operationId === 'string' && OPERATION_ID.test(value.operationId) && { operationId: value.operationId }),
		...(body && { contentType: body.contentType }),
		parameters: [...parameters, ...(body?.fields ?? [])].slice(0, LIMITS.parameters + LIMITS.bodyFields),
	};
}

/** Whether `path` is a path template that is read: on the grammar, and nothing a server may read as leaving the host. */
export function isSafePathTemplate(path: string): boolean {
	return path.length <= LIMITS.pathChars && PATH_TEMPLATE.test(path) && pathRefusal(path) === undefined;
}

/**
 * The operations of a host's OpenAPI 3 document (its text, as received), or why none are read: too large,
 * not JSON, not OpenAPI 3, too many paths or operations, or a `$ref` that points nowhere in it. A path off
 * the grammar, a method or a parameter that is not read is skipped and counted.
 */
export async function readOpenApi(text: string): Promise<OpenApiReading> {
	if (Buffer.byteLength(text, 'utf8') > LIMITS.documentBytes) return { ok: false, reason: `it is larger than ${LIMITS.documentBytes / 1024} KiB` };
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { ok: false, reason: 'it is not JSON' };
	}
	if (!isObject(parsed) || typeof parsed.openapi !== 'string' || !/^3\.\d+(\.\d+)?$/.test(parsed.openapi) || !isObject(parsed.paths)) return { ok: false, reason: 'it is not an OpenAPI 3 document with paths' };
	const pathCount = Object.keys(parsed.paths).length;
	if (pathCount > LIMITS.paths) return { ok: false, reason: `it has ${pathCount} paths; at most ${LIMITS.paths} are read` };
	let document: JsonObject;
	try {
		document = await dereference(parsed, {
			// Only `#/…` inside the document: no file, no URL, whatever a `$ref` names.
			resolve: { external: false, file: false, http: false },
			// A schema that holds itself becomes a loop of objects: the walk below goes LIMITS.bodyDepth deep, no more.
			dereference: { circular: true, maxDepth: 64 },
			mutateInputSchema: false,
			timeoutMs: LIMITS.dereferenceMs,
		}) as JsonObject;
	} catch (error) {
		const name = error instanceof Error ? error.name : 'Error';
		return { ok: false, reason: name === 'MissingPointerError' || name === 'InvalidPointerError' ? 'a $ref in it points nowhere in the document' : 'its $refs cannot be followed' };
	}
	const operations: ReadOperation[] = [];
	let skipped = 0;
	for (const [path, item] of Object.entries(document.paths as JsonObject)) {
		if (!isObject(item) || !isSafePathTemplate(path)) {
			skipped++;
			continue;
		}
		const shared = Array.isArray(item.parameters) ? item.parameters : [];
		for (const [key, value] of Object.entries(item)) {
			if (key === 'parameters' || key === 'summary' || key === 'description' || key === 'servers' || key.startsWith('x-')) continue;
			const method = METHODS.get(key);
			if (!method || !isObject(value)) {
				skipped++;
				continue;
			}
			if (operations.length >= LIMITS.operations) return { ok: false, reason: `it has more than ${LIMITS.operations} operations` };
			operations.push(readOperation(method, path, value, shared));
		}
	}
	return { ok: true, operations, skipped };
}

/** The documents to fetch for a platform: each distinct URL once, with the host keys it serves (in HOST_KEYS order). */
export function documentRequests(serviceUrl: string, hosts: PlatformHosts | undefined): Array<{ url: string; keys: HostKey[] }> {
	const requests: Array<{ url: string; keys: HostKey[] }> = [];
	for (const key of HOST_KEYS) {
		const url = platformUrlFor(serviceUrl, hosts, { host: key, path: OPENAPI_PATH });
		if (!url.ok) continue;
		const same = requests.find((r) => r.url === url.value);
		if (same) same.keys.push(key);
		else requests.push({ url: url.value, keys: [key] });
	}
	return requests;
}

/** What one document gave: the host keys its URL serves, and its operations. */
export interface HostDocument {
	readonly keys: readonly HostKey[];
	readonly operations: readonly ReadOperation[];
}

export interface Merged {
	/** The shipped operations (details filled in) and the new ones, each after its host's. */
	operations: Operation[];
	/** The operations only the documents name. */
	added: Operation[];
	/** How many shipped operations got a parameter, an example or a description they lacked. */
	filled: number;
}

/** A shipped parameter with what it lacks taken from the document's; the name, place, type and requiredness stay. */
function filledParameter(shipped: Parameter, read: Parameter): Parameter {
	return {
		...shipped,
		...(shipped.example === undefined && read.example !== undefined && { example: read.example }),
		...(shipped.description === '' && read.description !== '' && { description: read.description }),
	};
}

/** The shipped operation with the document's parameter details it lacks; its own facts stay. The path is the shipped template's. */
function filled(op: Operation, read: ReadOperation): Operation {
	const same = (a: Parameter, b: Parameter): boolean => a.in === b.in && a.name.toLowerCase() === b.name.toLowerCase();
	const parameters = op.parameters.map((p) => {
		const match = read.parameters.find((r) => same(p, r));
		return match ? filledParameter(p, match) : p;
	});
	// A document adds query parameters only: a header it names is taken only to fill one the description
	// names itself (an added `X-HTTP-Method-Override` or `InstanceKey` would change what the request does or sends).
	const extra = read.parameters.filter((r) => r.in === 'query' && !op.parameters.some((p) => same(p, r)));
	const changed = extra.length > 0 || parameters.some((p, i) => p !== op.parameters[i] && JSON.stringify(p) !== JSON.stringify(op.parameters[i]));
	return changed ? { ...op, parameters: [...parameters, ...extra], ...(op.contentType === undefined && read.contentType !== undefined && { contentType: read.contentType }) } : op;
}

/** An id for an operation only a document names: `openapi.` and its operationId, else its host, method and path words; unique. */
function newId(read: ReadOperation, host: HostKey, taken: Set<string>): string {
	const words = read.path.split('/').filter((s) => s !== '' && !s.startsWith('{')).join('.');
	const base = `openapi.${read.operationId ?? `${host}.${read.method.toLowerCase()}.${words}`}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 96);
	let id = base;
	for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
	taken.add(id);
	return id;
}

/**
 * The shipped description merged with what the hosts publish. An operation of a document is the shipped one
 * it matches (method and path on one of the host keys its URL serves): that one keeps its id, account kind,
 * changes and irreversibility and source, and gains the parameters, examples and descriptions it lacks. One
 * that matches none is added on the first key its URL serves, needing an account of a kind nobody knows,
 * changing data unless it is a GET, never marked as irreversible (only the description knows that); but
 * Login and RefreshToken, which only the extension calls.
 */
export function mergeOperations(shipped: Catalog, documents: readonly HostDocument[]): Merged {
	const byId = new Map(shipped.OPERATIONS.map((op) => [op.id, op] as const));
	const taken = new Set(byId.keys());
	const matched = new Set<string>();
	const added: Operation[] = [];
	let filledCount = 0;
	for (const document of documents) {
		for (const read of document.operations) {
			const key = document.keys.find((k) => shipped.operationFor(read.method, k, read.path));
			const match = key && shipped.operationFor(read.method, key, read.path);
			if (match) {
				if (matched.has(match.id)) continue;
				matched.add(match.id);
				const op = filled(match, read);
				if (op !== match) filledCount++;
				byId.set(match.id, op);
				continue;
			}
			const host = document.keys[0];
			if (!host || added.length >= LIMITS.operations || AUTH_PATH.test(read.path)) continue;
			if (added.some((a) => a.host === host && a.method === read.method && a.path.toLowerCase() === read.path.toLowerCase())) continue;
			added.push({
				id: newId(read, host, taken),
				host,
				method: read.method,
				path: read.path,
				summary: read.summary,
				token: 'unknown',
				changesData: read.method !== 'GET',
				...(read.contentType !== undefined && { contentType: read.contentType }),
				// No header from a document: which headers a request carries is the description's to say.
				parameters: read.parameters.filter((p) => p.in !== 'header'),
				source: 'openapi',
			});
		}
	}
	const operations: Operation[] = [];
	const base = [...byId.values()];
	const placed = new Set<HostKey>();
	for (const [i, op] of base.entries()) {
		operations.push(op);
		// The new operations go after the last shipped one of their host, so lists grouped by host stay grouped.
		if (base[i + 1]?.host !== op.host && !placed.has(op.host)) {
			placed.add(op.host);
			operations.push(...added.filter((a) => a.host === op.host));
		}
	}
	operations.push(...added.filter((a) => !placed.has(a.host)));
	return { operations, added, filled: filledCount };
}
