import * as assert from 'node:assert/strict';
import { computeExpiry, decodeClaims, DEFAULT_LIFETIME_MS, expiresInToMs, type Expiry } from '../../src/core/sessions/token';
import { formatRemaining } from '../../src/core/util/time';

function b64url(value: object): string {
	return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function jwt(payload: object): string {
	return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.c2ln`;
}

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const EXP = Math.floor(NOW / 1000) + 3600;

describe('computeExpiry', () => {
	const cases: { name: string; token: string; expiresIn?: number; expected: Expiry }[] = [
		{ name: 'exp from the JWT wins over ExpiresIn', token: jwt({ sub: 'u', exp: EXP }), expiresIn: 86400, expected: { expiresAt: EXP * 1000, source: 'jwt' } },
		{ name: 'an expired JWT stays expired', token: jwt({ exp: EXP - 7200 }), expected: { expiresAt: (EXP - 7200) * 1000, source: 'jwt' } },
		{ name: 'ExpiresIn in seconds (the service sends 86400)', token: 'opaque', expiresIn: 86400, expected: { expiresAt: NOW + 86_400_000, source: 'expiresIn' } },
		{ name: 'ExpiresIn 7200 s', token: jwt({ sub: 'no exp' }), expiresIn: 7200, expected: { expiresAt: NOW + 7_200_000, source: 'expiresIn' } },
		{ name: 'ExpiresIn that looks like ms (the spec\'s 2 hours)', token: 'opaque', expiresIn: 7_200_000, expected: { expiresAt: NOW + 7_200_000, source: 'expiresIn' } },
		{ name: 'ExpiresIn 1 day in ms', token: 'opaque', expiresIn: 86_400_000, expected: { expiresAt: NOW + 86_400_000, source: 'expiresIn' } },
		{ name: 'absurd ExpiresIn falls back to the default', token: 'opaque', expiresIn: 1e13, expected: { expiresAt: NOW + DEFAULT_LIFETIME_MS, source: 'default', note: 'ExpiresIn is not a plausible lifetime' } },
		{ name: 'negative ExpiresIn falls back to the default', token: 'opaque', expiresIn: -5, expected: { expiresAt: NOW + DEFAULT_LIFETIME_MS, source: 'default', note: 'ExpiresIn is not a plausible lifetime' } },
		{ name: 'NaN ExpiresIn falls back to the default', token: 'opaque', expiresIn: Number.NaN, expected: { expiresAt: NOW + DEFAULT_LIFETIME_MS, source: 'default', note: 'ExpiresIn is not a plausible lifetime' } },
		{ name: 'garbage token, no ExpiresIn', token: 'not.a.jwt', expected: { expiresAt: NOW + DEFAULT_LIFETIME_MS, source: 'default' } },
		{ name: 'empty token', token: '', expected: { expiresAt: NOW + DEFAULT_LIFETIME_MS, source: 'default' } },
		{ name: 'exp that is not a number', token: jwt({ exp: 'tomorrow' }), expiresIn: 60, expected: { expiresAt: NOW + 60_000, source: 'expiresIn', note: 'the token\'s exp claim is outside the plausible window (its issue time to 30 days ahead)' } },
		{ name: 'exp of 0', token: jwt({ exp: 0 }), expected: { expiresAt: NOW + DEFAULT_LIFETIME_MS, source: 'default', note: 'the token\'s exp claim is outside the plausible window (its issue time to 30 days ahead)' } },
		{ name: 'exp beyond what a Date holds (1e16 s) falls back to ExpiresIn', token: jwt({ exp: 1e16 }), expiresIn: 3600, expected: { expiresAt: NOW + 3_600_000, source: 'expiresIn', note: 'the token\'s exp claim is outside the plausible window (its issue time to 30 days ahead)' } },
		{ name: 'exp 31 days ahead is not believed', token: jwt({ exp: Math.floor(NOW / 1000) + 31 * 86_400 }), expected: { expiresAt: NOW + DEFAULT_LIFETIME_MS, source: 'default', note: 'the token\'s exp claim is outside the plausible window (its issue time to 30 days ahead)' } },
		{ name: 'exp 29 days ahead is believed', token: jwt({ exp: Math.floor(NOW / 1000) + 29 * 86_400 }), expected: { expiresAt: (Math.floor(NOW / 1000) + 29 * 86_400) * 1000, source: 'jwt' } },
		{ name: 'exp before the token\'s own iat is not believed', token: jwt({ iat: EXP, exp: EXP - 60 }), expiresIn: 600, expected: { expiresAt: NOW + 600_000, source: 'expiresIn', note: 'the token\'s exp claim is outside the plausible window (its issue time to 30 days ahead)' } },
		{ name: 'exp -1e16 is not believed', token: jwt({ exp: -1e16 }), expected: { expiresAt: NOW + DEFAULT_LIFETIME_MS, source: 'default', note: 'the token\'s exp claim is outside the plausible window (its issue time to 30 days ahead)' } },
	];
	for (const c of cases) {
		it(c.name, () => assert.deepEqual(computeExpiry(c.token, c.expiresIn, NOW), c.expected));
	}
});

describe('expiresInToMs', () => {
	const cases: [number | undefined, number | undefined][] = [
		[undefined, undefined], [0, undefined], [-1, undefined], [Infinity, undefined],
		[60, 60_000], [86_400, 86_400_000], [604_800, 604_800_000],
		[604_801, 604_801], [7_200_000, 7_200_000], [604_800_000, 604_800_000], [604_800_001, undefined],
	];
	for (const [input, expected] of cases) {
		it(`${input} → ${expected}`, () => assert.equal(expiresInToMs(input), expected));
	}
});

describe('decodeClaims', () => {
	it('reads the payload of a JWT', () => assert.deepEqual(decodeClaims(jwt({ sub: 'u1', exp: EXP })), { sub: 'u1', exp: EXP }));
	for (const garbage of ['', 'abc', 'a.b.c', 'eyJ.eyJ.x', '...']) {
		it(`garbage ${JSON.stringify(garbage)} → undefined`, () => assert.equal(decodeClaims(garbage), undefined));
	}
});

describe('formatRemaining', () => {
	const s = 1000;
	const m = 60 * s;
	const h = 60 * m;
	const cases: [number, string][] = [
		[2 * h - 1, '1h 59m'],
		[h, '1h 0m'],
		[h - 1, '59m'],
		[12 * m + 59 * s, '12m'],
		[m, '1m'],
		[m - 1, '59s'],
		[45 * s + 999, '45s'],
		[1000, '1s'],
		[999, '0s'],
		[0, 'expired'],
		[-5 * m, 'expired'],
		[26 * h, '1d 2h'],
		[48 * h + 5 * m, '2d'],
		[Number.NaN, '—'],
		[Infinity, '—'],
		[-Infinity, 'expired'],
		[1e16, '115740740d 17h'],
		[-1e16, 'expired'],
	];
	for (const [ms, expected] of cases) {
		it(`${ms} ms → ${expected}`, () => assert.equal(formatRemaining(ms), expected));
	}
});
