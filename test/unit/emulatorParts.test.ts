// The service emulator's pure parts, by tables: the request readers, authentication, the login
// rate limiter, the JWTs.
import * as assert from 'node:assert/strict';
import { authenticate } from '../../src/emulator/authenticate';
import { resolveConfig } from '../../src/emulator/config';
import { FaultState, readFaults } from '../emulator/faults';
import { newSecret, signJwt, verifyJwt, type EmulatorClaims } from '../../src/emulator/jwt';
import { LoginRateLimiter } from '../../src/emulator/rateLimiter';
import { parseJsonObject, parseLogin, parseRefresh } from '../../src/emulator/requests';
import { isJsonContentType } from '../../src/emulator/server';
import { DEMO_ADMINS, DEMO_USERS, type RigConfig } from '../emulator/rig';
import { ADMIN, USER } from './emulatorHttp';

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
		assert.deepEqual(config.loginRateLimit, { max: 1, windowSeconds: 60, blockSeconds: 3600 });
		assert.equal(config.port, 0);
		assert.equal(config.host, '127.0.0.1');
		assert.equal(config.accessTokenLifetimeSeconds, 7200);
		assert.deepEqual(config.users, DEMO_USERS);
	});
});
