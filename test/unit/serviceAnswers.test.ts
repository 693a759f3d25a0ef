// The service's answers as tables (issue 36): every field name and shape the parser takes, each row an
// answer a service, a gateway or an attacker could send, and exactly what is read from it.
import * as assert from 'node:assert/strict';
import { interpretResponse, looksLikeHtml, parseRetryAfter, pick, readErrors, readTokens, tryParseJson } from '../../src/core/api/parse';

const NOW = Date.UTC(2030, 0, 1);

describe('service answers: the parts', () => {
	it('pick: the first name present exactly, else any casing; nothing from what is not an object', () => {
		assert.equal(pick({ Key: 1, key: 2 }, 'key', 'Key'), 2);
		assert.equal(pick({ KEY: 3 }, 'Key'), 3);
		assert.equal(pick({ b: 1, A: 2 }, 'a', 'b'), 1, 'an exact name wins over an earlier name in another casing');
		assert.equal(pick({ x: 1 }, 'Key'), undefined);
		for (const odd of [null, 'Key', 7, undefined]) assert.equal(pick(odd, 'Key'), undefined);
	});

	it('tryParseJson: blank is nothing, broken is nothing', () => {
		assert.equal(tryParseJson('  \n'), undefined);
		assert.equal(tryParseJson('{'), undefined);
		assert.deepEqual(tryParseJson(' {"a":1} '), { a: 1 });
		assert.equal(tryParseJson('0'), 0);
	});

	// [body, content type, is HTML]
	const html: Array<[string, string | undefined, boolean]> = [
		['<!DOCTYPE html><p>x', undefined, true],
		['  \n<html>', undefined, true],
		['<head>', undefined, true],
		['<BODY>', undefined, true],
		['text <html>', undefined, false],
		['<htmlx>', undefined, false],
		['{}', 'text/html; charset=utf-8', true],
		['{}', 'application/xhtml+xml', false],
		['{}', undefined, false],
	];
	for (const [body, type, expected] of html) it(`looksLikeHtml(${JSON.stringify(body)}, ${type}) = ${expected}`, () => assert.equal(looksLikeHtml(body, type), expected));

	// [Errors as sent, what is read]
	const errors: Array<[unknown, { key: string; message: string }[]]> = [
		[[{ Key: 'DeviceToken', Message: 'Unknown device.' }], [{ key: 'DeviceToken', message: 'Unknown device.' }]],
		[[{ Field: 'a', ErrorMessage: 'b' }], [{ key: 'a', message: 'b' }]],
		[[{ PropertyName: 'c', Description: 'd' }], [{ key: 'c', message: 'd' }]],
		[[{ Name: 'e', Error: 'f' }], [{ key: 'e', message: 'f' }]],
		[[{ Code: 'g' }], [{ key: 'g', message: '' }]],
		[[{ message: ' only a message ' }], [{ key: '', message: 'only a message' }]],
		[[{ Key: ' ', Message: ' ' }, { Other: 'x' }, 7, null, ['nested']], []],
		[['  plain text  ', '', ' '], [{ key: '', message: 'plain text' }]],
		[{ Password: ['too short', 'no digits'], ' ': 'keyless', Login: 'required', Empty: [' '] }, [{ key: 'Password', message: 'too short' }, { key: 'Password', message: 'no digits' }, { key: '', message: 'keyless' }, { key: 'Login', message: 'required' }]],
		['  one message  ', [{ key: '', message: 'one message' }]],
		[' ', []],
		[undefined, []],
		[Array.from({ length: 12 }, (_, i) => `e${i}`), Array.from({ length: 10 }, (_, i) => ({ key: '', message: `e${i}` }))],
	];
	for (const [value, read] of errors) it(`readErrors(${JSON.stringify(value)?.slice(0, 70)})`, () => assert.deepEqual(readErrors(value), read));

	// [Result as sent, what is read]
	const tokens: Array<[unknown, object]> = [
		[{ AccessToken: { Token: ' a ', ExpiresIn: 60 }, RefreshToken: { Token: 'r' }, DeviceToken: ' d ' }, { accessToken: 'a', expiresIn: 60, refreshToken: 'r', deviceToken: 'd' }],
		[{ AccessToken: { Value: 'a' }, RefreshToken: { Value: 'r' } }, { accessToken: 'a', refreshToken: 'r' }],
		[{ AccessToken: { AccessToken: 'a', expires_in: '120' } }, { accessToken: 'a', expiresIn: 120 }],
		[{ access_token: 'a', refresh_token: 'r', expires_in: 30.5 }, { accessToken: 'a', refreshToken: 'r', expiresIn: 30.5 }],
		[{ AccessToken: 'a', ExpiresIn: ' 45 ' }, { accessToken: 'a', expiresIn: 45 }],
		[{ AccessToken: 'a', ExpiresIn: '45s' }, { accessToken: 'a' }],
		[{ AccessToken: 'a', ExpiresIn: '-5' }, { accessToken: 'a' }],
		[{ AccessToken: 'a', ExpiresIn: '1.' }, { accessToken: 'a' }],
		[{ AccessToken: 'a', ExpiresIn: Infinity }, { accessToken: 'a' }],
		[{ AccessToken: 'a', ExpiresIn: true }, { accessToken: 'a' }],
		[{ AccessToken: ' ', RefreshToken: ' ', DeviceToken: 7 }, {}],
		[{ AccessToken: 7, RefreshToken: ['r'] }, {}],
		[null, {}],
	];
	for (const [result, read] of tokens) it(`readTokens(${JSON.stringify(result)?.slice(0, 70)})`, () => assert.deepEqual(readTokens(result), read));

	// [Retry-After, seconds]
	const retry: Array<[string | undefined, number | undefined]> = [
		[undefined, undefined],
		['  ', undefined],
		['120', 120],
		[' 1.2 ', 2],
		['0', 0],
		[new Date(NOW + 90_500).toUTCString(), 90],
		[new Date(NOW - 60_000).toUTCString(), 0],
		['soon', undefined],
	];
	for (const [value, seconds] of retry) it(`Retry-After ${JSON.stringify(value)} → ${seconds}`, () => assert.equal(parseRetryAfter(value, NOW), seconds));
});

describe('service answers: the outcome', () => {
	const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
		interpretResponse({ status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) }, NOW);
	const failure = (outcome: ReturnType<typeof interpretResponse>) => {
		assert.equal(outcome.ok, false);
		return (outcome as unknown as { failure: Record<string, unknown> }).failure;
	};

	it('tokens from Result, or from the top level without one', () => {
		assert.deepEqual(answer(200, { Status: 200, Result: { AccessToken: { Token: 'a', ExpiresIn: 1 }, RefreshToken: { Token: 'r' } } }), { ok: true, tokens: { accessToken: 'a', expiresIn: 1, refreshToken: 'r' } });
		assert.deepEqual(answer(200, { access_token: 'a' }), { ok: true, tokens: { accessToken: 'a' } });
	});

	// [status, body, headers, the failure's kind, problem and status, and whether it is HTML]
	const failures: Array<[number, unknown, Record<string, string>, Record<string, unknown>]> = [
		[200, '', {}, { kind: 'badResponse', status: 200, problem: 'the body is empty', details: [] }],
		[200, 'not json', {}, { kind: 'badResponse', status: 200, problem: 'the body is not JSON', details: [] }],
		[200, '[1]', {}, { kind: 'badResponse', status: 200, problem: 'the body is not a JSON object', details: [] }],
		[200, { Status: 200, Result: {} }, {}, { kind: 'badResponse', status: 200, problem: 'there is no access token in it', details: [] }],
		[200, { Status: '401', Title: ' Unauthorized ' }, {}, { kind: 'badCredentials', status: 401, title: 'Unauthorized', details: [] }],
		[200, { StatusCode: 503 }, {}, { kind: 'serverUnavailable', status: 503, details: [] }],
		[200, { Status: 200, Errors: ['bad'], Result: { AccessToken: 'a' } }, {}, { kind: 'validation', status: 200, details: [{ key: '', message: 'bad' }] }],
		[200, '<html>502</html>', {}, { kind: 'serverUnavailable', status: 200, html: true, details: [] }],
		[299, { Status: 300 }, {}, { kind: 'badResponse', status: 300, details: [] }],
		[300, { AccessToken: 'a' }, {}, { kind: 'badResponse', status: 300, details: [] }],
		[404, '<html>Not Found</html>', {}, { kind: 'badResponse', status: 404, html: true, details: [] }],
		[418, '<html>teapot</html>', {}, { kind: 'serverUnavailable', status: 418, html: true, details: [] }],
		[418, { Errors: [] }, { 'Content-Type': 'text/html' }, { kind: 'badResponse', status: 418, details: [] }],
		[429, '', { 'Retry-After': '30' }, { kind: 'rateLimited', status: 429, retryAfterSeconds: 30, details: [] }],
		[429, '', { 'retry-after': 'soon' }, { kind: 'rateLimited', status: 429, details: [] }],
		[400, { Errors: { Login: ['required'] } }, {}, { kind: 'validation', status: 400, details: [{ key: 'Login', message: 'required' }] }],
	];
	for (const [status, body, headers, expected] of failures) {
		it(`HTTP ${status} ${JSON.stringify(body).slice(0, 50)} → ${String(expected.kind)}`, () => assert.deepEqual(failure(answer(status, body, headers)), expected));
	}
});

describe('service answers: statuses, headers and bodies, field by field', () => {
	const now = Date.parse('2026-01-01T00:00:00Z');
	const answer = (status: number, body: string, headers: Record<string, string> = {}) => interpretResponse({ status, body, headers }, now);
	it('Retry-After as an HTTP date, a decimal, or what is neither', () => {
		assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now), 60);
		assert.equal(parseRetryAfter('1.25', now), 2);
		assert.equal(parseRetryAfter('soon', now), undefined);
	});
	it('a 1xx status is no success', () => {
		const body = JSON.stringify({ Status: 200, Result: { AccessToken: { Token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', ExpiresIn: 60 }, RefreshToken: { Token: 'r' } } });
		assert.equal(answer(200, body).ok, true, 'the same body under 200 is a success');
		for (const status of [101, 199, 300]) assert.equal(answer(status, body).ok, false, String(status));
	});
	it('401 is bad credentials even when the body is an HTML page', () => {
		const outcome = answer(401, '<html><body>no</body></html>', { 'Content-Type': 'text/html' });
		assert.ok(!outcome.ok && outcome.failure.kind === 'badCredentials');
	});
	it('a 200 with an HTML content type and a body that is no JSON is a service that is down', () => {
		const outcome = answer(200, 'maintenance', { 'X-Other': 'a', 'Content-Type': 'text/html; charset=utf-8' });
		assert.ok(!outcome.ok && outcome.failure.kind === 'serverUnavailable', JSON.stringify(outcome));
	});
	it('a 200 whose body is blank says the body is empty', () => {
		const outcome = answer(200, '  \n');
		assert.ok(!outcome.ok && outcome.failure.kind === 'badResponse' && outcome.failure.problem === 'the body is empty', JSON.stringify(outcome));
	});
	it('Retry-After is read whatever the header\'s case, and only from that header', () => {
		const outcome = answer(429, '{}', { 'X-Wait': '99', 'retry-AFTER': '7' });
		assert.ok(!outcome.ok && outcome.failure.retryAfterSeconds === 7, JSON.stringify(outcome));
	});
	it('ExpiresIn that is not a number or a numeric text is no lifetime', () => {
		for (const ExpiresIn of [null, true, '12abc']) assert.equal(readTokens({ AccessToken: { Token: 'a.b.c', ExpiresIn } }).expiresIn, undefined, String(ExpiresIn));
		assert.equal(readTokens({ AccessToken: { Token: 'a.b.c', ExpiresIn: '3600.5' } }).expiresIn, 3600.5);
	});
});
