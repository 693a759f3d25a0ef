// Token exposure's decisions (core/exposure/exposedTokens.ts) as tables: which token goes under which variable,
// which account's each bound client environment gets, and which variables the warnings watch.
import * as assert from 'node:assert/strict';
import { accountVariables, boundEnvironments, exposableToken, exposedTokens, exposedVariables } from '../../src/core/exposure/exposedTokens';
import type { Session } from '../../src/core/sessions/types';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const USER_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2ln';
const ADMIN_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2ln';

function session(name: string | undefined, token: string | undefined, state: Session['state'] = 'valid', serviceUrl = 'https://user.example.com/'): Session {
	return {
		account: { id: `id-${name ?? 'unnamed'}`, kind: name?.startsWith('admin') ? 'admin' : 'user', label: name ?? 'old', ...(name !== undefined && { name }), serviceUrl, createdAt: NOW },
		tokens: token === undefined ? undefined : { accessToken: token, refreshToken: 'refresh-secret', expiresAt: NOW + 3_600_000, expirySource: 'jwt', obtainedAt: NOW },
		state,
	};
}

const user = session('user', USER_TOKEN);
const admin = session('admin', ADMIN_TOKEN, 'valid', 'https://admin.example.com');
const loggedOut = session('admin-2', undefined, 'needsLogin');

describe('token exposure: what goes where', () => {
	describe('exposableToken', () => {
		const rows: Array<[string, Session, string | undefined]> = [
			['a held token in the grammar', user, USER_TOKEN],
			['an expired one still (a refresh may bring the next)', session('user', USER_TOKEN, 'expired'), USER_TOKEN],
			['none while the session waits for a login', session('user', USER_TOKEN, 'needsLogin'), undefined],
			['none without tokens', loggedOut, undefined],
			['none outside the token grammar (a line break would end the env line)', session('user', `${USER_TOKEN}\nX=1`), undefined],
		];
		for (const [name, given, expected] of rows) it(name, () => assert.equal(exposableToken(given), expected));
	});

	it('accountVariables: each named account with a live token, by its variable; none while off', () => {
		const sessions = [user, admin, loggedOut, session(undefined, USER_TOKEN)];
		assert.deepEqual([...accountVariables(true, sessions)], [['TELEMATICS_TOKEN_USER', USER_TOKEN], ['TELEMATICS_TOKEN_ADMIN', ADMIN_TOKEN]]);
		assert.deepEqual([...accountVariables(false, sessions)], []);
	});

	it('boundEnvironments: the bound account\'s token and service, null when it holds none or is unknown, never another account\'s', () => {
		const bindings = new Map([['prod', 'admin'], ['dev', 'user'], ['stage', 'admin-2'], ['gone', 'nobody']]);
		assert.deepEqual(boundEnvironments([user, admin, loggedOut], bindings), {
			prod: { token: ADMIN_TOKEN, baseUrl: 'https://admin.example.com' },
			dev: { token: USER_TOKEN, baseUrl: 'https://user.example.com' },
			stage: null,
			gone: null,
		});
	});

	describe('exposedTokens', () => {
		const bindings = new Map([['prod', 'admin']]);
		it('the active account\'s token and service (no trailing slash), every named account\'s, the bound environments\'', () => {
			assert.deepEqual(exposedTokens(true, user, [user, admin], bindings), {
				token: USER_TOKEN,
				baseUrl: 'https://user.example.com',
				accounts: { TELEMATICS_TOKEN_USER: USER_TOKEN, TELEMATICS_TOKEN_ADMIN: ADMIN_TOKEN },
				environments: { prod: { token: ADMIN_TOKEN, baseUrl: 'https://admin.example.com' } },
			});
		});
		const nothing: Array<[string, boolean, Session | undefined]> = [
			['off', false, user],
			['no active account', true, undefined],
			['the active account waits for a login', true, session('user', USER_TOKEN, 'needsLogin')],
		];
		for (const [name, exposing, active] of nothing) it(`nothing when ${name}`, () => assert.equal(exposedTokens(exposing, active, [user, admin], bindings), undefined));
	});

	describe('exposedVariables', () => {
		it('the active account\'s TELEMATICS_TOKEN, every named account\'s own, and TELEMATICS_TOKEN for each other bound account', () => {
			const bindings = new Map([['prod', 'admin'], ['dev', 'user'], ['again', 'admin'], ['gone', 'nobody']]);
			assert.deepEqual(exposedVariables(true, user, [user, admin, loggedOut], bindings), [
				{ name: 'TELEMATICS_TOKEN', accountId: 'id-user' },
				{ name: 'TELEMATICS_TOKEN_USER', accountId: 'id-user' },
				{ name: 'TELEMATICS_TOKEN_ADMIN', accountId: 'id-admin' },
				{ name: 'TELEMATICS_TOKEN_ADMIN_2', accountId: 'id-admin-2' },
				{ name: 'TELEMATICS_TOKEN', accountId: 'id-admin' },
			]);
		});
		it('none while off', () => assert.deepEqual(exposedVariables(false, user, [user, admin], new Map([['prod', 'admin']])), []));
		it('no active account: only the named and the bound ones', () => {
			assert.deepEqual(exposedVariables(true, undefined, [admin], new Map([['prod', 'admin']])), [
				{ name: 'TELEMATICS_TOKEN_ADMIN', accountId: 'id-admin' },
				{ name: 'TELEMATICS_TOKEN', accountId: 'id-admin' },
			]);
		});
	});
});
