import * as assert from 'node:assert/strict';
import { interpretResponse, kindForStatus, parseRetryAfter, readErrors, readTokens, type Outcome } from '../../src/core/api/parse';
import type { HttpResponse } from '../../src/core/api/types';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse =>
	({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const okResult = { DeviceToken: 'dev', AccessToken: { Token: 'jwt', ExpiresIn: 86400 }, RefreshToken: 'rt' };

function kindOf(outcome: Outcome): string {
	return outcome.ok ? 'ok' : outcome.failure.kind;
}

describe('interpretResponse', () => {
	const cases: { name: string; response: HttpResponse; kind: string; status?: number }[] = [
		{ name: 'the success envelope', response: json(200, { Result: okResult, Status: 200, Title: '', Errors: [] }), kind: 'ok' },
		{ name: 'camelCase envelope', response: json(200, { result: { accessToken: { token: 'jwt', expiresIn: 1 }, refreshToken: 'rt' }, status: 200, errors: [] }), kind: 'ok' },
		{ name: 'no envelope, tokens at the top', response: json(200, { AccessToken: 'jwt', RefreshToken: 'rt' }), kind: 'ok' },
		{ name: 'body Status 401 under HTTP 200', response: json(200, { Result: null, Status: 401, Title: 'Unauthorized', Errors: [] }), kind: 'badCredentials', status: 401 },
		{ name: 'body Status "403" as text under HTTP 200', response: json(200, { Status: '403', Errors: [] }), kind: 'forbidden', status: 403 },
		{ name: 'Errors under Status 200', response: json(200, { Result: okResult, Status: 200, Errors: [{ Key: 'x', Message: 'y' }] }), kind: 'validation', status: 200 },
		{ name: 'HTTP 401 with body Status 200', response: json(401, { Status: 200, Errors: [] }), kind: 'badCredentials', status: 401 },
		{ name: 'HTTP 401, empty body', response: { status: 401, headers: {}, body: '' }, kind: 'badCredentials', status: 401 },
		{ name: 'HTTP 403', response: json(403, { Status: 403 }), kind: 'forbidden', status: 403 },
		{ name: 'HTTP 422', response: json(422, { Status: 422, Errors: [{ Key: 'InstanceId', Message: 'required' }] }), kind: 'validation', status: 422 },
		{ name: 'HTTP 400 ASP.NET problem', response: json(400, { title: 'One or more validation errors occurred.', status: 400, errors: { Password: ['The Password field is required.'] } }), kind: 'validation', status: 400 },
		{ name: 'HTTP 429', response: json(429, { Status: 429 }, { 'Retry-After': '120' }), kind: 'rateLimited', status: 429 },
		{ name: 'HTTP 500 envelope', response: json(500, { Status: 500, Errors: [] }), kind: 'serverUnavailable', status: 500 },
		{ name: 'HTML 502 page', response: { status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body>502 Bad Gateway</body></html>' }, kind: 'serverUnavailable', status: 502 },
		{ name: 'HTML page under 200 (a captive portal)', response: { status: 200, headers: {}, body: '<!DOCTYPE html><html></html>' }, kind: 'serverUnavailable', status: 200 },
		{ name: 'HTML 418 page', response: { status: 418, headers: { 'content-type': 'text/html' }, body: '<html></html>' }, kind: 'serverUnavailable', status: 418 },
		{ name: '404', response: { status: 404, headers: { 'content-type': 'text/html' }, body: '<html>Not found</html>' }, kind: 'badResponse', status: 404 },
		{ name: '407 from a proxy', response: { status: 407, headers: {}, body: '' }, kind: 'network', status: 407 },
		{ name: 'plain text under 200', response: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'hello' }, kind: 'badResponse', status: 200 },
		{ name: 'empty body under 200', response: { status: 200, headers: {}, body: '' }, kind: 'badResponse', status: 200 },
		{ name: 'a JSON array under 200', response: json(200, [1, 2]), kind: 'badResponse', status: 200 },
		{ name: 'no access token under 200', response: json(200, { Result: { RefreshToken: 'rt' }, Status: 200, Errors: [] }), kind: 'badResponse', status: 200 },
		{ name: 'empty access token under 200', response: json(200, { Result: { AccessToken: { Token: '' }, RefreshToken: 'rt' }, Status: 200 }), kind: 'badResponse', status: 200 },
	];
	for (const c of cases) {
		it(`${c.name} → ${c.kind}`, () => {
			const outcome = interpretResponse(c.response, 0);
			assert.equal(kindOf(outcome), c.kind);
			if (!outcome.ok) assert.equal(outcome.failure.status, c.status);
		});
	}

	it('reads the tokens of the success envelope', () => {
		const outcome = interpretResponse(json(200, { Result: okResult, Status: 200, Title: '', Errors: [] }));
		assert.deepEqual(outcome, { ok: true, tokens: { deviceToken: 'dev', accessToken: 'jwt', expiresIn: 86400, refreshToken: 'rt' } });
	});

	it('keeps Retry-After, details and title of a failure', () => {
		const outcome = interpretResponse(json(429, { Status: 429, Title: 'Too Many Requests', Errors: [{ Key: 'Login', Message: 'slow down' }] }, { 'retry-after': '90' }));
		assert.deepEqual(outcome, { ok: false, failure: { kind: 'rateLimited', status: 429, retryAfterSeconds: 90, title: 'Too Many Requests', details: [{ key: 'Login', message: 'slow down' }] } });
	});

	it('marks HTML pages', () => {
		const outcome = interpretResponse({ status: 502, headers: {}, body: '<html>x</html>' });
		assert.equal(!outcome.ok && outcome.failure.html, true);
	});
});

describe('readTokens', () => {
	const cases: { name: string; result: unknown; expected: object }[] = [
		{ name: 'PascalCase object', result: okResult, expected: { deviceToken: 'dev', accessToken: 'jwt', expiresIn: 86400, refreshToken: 'rt' } },
		{ name: 'camelCase object', result: { accessToken: { token: 'jwt', expiresIn: 60 }, refreshToken: 'rt', deviceToken: 'dev' }, expected: { deviceToken: 'dev', accessToken: 'jwt', expiresIn: 60, refreshToken: 'rt' } },
		{ name: 'bare string access token', result: { AccessToken: 'jwt', RefreshToken: 'rt' }, expected: { accessToken: 'jwt', refreshToken: 'rt' } },
		{ name: 'ExpiresIn as text', result: { AccessToken: { Token: 'jwt', ExpiresIn: '7200' } }, expected: { accessToken: 'jwt', expiresIn: 7200 } },
		{ name: 'ExpiresIn beside the token', result: { AccessToken: 'jwt', ExpiresIn: 30 }, expected: { accessToken: 'jwt', expiresIn: 30 } },
		{ name: 'oauth names', result: { access_token: 'jwt', refresh_token: 'rt', expires_in: 5 }, expected: { accessToken: 'jwt', refreshToken: 'rt', expiresIn: 5 } },
		{ name: 'nothing', result: null, expected: {} },
		{ name: 'wrong types', result: { AccessToken: 42, RefreshToken: {}, DeviceToken: 1 }, expected: {} },
	];
	for (const c of cases) {
		it(c.name, () => assert.deepEqual(readTokens(c.result), c.expected));
	}
});

describe('readErrors', () => {
	const cases: { name: string; value: unknown; expected: { key: string; message: string }[] }[] = [
		{ name: '{Key, Message}', value: [{ Key: 'InstanceId', Message: 'required' }], expected: [{ key: 'InstanceId', message: 'required' }] },
		{ name: '{key, message}', value: [{ key: 'a', message: 'b' }], expected: [{ key: 'a', message: 'b' }] },
		{ name: '{KEY, MESSAGE}', value: [{ KEY: 'a', MESSAGE: 'b' }], expected: [{ key: 'a', message: 'b' }] },
		{ name: 'plain strings', value: ['first', '  ', 'second'], expected: [{ key: '', message: 'first' }, { key: '', message: 'second' }] },
		{ name: 'ASP.NET object', value: { Password: ['p1', 'p2'], Email: 'e1' }, expected: [{ key: 'Password', message: 'p1' }, { key: 'Password', message: 'p2' }, { key: 'Email', message: 'e1' }] },
		{ name: 'a single string', value: 'oops', expected: [{ key: '', message: 'oops' }] },
		{ name: 'empty array', value: [], expected: [] },
		{ name: 'null', value: null, expected: [] },
		{ name: 'numbers are ignored', value: [1, 2], expected: [] },
	];
	for (const c of cases) {
		it(c.name, () => assert.deepEqual(readErrors(c.value), c.expected));
	}

	it('keeps at most 10 details, whole (the client cuts them after redaction)', () => {
		const details = readErrors(Array.from({ length: 20 }, () => 'x'.repeat(1000)));
		assert.equal(details.length, 10);
		assert.equal(details[0]?.message.length, 1000);
	});
});

describe('kindForStatus and parseRetryAfter', () => {
	const kinds: [number, string][] = [[401, 'badCredentials'], [403, 'forbidden'], [400, 'validation'], [422, 'validation'], [429, 'rateLimited'], [500, 'serverUnavailable'], [503, 'serverUnavailable'], [408, 'serverUnavailable'], [407, 'network'], [404, 'badResponse'], [415, 'badResponse']];
	for (const [status, kind] of kinds) {
		it(`${status} → ${kind}`, () => assert.equal(kindForStatus(status), kind));
	}
	const waits: [string | undefined, number | undefined][] = [['120', 120], [' 5 ', 5], ['1.2', 2], [new Date(61_000).toUTCString(), 61], [new Date(0).toUTCString(), 0], ['soon', undefined], ['', undefined], [undefined, undefined]];
	for (const [value, seconds] of waits) {
		it(`Retry-After ${JSON.stringify(value)} → ${seconds}`, () => assert.equal(parseRetryAfter(value, 0), seconds));
	}
});
