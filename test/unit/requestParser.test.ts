import * as assert from 'node:assert/strict';
import { detectEol, parseRestFile, requestAt, splitLines } from '../../src/core/restFile/requestParser';

function summary(text: string) {
	const file = parseRestFile(text);
	return file.requests.map((r) => ({
		request: file.lines[r.requestLine]!.text,
		urlEnd: file.lines[r.urlEndLine]!.text,
		headers: r.headers.map((h) => `${h.indent}${h.name}=${h.value}`),
	}));
}

describe('parseRestFile', () => {
	const cases: Array<{ name: string; text: string; expected: ReturnType<typeof summary> }> = [
		{
			name: 'requests split by ###, with comments, @name and file variables',
			text: '@host = https://x\n# top\n\n###\n# @name one\n// note\nGET {{host}}/a HTTP/1.1\nAccept: */*\n\n### two\n@local = 1\nPOST {{host}}/b\n\n{"x": 1}\n',
			expected: [
				{ request: 'GET {{host}}/a HTTP/1.1', urlEnd: 'GET {{host}}/a HTTP/1.1', headers: ['Accept=*/*'] },
				{ request: 'POST {{host}}/b', urlEnd: 'POST {{host}}/b', headers: [] },
			],
		},
		{
			name: 'query continuation lines, then indented headers',
			text: 'GET https://x/a\n  ?a=1\n  &b=2\n  X-One: 1\n  X-Two:2\n\nbody: not a header\n',
			expected: [{ request: 'GET https://x/a', urlEnd: '  &b=2', headers: ['  X-One=1', '  X-Two=2'] }],
		},
		{
			name: 'CRLF, GraphQL, no final newline',
			text: 'POST https://x/graphql\r\nX-REQUEST-TYPE: GraphQL\r\n\r\nquery { a }',
			expected: [{ request: 'POST https://x/graphql', urlEnd: 'POST https://x/graphql', headers: ['X-REQUEST-TYPE=GraphQL'] }],
		},
		{
			name: 'handlers end the headers',
			text: 'GET https://x/a\nAccept: */*\n> {%\nAuthorization: x\n%}\n',
			expected: [{ request: 'GET https://x/a', urlEnd: 'GET https://x/a', headers: ['Accept=*/*'] }],
		},
		{
			name: 'a block of comments only has no request',
			text: '# just notes\n###\n// more\n',
			expected: [],
		},
	];
	for (const c of cases) {
		it(c.name, () => assert.deepEqual(summary(c.text), c.expected));
	}

	it('collects file variables with value offsets, not lines in bodies', () => {
		const text = '@host = https://x  \n\nPOST {{host}}\n\n@notVariable = body\n';
		const file = parseRestFile(text);
		assert.deepEqual(file.variables.map((v) => [v.name, v.value, text.slice(v.valueStart, v.valueEnd)]), [['host', 'https://x', 'https://x']]);
	});

	it('a ### line belongs to the request below it', () => {
		const text = 'GET https://x/a\n\n###\nGET https://x/b\n';
		const file = parseRestFile(text);
		assert.equal(file.lines[requestAt(file, text.indexOf('###'))!.requestLine]!.text, 'GET https://x/b');
	});

	it('a separator after spaces or a tab, with or without a title, splits as in httpYac (issue 50)', () => {
		for (const separator of ['  ###', '\t###', ' #### title', '\t### setup']) {
			const file = parseRestFile(`POST https://x/a\n\n{"a": 1}\n${separator}\nGET https://y/b\n`);
			assert.deepEqual(file.requests.map((r) => [r.blockStart, r.requestLine, r.blockEnd]), [[0, 0, 2], [3, 4, 5]], JSON.stringify(separator));
		}
		assert.equal(parseRestFile('POST https://x/a\n\nbody ## not one\nGET https://y/b\n').requests.length, 1);
	});

	it('a host line padded with spaces up to the watched bound is read as any other line: a request with its version, none with a word after', () => {
		// Before, a run of spaces after a host was tried two ways at each length: 8,000 spaces took half a
		// second, 200,000 minutes of the extension host. Now this test ends in milliseconds, not at its timeout.
		const spaces = ' '.repeat(200_000);
		for (const host of ['localhost', 'api.example.com:8443/v1']) {
			assert.deepEqual(summary(`${host}${spaces}HTTP/1.1\n`).map((r) => r.request.trim()), [`${host}${spaces}HTTP/1.1`]);
			assert.deepEqual(summary(`${host}${spaces}x\n`), []);
			assert.deepEqual(summary(`${host}${spaces}\n`).map((r) => r.request.trim()), [host]);
		}
	});
});

describe('splitLines and detectEol', () => {
	it('keeps offsets and line-ending lengths', () => {
		assert.deepEqual(splitLines('a\r\nbb\nc').map((l) => [l.start, l.end, l.eolLength, l.text]), [[0, 1, 2, 'a'], [3, 5, 1, 'bb'], [6, 7, 0, 'c']]);
	});
	const eols: Array<[string, string]> = [['a\nb\n', '\n'], ['a\r\nb\r\n', '\r\n'], ['a', '\n'], ['a\r\nb\nc\r\n', '\r\n']];
	for (const [text, eol] of eols) {
		it(`detects ${JSON.stringify(eol)} in ${JSON.stringify(text)}`, () => assert.equal(detectEol(text), eol));
	}
});
