// The token grammar and the shell quoting, by generated input: what passes carries no line break, quote,
// brace or shell character; a shell reads back what was quoted; a .http edit adds one line or none.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fc from 'fast-check';
import { planAuthEdit } from '../../src/core/restFile/authHeaderEdit';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { applyEdits } from '../../src/core/restFile/textEdit';
import { isJwtShaped, isSafeToken, MAX_TOKEN_LENGTH, requireSafeToken, shellQuote, UnsafeTokenError } from '../../src/core/util/tokenGrammar';

const HOSTILE = fc.oneof(
	fc.string({ unit: 'binary' }),
	fc.constantFrom('\r\n### x\r\nPOST http://collector.invalid/', "'; echo INJECTED; : '", '{{$processEnv HOME}}', 'a b', 'a"b', 'a\tb', '$(id)', '`id`', 'a\u2028b'),
	fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/), fc.constantFrom('\n', '\r', '"', "'", '{', '}', ' ', ';', '$', '`', '\\', '|', '&', '<', '>')).map(([a, b]) => a + b),
);

describe('token grammar', () => {
	it('reads a JWT shape as one whole JWT only', () => {
		assert.equal(isJwtShaped('eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'), true);
		assert.equal(isJwtShaped('eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.c2ln'), true);
		for (const value of ['', 'x eyJa.eyJb.c', 'eyJa.eyJb.c d', 'eyJa..c', 'abc.def.ghi']) assert.equal(isJwtShaped(value), false, value);
	});

	it('refuses with an UnsafeTokenError that names where, and holds no part of the token', () => {
		assert.throws(() => requireSafeToken('bad token\n', 'the clipboard'), (e: Error) => e instanceof UnsafeTokenError && e.name === 'UnsafeTokenError'
			&& e.message === 'Refused to write a token that does not fit the token grammar (the clipboard).');
	});

	it('accepts JWTs and opaque base64url tokens up to 8 KB', () => {
		assert.equal(isSafeToken('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln'), true);
		assert.equal(isSafeToken('abc~+/=-_.'), true);
		assert.equal(isSafeToken('a'.repeat(MAX_TOKEN_LENGTH)), true);
		assert.equal(isSafeToken('a'.repeat(MAX_TOKEN_LENGTH + 1)), false);
		assert.equal(isSafeToken(''), false);
		assert.equal(isSafeToken(42), false);
		assert.equal(isSafeToken(['abc']), false, 'an array whose text would fit');
	});

	it('nothing it accepts holds a line break, quote, brace, space or shell character', () => {
		fc.assert(fc.property(HOSTILE, (value) => {
			if (isSafeToken(value)) assert.doesNotMatch(value, /[\s"'{}$`;|&<>\\\u2028\u2029]/);
		}), { numRuns: 2000 });
	});

	it('requireSafeToken throws an error that carries no part of the value', () => {
		fc.assert(fc.property(HOSTILE.filter((v: string) => v.length > 3 && !isSafeToken(v)), (value) => {
			try {
				requireSafeToken(value, 'test');
				assert.fail('accepted');
			} catch (e) {
				assert.ok(e instanceof UnsafeTokenError);
				assert.ok(!e.message.includes(value));
			}
		}), { numRuns: 500 });
	});
});

describe('shellQuote through a real shell', () => {
	it('sh reads back exactly the quoted value, whatever it holds', () => {
		const values = fc.sample(fc.oneof(HOSTILE, fc.string()).filter((v) => !v.includes('\u0000')), { numRuns: 60, seed: 7 });
		values.push("'; echo INJECTED; : '", "a'b'c", "''", '$(touch /tmp/x)');
		// One shell for every value: each is printed NUL-terminated, so any escape would show.
		const script = values.map((v) => `printf '%s\\0' ${shellQuote(v)}`).join('\n');
		const out = execFileSync('sh', ['-c', script], { encoding: 'utf8' });
		assert.deepEqual(out.split('\u0000').slice(0, -1), values);
	});
});

describe('.http edits with a hostile token', () => {
	const file = '### one\r\nGET https://api.example.test/v1/trips\r\nAccept: application/json\r\n\r\n### two\r\nGET https://api.example.test/v1/x\r\n';

	it('a token outside the grammar is refused before anything is planned, in every style', () => {
		fc.assert(fc.property(HOSTILE.filter((v) => !isSafeToken(v)), fc.constantFrom('header', 'variable'), (token, style) => {
			assert.throws(() => planAuthEdit(parseRestFile(file), [10], { style, token } as never), UnsafeTokenError);
		}), { numRuns: 500 });
	});

	it('a token of the grammar adds exactly one header line to the request under the cursor', () => {
		fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9_\-.~+/=]{1,200}$/), (token) => {
			const edited = applyEdits(file, planAuthEdit(parseRestFile(file), [10], { style: 'header', token }));
			assert.equal(edited.split('\r\n').length, file.split('\r\n').length + 1);
			assert.equal(edited.split('###').length, file.split('###').length);
			assert.ok(edited.includes(`\r\nAuthorization: Bearer ${token}\r\n`));
		}), { numRuns: 500 });
	});

	it('a variable name that is not an identifier is refused', () => {
		assert.throws(() => planAuthEdit(parseRestFile(file), [10], { style: 'reference', variableName: 'x}}\r\n### y' }));
	});
});
