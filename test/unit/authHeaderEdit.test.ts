import * as assert from 'node:assert/strict';
import { planAuthEdit, type AuthValue } from '../../src/core/restFile/authHeaderEdit';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { applyEdits } from '../../src/core/restFile/textEdit';
import { withCursors } from '../support/cursors';

function run(marked: string, value: AuthValue, replaceForeign = false): string {
	const { text, cursors } = withCursors(marked);
	return applyEdits(text, planAuthEdit(parseRestFile(text), cursors, value, { replaceForeign }));
}

const NEW: AuthValue = { style: 'header', token: 'NEW' };

describe('planAuthEdit: header style', () => {
	const cases: Array<{ name: string; input: string; expected: string; value?: AuthValue; replaceForeign?: boolean }> = [
		{
			name: 'inserts after the request line when there are no headers',
			input: 'GET https://api.example.com/v1/trips|\n',
			expected: 'GET https://api.example.com/v1/trips\nAuthorization: Bearer NEW\n',
		},
		{
			name: 'a file without a final newline gets a well-formed line and no trailing newline',
			input: 'GET https://api.example.com/v1/trips|',
			expected: 'GET https://api.example.com/v1/trips\nAuthorization: Bearer NEW',
		},
		{
			name: 'inserts before other headers, keeping their indentation',
			input: 'POST https://x/v1|\n    Content-Type: application/json\n\n{"a":1}\n',
			expected: 'POST https://x/v1\n    Authorization: Bearer NEW\n    Content-Type: application/json\n\n{"a":1}\n',
		},
		{
			name: 'CRLF file keeps CRLF',
			input: 'GET https://x/v1|\r\nAccept: */*\r\n\r\n',
			expected: 'GET https://x/v1\r\nAuthorization: Bearer NEW\r\nAccept: */*\r\n\r\n',
		},
		{
			name: 'replaces an existing header in another casing and scheme',
			input: 'GET https://x/v1\nauthorization: bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbGQifQ.c2ln|\nAccept: */*\n',
			expected: 'GET https://x/v1\nAuthorization: Bearer NEW\nAccept: */*\n',
		},
		{
			name: 'leaves a Basic header alone (the command asks first)',
			input: 'GET https://x/v1|\n\tAuthorization: Basic dXNlcjpwYXNz\n',
			expected: 'GET https://x/v1|\n\tAuthorization: Basic dXNlcjpwYXNz\n'.replace('|', ''),
		},
		{
			name: 'replaces a Basic header when told to, keeping its indentation',
			input: 'GET https://x/v1|\n\tAuthorization: Basic dXNlcjpwYXNz\n',
			expected: 'GET https://x/v1\n\tAuthorization: Bearer NEW\n',
			replaceForeign: true,
		},
		{
			name: 'duplicate headers: the first is replaced, the others deleted',
			input: 'GET https://x/v1|\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbGQifQ.c2ln\nAccept: */*\nAUTHORIZATION: Bearer {{telematicsToken}}\n\nbody\n',
			expected: 'GET https://x/v1\nAuthorization: Bearer NEW\nAccept: */*\n\nbody\n',
		},
		{
			name: 'duplicate header on the last line without a newline',
			input: 'GET https://x/v1|\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbGQifQ.c2ln\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbGQifQ.c2ln',
			expected: 'GET https://x/v1\nAuthorization: Bearer NEW',
		},
		{
			name: 'query continuation lines belong to the URL',
			input: 'GET https://x/v1/trips|\n    ?from=2024-01-01\n    &to=2024-01-31\nAccept: */*\n',
			expected: 'GET https://x/v1/trips\n    ?from=2024-01-01\n    &to=2024-01-31\nAuthorization: Bearer NEW\nAccept: */*\n',
		},
		{
			name: 'a body holding "Authorization: Bearer x" stays',
			input: 'POST https://x/v1|\nContent-Type: text/plain\n\nAuthorization: Bearer x\n',
			expected: 'POST https://x/v1\nAuthorization: Bearer NEW\nContent-Type: text/plain\n\nAuthorization: Bearer x\n',
		},
		{
			name: 'a response handler with an Authorization-like line stays',
			input: 'GET https://x/v1|\n\n> {%\nAuthorization: x\n  client.global.set("t", response.body.token);\n%}\n',
			expected: 'GET https://x/v1\nAuthorization: Bearer NEW\n\n> {%\nAuthorization: x\n  client.global.set("t", response.body.token);\n%}\n',
		},
		{
			name: 'a handler straight after the request line is not a header',
			input: 'GET https://x/v1|\n> ./check.js\n>> out.json\n',
			expected: 'GET https://x/v1\nAuthorization: Bearer NEW\n> ./check.js\n>> out.json\n',
		},
		{
			name: 'comments, # @name and // lines are kept; cursor on a comment picks its request',
			input: '# List trips\n// @name trips|\n# @no-log\nGET https://x/v1\n',
			expected: '# List trips\n// @name trips\n# @no-log\nGET https://x/v1\nAuthorization: Bearer NEW\n',
		},
		{
			name: 'a comment between headers is kept',
			input: 'GET https://x/v1|\nAccept: */*\n# authorization: bearer old\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbGQifQ.c2ln\n',
			expected: 'GET https://x/v1\nAccept: */*\n# authorization: bearer old\nAuthorization: Bearer NEW\n',
		},
		{
			name: 'GraphQL request: header added, query body untouched',
			input: 'POST https://x/graphql|\nX-REQUEST-TYPE: GraphQL\n\nquery Trips($n: Int) {\n  trips(first: $n) { id }\n}\n\n{"n": 5}\n',
			expected: 'POST https://x/graphql\nAuthorization: Bearer NEW\nX-REQUEST-TYPE: GraphQL\n\nquery Trips($n: Int) {\n  trips(first: $n) { id }\n}\n\n{"n": 5}\n',
		},
		{
			name: 'an already correct header gives no edit',
			input: 'GET https://x/v1|\nAuthorization: Bearer NEW\n',
			expected: 'GET https://x/v1\nAuthorization: Bearer NEW\n',
		},
		{
			name: 'a bare URL is a request line',
			input: 'https://x/v1/ping|\n',
			expected: 'https://x/v1/ping\nAuthorization: Bearer NEW\n',
		},
	];
	for (const c of cases) {
		it(c.name, () => assert.equal(run(c.input, c.value ?? NEW, c.replaceForeign), c.expected));
	}
});

describe('planAuthEdit: which requests', () => {
	const file = [
		'@host = https://x',
		'',
		'###',
		'# @name first',
		'GET {{host}}/a',
		'Accept: */*',
		'',
		'### second',
		'POST {{host}}/b',
		'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbGQifQ.c2ln',
		'',
		'{"Authorization": "Bearer keep"}',
		'',
	].join('\n');
	const first = 'GET {{host}}/a\nAuthorization: Bearer NEW\nAccept: */*';
	const second = 'POST {{host}}/b\nAuthorization: Bearer NEW\n';

	function at(...needles: Array<[string, number]>): number[] {
		return needles.map(([needle, delta]) => file.indexOf(needle) + delta);
	}

	it('several cursors in one request give one edit', () => {
		const edits = planAuthEdit(parseRestFile(file), at(['GET', 0], ['Accept', 3], ['# @name', 1]), NEW);
		assert.equal(edits.length, 1);
		assert.ok(applyEdits(file, edits).includes(first));
	});

	it('cursors in two requests give two edits, bodies untouched', () => {
		const edits = planAuthEdit(parseRestFile(file), at(['Accept', 0], ['{"Authorization', 5]), NEW);
		assert.equal(edits.length, 2);
		const result = applyEdits(file, edits);
		assert.ok(result.includes(first));
		assert.ok(result.includes(second));
		assert.ok(result.includes('{"Authorization": "Bearer keep"}'));
	});

	it('a cursor on the ### line edits the request below it', () => {
		const result = applyEdits(file, planAuthEdit(parseRestFile(file), at(['### second', 2]), NEW));
		assert.ok(result.includes(second));
		assert.ok(!result.includes(first));
	});

	it('a cursor in the file variables before the first ### edits nothing', () => {
		assert.deepEqual(planAuthEdit(parseRestFile(file), at(['@host', 1]), NEW), []);
	});

	it('edits are sorted and do not overlap', () => {
		const edits = planAuthEdit(parseRestFile(file), at(['{"Authorization', 0], ['GET', 0]), NEW);
		for (let i = 1; i < edits.length; i++) assert.ok(edits[i - 1]!.end <= edits[i]!.start);
	});
});

describe('planAuthEdit: variable style', () => {
	const value: AuthValue = { style: 'variable', token: 'NEW' };
	const cases: Array<{ name: string; input: string; expected: string; value?: AuthValue }> = [
		{
			name: 'adds the variable in a region of its own above a file that starts with a request (httpYac would scope it to the request)',
			input: 'GET https://x/v1|\n',
			expected: '@telematicsToken = NEW\n\n###\nGET https://x/v1\nAuthorization: Bearer {{telematicsToken}}\n',
		},
		{
			name: 'adds it after the other file variables',
			input: '# Trips API\n@host = https://x\n@limit = 5\n\n###\nGET {{host}}/v1|\n',
			expected: '# Trips API\n@host = https://x\n@limit = 5\n@telematicsToken = NEW\n\n###\nGET {{host}}/v1\nAuthorization: Bearer {{telematicsToken}}\n',
		},
		{
			name: 'adds it after the leading comments of a region without a request',
			input: '# Trips API\n\n###\n# @name trips\nGET https://x/v1|\n',
			expected: '# Trips API\n@telematicsToken = NEW\n\n###\n# @name trips\nGET https://x/v1\nAuthorization: Bearer {{telematicsToken}}\n',
		},
		{
			name: 'a leading comment that shares the first request\'s region: the variable goes above, in its own region',
			input: '# Trips API\n\n# @name trips\nGET https://x/v1|\n',
			expected: '@telematicsToken = NEW\n\n###\n# Trips API\n\n# @name trips\nGET https://x/v1\nAuthorization: Bearer {{telematicsToken}}\n',
		},
		{
			name: 'a leading region with request metadata only (# @name): the variable gets a region of its own above it',
			input: '# @name login\n\n###\nGET https://x/v1|\n',
			expected: '@telematicsToken = NEW\n\n###\n# @name login\n\n###\nGET https://x/v1\nAuthorization: Bearer {{telematicsToken}}\n',
		},
		{
			name: 'a method line after a blank line is its own request (httpYac): the header goes into the one under the cursor',
			input: '@host = https://x\n\n###\nGET {{host}}/one\n\nGET {{host}}/two|\n',
			expected: '@host = https://x\n@telematicsToken = NEW\n\n###\nGET {{host}}/one\n\nGET {{host}}/two\nAuthorization: Bearer {{telematicsToken}}\n',
		},
		{
			name: 'a file opening with ### keeps it after the variable',
			input: '### trips\nGET https://x/v1|\n',
			expected: '@telematicsToken = NEW\n\n### trips\nGET https://x/v1\nAuthorization: Bearer {{telematicsToken}}\n',
		},
		{
			name: 'updates the variable in place and replaces a literal token in the header',
			input: '@host = https://x\n@telematicsToken = OLD\r\n\r\n###\r\nGET {{host}}/v1|\r\nauthorization: bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbGQifQ.c2ln\r\n',
			expected: '@host = https://x\n@telematicsToken = NEW\r\n\r\n###\r\nGET {{host}}/v1\r\nAuthorization: Bearer {{telematicsToken}}\r\n',
		},
		{
			name: 'CRLF file: the new variable line uses CRLF',
			input: '@host = https://x\r\n\r\n###\r\nGET {{host}}/v1|\r\n',
			expected: '@host = https://x\r\n@telematicsToken = NEW\r\n\r\n###\r\nGET {{host}}/v1\r\nAuthorization: Bearer {{telematicsToken}}\r\n',
		},
		{
			name: 'a custom variable name, in a file-wide region already',
			value: { style: 'variable', token: 'NEW', variableName: 'tok' },
			input: '@tok = OLD\n\n###\nGET https://x/v1|\nAuthorization: Bearer {{tok}}\n',
			expected: '@tok = NEW\n\n###\nGET https://x/v1\nAuthorization: Bearer {{tok}}\n',
		},
		{
			name: 'a definition inside the request\'s region moves to a region of its own',
			input: '@host = https://x\n@telematicsToken = OLD\nGET {{host}}/v1|\nAuthorization: Bearer {{telematicsToken}}\n',
			expected: '@telematicsToken = NEW\n\n###\n@host = https://x\nGET {{host}}/v1\nAuthorization: Bearer {{telematicsToken}}\n',
		},
		{
			name: 'reference style writes only the variable reference',
			value: { style: 'reference' },
			input: 'GET https://x/v1|\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbGQifQ.c2ln\n',
			expected: 'GET https://x/v1\nAuthorization: Bearer {{telematicsToken}}\n',
		},
		{
			name: 'no request under the cursor: no variable either',
			input: '# notes|\n',
			expected: '# notes\n',
		},
	];
	for (const c of cases) {
		it(c.name, () => assert.equal(run(c.input, c.value ?? value), c.expected));
	}
});
