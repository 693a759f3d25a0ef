// The references to exposed tokens a REST file holds, for the lens above them (issue 30).
import * as assert from 'node:assert/strict';
import { tokenReferences } from '../../src/core/restFile/tokenReferences';

describe('references to the exposed tokens', () => {
	it('finds each form, on its line, the first on a line only', () => {
		const text = [
			'GET https://a/',
			'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}',
			'X: {{$dotenv TELEMATICS_TOKEN}} {{TELEMATICS_TOKEN_USER}}',
			'',
			'Y: {{ TELEMATICS_TOKEN_USER_2 }}',
			'Z: {{$processEnv OTHER}} {{TELEMATICS_TOKENS}} {{telematics_token_admin}} {{$processEnv %TELEMATICS_TOKEN}}',
		].join('\n');
		assert.deepEqual(tokenReferences(text), [
			{ line: 1, variable: 'TELEMATICS_TOKEN_ADMIN' },
			{ line: 2, variable: 'TELEMATICS_TOKEN' },
			{ line: 4, variable: 'TELEMATICS_TOKEN_USER_2' },
		]);
	});

	it('counts lines across many references, CRLF too', () => {
		const text = Array.from({ length: 500 }, (_, i) => (i % 2 ? `X: {{TELEMATICS_TOKEN_A${i}}}` : 'text')).join('\r\n');
		const found = tokenReferences(text);
		assert.equal(found.length, 250);
		assert.deepEqual(found[3], { line: 7, variable: 'TELEMATICS_TOKEN_A7' });
	});
});
