// The references to exposed tokens a REST file holds, for the lens above them (issue 30).
import * as assert from 'node:assert/strict';
import { indirectVariables, tokenReferences } from '../../src/core/restFile/tokenReferences';

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
			{ line: 4, variable: 'TELEMATICS_TOKEN_USER_2', environment: true },
			{ line: 5, setting: 'TELEMATICS_TOKEN' },
		]);
		assert.deepEqual(tokenReferences('X: {{$dotenv %telematicsToken}}\nY: {{$processEnv  %t_2 }}\nZ: {{%x}} {{$processEnv %a-b}}'), [{ line: 0, setting: 'telematicsToken' }, { line: 1, setting: 't_2' }]);
	});

	it('counts lines across many references, CRLF too', () => {
		const text = Array.from({ length: 500 }, (_, i) => (i % 2 ? `X: {{TELEMATICS_TOKEN_A${i}}}` : 'text')).join('\r\n');
		const found = tokenReferences(text);
		assert.equal(found.length, 250);
		assert.deepEqual(found[3], { line: 7, variable: 'TELEMATICS_TOKEN_A7', environment: true });
	});
});

describe('REST Client\'s %name: the variable each environment names', () => {
	const settings = {
		$shared: { telematicsToken: 'TELEMATICS_TOKEN' },
		prod: { telematicsToken: 'TELEMATICS_TOKEN_ADMIN', baseUrl: 'x' },
		dev: { telematicsToken: 'TELEMATICS_TOKEN_USER' },
		stage: {},
		odd: { telematicsToken: 'PATH' },
		broken: 'x',
	};
	it('an environment\'s own value first, then $shared\'s; a value that is none of ours says so', () => {
		assert.deepEqual(indirectVariables(settings, 'telematicsToken'), [
			{ environment: 'prod', variable: 'TELEMATICS_TOKEN_ADMIN' },
			{ environment: 'dev', variable: 'TELEMATICS_TOKEN_USER' },
			{ environment: 'stage', variable: 'TELEMATICS_TOKEN' },
			{ environment: 'odd', variable: undefined },
			{ environment: 'broken', variable: 'TELEMATICS_TOKEN' },
		]);
	});
	it('only $shared: REST Client\'s "No Environment"', () => {
		assert.deepEqual(indirectVariables({ $shared: { t: 'TELEMATICS_TOKEN_OPS' } }, 't'), [{ environment: '$shared', variable: 'TELEMATICS_TOKEN_OPS' }]);
	});
	it('a setting nobody sets, a name of the object\'s prototype, or no settings: nothing', () => {
		assert.deepEqual(indirectVariables(settings, 'other'), []);
		assert.deepEqual(indirectVariables(settings, 'constructor'), []);
		assert.deepEqual(indirectVariables(undefined, 't'), []);
		assert.deepEqual(indirectVariables([], 't'), []);
	});
});

