// The demo service plays the platform: trips, indicators, users, applications and instances on one
// loopback origin, each operation with the token kind it needs, consistent demo data, and its own OpenAPI
// document. Driven over loopback with Node's fetch against the real server.
import * as assert from 'node:assert/strict';
import { OPERATIONS } from '../../src/core/platform/operations';
import { ROUTES } from '../../src/emulator/platformRoutes';
import { startEmulator as startDemoService } from '../../src/emulator/server';
import { LIFTED_RATE_LIMIT, startEmulator, type RiggedEmulator } from '../emulator/rig';
import { ADMIN, post, reply, USER, USER2, type Reply } from './emulatorHttp';

const DAY = 86_400_000;
const day = (offset: number): string => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

async function login(url: string, kind: 'user' | 'admin', user = USER): Promise<string> {
	const r = kind === 'user'
		? await post(`${url}/v1/Auth/Login`, { LoginFields: { deviceToken: user.deviceToken }, Password: user.instanceKey }, { InstanceId: user.instanceId })
		: await post(`${url}/v1/Auth/Login`, { LoginFields: { Email: ADMIN.email }, Password: ADMIN.password });
	assert.equal(r.status, 200, r.text);
	return r.json.Result.AccessToken.Token as string;
}

async function call(url: string, method: string, path: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
	const res = await fetch(url + path, {
		method,
		headers: { ...(token && { Authorization: `Bearer ${token}` }), ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
		...(body !== undefined && { body: JSON.stringify(body) }),
	});
	return reply(res);
}

describe('emulator: the platform', function () {
	this.timeout(10_000);
	let em: RiggedEmulator;
	let user: string;
	let admin: string;

	beforeEach(async () => {
		em = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT });
		user = await login(em.url, 'user');
		admin = await login(em.url, 'admin');
	});
	afterEach(() => em.close());

	const month = () => ({ StartDate: `${day(-30)}T00:00:00Z`, EndDate: `${day(0)}T23:59:59Z` });

	it('the user\'s own trips, newest first, with details, and no statistics (those are the indicators)', async () => {
		const r = await call(em.url, 'POST', '/trips/get/v1/', user, { ...month(), IncludeDetails: true, IncludeStatistics: true, Paging: { Page: 1, Count: 100 } });
		assert.equal(r.status, 200);
		assert.deepEqual([r.json.Status, r.json.Title, r.json.Errors], [200, '', []]);
		const trips = r.json.Result.Trips as any[];
		assert.ok(trips.length > 5, `a month of demo trips (${trips.length})`);
		for (const trip of trips) {
			assert.equal(trip.Identifiers.UserId, USER.deviceToken);
			assert.ok(Date.parse(trip.Data.StartDate) <= Date.now());
			assert.equal(trip.Statistics, undefined);
		}
		const starts = trips.map((t) => Date.parse(t.Data.StartDate));
		assert.deepEqual(starts, [...starts].sort((a, b) => b - a));
	});

	it('the admin\'s view of the same trips agrees with the statistics and scores for the period', async () => {
		const trips = await call(em.url, 'POST', '/trips/get/admin/v1', admin, { Identifiers: { UserId: USER.deviceToken }, ...month(), IncludeStatistics: true, IncludeScores: true, Paging: { Page: 1, Count: 100, IncludePagingInfo: true } });
		assert.equal(trips.status, 200);
		const list = trips.json.Result.Trips as any[];
		assert.equal(trips.json.Result.PagingInfo.TotalItems, list.length);
		const query = `UserId=${USER.deviceToken}&StartDate=${day(-30)}&EndDate=${day(0)}&TransportType=Driver`;
		const stats = await call(em.url, 'GET', `/indicators/admin/v3/Statistics?${query}`, admin);
		assert.equal(stats.status, 200);
		assert.equal(stats.json.Result[0].TripsCount, list.length);
		const km = list.reduce((total, t) => total + t.Statistics.Mileage, 0);
		assert.ok(Math.abs(stats.json.Result[0].MileageKm - km) < 0.01, 'the mileage is the sum of the trips\'');
		const safety = await call(em.url, 'GET', `/indicators/admin/v3/Scores/safety?${query}`, admin);
		const score = safety.json.Result[0].SafetyScore as number;
		const scores = list.map((t) => t.Scores.Safety as number);
		assert.ok(score >= Math.min(...scores) && score <= Math.max(...scores), 'the period\'s score lies between its trips\'');
		const own = await call(em.url, 'GET', `/indicators/v3/Statistics?StartDate=${day(-30)}&EndDate=${day(0)}&TransportType=Driver`, user);
		assert.deepEqual(own.json.Result, stats.json.Result, 'the user sees the same figures as the admin');
		const daily = await call(em.url, 'GET', `/indicators/v3/Scores/eco/daily?StartDate=${day(-30)}&EndDate=${day(0)}`, user);
		assert.ok((daily.json.Result as any[]).every((d) => /^\d{4}-\d{2}-\d{2}T00:00:00$/.test(d.CalcDate) && d.EcoScore > 0));
		const streaks = await call(em.url, 'GET', '/indicators/v3/Streaks', user);
		assert.deepEqual((streaks.json.Result as any[]).map((s) => s.StreakType), ['NoSpeeding', 'NoPhoneUsage']);
	});

	it('the same day shows the same trips in every emulator (deterministic demo data)', async () => {
		const other = await startDemoService();
		try {
			const token = await login(other.url, 'user');
			const a = await call(em.url, 'POST', '/trips/get/v1/', user, { ...month(), IncludeDetails: true, Paging: { Count: 100 } });
			const b = await call(other.url, 'POST', '/trips/get/v1/', token, { ...month(), IncludeDetails: true, Paging: { Count: 100 } });
			assert.deepEqual(b.json.Result.Trips.map((t: any) => t.Id), a.json.Result.Trips.map((t: any) => t.Id));
			const second = await call(em.url, 'POST', '/trips/get/admin/v1', admin, { Identifiers: { UserId: USER2.deviceToken }, ...month(), Paging: { Count: 100 } });
			assert.notDeepEqual(second.json.Result.Trips.map((t: any) => t.Id), a.json.Result.Trips.map((t: any) => t.Id), 'each user has their own');
		} finally {
			await other.close();
		}
	});

	describe('the token kind, as the service enforces it', () => {
		it('403 with no useful message for the wrong kind, both ways', async () => {
			for (const [method, path, token, body] of [
				['POST', '/trips/get/admin/v1', user, { Identifiers: { UserId: USER.deviceToken }, ...month() }],
				['GET', `/indicators/admin/v3/Statistics?UserId=${USER.deviceToken}&StartDate=${day(-7)}&EndDate=${day(0)}&TransportType=Driver`, user, undefined],
				['DELETE', `/v1/Management/users/${USER2.deviceToken}`, user, undefined],
				['POST', '/trips/get/v1/', admin, month()],
				['GET', '/v1/Management/users', admin, undefined],
			] as const) {
				const r = await call(em.url, method, path, token, body);
				assert.equal(r.status, 403, `${method} ${path}`);
				assert.deepEqual(r.json, { Result: null, Status: 403, Title: 'Forbidden', Errors: [] });
			}
			assert.ok(em.config.users.some((u) => u.deviceToken === USER2.deviceToken), 'the user\'s DELETE deleted nothing');
		});

		it('401 with no token, an invalid one, one from another emulator, or an expired one', async () => {
			const other = await startDemoService();
			const foreign = await login(other.url, 'user');
			await other.close();
			em.setAccessTokenLifetime(-60);
			const expired = await login(em.url, 'user');
			for (const token of [undefined, 'not-a-jwt', foreign, expired, `${user}x`]) {
				const r = await call(em.url, 'POST', '/trips/get/v1/', token, month());
				assert.equal(r.status, 401);
				assert.equal(r.json.Status, 401);
				assert.equal(r.headers.get('www-authenticate'), 'Bearer');
			}
		});

		it('registration takes the instance\'s headers instead of a token; the new user logs in and has no trips yet', async () => {
			const refused = await call(em.url, 'POST', '/v1/Registration/create', undefined, { UserFields: { ClientId: 'c-1' } }, { InstanceId: USER.instanceId, InstanceKey: 'wrong' });
			assert.equal(refused.status, 401);
			const r = await call(em.url, 'POST', '/v1/Registration/create', undefined, { UserFields: { ClientId: 'c-1', FirstName: 'Nova' }, CreateAccessToken: true }, { InstanceId: USER.instanceId, InstanceKey: USER.instanceKey });
			assert.equal(r.status, 200);
			const deviceToken = r.json.Result.DeviceToken as string;
			assert.match(r.json.Result.AccessToken.Token, /^eyJ/);
			const token = await login(em.url, 'user', { ...USER, deviceToken });
			const trips = await call(em.url, 'POST', '/trips/get/v1/', token, month());
			assert.deepEqual(trips.json.Result.Trips, []);
			const found = await call(em.url, 'GET', '/v1/Management/users/find?ClientId=c-1', admin);
			assert.equal(found.json.Result[0].DeviceToken, deviceToken);
			assert.equal(found.json.Result[0].FirstName, 'Nova');
		});
	});

	it('DELETE of a user really deletes them: gone from the lists, no login, their token opens nothing', async () => {
		const second = await login(em.url, 'user', USER2);
		em.resetStats();
		const r = await call(em.url, 'DELETE', `/v1/Management/users/${USER2.deviceToken}`, admin);
		assert.equal(r.status, 200);
		assert.deepEqual(r.json, { Status: 200, Title: '', Errors: [] });
		assert.deepEqual(em.stats.requests.map((q) => [q.method, q.path, q.status]), [['DELETE', `/v1/Management/users/${USER2.deviceToken}`, 200]], 'recorded as the rig records Login');
		assert.equal(em.config.users.some((u) => u.deviceToken === USER2.deviceToken), false);
		const found = await call(em.url, 'GET', `/v1/Management/users/find?DeviceToken=${USER2.deviceToken}`, admin);
		assert.deepEqual(found.json.Result, []);
		assert.equal((await call(em.url, 'POST', '/trips/get/v1/', second, month())).status, 401);
		const again = await post(`${em.url}/v1/Auth/Login`, { LoginFields: { deviceToken: USER2.deviceToken }, Password: USER2.instanceKey }, { InstanceId: USER2.instanceId });
		assert.equal(again.status, 401);
		assert.equal((await call(em.url, 'DELETE', `/v1/Management/users/${USER2.deviceToken}`, admin)).status, 404);
	});

	it('names a missing required field with 422, and a date that does not read', async () => {
		const r = await call(em.url, 'GET', `/indicators/admin/v3/Statistics?UserId=${USER.deviceToken}&StartDate=${day(-7)}`, admin);
		assert.equal(r.status, 422);
		assert.deepEqual(r.json.Errors.map((e: any) => e.Key), ['EndDate', 'TransportType']);
		const trips = await call(em.url, 'POST', '/trips/get/v1/', user, { StartDate: 'last week', EndDate: day(0) });
		assert.equal(trips.status, 422);
		assert.equal(trips.json.Errors[0].Key, 'StartDate');
	});

	it('applications and instances: an instance\'s Key is its InstanceKey; not found is a 200 with no result', async () => {
		const permissions = await call(em.url, 'GET', '/auth/permissions', admin);
		const company = permissions.json.Result.Companies[0];
		const appId = company.Applications[0].Id as string;
		assert.equal(JSON.stringify(permissions.json).includes(USER.instanceKey), false, 'permissions list no keys');
		const apps = await call(em.url, 'GET', `/v1/companies/${company.Id}/applications`, admin);
		assert.equal(apps.json.Result[0].Id, appId);
		const app = await call(em.url, 'GET', `/v1/Applications/${appId}?includeInstances=true`, admin);
		assert.deepEqual(app.json.Result.Instances.map((i: any) => [i.Id, i.Key]), [[USER.instanceId, USER.instanceKey]]);
		const instances = await call(em.url, 'GET', `/v1/applications/${appId}/instances`, admin);
		assert.equal(instances.json.Result[0].Key, USER.instanceKey);
		const missing = await call(em.url, 'GET', '/v1/Applications/nope', admin);
		assert.deepEqual([missing.status, missing.json.Result], [200, null]);
		const busy = await call(em.url, 'DELETE', `/v1/Instances/${USER.instanceId}`, admin);
		assert.equal(busy.status, 422, 'an instance with users stays');
		const created = await call(em.url, 'POST', `/v1/applications/${appId}/instances`, admin, { Name: 'Pilot' });
		assert.match(created.json.Result.Key, /^[0-9a-f-]{36}$/);
		assert.equal((await call(em.url, 'PATCH', `/v1/Instances/${created.json.Result.Id}?Name=Pilot%202`, admin)).status, 200);
		assert.equal((await call(em.url, 'GET', `/v1/Instances/${created.json.Result.Id}`, admin)).json.Result.Name, 'Pilot 2');
		assert.equal((await call(em.url, 'DELETE', `/v1/Instances/${created.json.Result.Id}`, admin)).status, 200);
		assert.equal((await call(em.url, 'GET', `/v1/Instances/${created.json.Result.Id}`, admin)).json.Result, null);
	});

	it('the users\' profiles: the user\'s own, and the admin\'s page of an instance', async () => {
		const me = await call(em.url, 'GET', '/v1/Management/users', user);
		assert.equal(me.json.Result.DeviceToken, USER.deviceToken);
		assert.equal(me.json.Result.FullName, USER.name);
		const page = await post(`${em.url}/v1/Management/users/GetFilteredPage`, { InstanceIds: [USER.instanceId], PageNumber: 1, PageSize: 10 }, { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json-patch+json' });
		assert.equal(page.status, 200);
		assert.deepEqual(page.json.Result.Users.map((u: any) => u.DeviceToken), [USER.deviceToken, USER2.deviceToken]);
		const changed = await call(em.url, 'PUT', '/v1/Management/users', admin, { FirstName: 'Ada', UserFields: { EnableTracking: false } }, { UserDeviceToken: USER.deviceToken });
		assert.equal(changed.json.Result.FullName, 'Ada Driver');
		assert.equal(changed.json.Result.UserFields.EnableTracking, false);
	});

	describe('its OpenAPI document and Swagger page', () => {
		it('serves an OpenAPI 3 document of every operation it serves, with the token each needs', async () => {
			const r = await reply(await fetch(`${em.url}/swagger/v1/swagger.json`));
			assert.equal(r.status, 200);
			assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
			assert.equal(r.json.openapi, '3.0.3');
			assert.equal(r.json.servers[0].url, em.url);
			const ids: string[] = [];
			for (const [path, item] of Object.entries<any>(r.json.paths)) {
				for (const [method, op] of Object.entries<any>(item)) {
					ids.push(op.operationId);
					const described = OPERATIONS.find((o) => o.id === op.operationId);
					if (!described) continue;
					assert.equal(path, described.path);
					assert.equal(method.toUpperCase(), described.method);
					assert.equal(op['x-telematics-token'], described.token);
					const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
					assert.deepEqual(op.parameters?.filter((p: any) => p.in === 'path').map((p: any) => p.name) ?? [], templated);
				}
			}
			assert.deepEqual(ids.filter((id) => !id.startsWith('auth.') && id !== 'me').sort(), Object.keys(ROUTES).sort());
			// As an ASP.NET host writes it: the body and its nested objects are $refs into components/schemas.
			const schemas = r.json.components.schemas;
			const ref = (schema: any): any => schemas[String(schema.$ref).replace('#/components/schemas/', '')];
			const body = ref(r.json.paths['/trips/get/admin/v1'].post.requestBody.content['application/json'].schema);
			assert.equal(ref(body.properties.Identifiers).required[0], 'UserId');
			assert.equal(ref(body.properties.Paging).properties.Page.type, 'integer');
			// One operation the description does not have: the emulator's own "who am I".
			assert.equal(r.json.paths['/v1/Me'].get.operationId, 'me');
			assert.ok(!OPERATIONS.some((op) => op.path === '/v1/Me'));
			assert.equal(r.json.paths['/v1/Management/users/{DeviceToken}'].delete['x-telematics-irreversible'], 'Delete the user and all their data');
		});

		it('every route is an operation of the description, and the main ones of each host are served', () => {
			for (const id of Object.keys(ROUTES)) assert.ok(OPERATIONS.some((op) => op.id === id), id);
			for (const op of OPERATIONS.filter((o) => ['user', 'api', 'accounts'].includes(o.host) || o.id === 'permissions.get')) assert.ok(op.id in ROUTES, `${op.id} is served`);
		});

		it('the Swagger page lists them', async () => {
			const page = await reply(await fetch(`${em.url}/swagger/index.html`));
			for (const path of ['/trips/get/v1/', '/indicators/admin/v3/Statistics', '/v1/Instances/{InstanceId}', '/auth/permissions', '/swagger/v1/swagger.json']) assert.ok(page.text.includes(path), path);
			assert.match(page.text, /admin JWT/);
		});
	});

	it('the demo service as shipped serves the platform too', async () => {
		const demo = await startDemoService();
		try {
			const token = await login(demo.url, 'user');
			const r = await call(demo.url, 'POST', '/trips/get/v1/', token, month());
			assert.equal(r.status, 200);
			assert.ok(r.json.Result.Trips.length > 0);
		} finally {
			await demo.close();
		}
	});
});
