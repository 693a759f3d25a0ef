// The service emulator: its pure parts by tables, then the real server over loopback with
// Node's global fetch, then the CLI.
import * as assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticate } from '../../src/emulator/authenticate';
import { banner, CliError, DEFAULT_CLI_PORT, main, mergeConfig, parseArgs, readConfigFile } from '../emulator/cli';
import { resolveConfig } from '../../src/emulator/config';
import { FaultState, readFaults } from '../emulator/faults';
import { newSecret, signJwt, verifyJwt, type EmulatorClaims } from '../../src/emulator/jwt';
import { LoginRateLimiter } from '../../src/emulator/rateLimiter';
import { parseJsonObject, parseLogin, parseRefresh } from '../../src/emulator/requests';
import { isJsonContentType, startEmulator as startDemoService, type RunningEmulator } from '../../src/emulator/server';
import {
	DEMO_ADMINS,
	DEMO_USERS,
	startEmulator,
	type RigConfig,
	type RiggedEmulator,
} from '../emulator/rig';

const USER = DEMO_USERS[0]!;
const USER2 = DEMO_USERS[1]!;
const ADMIN = DEMO_ADMINS[0]!;

interface Reply {
	status: number;
	headers: Headers;
	text: string;
	json: any;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Reply> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
		signal,
	});
	return reply(res);
}

/** A raw request, so the Host header can be anything (fetch will not let us set it). */
function raw(url: string, method: string, headers: Record<string, string>, body = ''): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, { method, headers }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
		req.end(body);
	});
}

async function reply(res: Response): Promise<Reply> {
	const text = await res.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

function claimsOf(jwt: string): Record<string, any> {
	return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
}

describe('emulator: pure parts', () => {
	describe('parseLogin', () => {
		const headers = { instanceId: 'i' };
		const cases: { name: string; body: Record<string, unknown>; kind?: 'user' | 'admin'; login?: string }[] = [
			{ name: 'object deviceToken', body: { LoginFields: { deviceToken: 'd' }, Password: 'p' }, kind: 'user', login: 'd' },
			{ name: 'object DeviceToken', body: { LoginFields: { DeviceToken: 'd' }, Password: 'p' }, kind: 'user', login: 'd' },
			{ name: 'string Devicetoken', body: { LoginFields: '{"Devicetoken":"d"}', Password: 'p' }, kind: 'user', login: 'd' },
			{ name: 'camelCase top level', body: { loginFields: { deviceToken: 'd' }, password: 'p' }, kind: 'user', login: 'd' },
			{ name: 'object Email', body: { LoginFields: { Email: 'a@b' }, Password: 'p' }, kind: 'admin', login: 'a@b' },
			{ name: 'string email', body: { loginFields: '{"email":"a@b"}', password: 'p' }, kind: 'admin', login: 'a@b' },
			{ name: 'unknown inner casing', body: { LoginFields: { DEVICETOKEN: 'd' }, Password: 'p' }, kind: undefined, login: undefined },
		];
		for (const c of cases) {
			it(`reads ${c.name}`, () => {
				const parsed = parseLogin(c.body, headers, false);
				assert.ok(parsed.ok);
				assert.equal(parsed.value.kind, c.kind);
				assert.equal(parsed.value.login, c.login);
				assert.equal(parsed.value.password, 'p');
			});
		}

		const invalid: { name: string; body: Record<string, unknown>; headers: { instanceId?: string }; requireAdmin?: boolean; keys: string[] }[] = [
			{ name: 'user without InstanceId', body: { LoginFields: { deviceToken: 'd' }, Password: 'p' }, headers: {}, keys: ['InstanceId'] },
			{ name: 'blank InstanceId', body: { LoginFields: { deviceToken: 'd' }, Password: 'p' }, headers: { instanceId: ' ' }, keys: ['InstanceId'] },
			{ name: 'no LoginFields', body: { Password: 'p' }, headers, keys: ['LoginFields'] },
			{ name: 'LoginFields not JSON', body: { LoginFields: 'deviceToken=d', Password: 'p' }, headers, keys: ['LoginFields'] },
			{ name: 'no Password', body: { LoginFields: { deviceToken: 'd' } }, headers, keys: ['Password'] },
			{ name: 'nothing', body: {}, headers: {}, keys: ['LoginFields', 'Password'] },
			{ name: 'admin without InstanceId when required', body: { LoginFields: { Email: 'a' }, Password: 'p' }, headers: {}, requireAdmin: true, keys: ['InstanceId'] },
		];
		for (const c of invalid) {
			it(`refuses ${c.name} with keys ${c.keys.join(', ')}`, () => {
				const parsed = parseLogin(c.body, c.headers, c.requireAdmin ?? false);
				assert.ok(!parsed.ok);
				assert.deepEqual(parsed.errors.map((e) => e.Key), c.keys);
			});
		}

		it('lets an admin log in without InstanceId unless required', () => {
			assert.ok(parseLogin({ LoginFields: { Email: 'a' }, Password: 'p' }, {}, false).ok);
		});
	});

	it('parseJsonObject refuses what is not a JSON object, on Key body', () => {
		for (const text of ['', '{', '[1]', '"x"', 'null']) {
			const parsed = parseJsonObject(text);
			assert.ok(!parsed.ok, text);
			assert.equal(parsed.errors[0]?.Key, 'body');
		}
		assert.ok(parseJsonObject('{"a":1}').ok);
	});

	it('parseRefresh accepts both casings and names what is missing', () => {
		assert.deepEqual(parseRefresh({ accessToken: 'a', refreshToken: 'r' }), { ok: true, value: { accessToken: 'a', refreshToken: 'r' } });
		const missing = parseRefresh({ AccessToken: 'a' });
		assert.ok(!missing.ok);
		assert.deepEqual(missing.errors.map((e) => e.Key), ['RefreshToken']);
	});

	describe('authenticate', () => {
		const users = DEMO_USERS;
		const admins = DEMO_ADMINS;
		const cases: { name: string; attempt: Parameters<typeof authenticate>[0]; expect: 'user' | 'admin' | 401 | 403 }[] = [
			{ name: 'user', attempt: { kind: 'user', login: USER.deviceToken, password: USER.instanceKey, instanceId: USER.instanceId }, expect: 'user' },
			{ name: 'user with matching InstanceKey header', attempt: { kind: 'user', login: USER.deviceToken, password: USER.instanceKey, instanceId: USER.instanceId, instanceKey: USER.instanceKey }, expect: 'user' },
			{ name: 'user with other InstanceKey header', attempt: { kind: 'user', login: USER.deviceToken, password: USER.instanceKey, instanceId: USER.instanceId, instanceKey: 'x' }, expect: 401 },
			{ name: 'user wrong password', attempt: { kind: 'user', login: USER.deviceToken, password: 'x', instanceId: USER.instanceId }, expect: 401 },
			{ name: 'user unknown device', attempt: { kind: 'user', login: 'x', password: USER.instanceKey, instanceId: USER.instanceId }, expect: 401 },
			{ name: 'user unknown instance', attempt: { kind: 'user', login: USER.deviceToken, password: USER.instanceKey, instanceId: 'x' }, expect: 401 },
			{ name: 'user at the API instance', attempt: { kind: 'user', login: USER.deviceToken, password: USER.instanceKey, instanceId: ADMIN.instanceId }, expect: 403 },
			{ name: 'admin with header', attempt: { kind: 'admin', login: ADMIN.email, password: ADMIN.password, instanceId: ADMIN.instanceId }, expect: 'admin' },
			{ name: 'admin without header, email in other case', attempt: { kind: 'admin', login: ADMIN.email.toUpperCase(), password: ADMIN.password }, expect: 'admin' },
			{ name: 'admin wrong password', attempt: { kind: 'admin', login: ADMIN.email, password: 'x' }, expect: 401 },
			{ name: 'admin at a user group instance', attempt: { kind: 'admin', login: ADMIN.email, password: ADMIN.password, instanceId: USER.instanceId }, expect: 403 },
			{ name: 'admin at an unknown instance', attempt: { kind: 'admin', login: ADMIN.email, password: ADMIN.password, instanceId: 'x' }, expect: 401 },
			{ name: 'no recognised login field', attempt: { password: 'p', instanceId: USER.instanceId }, expect: 401 },
		];
		for (const c of cases) {
			it(`${c.name} → ${c.expect}`, () => {
				const outcome = authenticate(c.attempt, users, admins);
				if (typeof c.expect === 'number') assert.deepEqual(outcome, { ok: false, status: c.expect });
				else assert.equal(outcome.ok && outcome.identity.role, c.expect);
			});
		}
	});

	describe('LoginRateLimiter', () => {
		it('allows max attempts per window, then blocks for blockSeconds', () => {
			const limiter = new LoginRateLimiter(() => ({ max: 2, windowSeconds: 60, blockSeconds: 600 }));
			assert.deepEqual(limiter.attempt('a', 0), { allowed: true });
			assert.deepEqual(limiter.attempt('a', 1000), { allowed: true });
			assert.deepEqual(limiter.attempt('a', 2000), { allowed: false, retryAfterSeconds: 600 });
			assert.deepEqual(limiter.attempt('b', 2000), { allowed: true }, 'other clients are not blocked');
			assert.deepEqual(limiter.attempt('a', 302_000), { allowed: false, retryAfterSeconds: 300 });
			assert.deepEqual(limiter.attempt('a', 602_000), { allowed: true }, 'the block ends');
		});

		it('forgets attempts older than the window', () => {
			const limiter = new LoginRateLimiter(() => ({ max: 2, windowSeconds: 60, blockSeconds: 600 }));
			limiter.attempt('a', 0);
			limiter.attempt('a', 30_000);
			assert.deepEqual(limiter.attempt('a', 61_000), { allowed: true });
			assert.equal(limiter.attempt('a', 62_000).allowed, false);
		});

		it('reset lifts a block', () => {
			const limiter = new LoginRateLimiter(() => ({ max: 1, windowSeconds: 60, blockSeconds: 600 }));
			assert.equal(limiter.attempt('a', 0).allowed, true);
			assert.equal(limiter.attempt('a', 0).allowed, false);
			limiter.reset();
			assert.equal(limiter.attempt('a', 0).allowed, true);
		});
	});

	describe('jwt', () => {
		const claims: EmulatorClaims = { sub: 's', iss: 'i', aud: 'a', iat: 1, exp: 2, nbf: 1, jti: 'j', role: 'user', instanceId: 'x', name: 'n' };
		const secret = newSecret();
		const token = signJwt(claims, secret);

		it('verifies what it signed, expired or not', () => {
			assert.deepEqual(verifyJwt(token, secret), claims);
		});

		it('refuses a tampered payload, another secret, alg none and junk', () => {
			const [h, , s] = token.split('.');
			const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${s}`;
			const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${token.split('.')[1]}.`;
			for (const bad of [forged, none, 'a.b.c', 'x', `${token}x`]) assert.equal(verifyJwt(bad, secret), undefined, bad);
			assert.equal(verifyJwt(token, newSecret()), undefined);
		});
	});

	it('FaultState applies a counted fault to that many requests per endpoint', () => {
		const faults = new FaultState({ login: 'html502', refresh: 'reset', count: 1 });
		assert.equal(faults.take('login').mode, 'html502');
		assert.equal(faults.take('login').mode, 'none');
		assert.equal(faults.take('refresh').mode, 'reset');
		assert.deepEqual(faults.current(), { login: 'none', refresh: 'none', count: 1 });
		faults.set({ login: 'hang' });
		assert.equal(faults.take('login').mode, 'hang');
		assert.equal(faults.take('login').mode, 'hang', 'without count it stays');
	});

	it('readFaults validates control bodies', () => {
		assert.deepEqual(readFaults({ login: 'slow', slowMs: 10 }), { login: 'slow', slowMs: 10 });
		assert.equal(typeof readFaults({ login: 'explode' }), 'string');
		assert.equal(typeof readFaults({ count: -1 }), 'string');
	});

	it('isJsonContentType accepts the JSON types only', () => {
		const table: [string | undefined, boolean][] = [
			['application/json', true], ['application/json; charset=utf-8', true], ['application/json-patch+json', true],
			['text/json', true], ['text/plain', false], ['application/x-www-form-urlencoded', false], [undefined, false],
		];
		for (const [value, expected] of table) assert.equal(isJsonContentType(value), expected, String(value));
	});

	it('resolveConfig fills the defaults', () => {
		const config = resolveConfig({ loginRateLimit: { max: 1 } as RigConfig['loginRateLimit'], port: undefined });
		assert.deepEqual(config.loginRateLimit, { max: 1, windowSeconds: 60, blockSeconds: 600 });
		assert.equal(config.port, 0);
		assert.equal(config.host, '127.0.0.1');
		assert.equal(config.accessTokenLifetimeSeconds, 7200);
		assert.deepEqual(config.users, DEMO_USERS);
	});
});

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

describe('emulator: CLI', () => {
	describe('parseArgs', () => {
		const cases: { argv: string[]; config: Partial<RigConfig>; json?: boolean; configFile?: string }[] = [
			{ argv: [], config: {} },
			{ argv: ['--port', '9000', '--host', '0.0.0.0'], config: { port: 9000, host: '0.0.0.0' } },
			{ argv: ['--port=0', '--json'], config: { port: 0 }, json: true },
			{ argv: ['--token-lifetime', '60', '--refresh-lifetime', '600'], config: { accessTokenLifetimeSeconds: 60, refreshTokenLifetimeSeconds: 600 } },
			{ argv: ['--fault', 'login=html502', '--fault=refresh=hang', '--fault-count', '2', '--slow-ms', '10'], config: { faults: { login: 'html502', refresh: 'hang', count: 2, slowMs: 10 } } },
			{ argv: ['--fault', 'refresh=rateLimited'], config: { faults: { refresh: 'rateLimited' } } },
			{ argv: ['--rate-limit', '3/10/30', '--require-admin-instance'], config: { loginRateLimit: { max: 3, windowSeconds: 10, blockSeconds: 30 }, requireInstanceHeaderForAdmin: true } },
			{ argv: ['--config', 'e.json'], config: {}, configFile: 'e.json' },
		];
		for (const c of cases) {
			it(`reads ${c.argv.join(' ') || '(nothing)'}`, () => {
				const options = parseArgs(c.argv);
				assert.deepEqual(options.config, c.config);
				assert.equal(options.json, c.json ?? false);
				assert.equal(options.configFile, c.configFile);
			});
		}

		for (const argv of [['--port'], ['--port', 'x'], ['--port', '70000'], ['--fault', 'login=explode'], ['--fault', 'other=hang'], ['--rate-limit', '5'], ['--bogus']]) {
			it(`refuses ${argv.join(' ')}`, () => {
				assert.throws(() => parseArgs(argv), CliError);
			});
		}
	});

	it('mergeConfig lets flags win over the file and defaults the port', () => {
		const options = parseArgs(['--token-lifetime', '5', '--fault', 'login=slow']);
		const merged = mergeConfig({ accessTokenLifetimeSeconds: 100, faults: { slowMs: 7 }, users: [] }, options);
		assert.deepEqual(merged, { accessTokenLifetimeSeconds: 5, faults: { slowMs: 7, login: 'slow' }, users: [], port: DEFAULT_CLI_PORT });
	});

	it('readConfigFile reads a JSON object and refuses anything else', () => {
		const dir = mkdtempSync(join(tmpdir(), 'emulator-'));
		try {
			writeFileSync(join(dir, 'ok.json'), '{"port": 1}');
			writeFileSync(join(dir, 'bad.json'), '{"password": "secret-in-file"');
			assert.deepEqual(readConfigFile(join(dir, 'ok.json')), { port: 1 });
			assert.throws(() => readConfigFile(join(dir, 'bad.json')), (e: Error) => e instanceof CliError && !e.message.includes('secret-in-file'));
			assert.throws(() => readConfigFile(join(dir, 'missing.json')), CliError);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	function capture() {
		const out = { stdout: '', stderr: '' };
		return {
			out,
			io: {
				stdout: { write: (t: string) => (out.stdout += t) },
				stderr: { write: (t: string) => (out.stderr += t) },
				handleSignals: false,
			},
		};
	}

	it('main --json prints one JSON line with the URL and accounts, and the server works', async () => {
		const { out, io } = capture();
		const em = await main(['--port', '0', '--json'], io);
		assert.ok(em);
		try {
			const lines = out.stdout.trim().split('\n');
			assert.equal(lines.length, 1);
			const info = JSON.parse(lines[0]!);
			assert.equal(info.url, em.url);
			assert.deepEqual(info.users, DEMO_USERS);
			assert.deepEqual(info.admins, DEMO_ADMINS);
			const r = await post(`${info.url}/v1/Auth/Login`, { LoginFields: { deviceToken: USER.deviceToken }, Password: USER.instanceKey }, { InstanceId: USER.instanceId });
			assert.equal(r.status, 200);
		} finally {
			await em.close();
		}
	});

	it('main prints usage for --help and an error for a bad flag', async () => {
		const help = capture();
		assert.equal(await main(['--help'], help.io), undefined);
		assert.match(help.out.stdout, /Usage:/);

		const bad = capture();
		const previous = process.exitCode;
		try {
			assert.equal(await main(['--bogus'], bad.io), undefined);
			assert.equal(process.exitCode, 1);
			assert.match(bad.out.stderr, /Unknown option '--bogus'\. See --help/);
		} finally {
			process.exitCode = previous;
		}
	});

	it('the banner shows the URL, swagger, the demo credentials and how to stop', async () => {
		const em = await startEmulator();
		try {
			const text = banner(em);
			for (const part of [em.url, `${em.url}/swagger/index.html`, USER.instanceId, USER.deviceToken, USER.instanceKey, ADMIN.instanceId, ADMIN.email, ADMIN.password, 'Ctrl+C']) {
				assert.ok(text.includes(part), part);
			}
		} finally {
			await em.close();
		}
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
