// A host's OpenAPI document, read as data from a stranger and merged with the shipped description: the
// emulator's own document (internal $refs into components/schemas), a table of hostile shapes, external
// $refs that must read no file and fetch no URL (a counting server proves it), and generated documents.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fc from 'fast-check';
import { SHIPPED } from '../../src/core/platform/catalog';
import { loadPlatform, usePlatformOperations } from '../../src/core/platform/load';
import { platformHosts } from '../../src/core/platform/hosts';
import { documentRequests, isSafePathTemplate, LIMITS, mergeOperations, readOpenApi, type ReadOperation } from '../../src/core/platform/openapiImport';
import { OPERATIONS } from '../../src/core/platform/operations';
import { openApiDocument, servedOperations } from '../../src/emulator/openapi';
import { ROUTES } from '../../src/emulator/platformRoutes';

/** A document with `paths` (and `components`), as a host would send it. */
const doc = (paths: unknown, components: unknown = {}): string => JSON.stringify({ openapi: '3.0.1', info: { title: 't', version: '1' }, paths, components });

async function read(text: string): Promise<ReadOperation[]> {
	const result = await readOpenApi(text);
	assert.ok(result.ok, result.ok ? '' : result.reason);
	return result.operations;
}

async function refused(text: string): Promise<string> {
	const result = await readOpenApi(text);
	assert.ok(!result.ok, 'the document was read');
	return result.reason;
}

/** What a person, a REST file or the agent may be shown of a document's text. */
const SAFE_TEXT = /^[\p{L}\p{N} .,:;!?()[\]/+*=<>|~^&%'_@…-]*$/u;

describe('OpenAPI import', function () {
	this.timeout(20_000);

	describe('the emulator\'s document', () => {
		const text = JSON.stringify(openApiDocument('http://127.0.0.1:1', servedOperations((id) => id in ROUTES)));

		it('is read through its $refs: bodies and their nested objects come back as dotted fields', async () => {
			const operations = await read(text);
			const adminTrips = operations.find((op) => op.method === 'POST' && op.path === '/trips/get/admin/v1')!;
			const userId = adminTrips.parameters.find((p) => p.name === 'Identifiers.UserId')!;
			assert.equal(userId.in, 'body');
			assert.equal(userId.required, true);
			assert.equal(adminTrips.parameters.find((p) => p.name === 'Paging.Page')?.type, 'integer');
			assert.equal(adminTrips.contentType, 'application/json');
			const users = operations.find((op) => op.method === 'POST' && op.path === '/v1/Management/users/GetFilteredPage')!;
			assert.equal(users.contentType, 'application/json-patch+json');
			assert.deepEqual(users.parameters.find((p) => p.name === 'InstanceIds')?.example, ['00000000-0000-0000-0000-000000000000']);
		});

		it('merges: the shipped operations keep what OpenAPI cannot say, and the one it alone has is added as of unknown kind', async () => {
			const operations = await read(text);
			const merged = mergeOperations(SHIPPED, [{ keys: ['user', 'api', 'accounts', 'portal'], operations }]);
			assert.equal(merged.operations.length, OPERATIONS.length + merged.added.length);
			for (const shipped of OPERATIONS) {
				const now = merged.operations.find((op) => op.id === shipped.id)!;
				assert.equal(now.host, shipped.host, shipped.id);
				assert.equal(now.token, shipped.token, shipped.id);
				assert.equal(now.changesData, shipped.changesData, shipped.id);
				assert.equal(now.irreversible, shipped.irreversible, shipped.id);
				assert.equal(now.source, shipped.source, shipped.id);
				assert.equal(now.path, shipped.path, shipped.id);
			}
			// Login and RefreshToken are not in the description either, and stay out: only the extension calls them.
			assert.deepEqual(merged.added.map((op) => `${op.method} ${op.path}`), ['GET /v1/Me']);
			const me = merged.added[0]!;
			assert.deepEqual({ id: me.id, host: me.host, method: me.method, token: me.token, changesData: me.changesData, source: me.source, irreversible: me.irreversible },
				{ id: 'openapi.me', host: 'user', method: 'GET', token: 'unknown', changesData: false, source: 'openapi', irreversible: undefined });
			// Grouped by host: the new user-host operations come right after the shipped ones of that host.
			const hosts = merged.operations.map((op) => op.host);
			assert.deepEqual(hosts.filter((h, i) => h !== hosts[i - 1]), ['user', 'api', 'accounts', 'portal']);
		});
	});

	describe('fills what the shipped description lacks, and nothing else', () => {
		it('an example and a parameter it does not have; never its path, kind or marks', async () => {
			const operations = await read(doc({
				'/v1/Instances/{id}': {
					delete: { summary: 'Remove it (harmless!)', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] },
					get: { parameters: [{ name: 'id', in: 'path', schema: { type: 'string' } }, { name: 'expand', in: 'query', schema: { type: 'boolean', example: true } }] },
				},
				'/v1/companies/{companyId}/applications': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/App' } } } } } },
			}, { schemas: { App: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, description: { type: 'string', example: 'For the pilot' } } } } }));
			const merged = mergeOperations(SHIPPED, [{ keys: ['accounts'], operations }]);
			assert.equal(merged.added.length, 0);
			const deleted = merged.operations.find((op) => op.id === 'instances.delete')!;
			assert.equal(deleted, OPERATIONS.find((op) => op.id === 'instances.delete'), 'nothing to fill: the very same operation');
			const got = merged.operations.find((op) => op.id === 'instances.get')!;
			assert.deepEqual(got.parameters.map((p) => p.name), ['InstanceId', 'expand']);
			assert.equal(got.path, '/v1/Instances/{InstanceId}');
			const created = merged.operations.find((op) => op.id === 'applications.create')!;
			assert.equal(created.parameters.find((p) => p.name === 'Description')?.example, '', 'the shipped example stays');
			assert.equal(created.parameters.filter((p) => p.name.toLowerCase() === 'name').length, 1, 'matched without regard to case');
			assert.equal(merged.filled, 1);
		});

		it('an operation of another host\'s path is not the description\'s, and gets no mark from it', async () => {
			// A document fetched from the api host names the user host's DELETE: it is no user deletion there.
			const operations = await read(doc({ '/v1/Management/users/{DeviceToken}': { delete: { operationId: 'users.delete' } } }));
			const merged = mergeOperations(SHIPPED, [{ keys: ['api'], operations }]);
			assert.equal(merged.added.length, 1);
			const [added] = merged.added;
			assert.equal(added!.id, 'openapi.users.delete', 'never the id of a shipped operation');
			assert.equal(added!.host, 'api');
			assert.equal(added!.changesData, true);
			assert.equal(added!.irreversible, undefined);
		});

		it('adds no header: not to a shipped operation (a method override, an InstanceKey), not to a new one; a header the description names is filled', async () => {
			const hostile = [
				{ name: 'X-HTTP-Method-Override', in: 'header', required: true, schema: { type: 'string', example: 'DELETE' } },
				{ name: 'X-Original-URL', in: 'header', required: true, example: '/v1/Management/users/victim' },
				{ name: 'InstanceKey', in: 'header', required: true, schema: { type: 'string' } },
			];
			const operations = await read(doc({
				'/v1/Management/users/find': { get: { parameters: [...hostile, { name: 'extra', in: 'query', schema: { type: 'string' } }] } },
				'/v1/Registration/create': { post: { parameters: [{ name: 'InstanceKey', in: 'header', required: true, description: 'The group key' }] } },
				'/v1/New': { post: { operationId: 'brandNew', parameters: hostile } },
			}));
			const merged = mergeOperations(SHIPPED, [{ keys: ['user'], operations }]);
			const shippedFind = OPERATIONS.find((op) => op.id === 'users.find')!;
			const find = merged.operations.find((op) => op.id === 'users.find')!;
			assert.deepEqual(find.parameters.filter((p) => p.in === 'header'), shippedFind.parameters.filter((p) => p.in === 'header'), 'the headers are the description\'s');
			assert.ok(find.parameters.some((p) => p.in === 'query' && p.name === 'extra'), 'a query parameter is added');
			const registration = merged.operations.find((op) => op.id === 'registration.create')!;
			assert.deepEqual(registration.parameters.filter((p) => p.in === 'header').map((p) => p.name), OPERATIONS.find((op) => op.id === 'registration.create')!.parameters.filter((p) => p.in === 'header').map((p) => p.name));
			const added = merged.added.find((op) => op.id === 'openapi.brandNew')!;
			assert.deepEqual(added.parameters.filter((p) => p.in === 'header'), [], 'a new operation carries no header of the document');
		});

		it('ids stay unique, and a document fetched for several keys adds on the first', async () => {
			const operations = await read(doc({ '/x': { get: { operationId: 'same' } }, '/y': { get: { operationId: 'same' } }, '/z': { post: {} } }));
			const merged = mergeOperations(SHIPPED, [{ keys: ['api', 'accounts'], operations }]);
			assert.deepEqual(merged.added.map((op) => [op.id, op.host, op.changesData]), [['openapi.same', 'api', false], ['openapi.same-2', 'api', false], ['openapi.api.post.z', 'api', true]], 'a POST changes data unless the description says otherwise');
		});
	});

	describe('external references: no file read, no URL fetched', () => {
		let server: Server;
		let hits = 0;
		let port = 0;

		before(async () => {
			server = createServer((_req, res) => {
				hits++;
				res.setHeader('Content-Type', 'application/json');
				res.end(JSON.stringify({ type: 'object', properties: { Leaked: { type: 'string' } } }));
			});
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
			port = (server.address() as AddressInfo).port;
		});

		after(() => new Promise<void>((resolve) => server.close(() => resolve())));

		it('a $ref to file:///etc/passwd, to http://127.0.0.2, to a relative file: each stays an unread reference', async () => {
			const text = doc({
				'/a': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } },
				'/b': { post: { requestBody: { content: { 'application/json': { schema: { $ref: `http://127.0.0.2:${port}/x` } } } } } },
				'/c': { get: { parameters: [{ $ref: `http://127.0.0.2:${port}/param` }, { $ref: 'file:///etc/passwd' }] } },
			}, { schemas: { A: { type: 'object', properties: { P: { $ref: 'file:///etc/passwd' }, H: { $ref: `http://127.0.0.2:${port}/y#/z` }, R: { $ref: 'other.json#/x' }, Plain: { type: 'string' } } } } });
			const operations = await read(text);
			assert.equal(hits, 0, 'the counting server got a request');
			const shown = JSON.stringify(operations);
			assert.doesNotMatch(shown, /root:|Leaked/);
			// A reference left unfollowed is a field of unknown shape: an object, with no example.
			assert.deepEqual(operations.find((op) => op.path === '/a')!.parameters.map((p) => [p.name, p.type, p.example]), [['P', 'object', undefined], ['H', 'object', undefined], ['R', 'object', undefined], ['Plain', 'string', undefined]]);
			assert.deepEqual(operations.find((op) => op.path === '/b')!.parameters, []);
			assert.deepEqual(operations.find((op) => op.path === '/c')!.parameters, []);
			// Node's fetch to the server works: the zero above is the reader's doing, not a dead server.
			await fetch(`http://127.0.0.2:${port}/probe`).then((r) => r.text());
			assert.equal(hits, 1);
		});
	});

	describe('hostile documents', () => {
		it('a path parameter\'s example that adds or removes a segment (empty, `.`, `..`, a `/`) is never taken (issue 50)', async () => {
			for (const bad of ['..', '.', '', 'a/b', '../Instances']) {
				const [op] = await read(doc({ '/Instances/{id}/tags/{tag}': { delete: { summary: 'Remove a tag', parameters: [{ name: 'id', in: 'path', schema: { type: 'string' } }, { name: 'tag', in: 'path', example: bad, schema: { type: 'string', example: bad, default: bad, enum: [bad] } }] } } }));
				assert.equal(op!.parameters.find((p) => p.name === 'tag')?.example, undefined, JSON.stringify(bad));
			}
			const [op] = await read(doc({ '/Instances/{id}/tags/{tag}': { delete: { parameters: [{ name: 'tag', in: 'path', example: '..', schema: { type: 'string', example: 'fleet-1' } }] } } }));
			assert.equal(op!.parameters.find((p) => p.name === 'tag')?.example, 'fleet-1', 'the next example that is a whole segment');
			const [query] = await read(doc({ '/x': { get: { parameters: [{ name: 'q', in: 'query', required: true, example: 'a/b', schema: { type: 'string' } }] } } }));
			assert.equal(query!.parameters[0]!.example, 'a/b', 'a query value is encoded whole: it may hold a slash');
		});

		it('circular $refs end: a schema that holds itself is read to a bounded depth', async () => {
			const operations = await read(doc({ '/tree': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } } },
				{ schemas: { Node: { type: 'object', required: ['Name'], properties: { Name: { type: 'string' }, Child: { $ref: '#/components/schemas/Node' }, Kids: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } } }));
			const fields = operations[0]!.parameters.map((p) => p.name);
			assert.deepEqual(fields, ['Name', 'Child.Name', 'Child.Child.Name', 'Child.Child.Child', 'Child.Child.Kids', 'Child.Kids', 'Kids']);
			assert.equal(operations[0]!.parameters[0]!.required, true);
		});

		it('shared references within the depth bound are read, and the fields stop at the bound', async () => {
			const schemas = Object.fromEntries([['S0', { type: 'string' }], ...Array.from({ length: 25 }, (_, i) => [`S${i + 1}`, { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`p${k}`, { $ref: `#/components/schemas/S${i}` }])) }])]);
			const [op] = await read(doc({ '/b': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S25' } } } } } } }, { schemas }));
			assert.equal(op!.parameters.length, LIMITS.bodyFields);
			assert.ok(op!.parameters.every((p) => p.name.split('.').length <= LIMITS.bodyDepth));
		});

		const table: Array<[string, string, RegExp]> = [
			['too large', JSON.stringify({ openapi: '3.0.0', paths: {}, pad: 'x'.repeat(LIMITS.documentBytes) }), /larger than 1024 KiB/],
			['not JSON', '<html>', /not JSON/],
			['Swagger 2', JSON.stringify({ swagger: '2.0', paths: {} }), /not an OpenAPI 3 document/],
			['no paths', JSON.stringify({ openapi: '3.1.0' }), /not an OpenAPI 3 document/],
			['an array', '[1,2]', /not an OpenAPI 3 document/],
			['too many paths', doc(Object.fromEntries(Array.from({ length: LIMITS.paths + 1 }, (_, i) => [`/p${i}`, {}]))), /paths; at most 500/],
			['too many operations', doc(Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`/p${i}`, { get: {}, post: {}, put: {}, patch: {}, delete: {} }]))), /more than 1000 operations/],
			['a $ref to nowhere', doc({ '/a': { get: { parameters: [{ $ref: '#/components/parameters/Nope' }] } } }), /points nowhere/],
			['nesting 300 000 deep', `{"openapi":"3.0.0","paths":{"/a":{"get":{}}},"x":${'['.repeat(300_000)}${']'.repeat(300_000)}}`, /cannot be followed/],
			['a billion laughs (30 levels of 10 references each)', doc({ '/b': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S29' } } } } } } },
				{ schemas: Object.fromEntries([['S0', { type: 'string' }], ...Array.from({ length: 29 }, (_, i) => [`S${i + 1}`, { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`p${k}`, { $ref: `#/components/schemas/S${i}` }])) }])]) }), /cannot be followed/],
		];
		for (const [what, text, reason] of table) {
			it(`refused: ${what}`, async () => assert.match(await refused(text), reason));
		}

		it('paths off the grammar and methods that are not read are skipped and counted', async () => {
			const paths = ['/../etc/passwd', '//evil.example/x', '/a b', '/a%2F..%2Fb', 'http://evil.example/x', '/a\\b', '/ok/{id}/x{y}', '/a?b=1', '/a#b', 'relative', `/${'x'.repeat(LIMITS.pathChars)}`, '/ok/{id}'];
			const result = await readOpenApi(doc(Object.fromEntries([...paths.map((p) => [p, { get: {} }]), ['/methods', { head: {}, options: {}, trace: {}, get: {}, 'x-extra': {}, summary: 's', parameters: [] }]])));
			assert.ok(result.ok);
			assert.deepEqual(result.operations.map((op) => `${op.method} ${op.path}`), ['GET /ok/{id}', 'GET /methods']);
			assert.equal(result.skipped, paths.length - 1 + 3);
		});

		it('texts that would run, expand or mark up are cut to plain words; examples that would are dropped', async () => {
			const [op] = await read(doc({
				'/a/{id}': {
					post: {
						operationId: 'x\nGET /evil',
						summary: '@import /etc/passwd {{$processEnv HOME}} $(alert) \u202Egnp.exe\r\n# @name x',
						parameters: [
							{ name: 'Authorization', in: 'header', schema: { type: 'string' } },
							{ name: 'Content-Type', in: 'header', schema: { type: 'string' } },
							{ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', example: '{{$dotenv SECRET}}' } },
							{ name: 'q', in: 'query', required: true, example: "{{ require('child_process').exec('id') }}", schema: { type: 'string', default: 'plain value' } },
							{ name: 'evil\r\nX-Injected: 1', in: 'query', schema: { type: 'string' } },
							{ name: 'c', in: 'cookie', schema: { type: 'string' } },
							{ name: '__proto__', in: 'query', schema: { type: 'string' } },
						],
						requestBody: { content: { 'text/plain': { schema: { type: 'string' } }, 'application/json; charset=utf-8': { schema: { type: 'object', properties: { __proto__: { type: 'string' }, 'a"b': { type: 'string' }, Good: { type: 'string', description: '<img src=x onerror=alert(1)> `code` [link](command:x)', example: 'line\nbreak' } } } } } },
					},
				},
			}));
			assert.ok(op);
			assert.equal(op.operationId, undefined);
			assert.match(op.summary, SAFE_TEXT);
			assert.doesNotMatch(op.summary, /^@|\{|\$|#|\n/);
			assert.deepEqual(op.parameters.map((p) => `${p.in}:${p.name}`), ['path:id', 'header:X-Tenant', 'query:q', 'body:Good']);
			assert.equal(op.parameters.find((p) => p.name === 'X-Tenant')!.example, undefined);
			assert.equal(op.parameters.find((p) => p.name === 'q')!.example, 'plain value');
			const good = op.parameters.find((p) => p.name === 'Good')!;
			assert.match(good.description, SAFE_TEXT);
			assert.equal(good.example, undefined);
			assert.equal(op.contentType, 'application/json');
		});

		it('generated documents: never throws; whatever comes back is on the grammar, bounded and safe to show', async () => {
			const hostileText = fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom('{{$processEnv HOME}}', '@import x', '\u202E', '$(x)', '[a](command:x)', '\r\nX: 1', '../..', '%2e%2e', '__proto__', 'file:///etc/passwd'));
			const schema = fc.letrec((tie) => ({
				schema: fc.oneof({ depthSize: 'small' },
					fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'array', 'object', 'null', 7), format: fc.constantFrom('date', 'date-time', 'uuid'), example: fc.oneof(hostileText, fc.integer(), fc.boolean(), fc.array(hostileText, { maxLength: 12 })), description: hostileText }, { requiredKeys: [] }),
					fc.record({ type: fc.constant('object'), required: fc.array(hostileText, { maxLength: 4 }), properties: fc.dictionary(hostileText, tie('schema'), { maxKeys: 5 }) }, { requiredKeys: [] }),
					fc.record({ $ref: fc.oneof(fc.constantFrom('#/components/schemas/S', '#/components/schemas/T', 'file:///etc/passwd', 'http://127.0.0.2:9/x'), hostileText) })),
			})).schema;
			const parameter = fc.record({ name: hostileText, in: fc.constantFrom('path', 'query', 'header', 'cookie', 'body', 3), required: fc.boolean(), description: hostileText, example: fc.oneof(hostileText, fc.integer()), schema }, { requiredKeys: [] });
			const operation = fc.record({ operationId: hostileText, summary: hostileText, description: hostileText, parameters: fc.array(parameter, { maxLength: 4 }), requestBody: fc.record({ content: fc.dictionary(fc.oneof(fc.constantFrom('application/json', 'text/json', 'application/xml'), hostileText), fc.record({ schema })) }) }, { requiredKeys: [] });
			const pathItem = fc.dictionary(fc.constantFrom('get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'parameters', 'x-a'), operation, { maxKeys: 4 });
			const path = fc.oneof(hostileText, fc.array(fc.oneof(fc.constantFrom('v1', '{id}', '{Id}', '..', '', '%2F', 'a b'), hostileText), { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`));
			const document = fc.record({ openapi: fc.constantFrom('3.0.1', '3.1.0', '2.0'), paths: fc.dictionary(path, fc.oneof(pathItem, hostileText), { maxKeys: 6 }), components: fc.record({ schemas: fc.record({ S: schema, T: schema }) }) });
			await fc.assert(fc.asyncProperty(document, async (value) => {
				const result = await readOpenApi(JSON.stringify(value));
				if (!result.ok) return;
				assert.ok(result.operations.length <= LIMITS.operations);
				for (const op of result.operations) {
					assert.ok(isSafePathTemplate(op.path), op.path);
					assert.match(op.summary, SAFE_TEXT);
					assert.doesNotMatch(op.summary, /^@/);
					assert.ok(op.summary.length <= LIMITS.summaryChars);
					assert.ok(op.operationId === undefined || /^[A-Za-z][A-Za-z0-9_.-]*$/.test(op.operationId));
					assert.ok(op.contentType === undefined || /^(application|text)\/[a-z0-9.+-]*json$/.test(op.contentType));
					for (const p of op.parameters) {
						assert.ok(['path', 'query', 'header', 'body'].includes(p.in));
						for (const part of p.name.split('.')) assert.match(part, /^[A-Za-z][A-Za-z0-9_-]{0,63}$/);
						assert.match(p.description, SAFE_TEXT);
						const examples = Array.isArray(p.example) ? p.example : [p.example];
						for (const e of examples) assert.ok(e === undefined || typeof e !== 'string' || /^[\p{L}\p{N} ._:+/@,()-]*$/u.test(e), String(e));
					}
					for (const name of op.path.match(/\{[^}]+\}/g) ?? []) assert.ok(op.parameters.some((p) => p.in === 'path' && `{${p.name}}` === name), name);
				}
				const merged = mergeOperations(SHIPPED, [{ keys: ['api'], operations: result.operations }]);
				assert.equal(new Set(merged.operations.map((op) => op.id)).size, merged.operations.length, 'ids are unique');
				for (const op of merged.added) assert.equal(op.token, 'unknown');
			}), { numRuns: 150 });
		});
	});

	describe('for the window\'s life', () => {
		after(() => usePlatformOperations(undefined));

		it('the merged operations stand in for the shipped ones until a reading finds none', async () => {
			assert.equal(await loadPlatform(), SHIPPED);
			const merged = mergeOperations(SHIPPED, [{ keys: ['user'], operations: await read(doc({ '/v1/Me': { get: { summary: 'Who I am' } } })) }]);
			await usePlatformOperations(merged.operations);
			const platform = await loadPlatform();
			assert.equal(platform.operationById('openapi.user.get.v1.Me')?.summary, 'Who I am');
			assert.equal(platform.shipped, SHIPPED);
			assert.equal(platform.operationFor('GET', 'user', '/v1/me')?.token, 'unknown');
			await usePlatformOperations(undefined);
			assert.equal(await loadPlatform(), SHIPPED);
		});
	});

	describe('which documents are fetched', () => {
		it('the demo: one URL for every key; a service with a root path has its own, under it', () => {
			const demo = 'http://127.0.0.1:5000';
			assert.deepEqual(documentRequests(demo, platformHosts(demo)), [{ url: 'http://127.0.0.1:5000/swagger/v1/swagger.json', keys: ['user', 'api', 'accounts', 'portal'] }]);
			const based = 'http://127.0.0.1:5000/base';
			assert.deepEqual(documentRequests(based, platformHosts(based)), [
				{ url: 'http://127.0.0.1:5000/base/swagger/v1/swagger.json', keys: ['user'] },
				{ url: 'http://127.0.0.1:5000/swagger/v1/swagger.json', keys: ['api', 'accounts', 'portal'] },
			]);
		});

		it('the vendor\'s platform: one URL per host, only the platform\'s', () => {
			const service = 'https://user.telematicssdk.com';
			assert.deepEqual(documentRequests(service, platformHosts(service, { api: 'http://evil.example', accounts: 'https://accounts.example.com' })).map((r) => [r.url, r.keys]), [
				['https://user.telematicssdk.com/swagger/v1/swagger.json', ['user']],
				['https://api.telematicssdk.com/swagger/v1/swagger.json', ['api']],
				['https://accounts.example.com/swagger/v1/swagger.json', ['accounts']],
				['https://portal-apis.telematicssdk.com/swagger/v1/swagger.json', ['portal']],
			]);
		});

		it('a service whose hosts are not known: its own URL only', () => {
			assert.deepEqual(documentRequests('https://gateway.example.com/telematics', undefined), [{ url: 'https://gateway.example.com/telematics/swagger/v1/swagger.json', keys: ['user'] }]);
		});
	});
});
