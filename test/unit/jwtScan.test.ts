import * as assert from 'node:assert/strict';

import { formatClockTime as formatClock, formatElapsed } from '../../src/core/util/time';
import { findJwts, planTokenUpdates } from '../../src/core/restFile/jwtScan';
import { applyEdits } from '../../src/core/restFile/textEdit';
import { findOwner, planReplacements, type KnownToken } from '../../src/core/restFile/tokenMatch';

function jwt(claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }): string {
	const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
	return `${part(header)}.${part(claims)}.c2lnbmF0dXJl`;
}

const A = jwt({ sub: 'u1', iss: 'https://svc', exp: 1000 });
const B = jwt({ sub: 'u2', iss: 'https://svc', exp: 2000 });

describe('findJwts', () => {
	it('finds tokens and says where they sit', () => {
		const text = `@token = ${A}\n\nGET https://x\nAuthorization: Bearer ${B}\n\n{"t": "${A}"}\n# ${B}\n`;
		assert.deepEqual(findJwts(text).map((j) => [j.context, j.token === A ? 'A' : 'B', j.line, j.name]), [
			['variable', 'A', 0, 'token'],
			['header', 'B', 3, 'Authorization'],
			['other', 'A', 5, undefined],
			['other', 'B', 6, undefined],
		]);
		const first = findJwts(text)[0]!;
		assert.equal(text.slice(first.start, first.end), A);
	});

	const rejected: Array<[string, string]> = [
		['a header that is not JSON', `eyJub3Rqc29u.${A.split('.')[1]}.sig`],
		['two segments', A.split('.').slice(0, 2).join('.')],
		['a five-segment JWE', `${A}.more.parts`],
		['part of a longer word', `x${A}`],
	];
	for (const [name, text] of rejected) {
		it(`ignores ${name}`, () => assert.deepEqual(findJwts(`Authorization: Bearer ${text}\n`), []));
	}

	it('accepts an unsigned token (empty signature) and a trailing full stop', () => {
		const unsigned = A.split('.').slice(0, 2).join('.') + '.';
		assert.deepEqual(findJwts(`see ${unsigned} and ${A}.`).map((j) => j.token), [unsigned, A]);
	});
});

describe('planTokenUpdates', () => {
	it('replaces every occurrence of known tokens, CRLF intact', () => {
		const text = `@t = ${A}\r\nGET https://x\r\nAuthorization: Bearer ${A}\r\nX-Other: ${B}\r\n`;
		const result = applyEdits(text, planTokenUpdates(text, new Map([[A, 'NEW']])));
		assert.equal(result, `@t = NEW\r\nGET https://x\r\nAuthorization: Bearer NEW\r\nX-Other: ${B}\r\n`);
	});
});

describe('findOwner', () => {
	const current = jwt({ sub: 'u1', iss: 'https://svc', instanceId: 'i1', exp: 5000 });
	const known: KnownToken[] = [
		{ accountId: 'other', accessToken: jwt({ sub: 'u9', iss: 'https://svc', exp: 5000 }), expiresAt: 5_000_000 },
		{ accountId: 'acc', accessToken: current, expiresAt: 5_000_000 },
	];
	const cases: Array<[string, string, ReturnType<typeof findOwner>]> = [
		['the current token itself', current, { accountId: 'acc', isCurrent: true, newerAvailable: false }],
		['an older token of the same subject', jwt({ sub: 'u1', iss: 'https://svc', instanceId: 'i1', exp: 1000 }), { accountId: 'acc', isCurrent: false, newerAvailable: true }],
		['a token without iss/instanceId but the same sub', jwt({ sub: 'u1', exp: 1000 }), { accountId: 'acc', isCurrent: false, newerAvailable: true }],
		['a later token than the stored one', jwt({ sub: 'u1', iss: 'https://svc', exp: 9000 }), { accountId: 'acc', isCurrent: false, newerAvailable: false }],
		['another issuer', jwt({ sub: 'u1', iss: 'https://elsewhere', exp: 1000 }), undefined],
		['another instance', jwt({ sub: 'u1', iss: 'https://svc', instanceId: 'i2', exp: 1000 }), undefined],
		['no sub', jwt({ iss: 'https://svc', exp: 1000 }), undefined],
	];
	for (const [name, token, expected] of cases) {
		it(name, () => assert.deepEqual(findOwner(token, known), expected));
	}

	it('planReplacements maps only tokens with a newer one', () => {
		const old = jwt({ sub: 'u1', iss: 'https://svc', instanceId: 'i1', exp: 1000 });
		const map = planReplacements([old, current, B, old], known);
		assert.deepEqual([...map.entries()], [[old, { newToken: current, accountId: 'acc' }]]);
	});

	// Issue 34: the live token is written only over a token of the same account beyond doubt.
	const strict: Array<[string, string, boolean]> = [
		['the same subject, issuer and instance', jwt({ sub: 'u1', iss: 'https://svc', instanceId: 'i1', exp: 1000 }), true],
		['the subject alone (a planted JWT)', jwt({ sub: 'u1', exp: 1000 }), false],
		['the subject and issuer, no instance', jwt({ sub: 'u1', iss: 'https://svc', exp: 1000 }), false],
		['the subject and instance, no issuer', jwt({ sub: 'u1', instanceId: 'i1', exp: 1000 }), false],
		['another issuer', jwt({ sub: 'u1', iss: 'https://svc.evil', instanceId: 'i1', exp: 1000 }), false],
	];
	for (const [name, token, replaced] of strict) {
		it(`planReplacements, ${name}: ${replaced ? 'written over' : 'left alone'}`, () => assert.equal(planReplacements([token], known).has(token), replaced));
	}
});

describe('expiry text', () => {
	const elapsed: Array<[number, string]> = [[30_000, '<1 min'], [12 * 60_000, '12 min'], [3 * 3600_000 + 5, '3 h'], [50 * 3600_000, '2 days']];
	for (const [ms, expected] of elapsed) {
		it(`formatElapsed(${ms}) = ${expected}`, () => assert.equal(formatElapsed(ms), expected));
	}
	it('formatClock shows HH:MM today and the date on another day', () => {
		const at = new Date(2024, 4, 6, 9, 5).getTime();
		assert.equal(formatClock(at, new Date(2024, 4, 6, 23, 0).getTime()), '09:05');
		assert.equal(formatClock(at, new Date(2024, 4, 7, 1, 0).getTime()), '2024-05-06 09:05');
	});
});
