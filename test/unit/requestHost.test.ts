// A token goes only to its service: the host a request names (literally or through the file's variables)
// and whether it is the account's site by the public suffix list, on tables, generated hosts and the corpus.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { anyDefinitions, isSameSite, requestDestinations, requestTarget, targetHosts } from '../../src/core/restFile/requestHost';
import { parseRestFile, requestAt } from '../../src/core/restFile/requestParser';

/** The host one request line names with these single-valued variables, when every reading agrees; else undefined. */
function requestLineHost(line: string, variables: ReadonlyMap<string, string>): string | undefined {
	const file = parseRestFile(line);
	const request = file.requests[0];
	if (!request) return undefined;
	const hosts = targetHosts(requestTarget(file, request), new Map([...variables].map(([name, value]) => [name, [value.trim()]])));
	return hosts.length === 1 ? hosts[0] : undefined;
}
import { CORPUS, corpusFiles } from './corpus';


describe('the host a request goes to', () => {
	const variables = new Map([['baseUrl', 'https://user.telematicssdk.com'], ['api', '{{baseUrl}}/v1'], ['evil', 'https://collector.example'], ['domain', '.collector.example']]);
	const cases: Array<[string, string | undefined]> = [
		['GET https://API.telematicssdk.com/v1/trips HTTP/1.1', 'api.telematicssdk.com'],
		['https://portal-apis.telematicssdk.com/x', 'portal-apis.telematicssdk.com'],
		['POST {{baseUrl}}/v1/Auth', 'user.telematicssdk.com'],
		['GET {{api}}/Me', 'user.telematicssdk.com'],
		['GET {{evil}}/steal', 'collector.example'],
		['GET {{unknownEnv}}/v1', undefined],
		['GET /v1/relative', undefined],
		['GET http://[::1]:8080/x', 'http://[::1]:8080'], // scheme and port, where they are not https on 443
		['GET not a url', undefined],
		// A reference the file cannot fill, after the host: the host is still known.
		['GET https://collector.example/steal?t={{unknownEnv}}', 'collector.example'],
		['GET {{evil}}/{{unknownEnv}}', 'collector.example'],
		// An authority the clients may read two ways (userinfo, a backslash) does not say.
		['GET https://user.telematicssdk.com@collector.example/{{unknownEnv}}', undefined],
		['GET https://collector.example\\{{unknownEnv}}', undefined],
		['GET https://collector.example#{{unknownEnv}}', 'collector.example'],
		// ...inside the host, it is not.
		['GET https://collector{{unknownEnv}}.example/x', undefined],
		['GET https://{{unknownEnv}}/x', undefined],
		['GET https://collector.example:port/x', undefined], // no URL: nothing to read
		// No scheme: REST Client and httpYac send `host/path` over http, so the host is what comes first.
		['GET collector.example', 'http://collector.example'],
		['GET collector.example/https:{{unknownEnv}}', 'http://collector.example'],
		// ...and a reference inside that host is filled before it is read.
		['GET api{{domain}}/v1', 'http://api.collector.example'],
	];
	for (const [line, host] of cases) it(`${line} → ${host ?? 'not said'}`, () => assert.equal(requestLineHost(line, variables), host));

	it('reads the requests given, each once, with the file\'s own variables', () => {
		const text = '@host = https://evil.example\n\n###\nGET {{host}}/a\n\n###\nGET https://user.telematicssdk.com/b\n';
		const file = parseRestFile(text);
		assert.deepEqual(requestDestinations(file, [text.indexOf('GET {{host}}'), text.indexOf('GET https'), text.indexOf('/b')].map((offset) => requestAt(file, offset))).map((d) => d.host), ['evil.example', 'user.telematicssdk.com']);
	});

	it('variables that each repeat the next many times are filled only as far as the host (no billion laughs)', () => {
		const names = 'abcdefghijkl'.split('');
		const variables = new Map(names.slice(0, -1).map((name, i) => [name, `{{${names[i + 1]}}}`.repeat(20)]));
		variables.set('l', 'https://collector.example/');
		// Filled whole, eight levels deep as before, that is 20^8 copies (10 levels of 10 took 5.6 s and 1.9 GB).
		assert.equal(requestLineHost('GET {{a}}/x', variables), 'collector.example');
		variables.set('l', '{{a}}');
		assert.equal(requestLineHost('GET {{a}}/x', variables), undefined, 'a loop: the file does not say');
	});

	it('whatever follows the host, and whatever the variables hold, the host stays the one before it (generated)', () => {
		const name = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
		const host = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}\.example$/).filter((h) => !h.includes('-.') && !h.startsWith('xn--')); // xn--: punycode, most of it not a host
		const piece = fc.oneof(fc.string(), name.map((n) => `{{${n}}}`), fc.constantFrom('{{', '}}', '{{ x.y() }}', '?', '#', '/', '\\'));
		const values = fc.dictionary(name, fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')), { maxKeys: 8 });
		fc.assert(fc.property(host, fc.constantFrom('/', '?', '#'), fc.array(piece, { maxLength: 8 }), values, (h, end, rest, vars) => {
			const suffix = rest.join('').replace(/\s/g, '');
			const variables = new Map(Object.entries(vars));
			assert.equal(requestLineHost(`GET https://${h}${end}${suffix}`, variables), h);
			variables.set('base', `https://${h}`);
			assert.equal(requestLineHost(`GET {{base}}${end}${suffix}`, variables), h);
		}), { numRuns: 500 });
	});

	it('a variable that refers to itself is not followed forever', () => {
		assert.equal(requestLineHost('GET {{a}}/x', new Map([['a', '{{a}}']])), undefined);
	});
});

describe('the host a request goes to, read as REST Client and httpYac read it (issue 34)', () => {
	const SERVICE = 'https://user.telematicssdk.com';
	/** The distinct hosts the file's one request may reach ('?' where it does not say), sorted. */
	const reached = (text: string): string[] => {
		const file = parseRestFile(text);
		return [...new Set(requestDestinations(file, file.requests).map((d) => d.host ?? '?'))].sort();
	};
	const cases: Array<[string, string, string[]]> = [
		['a space in the target: the client reads the whole target', `GET ${SERVICE} @collector.example/x`, ['?']],
		['a tab in the target', `GET ${SERVICE}\t@collector.example/x`, ['?']],
		['a relative target: the Host header says where', 'GET /v1/trips\nHost: collector.example\n', ['http://collector.example']],
		['a relative target whose Host is the service goes over http', 'GET /v1/trips\nHost: user.telematicssdk.com:443\n', ['http://user.telematicssdk.com:443']],
		['a relative target without a Host header', 'GET /v1/trips\nAccept: */*\n', ['?']],
		['a variable defined twice: both readings', `@base = ${SERVICE}\n\n###\nGET {{base}}/a\n\n###\n@base = https://collector.example\nGET {{base}}/b\n`, ['collector.example', 'user.telematicssdk.com']],
		['a variable name outside the grammar', '@base$ = https://collector.example\n\n###\nGET {{base$}}/x\n', ['?']],
		['an httpYac expression', "GET {{ 'https://collector.example' }}/x\n", ['?']],
		['a backslash in the authority', `GET ${SERVICE}\\@collector.example/x`, ['?']],
		['a query continuation line that moves the host', `GET ${SERVICE}\n    &@collector.example\n`, ['?']],
		['an escaped @ in a variable\'s value', '@h = user.telematicssdk.com\\@collector.example\n\n###\nGET https://{{h}}/x\n', ['?']],
		['a definition inside a request body (REST Client reads every line)', `@base = ${SERVICE}\n\n###\nPOST https://x.invalid/\n\n@base = https://collector.example\n\n###\nGET {{base}}/y\n`, ['collector.example', 'user.telematicssdk.com', 'x.invalid']],
		['a percent escape in the host', 'GET https://collector%2eexample/x', ['?']],
		['a bare host and path', 'collector.example/x', ['http://collector.example']],
		['another scheme', 'WS ws://collector.example/x', ['?']],
		// Mutation gaps (issue 36): shapes no row held.
		['an indented request line', '   GET https://collector.example/x\n', ['collector.example']],
		['tabs between method and target', 'GET\t\thttps://collector.example/x\n', ['collector.example']],
		['a version without a path', 'GET https://collector.example HTTP/2\n', ['collector.example']],
		['a version after several spaces, then spaces', 'GET https://collector.example   HTTP/1.1  \n', ['collector.example']],
		['a version of two-digit parts', 'GET https://collector.example HTTP/11.22\n', ['collector.example']],
		['no method, a version', 'https://collector.example HTTP/1.1\n', ['collector.example']],
		['plain http with an unfilled reference in the query', 'GET http://collector.example/x?t={{fromEnv}}\n', ['http://collector.example']],
		['a definition without spaces', '@base=https://collector.example\n\n###\nGET {{base}}/x\n', ['collector.example']],
		['a line that only mentions a definition is none', `@base = ${SERVICE}\n\n###\nPOST {{base}}/x\n\nnote @base = https://collector.example\n`, ['user.telematicssdk.com']],
		['a schemeless host with a reference after it', 'collector.example/{{x}}\n', ['http://collector.example']],
		['a schemeless host and port', 'GET localhost:3000/x\n', ['http://localhost:3000']],
		['a schemeless host, port and a reference', 'GET collector.example:8080/{{x}}\n', ['http://collector.example:8080']],
		['a Host header filled from a variable', '@h = collector.example\n\n###\nGET /v1/x\nHost: {{h}}\n', ['http://collector.example']],
		['a Host header with two readings', `@h = user.telematicssdk.com\n\n###\n@h = collector.example\nGET /v1/x\nHost: {{h}}\n`, ['?']],
		['a value defined the same way many times is one reading', `${'@base = https://collector.example\n'.repeat(20)}\n###\nGET {{base}}/x\n`, ['collector.example']],
		['more readings than are followed', `${Array.from({ length: 17 }, (_, i) => `@base = https://h${i}.example\n`).join('')}\n###\nGET {{base}}/x\n`, ['?']],
		['a host past the longest target read', `GET https://${'a'.repeat(5000)}.telematicssdk.com.collector.example/x\n`, ['?']],
		// Mutation gaps, second pass (issue 36).
		['a query continuation straight after the host', `GET ${SERVICE}\n    ?a=1\n`, ['user.telematicssdk.com']],
		['a colon in the path of a bare host', 'GET collector.example/x:y\n', ['http://collector.example']],
		['another scheme with a port', 'GET ftp://collector.example:21/x\n', ['?']],
		['an https URL inside another scheme\'s query', 'WS ws://x.example/?u=https://collector.example/\n', ['?']],
		['a relative request twice, each with its own Host', 'GET /x\nHost: a.example\n\n###\nGET /x\nHost: b.example\n', ['http://a.example', 'http://b.example']],
		['a definition glued to a word is none', `@base = ${SERVICE}\n\n###\nPOST {{base}}/x\n\nmail@base = https://collector.example\n`, ['user.telematicssdk.com']],
		['as many readings as are followed', `${Array.from({ length: 16 }, (_, i) => `@base = https://h${i}.example\n`).join('')}\n###\nGET {{base}}/x\n`, Array.from({ length: 16 }, (_, i) => `h${i}.example`).sort()],
		['a chain of 64 references is followed', `${Array.from({ length: 63 }, (_, i) => `@v${i} = {{v${i + 1}}}\n`).join('')}@v63 = https://collector.example\n\n###\nGET {{v0}}/x\n`, ['collector.example']],
		['a chain of 65 is past the bound', `${Array.from({ length: 64 }, (_, i) => `@v${i} = {{v${i + 1}}}\n`).join('')}@v64 = https://collector.example\n\n###\nGET {{v0}}/x\n`, ['?']],
		['a version glued to more text is no version', 'GET https://collector.example HTTP/1.1x\n', ['?']],
		['a version before more of the target is no version', 'GET https://collector.example HTTP/1.1/x\n', ['?']],
		// Benign twins: the same shapes aimed at the service ask nothing.
		['benign: a version after the target', `GET ${SERVICE}/v1/x HTTP/1.1`, ['user.telematicssdk.com']],
		['benign: a query continuation', `GET ${SERVICE}/v1/x\n    ?a=1\n    &b=@2\n`, ['user.telematicssdk.com']],
		['benign: a variable defined twice alike', `@base = ${SERVICE}\n\n###\nGET {{base}}/a\n\n###\n@base = ${SERVICE}\nGET {{base}}/b\n`, ['user.telematicssdk.com']],
	];
	for (const [name, text, hosts] of cases) it(`${name} → ${hosts.join(', ')}`, () => assert.deepEqual(reached(text), hosts));
});

describe('variable definitions, as REST Client reads them (`=\\s*(.*?)\\s*$`)', () => {
	const read = (line: string) => anyDefinitions(parseRestFile(line)).map((d) => [d.name, d.value]);

	// A lone CR ends the line for VS Code's text model and our parser alike; these two do not.
	it('a value holding U+2028 or U+2029 (which a pattern\'s `.` refuses) defines nothing; at the value\'s ends they are trimmed as spaces', () => {
		for (const separator of ['\u2028', '\u2029']) {
			assert.deepEqual(read(`@host = a${separator}b`), [], JSON.stringify(separator));
			assert.deepEqual(read(`@host =${separator}ab${separator}`), [['host', 'ab']], JSON.stringify(separator));
		}
		assert.deepEqual(read('@host =  a b '), [['host', 'a b']]);
	});
});

describe('the same site as the service', () => {
	const cases: Array<[string, string, boolean]> = [
		['api.telematicssdk.com', 'https://user.telematicssdk.com', true],
		['portal-apis.telematicssdk.com', 'https://user.telematicssdk.com/', true],
		['telematicssdk.com.evil.example', 'https://user.telematicssdk.com', false],
		['evil-telematicssdk.com', 'https://user.telematicssdk.com', false],
		['a.github.io', 'https://b.github.io', false], // a private suffix: two sites
		['api.a.github.io', 'https://a.github.io', true], // ...and one site below it
		['api.example.co.uk', 'https://user.example.co.uk', true],
		['example.co.uk', 'https://other.co.uk', false],
		['http://localhost:4000', 'http://127.0.0.1:4000', false], // localhost may resolve to ::1, where another user's server can listen on the port
		['localhost', 'http://127.0.0.1:4000', false], // https on 443: another port
		['http://localhost:4001', 'http://127.0.0.1:4000', false], // loopback, another port: another program
		['10.0.0.2', 'https://10.0.0.1', false],
		['https://10.0.0.1:8443', 'https://10.0.0.1:8443', true],
		['10.0.0.1', 'https://10.0.0.1:8443', false],
		['intranet', 'https://intranet', true],
		['intranet', 'https://other', false],
		['xn--0.example.com', 'https://xn--0.example.com', false], // a service URL that is no URL (bad punycode) matches nothing
		['localhost', 'https://user.telematicssdk.com', false], // loopback on one side only
		['user.telematicssdk.com', 'http://127.0.0.1:4000', false],
		['http://127.0.0.2:4000', 'http://localhost:4000', false],
		['http://127.0.0.2:4000', 'http://127.0.0.1:4000', false], // another loopback address: another user's server may hold it
		['http://127.0.0.1:4000', 'http://127.0.0.1:4000/', true],
		['http://LOCALHOST:4000', 'http://localhost:4000', true],
		['http://user.telematicssdk.com', 'https://user.telematicssdk.com', false], // clear text
		['http://api.telematicssdk.com:8080', 'https://user.telematicssdk.com', false],
		['https://api.telematicssdk.com:8443', 'https://user.telematicssdk.com', false], // another port
		['https://api.telematicssdk.com:443', 'https://user.telematicssdk.com', true],
		['ftp://api.telematicssdk.com', 'https://user.telematicssdk.com', false],
	];
	for (const [host, service, same] of cases) it(`${host} vs ${service}: ${same ? 'same' : 'another'} site`, async () => assert.equal(await isSameSite(host, service), same));

	it('a service URL that is no URL matches nothing, not even loopback', async () => {
		assert.equal(await isSameSite('localhost', 'not a url'), false);
	});

	it('scheme and port are read as they are sent: http on 443 is not https, a default port is its scheme\'s, an IPv6 host is one host (bare or bracketed)', async () => {
		assert.equal(await isSameSite('http://api.telematicssdk.com:443', 'https://user.telematicssdk.com'), false);
		assert.equal(await isSameSite('http://127.0.0.1', 'https://127.0.0.1'), false);
		assert.equal(await isSameSite('ftp://127.0.0.1', 'https://127.0.0.1'), false);
		assert.equal(await isSameSite('http://127.0.0.1', 'http://127.0.0.1:80'), true);
		assert.equal(await isSameSite('ftp://127.0.0.1', 'http://127.0.0.1'), false);
		assert.equal(await isSameSite('http://127.0.0.1:443', 'http://127.0.0.1'), false);
		assert.equal(await isSameSite('api.telematicssdk.com', 'http://user.telematicssdk.com:443'), false);
		assert.equal(await isSameSite('::1', 'https://[::1]'), true);
		assert.equal(await isSameSite('[::1]', 'https://[::1]'), true);
		assert.equal(await isSameSite('::2', 'https://[::1]'), false);
	});

	it('the account\'s platform hosts (telematicsAuth.platformHosts) on another site count as the service, by exact origin only', async () => {
		const service = 'https://user.telematicssdk.com';
		const platform = ['https://user.telematicssdk.com', 'https://api.partner-cloud.example', 'http://127.0.0.1:5000'];
		assert.equal(await isSameSite('api.partner-cloud.example', service, platform), true);
		assert.equal(await isSameSite('https://api.partner-cloud.example:443', service, platform), true);
		assert.equal(await isSameSite('http://127.0.0.1:5000', service, platform), true);
		// The other way: unset, another host of its site, another port or scheme, another loopback address.
		assert.equal(await isSameSite('api.partner-cloud.example', service), false);
		assert.equal(await isSameSite('collector.partner-cloud.example', service, platform), false);
		assert.equal(await isSameSite('https://api.partner-cloud.example:8443', service, platform), false);
		assert.equal(await isSameSite('http://api.partner-cloud.example', service, platform), false);
		assert.equal(await isSameSite('http://127.0.0.2:5000', service, platform), false);
		assert.equal(await isSameSite('http://127.0.0.1:5001', service, platform), false);
		assert.equal(await isSameSite('https://127.0.0.1:5000', service, platform), false);
		assert.equal(await isSameSite('http://[bad', service, platform), false);
		assert.equal(await isSameSite('api.partner-cloud.example', service, ['not a url']), false);
	});

	it('the target the question quotes is the one the clients send: no method, no version, no blanks around it', () => {
		const file = parseRestFile('GET \t https://collector.example/a?b=1 \t HTTP/1.1\n');
		assert.equal(requestTarget(file, file.requests[0]!), 'https://collector.example/a?b=1');
	});

	it('a target is quoted up to one character past the longest read, however long the line', () => {
		const file = parseRestFile(`GET https://collector.example/${'x'.repeat(100_000)}\n`);
		assert.equal(requestTarget(file, file.requests[0]!).length, 4097);
	});

	it('a reference that is not a plain name does not say, whatever value a name of that spelling is given (issue 50: httpYac fills {{svc.url}} from an object)', () => {
		const service = new Map([['svc.url', ['https://user.telematicssdk.com']], ['svc', ['https://user.telematicssdk.com']], ['svc-url', ['https://user.telematicssdk.com']]]);
		assert.deepEqual(targetHosts('{{svc.url}}/v1', service), [undefined]);
		assert.deepEqual(targetHosts('{{ svc.url }}/v1', service), [undefined]);
		assert.deepEqual(targetHosts('https://{{svc.host}}/v1', service), [undefined]);
		assert.deepEqual(targetHosts('{{trips.response.body.$.url}}/v1', service), [undefined]);
		assert.deepEqual(targetHosts('{{svc}}/v1', service), ['user.telematicssdk.com'], 'its plain twin is read');
		assert.deepEqual(targetHosts('{{svc-url}}/v1', service), ['user.telematicssdk.com'], 'a dash is part of a plain name');
	});

	it('a target filled in from a variable is read up to the longest length too', () => {
		const host = (length: number) => `${Array.from({ length: Math.ceil(length / 61) }, () => 'a'.repeat(60)).join('.').slice(0, length - 8)}.example`;
		const fill = (value: string) => targetHosts('https://{{h}}', new Map([['h', [value]]]));
		assert.equal(fill(host(4096 - 8))[0], host(4096 - 8), 'a filled target of exactly the longest length is read');
		assert.deepEqual(fill(host(4097 - 8)), [undefined], 'one character more is not');
	});

	it('a target is read from its first character after spaces, and up to the longest read', () => {
		assert.deepEqual(targetHosts('   https://collector.example/x', new Map()), ['collector.example']);
		const host = (length: number) => `${Array.from({ length: Math.ceil(length / 61) }, () => 'a'.repeat(60)).join('.').slice(0, length - 8)}.example`;
		const exact = `https://${host(4096 - 8)}`;
		assert.equal(exact.length, 4096);
		assert.equal(targetHosts(exact, new Map()).length, 1);
		assert.notEqual(targetHosts(exact, new Map())[0], undefined, 'a target of exactly the longest length is read');
		assert.deepEqual(targetHosts(`${exact}a`, new Map()), [undefined], 'one character more is not');
	});

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
					// https on its own port: the host; anything else says its scheme and port.
					const u = new URL(url);
					const expected = u.protocol === 'https:' && u.port === '' ? u.hostname.toLowerCase().replace(/^\[|\]$/g, '') : `${u.protocol}//${u.hostname.toLowerCase()}${u.port ? `:${u.port}` : ''}`;
					assert.equal(host, expected, `${name}: ${line}`);
				}
			}
		}
		assert.ok(literal > 50, `only ${literal} literal URLs read`);
	});
});
