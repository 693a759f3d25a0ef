// The agent's request (core/agent/serviceRequest.ts): a path stays on the account's service whatever the
// model writes, the input is checked, and the answer it reads holds no token and has a bound.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { MAX_PATH_CHARS, namesLogin, pathRefusal, platformUrlFor, serviceUrlFor, staysOnService } from '../../src/core/platform/servicePath';
import { BODY_LINE_MARK, bodyShown, MAX_CONFIRMATION_BODY_CHARS, QUESTION_LINE_CHARS, wrapLines } from '../../src/core/agent/questionText';
import { asksFirst, checkInput as checkPlatformInput, describeAnswer, neededKind, MAX_REQUEST_BODY_CHARS, MAX_RESULT_BODY_CHARS, operationTarget, pickAccount } from '../../src/core/agent/serviceRequest';
import { markdownCodeBlock } from '../../src/core/util/displayText';
import { SHIPPED as platform } from '../../src/core/platform/catalog';
import { platformHosts } from '../../src/core/platform/hosts';

const { operationById } = platform;
const checkInput = (input: unknown) => checkPlatformInput(input, platform);

const SERVICE = 'https://user.telematicssdk.com';
const ROOTED = 'https://portal.example.com/api/';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.c2lnbmF0dXJl';

describe('the agent\'s request: where a path goes', () => {
	// [service, path, query, the URL or 'refused']
	const cases: Array<[string, string, Record<string, string> | undefined, string]> = [
		[SERVICE, '/v1/Me', undefined, `${SERVICE}/v1/Me`],
		[SERVICE, '/v1/Trips?limit=5', { from: '2026-01-01' }, `${SERVICE}/v1/Trips?limit=5&from=2026-01-01`],
		[SERVICE, '/v1/Search', { q: 'a&b=c #d' }, `${SERVICE}/v1/Search?q=a%26b%3Dc+%23d`],
		[SERVICE, '/v1/a%20b', undefined, `${SERVICE}/v1/a%20b`],
		[SERVICE, '/', undefined, `${SERVICE}/`],
		[ROOTED, '/v1/Me', undefined, 'https://portal.example.com/api/v1/Me'],
		[ROOTED, '/', undefined, 'https://portal.example.com/api/'],
		['http://127.0.0.1:8787', '/v1/Me', undefined, 'http://127.0.0.1:8787/v1/Me'],
		// Ways out, each refused.
		[SERVICE, 'https://evil.example/v1/Me', undefined, 'refused'],
		[SERVICE, 'HTTPS://evil.example', undefined, 'refused'],
		[SERVICE, 'javascript:alert(1)', undefined, 'refused'],
		[SERVICE, '//evil.example/v1/Me', undefined, 'refused'],
		[SERVICE, '/\\evil.example/v1/Me', undefined, 'refused'],
		[SERVICE, '\\\\evil.example', undefined, 'refused'],
		[SERVICE, 'v1/Me', undefined, 'refused'],
		[SERVICE, '@evil.example/v1', undefined, 'refused'],
		[SERVICE, ':@evil.example', undefined, 'refused'],
		[SERVICE, '/..', undefined, 'refused'],
		[SERVICE, '/v1/../../x', undefined, 'refused'],
		[SERVICE, '/v1/./Me', undefined, 'refused'],
		[SERVICE, '/%2e%2e/x', undefined, 'refused'],
		[SERVICE, '/%252e%252e/x', undefined, 'refused'],
		[SERVICE, '/%2F%2Fevil.example', undefined, 'refused'],
		[SERVICE, '%2F%2Fevil.example', undefined, 'refused'],
		[SERVICE, '%2F@evil.example', undefined, 'refused'],
		[SERVICE, '%2f@evil.example/v1', undefined, 'refused'],
		[SERVICE, '%252F@evil.example', undefined, 'refused'],
		[ROOTED, '%2F@evil.example', undefined, 'refused'],
		[SERVICE, '/%5Cevil.example', undefined, 'refused'],
		[SERVICE, '/v1/Me#frag', undefined, 'refused'],
		[SERVICE, '/v1/Me?x=%23', undefined, `${SERVICE}/v1/Me?x=%23`],
		[SERVICE, '/v1/%23x', undefined, `${SERVICE}/v1/%23x`],
		[SERVICE, '/v1/ Me', undefined, 'refused'],
		[SERVICE, '/v1/\tMe', undefined, 'refused'],
		[SERVICE, '/v1/%0aHost:evil', undefined, 'refused'],
		[SERVICE, '/v1/%', undefined, 'refused'],
		[SERVICE, `/${'a'.repeat(MAX_PATH_CHARS)}`, undefined, 'refused'],
		[ROOTED, '/../v2', undefined, 'refused'],
		['not a url', '/v1/Me', undefined, 'refused'],
	];
	for (const [service, path, query, expected] of cases) {
		it(`${service} + ${JSON.stringify(path).slice(0, 60)} → ${expected}`, () => {
			const result = serviceUrlFor(service, path, query);
			assert.equal(result.ok ? result.value : 'refused', expected);
		});
	}

	it('says why: the way out, a stray percent sign, a service URL it cannot read', () => {
		const message = (service: string, path: string) => (serviceUrlFor(service, path) as { message: string }).message;
		const out = 'The path must be a path on the account\'s service, such as "/v1/Me": no URL, host, "//", "\\\\" or "..". To reach another host of the platform, give "host" (a host key such as "api"); no other host can be reached with this tool.';
		for (const path of ['v1/Me', '//evil.example', '/a/../b', '/v1\\x']) assert.equal(message(SERVICE, path), out, path);
		assert.match(message(SERVICE, '/v1/%'), /a percent sign that is not an escape; write "%25" for "%"/);
		assert.match(message(SERVICE, '/v1/Me?x=%'), /a percent sign that is not an escape/);
		assert.match(message('not a url', '/v1/Me'), /service URL cannot be read; log in again/);
		// Decoded up to four times: three layers of escapes are seen through, four are refused as unreadable.
		const encode = (text: string, times: number) => Array.from({ length: times }).reduce<string>((t) => encodeURIComponent(t), text);
		assert.equal(message(SERVICE, `/${encode('%2e%2e', 2)}/x`), out);
		assert.match(message(SERVICE, `/${encode('%2e%2e', 3)}/x`), /percent sign/);
		assert.equal(serviceUrlFor('https://portal.example.com/api//', '/v1/Me').ok && (serviceUrlFor('https://portal.example.com/api//', '/v1/Me') as { value: string }).value, 'https://portal.example.com/api/v1/Me');
	});

	it('a path at the bound is taken, one past it is not', () => {
		const at = `/${'a'.repeat(MAX_PATH_CHARS - 1)}`;
		assert.equal(serviceUrlFor(SERVICE, at).ok, true);
		assert.match((serviceUrlFor(SERVICE, `${at}a`) as { message: string }).message, new RegExp(`at most ${MAX_PATH_CHARS}`));
	});

	it('whatever the path, the URL is on the service\'s origin and under its root, or refused (generated)', () => {
		const piece = fc.constantFrom('/', '//', '\\', '.', '..', '%2e', '%2E%2e', '%2f', '%252f', '%5c', '@', ':', '?', '#', 'evil.example', 'v1', 'Me', ' ', '%00', 'http:', '%40', '&', '=', 'a');
		fc.assert(fc.property(fc.constantFrom(SERVICE, ROOTED, 'http://127.0.0.1:8787'), fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }), (service, path, query) => {
			const result = serviceUrlFor(service, path, query);
			if (!result.ok) return;
			const url = new URL(result.value);
			const base = new URL(service);
			assert.equal(url.origin, base.origin, result.value);
			assert.ok(url.pathname.startsWith(base.pathname.replace(/\/+$/, '')), result.value);
			assert.equal(url.username + url.password, '');
			assert.ok(!url.pathname.split('/').some((s) => s === '..' || s.toLowerCase() === '%2e%2e'), result.value);
		}), { numRuns: 3000 });
	});
});

describe('the agent\'s request: its input', () => {
	const refused: Array<[string, unknown, RegExp]> = [
		['no object', 'GET /v1/Me', /must be an object/],
		['an array', [], /must be an object/],
		['an unknown method', { method: 'TRACE', path: '/' }, /"method" must be one of GET, HEAD, POST, PUT, PATCH, DELETE/],
		['no path', { method: 'GET' }, /"path" must be a path/],
		['an empty path', { method: 'GET', path: '' }, /"path" must be a path/],
		['a blank account', { method: 'GET', path: '/', account: ' ' }, /"account" must be the name/],
		['a numeric account', { method: 'GET', path: '/', account: 7 }, /"account" must be the name/],
		['a query of objects', { method: 'GET', path: '/', query: { a: { b: 1 } } }, /The query value of "a"/],
		['a query that is a list', { method: 'GET', path: '/', query: ['a'] }, /"query" must be an object/],
		['a body on GET', { method: 'GET', path: '/', body: 'x' }, /A GET request has no body/],
		['a body on HEAD', { method: 'head', path: '/', body: {} }, /A HEAD request has no body/],
		['null', null, /must be an object/],
		['a method that is not text', { method: 7, path: '/' }, /"method" must be one of/],
		['an account past 256 characters', { method: 'GET', path: '/', account: 'a'.repeat(257) }, /"account" must be the name/],
		['a query of null', { method: 'GET', path: '/', query: null }, /"query" must be an object/],
		['a query that is text', { method: 'GET', path: '/', query: 'a=1' }, /"query" must be an object/],
		['a body past the bound', { method: 'POST', path: '/', body: 'x'.repeat(MAX_REQUEST_BODY_CHARS + 1) }, new RegExp(`at most ${MAX_REQUEST_BODY_CHARS}`)],
		// Issue 43: the platform's hosts by key, operations by id.
		['an origin as the host', { method: 'GET', path: '/', host: 'https://api.telematicssdk.com' }, /"host" must be a host key of the account's platform \("user", "api", "accounts", "portal"\), never a URL, an origin or a host name/],
		['a host name as the host', { method: 'GET', path: '/', host: 'api.telematicssdk.com' }, /never a URL, an origin or a host name/],
		['a host with a port', { method: 'GET', path: '/', host: 'localhost:8080' }, /never a URL/],
		['a host key outside the platform', { method: 'GET', path: '/', host: 'leaderboard' }, /"leaderboard" is not a host of the account's platform\. Its hosts are "user", "api", "accounts", "portal"/],
		['a host that is not text', { method: 'GET', path: '/', host: 7 }, /"host" must be a host key/],
		['an unknown operation', { operation: 'trips.all' }, /"operation" must be an id from telematics_operations/],
		['an operation without its path parameters', { operation: 'users.delete' }, /The operation "users\.delete" needs "pathParameters" with "DeviceToken"/],
		['an operation with an empty path parameter', { operation: 'users.delete', pathParameters: { DeviceToken: '' } }, /needs "pathParameters" with "DeviceToken"/],
		['an operation and a path', { operation: 'trips.user.list', path: '/trips/get/v1/' }, /either "operation" .* or "path", not both/],
		['an operation on another host than given', { operation: 'trips.user.list', host: 'user' }, /is on the "api" host, not "user"/],
		['an operation with another method', { operation: 'trips.user.list', method: 'GET' }, /is a POST; leave "method" out/],
		['path parameters that are a list', { operation: 'users.delete', pathParameters: ['x'] }, /"pathParameters" must be an object/],
		['path parameters that are text', { operation: 'users.delete', pathParameters: 'DeviceToken' }, /"pathParameters" must be an object/],
		['path parameters that are null', { operation: 'users.delete', pathParameters: null }, /"pathParameters" must be an object/],
		['a host that is a list', { method: 'GET', path: '/', host: ['api'] }, /"host" must be a host key/],
		['an operation with a method that is not text', { operation: 'trips.user.list', method: 7 }, /is a POST; leave "method" out/],
		['a long unknown operation, quoted in part', { operation: 'x'.repeat(200) }, /; "x{80}" is none\./],
	];
	for (const [name, input, message] of refused) {
		it(`refuses ${name}`, () => {
			const result = checkInput(input);
			assert.equal(result.ok, false);
			assert.match((result as { message: string }).message, message);
		});
	}

	it('takes a method in any case, a flat query, a body as JSON text, an account trimmed', () => {
		assert.deepEqual(checkInput({ method: 'post', path: '/v1/x', query: { n: 1, b: true, s: 's' }, body: { a: [1] }, account: ' admin ' }), {
			ok: true, value: { method: 'POST', path: '/v1/x', host: 'user', query: { n: '1', b: 'true', s: 's' }, body: '{"a":[1]}', account: 'admin' },
		});
		assert.deepEqual(checkInput({ method: 'GET', path: '/v1/Me', body: null }), { ok: true, value: { method: 'GET', path: '/v1/Me', host: 'user' } });
		assert.deepEqual(checkInput({ method: 'PUT', path: '/', body: '{"raw":1}' }), { ok: true, value: { method: 'PUT', path: '/', host: 'user', body: '{"raw":1}' } });
		assert.equal((checkInput({ method: 'POST', path: '/', body: 'x'.repeat(MAX_REQUEST_BODY_CHARS) }) as { ok: boolean }).ok, true);
		assert.deepEqual(checkInput({ method: 'POST', path: '/' }), { ok: true, value: { method: 'POST', path: '/', host: 'user' } }, 'no body: none sent');
		for (const text of ['1e999', ' 007', '"\\u0041{"']) {
			assert.deepEqual(checkInput({ method: 'PUT', path: '/', body: text }), { ok: true, value: { method: 'PUT', path: '/', host: 'user', body: text } }, `a body that is no JSON object or array is sent as written: ${text}`);
		}
		assert.deepEqual(checkInput({ method: 'GET', path: '/', account: 'a'.repeat(256) }), { ok: true, value: { method: 'GET', path: '/', host: 'user', account: 'a'.repeat(256) } });
	});

	it('an operation by id: its method, its host, its path with each parameter encoded as one segment', () => {
		const checked = checkInput({ operation: 'users.delete', pathParameters: { DeviceToken: 'a/b c' }, account: 'admin' });
		assert.ok(checked.ok);
		assert.equal(checked.value.method, 'DELETE');
		assert.equal(checked.value.host, 'user');
		assert.equal(checked.value.path, '/v1/Management/users/a%2Fb%20c');
		assert.equal(checked.value.operation?.id, 'users.delete');
		for (const same of [{ host: 'api' }, { method: 'post' }, { host: 'API', method: 'POST' }]) assert.ok(checkInput({ operation: 'trips.user.list', ...same }).ok, JSON.stringify(same));
		const trips = checkInput({ operation: 'trips.user.list', body: { StartDate: '2026-11-01' } });
		assert.ok(trips.ok);
		assert.deepEqual([trips.value.method, trips.value.host, trips.value.path, trips.value.body], ['POST', 'api', '/trips/get/v1/', '{"StartDate":"2026-11-01"}']);
	});

	it('a method and a path are the operation they match: on the host given, else on the host that has it, else the service', () => {
		const of = (input: object) => {
			const checked = checkInput(input);
			assert.ok(checked.ok);
			return [checked.value.host, checked.value.operation?.id];
		};
		assert.deepEqual(of({ method: 'delete', path: '/v1/management/users/x' }), ['user', 'users.delete']);
		assert.deepEqual(of({ method: 'POST', path: '/trips/get/v1/' }), ['api', 'trips.user.list'], 'the path names its host');
		assert.deepEqual(of({ method: 'POST', path: '/trips/get/v1/', host: 'API' }), ['api', 'trips.user.list']);
		assert.deepEqual(of({ method: 'POST', path: '/trips/get/v1/', host: 'accounts' }), ['accounts', 'trips.user.list'], 'a host given is kept; the operation is known wherever the path is one');
		assert.deepEqual(of({ method: 'DELETE', path: '/v1/Management/users/x', host: 'api' }), ['api', 'users.delete'], 'on a shared origin it would delete: it is asked about');
		assert.deepEqual(of({ method: 'DELETE', path: '/v1/%4Danagement/%75sers/x' }), ['user', 'users.delete'], 'percent-encoded, as the service decodes it');
		assert.deepEqual(of({ method: 'DELETE', path: '/V1/MANAGEMENT/USERS/x/?force=1' }), ['user', 'users.delete']);
		assert.deepEqual(of({ method: 'GET', path: '/v1/Me' }), ['user', undefined]);
	});

	it('asks first for everything but GET and HEAD', () => {
		assert.deepEqual(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => asksFirst(m as never)), [false, false, true, true, true, true]);
	});
});

describe('the agent\'s request: the platform', () => {
	const hosts = platformHosts(SERVICE);

	it('goes to the host its key names on the account\'s platform, by the same path rules', () => {
		assert.deepEqual(platformUrlFor(SERVICE, hosts, { host: 'api', path: '/trips/get/v1/' }), { ok: true, value: 'https://api.telematicssdk.com/trips/get/v1/' });
		assert.deepEqual(platformUrlFor(SERVICE, hosts, { host: 'portal', path: '/auth/permissions', query: { a: '1' } }), { ok: true, value: 'https://portal-apis.telematicssdk.com/auth/permissions?a=1' });
		assert.deepEqual(platformUrlFor(ROOTED, platformHosts(ROOTED), { host: 'user', path: '/v1/Me' }), { ok: true, value: 'https://portal.example.com/api/v1/Me' }, 'the service keeps its root');
		assert.equal(platformUrlFor(SERVICE, hosts, { host: 'api', path: '//evil.example/x' }).ok, false);
		assert.match((platformUrlFor(SERVICE, undefined, { host: 'api', path: '/x' }) as { message: string }).message, /only its own paths/);
	});

	it('whatever the host key and path, the URL is on one of the account\'s hosts, or refused (generated)', () => {
		const piece = fc.constantFrom('/', '//', '\\', '..', '%2f', '%5c', '@', ':', '?', '#', 'evil.example', 'trips', 'a');
		const origins = new Set(Object.values(hosts!));
		fc.assert(fc.property(fc.constantFrom('user', 'api', 'accounts', 'portal'), fc.array(piece, { maxLength: 10 }).map((p) => p.join('')), (host, path) => {
			const result = platformUrlFor(SERVICE, hosts, { host: host as never, path });
			if (result.ok) assert.ok(origins.has(new URL(result.value).origin), result.value);
		}), { numRuns: 1000 });
	});

	it('picks the account: the one named if its kind fits, the active one if it fits, else the one of the needed kind, else says which kind', () => {
		const user = { kind: 'user' as const, id: 'u' };
		const admin = { kind: 'admin' as const, id: 'a' };
		const admin2 = { kind: 'admin' as const, id: 'a2' };
		assert.deepEqual(pickAccount([user, admin], user, 'admin'), { account: admin });
		assert.deepEqual(pickAccount([user, admin], admin, 'admin'), { account: admin });
		assert.deepEqual(pickAccount([user, admin], admin, undefined), { account: admin });
		assert.deepEqual(pickAccount([user, admin], undefined, 'user'), { account: user });
		assert.deepEqual(pickAccount([user], user, 'admin'), { needs: 'admin', reason: 'none' });
		assert.deepEqual(pickAccount([user, admin, admin2], user, 'admin'), { needs: 'admin', reason: 'several' });
		assert.deepEqual(pickAccount([user, admin], admin, 'user', admin), { needs: 'user', reason: 'named' });
		assert.deepEqual(pickAccount([user, admin], admin, undefined, user), { account: user });
		assert.deepEqual(pickAccount([user, admin], undefined, undefined), { reason: 'noActive' });
		assert.deepEqual(pickAccount([user, admin], admin, 'user', user), { account: user }, 'named, of the kind needed');
		assert.deepEqual(pickAccount([user, admin, admin2], admin2, 'admin'), { account: admin2 }, 'the active one of the kind needed, among several');
	});

	it('needs the account kind the operation names, either for none or an unknown one', () => {
		assert.deepEqual(['users.delete', 'trips.user.list', 'registration.create'].map((id) => neededKind(operationById(id))), ['admin', 'user', undefined]);
		assert.equal(neededKind(undefined), undefined);
	});

	it('names what an operation that cannot be undone acts on, and no secret of its body', () => {
		assert.equal(operationTarget(platform, operationById('users.page')!, '/v1/Management/users/GetFilteredPage', '{"InstanceIds":["i-1"],"PageNumber":2,"PageSize":"20"}'), 'PageNumber "2", PageSize "20"', 'numbers and text, no list');
		assert.equal(operationTarget(platform, operationById('users.delete')!, '/v1/Management/users/dt-2', undefined), 'DeviceToken "dt-2"');
		assert.equal(operationTarget(platform, operationById('users.changeInstance')!, '/v1/Management/users/instances/change', '{"DeviceToken":"dt-2","ToInstanceId":"i-9","ToInstanceKey":"secret-key"}'), 'DeviceToken "dt-2", ToInstanceId "i-9"');
		assert.equal(operationTarget(platform, operationById('users.changeInstance')!, '/v1/Management/users/instances/change', 'not json'), '');
		assert.equal(operationTarget(platform, operationById('users.changeInstance')!, '/v1/Management/users/instances/change', 'null'), '');
		assert.equal(operationTarget(platform, operationById('users.update')!, '/v1/Management/users', '{"UserDeviceToken":"x","FirstName":"y"}'), '', 'only required body fields: not a header\'s name, not an optional field');
	});
});

describe('the agent\'s request: it never logs in', () => {
	const hosts = platformHosts(SERVICE);
	const loginPaths = [
		'/v1/Auth/Login', '/v1/Auth/RefreshToken', '/v1/auth/login', '/V1/AUTH/REFRESHTOKEN/', '/v1//Auth//Login',
		'/v1/%41uth/Login', '/v1/Auth%2FLogin', '/v1/Auth/%254Cogin', '/api/v1/Auth/Login', '/x/Auth/Login?a=1',
		'/v1/Auth./Login', '/v1/Auth/LoginWithCode', '/v1/Auth/Refresh', '/v1/Auth;x=1/Login', '/v1;/Auth/Login;', '/v1/Auth%3B/Login',
	];
	for (const path of loginPaths) {
		it(`refuses ${path} on every host, and says the tools never log in`, () => {
			for (const host of ['user', 'api', 'accounts', 'portal'] as const) {
				const result = platformUrlFor(SERVICE, hosts, { host, path });
				assert.equal(result.ok, false, `${host} ${path}`);
				assert.match((result as { message: string }).message, /never log in/);
			}
		});
	}

	it('refuses dot segments with ; parameters, which servlet routers resolve after dropping them (/v1/Auth/.;/Login, ..;, %2e;)', () => {
		for (const path of ['/v1/Auth/.;/Login', '/v1/Auth/x/..;/Login', '/v1/Auth/%2e;/Login', '/v1/Management/.;/users/abc', '/realtime/api/v1/sharing/x/..;x=1/sessions', '/v1/%2E%2E;/Me']) {
			assert.equal(platformUrlFor(SERVICE, hosts, { host: 'user', path }).ok, false, path);
		}
		assert.equal(platformUrlFor(SERVICE, hosts, { host: 'user', path: '/v1/a.;b/Me' }).ok, true, 'a dot inside a segment is a name');
	});

	it('refuses a service whose own root ends in Auth when the path is Login', () => {
		assert.equal(platformUrlFor('https://portal.example.com/v1/Auth', undefined, { host: 'user', path: '/Login' }).ok, false);
	});

	it('takes what only looks like it: permissions under auth, a user called login, a login of its own name', () => {
		assert.equal(platformUrlFor(SERVICE, hosts, { host: 'portal', path: '/auth/permissions' }).ok, true);
		assert.equal(platformUrlFor(SERVICE, hosts, { host: 'user', path: '/v1/Management/users/Login' }).ok, true);
		assert.equal(platformUrlFor(SERVICE, hosts, { host: 'user', path: '/v1/Authors/Login' }).ok, true);
		assert.equal(namesLogin('/v1/Me'), false);
		assert.equal(platformUrlFor(SERVICE, hosts, { host: 'user', path: '/v1/OAuth/Login' }).ok, true, 'a segment that only ends in auth');
		assert.equal(platformUrlFor(SERVICE, hosts, { host: 'user', path: '/v1/Auth/AutoRefresh' }).ok, true, 'a route that only ends in refresh');
	});

	it('counts a path that does not decode as the login route', () => {
		assert.equal(namesLogin('/v1/%zz/Me'), true);
		assert.equal(namesLogin('/v1/Auth/%E0%A4%A'), true);
	});

	it('whatever the case and encoding of each letter, Auth/Login and Auth/RefreshToken are refused (generated)', () => {
		const spelled = (word: string) => fc.tuple(...[...word].map((c) => fc.constantFrom(c.toLowerCase(), c.toUpperCase(), `%${c.charCodeAt(0).toString(16).toUpperCase()}`, `%25${c.charCodeAt(0).toString(16)}`))).map((cs) => cs.join(''));
		fc.assert(fc.property(fc.constantFrom('', '/v1', '/api/v1', '/v2'), spelled('auth'), fc.oneof(spelled('login'), spelled('refreshtoken')), fc.constantFrom('', '/', '?x=1'), (prefix, auth, route, tail) => {
			assert.equal(platformUrlFor(SERVICE, hosts, { host: 'user', path: `${prefix}/${auth}/${route}${tail}` }).ok, false);
		}), { numRuns: 500 });
	});
});

describe('the agent\'s request: no other method than the one sent', () => {
	const hosts = platformHosts(SERVICE);
	for (const [path, query] of [
		['/v1/Management/users/abc?_method=DELETE', undefined],
		['/v1/Management/users/abc', { _method: 'DELETE' }],
		['/v1/Management/users/abc', { _METHOD: 'delete' }],
		['/v1/Management/users/abc?%5Fmethod=DELETE', undefined],
		['/v1/Management/users/abc?%255fmethod=DELETE', undefined],
		['/v1/Management/users/abc', { 'X-HTTP-Method-Override': 'DELETE' }],
		['/v1/Me?a=1&x-method-override=PUT', undefined],
		['/v1/Me?X-HTTP-Method=PUT', undefined],
		['/v1/Management/users/abc?_method+=DELETE', undefined],
		['/v1/Management/users/abc?%20_Method=DELETE', undefined],
	] as Array<[string, Record<string, string> | undefined]>) {
		it(`refuses ${path} ${JSON.stringify(query ?? {})}: a query key that overrides the method`, () => {
			const result = platformUrlFor(SERVICE, hosts, { host: 'user', path, ...(query && { query }) });
			assert.equal(result.ok, false);
			assert.match((result as { message: string }).message, /another method/);
		});
	}

	it('takes a query key that only contains the word', () => {
		assert.equal(platformUrlFor(SERVICE, hosts, { host: 'user', path: '/v1/Me', query: { method: 'x', payment_method: 'card' } }).ok, true);
	});
});

describe('the agent\'s request: the answer it reads', () => {
	const request = { method: 'GET' as const, url: `${SERVICE}/v1/Me`, account: 'Demo Driver' };
	const json = { 'content-type': 'application/json; charset=utf-8' };

	it('says the request, the status and the type, and pretty-prints JSON', () => {
		assert.equal(describeAnswer({ status: 200, headers: json, body: '{"Result":{"Subject":"u-1"}}' }, request, []),
			`GET ${SERVICE}/v1/Me as Demo Driver → HTTP 200 (application/json; charset=utf-8)\n{\n  "Result": {\n    "Subject": "u-1"\n  }\n}`);
	});

	it('masks every token: JWTs, Bearer values, secret fields, the account\'s own secrets in any form', () => {
		const secret = 'refresh-secret-9';
		const body = JSON.stringify({ AccessToken: 'opaque-1', note: `a ${JWT} b`, echo: `Bearer zzz`, copy: Buffer.from(secret).toString('base64'), url: `x?token=${encodeURIComponent(secret)}` });
		const out = describeAnswer({ status: 200, headers: json, body }, request, [secret]);
		for (const gone of ['opaque-1', JWT, 'zzz', Buffer.from(secret).toString('base64'), secret]) assert.ok(!out.includes(gone), `${gone} in ${out}`);
	});

	it('cuts a long body, after masking, and says so', () => {
		// A token across the place of the cut: masked first, so no part of it is left.
		const out = describeAnswer({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: `${'a'.repeat(MAX_RESULT_BODY_CHARS - 10)}${JWT} ${'x'.repeat(100)}` }, request, []);
		assert.ok(!out.includes('eyJ'), 'no part of a token survives the cut');
		assert.match(out, /\[The body was cut: 94 more characters not shown \(at most 20000 are\)/);
		assert.equal(out.split('\n')[1]!.length, MAX_RESULT_BODY_CHARS);
		const exact = describeAnswer({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'b'.repeat(MAX_RESULT_BODY_CHARS) }, request, []);
		assert.doesNotMatch(exact, /was cut/);
	});

	it('says when JSON is not JSON, when there is no body, and does not show what is not text', () => {
		assert.match(describeAnswer({ status: 502, headers: json, body: '<html>Bad Gateway</html>' }, request, []), /HTTP 502[^\n]*\nThe body is not valid JSON; it is shown as text\.\n<html>Bad Gateway<\/html>$/);
		assert.match(describeAnswer({ status: 204, headers: {}, body: '' }, request, []), /HTTP 204\nThe answer has no body\.$/);
		assert.match(describeAnswer({ status: 200, headers: json, body: '{}' }, { ...request, method: 'HEAD' }, []), /The answer has no body\.$/);
		assert.match(describeAnswer({ status: 200, headers: { 'content-type': 'image/png' }, body: '\u0089PNG' }, request, []), /The body \(4 characters of image\/png\) is not text and is not shown\.$/);
		assert.match(describeAnswer({ status: 200, headers: {}, body: '[1,2]' }, request, []), /\[\n  1,\n  2\n\]$/);
		assert.match(describeAnswer({ status: 200, headers: {}, body: '  {"a":1}' }, request, []), /\{\n  "a": 1\n\}$/, 'JSON after spaces');
		assert.match(describeAnswer({ status: 200, headers: { 'x-other': 'text/plain', 'Content-Type': 'text/plain' }, body: 'see {x}' }, request, []), /\(text\/plain\)\nsee \{x\}$/, 'text with a brace is text');
		assert.match(describeAnswer({ status: 200, headers: {}, body: 'hello' }, request, []), /HTTP 200\nhello$/, 'no type: shown as text');
		assert.match(describeAnswer({ status: 200, headers: { 'content-type': 'application/octet-stream; name=text/plain' }, body: 'x' }, request, []), /is not text and is not shown/);
	});
});

describe('the agent\'s request: the path as written reaches the service as written', () => {
	const ok = (path: string) => {
		const url = serviceUrlFor('https://user.example.com/api', path);
		assert.ok(url.ok, `${path}: ${JSON.stringify(url)}`);
		return url.value;
	};
	it('a query holding a second "?" keeps it', () => assert.equal(ok('/v1/x?a=1?b=2'), 'https://user.example.com/api/v1/x?a=1?b=2'));
	it('a dot inside a segment is no dot segment', () => assert.equal(ok('/v1/trips.json'), 'https://user.example.com/api/v1/trips.json'));
	it('a path that does not start with "/" is refused', () => assert.equal(serviceUrlFor('https://user.example.com', 'v1/x').ok, false));
	it('the content type is the Content-Type header, whatever comes before it', () => {
		const text = describeAnswer({ status: 200, headers: { 'x-request-id': 'abc', 'Content-Type': 'text/plain' }, body: 'hello' }, { method: 'GET', url: 'https://user.example.com/v1/x', account: 'user' }, []);
		assert.match(text, /\(text\/plain\)/);
		assert.doesNotMatch(text, /\(abc\)/);
	});
});

describe('the agent\'s request: each guard on its own', () => {
	const out = 'The path must be a path on the account\'s service, such as "/v1/Me": no URL, host, "//", "\\\\" or "..". To reach another host of the platform, give "host" (a host key such as "api"); no other host can be reached with this tool.';
	// The path as written and as decoded: each refusal here is the path check's own, whatever comes after it.
	const paths: Array<[string, string | undefined]> = [
		['/v1/Me', undefined],
		['/v1/Me?q=%2F@evil.example', undefined],
		['/v1/Me?next=/../x', undefined],
		['/v1/Me?next=%2F%2E%2E%2Fx', undefined],
		['/v1/a%2Fb', undefined],
		['/v1/files/.hidden', undefined],
		['/v1/files/..x', undefined],
		['/v1/files/...', undefined],
		['%2F@evil.example', out],
		['%2f%2fevil.example', out],
		['?/v1', out],
		['v1/Me', out],
		['', out],
		['//evil.example', out],
		['/%2Fevil.example', out],
		['/%252F%252Fevil.example', out],
		['/v1/Me#x', out],
		['/v1\\x', out],
		['/v1/%5Cx', out],
		['/v1/Me?x=%5C', out],
		['/v1/Me?x=%0a', out],
		['/a b', out],
		['/v1/..', out],
		['/./v1', out],
		['/v1/%2E', out],
		['/v1/%', 'The path holds a percent sign that is not an escape; write "%25" for "%".'],
		['/v1?%', 'The path holds a percent sign that is not an escape; write "%25" for "%".'],
	];
	for (const [path, expected] of paths) it(`pathRefusal(${JSON.stringify(path)}) → ${expected === undefined ? 'taken' : 'refused'}`, () => assert.equal(pathRefusal(path), expected));

	// The URL built from a path: the last guard, tested by the URLs it must refuse.
	const urls: Array<[string, string, boolean]> = [
		['https://user.example.com/v1/Me', '', true],
		['https://user.example.com/', '', true],
		['https://user.example.com/api', '/api', true],
		['https://user.example.com/api/v1', '/api', true],
		['https://user.example.com%2F@evil.example/v1', '', false],
		['https://user.example.com@evil.example/v1', '', false],
		['https://evil.example/v1', '', false],
		['http://user.example.com/v1', '', false],
		['https://user.example.com:444/v1', '', false],
		['https://u@user.example.com/v1', '', false],
		['https://:p@user.example.com/v1', '', false],
		['https://user.example.com/apix', '/api', false],
		['https://user.example.com/v1', '/api', false],
		['https://[', '', false],
	];
	for (const [href, root, expected] of urls) it(`staysOnService(${href}, root "${root}") → ${expected}`, () => assert.equal(staysOnService(href, 'https://user.example.com', root), expected));
});

describe('the agent\'s request: what the person is shown before a change', () => {
	const markdown = new MarkdownIt({ html: true, linkify: true });

	it('the URL, whatever the path and query hold, is one code block that shows it exactly (generated)', () => {
		const piece = fc.constantFrom('/', '`', '``', '```', '&nbsp;', '&#96;', '%60', '<b>', '[x](command:y)', '*', '_', '?', '&', '=', '\'', '"', '~~~', 'v1', 'a', '%2F', '@', '|', '<!--');
		const text = fc.array(piece, { maxLength: 14 }).map((p) => p.join(''));
		let shown = 0;
		fc.assert(fc.property(fc.constantFrom(SERVICE, ROOTED), text.map((t) => `/${t}`), fc.dictionary(text, text, { maxKeys: 2 }), (service, path, query) => {
			const url = serviceUrlFor(service, path, query);
			const value = url.ok ? url.value : path;
			if (url.ok) shown++;
			const tokens = markdown.parse(markdownCodeBlock(value), {});
			assert.deepEqual(tokens.map((t) => t.type), ['fence'], value);
			assert.equal(tokens[0]!.content, `${value}\n`);
		}), { numRuns: 2000 });
		assert.ok(shown > 500, `${shown} URLs taken`);
	});

	it('a backtick and an &nbsp; in the query stay in the block, and the URL is the one sent', () => {
		const url = serviceUrlFor(SERVICE, '/v1/Users?name=`&nbsp;**all**`');
		assert.ok(url.ok);
		const tokens = markdown.parse(markdownCodeBlock(url.value), {});
		assert.equal(tokens.length, 1);
		assert.equal(tokens[0]!.content, 'https://user.telematicssdk.com/v1/Users?name=`&nbsp;**all**`\n');
	});

	it('the body: every token masked before it is cut, then cut at the bound', () => {
		const secret = 'r3fresh-s3cret-value';
		const shown = bodyShown(JSON.stringify({ token: JWT, refresh: secret, note: 'x' }), [secret]);
		assert.equal(shown.shown, shown.total);
		assert.ok(!shown.text.includes(JWT) && !shown.text.includes(secret), shown.text);
		assert.match(shown.text, /"note": "x"/);
		const long = bodyShown(`${'a'.repeat(MAX_CONFIRMATION_BODY_CHARS - 5)} ${JWT} ${'z'.repeat(50)}`, []);
		assert.equal(long.shown, MAX_CONFIRMATION_BODY_CHARS);
		assert.ok(!long.text.includes(JWT.slice(0, 5)), long.text.slice(-10));
		assert.ok(long.total > long.shown);
		const marked = (text: string) => wrapLines(text, QUESTION_LINE_CHARS - BODY_LINE_MARK.length).split('\n').map((line) => BODY_LINE_MARK + line).join('\n');
		assert.deepEqual(bodyShown('b'.repeat(MAX_CONFIRMATION_BODY_CHARS), []), { text: marked('b'.repeat(MAX_CONFIRMATION_BODY_CHARS)), shown: MAX_CONFIRMATION_BODY_CHARS, total: MAX_CONFIRMATION_BODY_CHARS });
		assert.deepEqual(bodyShown('b'.repeat(MAX_CONFIRMATION_BODY_CHARS + 1), []), { text: marked('b'.repeat(MAX_CONFIRMATION_BODY_CHARS)), shown: MAX_CONFIRMATION_BODY_CHARS, total: MAX_CONFIRMATION_BODY_CHARS + 1 });
	});
});
