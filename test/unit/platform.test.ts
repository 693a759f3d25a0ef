// The platform as data (issue 43): every operation well formed, its hosts derived from the login host,
// and a request found as the operation it is.
import * as assert from 'node:assert/strict';
import { operationById, operationFor, searchOperations } from '../../src/core/platform/catalog';
import { accountHosts, hostKeyOf, platformHosts, platformOrigin } from '../../src/core/platform/hosts';
import { HOST_KEYS, OPERATIONS } from '../../src/core/platform/operations';

describe('the platform description', () => {
	it('has one id per operation, and each operation is well formed', () => {
		const ids = OPERATIONS.map((op) => op.id);
		assert.equal(new Set(ids).size, ids.length, 'ids are unique');
		for (const op of OPERATIONS) {
			assert.ok(HOST_KEYS.includes(op.host), op.id);
			assert.match(op.path, /^\/[A-Za-z0-9_/{}.-]*$/, op.id);
			const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
			const declared = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
			assert.deepEqual(declared.sort(), pathParams.sort(), `${op.id}: every path parameter is declared, and only those`);
			if (op.parameters.some((p) => p.in === 'body')) assert.ok(op.contentType, `${op.id} has a body, so a content type`);
			if (op.irreversible) assert.ok(op.changesData, `${op.id}: what cannot be undone changes data`);
			if (op.method === 'GET') assert.equal(op.changesData, false, `${op.id}: a GET changes nothing`);
		}
	});

	it('says which token each main operation needs, as the vendor documents it', () => {
		assert.equal(operationById('users.delete')?.token, 'admin');
		assert.equal(operationById('users.delete')?.irreversible, 'Delete the user and all their data');
		assert.equal(operationById('trips.user.list')?.token, 'user');
		assert.equal(operationById('trips.admin.list')?.token, 'admin');
		assert.equal(operationById('registration.create')?.token, 'none');
		assert.equal(operationById('indicators.admin.statistics')?.path, '/indicators/admin/v3/Statistics');
		assert.equal(operationById('indicators.user.statistics.dates')?.path, '/indicators/v3/Statistics/dates');
	});
});

describe('the platform hosts', () => {
	it('follow from the login host: user.X → api.X, accounts.X, portal-apis.X', () => {
		assert.deepEqual(platformHosts('https://user.telematicssdk.com'), {
			user: 'https://user.telematicssdk.com',
			api: 'https://api.telematicssdk.com',
			accounts: 'https://accounts.telematicssdk.com',
			portal: 'https://portal-apis.telematicssdk.com',
		});
		assert.equal(platformHosts('https://user.eu.example.com:8443/')?.api, 'https://api.eu.example.com:8443');
	});

	it('are all the service itself on loopback and on any other host', () => {
		const demo = platformHosts('http://127.0.0.1:4100');
		assert.deepEqual(new Set(Object.values(demo ?? {})), new Set(['http://127.0.0.1:4100']));
		assert.equal(platformHosts('https://gateway.example.com/telematics')?.api, 'https://gateway.example.com');
		assert.equal(platformHosts('https://user.com')?.api, 'https://user.com', 'a two-label host has no platform below it');
	});

	it('take the user setting per key, only as https or loopback origins, never for the login host', () => {
		const hosts = platformHosts('https://user.telematicssdk.com', { api: 'https://api.eu.telematicssdk.com/', accounts: 'http://evil.example', portal: 'https://x.example/path', user: 'https://other.example' });
		assert.equal(hosts?.api, 'https://api.eu.telematicssdk.com');
		assert.equal(hosts?.accounts, 'https://accounts.telematicssdk.com', 'plain http to a non-loopback host is ignored');
		assert.equal(hosts?.portal, 'https://portal-apis.telematicssdk.com', 'an origin with a path is ignored');
		assert.equal(hosts?.user, 'https://user.telematicssdk.com');
	});

	it('take plain http on loopback from the setting only for a service on loopback', () => {
		assert.equal(platformHosts('https://user.telematicssdk.com', { api: 'http://localhost:8080' })?.api, 'https://api.telematicssdk.com', "an https service's token stays on https");
		assert.equal(platformHosts('http://127.0.0.1:4100', { api: 'http://127.0.0.1:4200' })?.api, 'http://127.0.0.1:4200');
	});

	it("are an account's own unless its service is the configured one: the setting names that service's platform", () => {
		const overrides = { api: 'https://api.telematicssdk.com' };
		assert.equal(accountHosts('https://staging.partner.io', 'https://user.telematicssdk.com', overrides)?.api, 'https://staging.partner.io', "a staging account's token never goes to the vendor's api");
		assert.equal(accountHosts('http://127.0.0.1:5000', 'https://user.telematicssdk.com', overrides)?.api, 'http://127.0.0.1:5000', "nor the demo's");
		assert.equal(accountHosts('https://gateway.example.com/t', 'https://gateway.example.com/t', overrides)?.api, 'https://api.telematicssdk.com', 'the configured service takes the setting');
		assert.equal(accountHosts('https://gateway.example.com/other', 'https://gateway.example.com/t', overrides)?.api, 'https://api.telematicssdk.com', 'by origin');
		assert.equal(accountHosts('https://gateway.example.com', 'not a url', overrides)?.api, 'https://gateway.example.com');
		assert.equal(accountHosts('not a url', 'not a url', overrides), undefined);
	});

	it('refuse services that are no platform origin', () => {
		assert.equal(platformHosts('http://user.telematicssdk.com'), undefined);
		assert.equal(platformHosts('not a url'), undefined);
		assert.equal(platformOrigin('https://a:b@host.example'), undefined);
		assert.equal(platformOrigin('http://localhost:3000/'), 'http://localhost:3000');
	});

	it('name the key of a URL by its origin', () => {
		const hosts = platformHosts('https://user.telematicssdk.com')!;
		assert.equal(hostKeyOf(hosts, 'https://api.telematicssdk.com/trips/get/v1/'), 'api');
		assert.equal(hostKeyOf(hosts, 'https://api.telematicssdk.com:444/trips'), undefined);
		assert.equal(hostKeyOf(hosts, 'http://api.telematicssdk.com/trips'), undefined);
		assert.equal(hostKeyOf(platformHosts('http://127.0.0.1:9')!, 'http://127.0.0.1:9/x'), 'user');
	});
});

describe('finding an operation', () => {
	it('by method, host and path, case-insensitively, literal segments first', () => {
		assert.equal(operationFor('post', 'api', '/trips/get/v1/')?.id, 'trips.user.list');
		assert.equal(operationFor('POST', 'api', '/trips/get/v1')?.id, 'trips.user.list');
		assert.equal(operationFor('POST', 'api', '/trips/get/v1/abc')?.id, 'trips.user.details');
		assert.equal(operationFor('DELETE', 'user', '/v1/management/users/123')?.id, 'users.delete');
		assert.equal(operationFor('GET', 'user', '/v1/Management/users/find?Email=a')?.id, 'users.find');
		assert.equal(operationFor('GET', 'api', '/v1/Management/users'), undefined, 'another host');
		assert.equal(operationFor('DELETE', 'user', '/v1/%4Danagement/users/%2e')?.id, 'users.delete', 'percent-decoded, as the service routes');
		assert.equal(operationFor('DELETE', 'user', '/v1/Management/users/%zz')?.id, 'users.delete', 'a segment that does not decode is taken as it is');
		assert.equal(operationFor('PUT', 'user', '/v1/Management/users/find'), undefined);
	});

	it('by words of the id, path and summary', () => {
		assert.deepEqual(searchOperations('/trips/get/admin').map((op) => op.id), ['trips.admin.list', 'trips.admin.details']);
		assert.equal(searchOperations('').length, OPERATIONS.length);
		assert.deepEqual(searchOperations('delete instance').map((op) => op.id), ['instances.delete']);
	});
});
