// The emulator's own OpenAPI 3 document (`/swagger/v1/swagger.json`), generated from the platform
// description for the operations it serves, plus Login, RefreshToken and `GET /v1/Me` (the emulator's own,
// which the description does not have). Shaped as an ASP.NET host publishes one: request bodies and their
// nested objects as `$ref`s into `components/schemas`, the answers' envelope one shared schema, a bearer
// security scheme that says nothing of which token. Each operation carries the token it needs as
// `x-telematics-token` and its host key as `x-telematics-host` (OpenAPI has no word for "an admin's JWT";
// the extension's reader trusts neither). The demo is every host on one origin, so it publishes one
// document for them all. Pure.
import { OPERATIONS, type Operation, type Parameter, type ParameterType } from '../core/platform/operations';

type Schema = Record<string, unknown>;

function schemaOf(p: Parameter): Schema {
	const example = p.example === undefined ? {} : { example: p.example };
	switch (p.type) {
		case 'date':
			return { type: 'string', format: 'date', ...example };
		case 'date-time':
			return { type: 'string', format: 'date-time', ...example };
		case 'array':
			return { type: 'array', items: { type: 'string' }, ...example };
		default:
			return { type: p.type satisfies Exclude<ParameterType, 'date' | 'date-time' | 'array'>, ...example };
	}
}

/** The body's schema: dotted names (`Identifiers.UserId`) nest as objects. */
function nestedSchema(parameters: readonly Parameter[]): Schema {
	const root: Schema = { type: 'object', properties: {} };
	for (const p of parameters) {
		const parts = p.name.split('.');
		let node = root;
		for (const [i, part] of parts.entries()) {
			const properties = node.properties as Record<string, Schema>;
			const last = i === parts.length - 1;
			if (p.required) node.required = [...new Set([...((node.required as string[] | undefined) ?? []), part])];
			if (last) {
				properties[part] = { ...schemaOf(p), description: p.description };
			} else {
				properties[part] ??= { type: 'object', properties: {} };
				node = properties[part];
			}
		}
	}
	return root;
}

/** `trips.admin.list` → `TripsAdminList`. */
const schemaName = (id: string): string => id.split(/[^A-Za-z0-9]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/**
 * `schema` put in `components` as `name` (or `name` and a number, when another schema has that name), each
 * nested object hoisted as its own (`Identifiers`, `Paging`), as ASP.NET names a class; a `$ref` to it.
 */
function hoisted(schema: Schema, name: string, components: Record<string, Schema>): Schema {
	const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([key, child]) =>
		[key, child.type === 'object' && child.properties ? hoisted(child, schemaName(key), components) : child]));
	const own = { ...schema, properties };
	let unique = name;
	for (let n = 2; components[unique] && JSON.stringify(components[unique]) !== JSON.stringify(own); n++) unique = `${name}${n}`;
	components[unique] = own;
	return { $ref: `#/components/schemas/${unique}` };
}

const COMPONENTS_BASE: Record<string, Schema> = {
	EnvelopeError: { type: 'object', properties: { Key: { type: 'string' }, Message: { type: 'string' } } },
	Envelope: {
		type: 'object',
		properties: {
			Result: {},
			Status: { type: 'integer' },
			Title: { type: 'string' },
			Errors: { type: 'array', items: { $ref: '#/components/schemas/EnvelopeError' } },
		},
	},
};

const envelope = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } });

function operationObject(op: Operation, components: Record<string, Schema>): Schema {
	const parameters = op.parameters.filter((p) => p.in !== 'body').map((p) => ({
		name: p.name,
		in: p.in,
		required: p.in === 'path' ? true : p.required,
		description: p.description,
		schema: schemaOf(p),
	}));
	const body = op.parameters.filter((p) => p.in === 'body');
	const token = op.token === 'none' ? 'none: InstanceId and InstanceKey headers' : `an ${op.token === 'admin' ? 'admin' : 'user'}'s JWT`;
	return {
		operationId: op.id,
		summary: op.summary,
		description: `Needs ${token}${op.irreversible ? `. Cannot be undone: ${op.irreversible}.` : '.'}`,
		tags: [op.host],
		...(parameters.length > 0 && { parameters }),
		...(body.length > 0 && { requestBody: { required: true, content: { [op.contentType ?? 'application/json']: { schema: hoisted(nestedSchema(body), `${schemaName(op.id)}Request`, components) } } } }),
		responses: {
			200: envelope('The service\'s envelope: Result, Status, Title, Errors.'),
			401: envelope('No token, or one expired or not the service\'s.'),
			403: envelope('A token of the wrong kind (admin or user).'),
			422: envelope('A required field is missing or does not read.'),
		},
		'x-telematics-token': op.token,
		'x-telematics-host': op.host,
		'x-telematics-changes-data': op.changesData,
		...(op.irreversible && { 'x-telematics-irreversible': op.irreversible }),
	};
}

const AUTH_PATHS: Schema = {
	'/v1/Auth/Login': {
		post: {
			operationId: 'auth.login',
			security: [],
			summary: 'Log a user (DeviceToken and InstanceKey) or an admin (email and password) in',
			tags: ['user'],
			parameters: [
				{ name: 'InstanceId', in: 'header', required: false, description: 'User Group InstanceID (user: required) or API InstanceID (admin).', schema: { type: 'string' } },
				{ name: 'InstanceKey', in: 'header', required: false, description: 'User Group InstanceKey; must match when sent.', schema: { type: 'string' } },
			],
			requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['LoginFields', 'Password'], properties: { LoginFields: { description: 'An object or a JSON-encoded object: {"deviceToken": …} or {"email": …}.' }, Password: { type: 'string' } } } } } },
			responses: { 200: envelope('Tokens.'), 401: envelope('Refused.'), 422: envelope('Invalid.'), 429: envelope('Too many logins.') },
			'x-telematics-token': 'none',
		},
	},
	'/v1/Auth/RefreshToken': {
		post: {
			operationId: 'auth.refresh',
			security: [],
			summary: 'New tokens for the current (possibly expired) access token and the latest refresh token',
			tags: ['user'],
			requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['AccessToken', 'RefreshToken'], properties: { AccessToken: { type: 'string' }, RefreshToken: { type: 'string' } } } } } },
			responses: { 200: envelope('New tokens; the refresh token given is spent.'), 401: envelope('Refused.') },
			'x-telematics-token': 'none',
		},
	},
};

/** The emulator's own: who the bearer token belongs to. Not an operation of the platform's description. */
const ME_PATH: Schema = {
	'/v1/Me': {
		get: {
			operationId: 'me',
			summary: 'Who the bearer token belongs to: its subject, role and expiry',
			tags: ['user'],
			responses: { 200: envelope('Subject, Role (admin or user), ExpiresAt.'), 401: envelope('No token, or one expired or not the service\'s.') },
		},
	},
};

/** The operations of the description the emulator serves (those with a route), in its order. */
export function servedOperations(served: (id: string) => boolean): Operation[] {
	return OPERATIONS.filter((op) => served(op.id));
}

/** The OpenAPI 3.0 document for `operations`, served at `serverUrl`. */
export function openApiDocument(serverUrl: string, operations: readonly Operation[]): Schema {
	const paths: Record<string, Record<string, Schema>> = { ...(AUTH_PATHS as Record<string, Record<string, Schema>>), ...(ME_PATH as Record<string, Record<string, Schema>>) };
	const schemas: Record<string, Schema> = { ...COMPONENTS_BASE };
	for (const op of operations) {
		paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operationObject(op, schemas) };
	}
	return {
		openapi: '3.0.3',
		info: {
			title: 'Telematics platform (local emulator)',
			version: '1.0.0',
			description: 'The demo service: every host of the platform (user, api, accounts, portal) on one origin. `x-telematics-token` says which token an operation needs.',
		},
		servers: [{ url: serverUrl }],
		tags: [
			{ name: 'user', description: 'The user service (login host): Auth, Registration, Management/users' },
			{ name: 'api', description: 'Trips and indicators' },
			{ name: 'accounts', description: 'Applications and instances' },
			{ name: 'portal', description: 'The admin\'s permissions' },
		],
		paths,
		components: {
			schemas,
			securitySchemes: { Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An admin\'s or a user\'s access token; which one, OpenAPI cannot say (see x-telematics-token).' } },
		},
		security: [{ Bearer: [] }],
	};
}
