// Where a token written in a REST file goes once the requests run (the request that holds it, the requests
// that read its variable or its request by name), and which requests would send an account's token elsewhere.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { foreignSends, offsetsByAccount, receivingDestinationsAt, requestsReached, requestsSending, SCAN_BUDGET, type AccountToken } from '../../src/core/restFile/tokenReach';
import { requestTarget, targetHosts, variableReadings } from '../../src/core/restFile/requestHost';
import { lineAt, requestAt, type ParsedFile } from '../../src/core/restFile/requestParser';

/**
 * The hosts of the requests that read what sits at `offsets`, by the reach alone (requestsSending: a file
 * variable's value reaches its readers, a request those that read it by name), in request order. Files
 * outside the allow-list (an expression, say) reach every request and say nothing: the rows below of that
 * kind test the reach, and tokenReachTable.test.ts the allow-list.
 */
const receivingHostsAt = (file: ParsedFile, offsets: readonly number[]): (string | undefined)[] => {
	const variables = offsets.map((o) => file.variables.find((v) => v.line === lineAt(file.lines, o))?.name).filter((n) => n !== undefined);
	const requests = offsets.filter((o) => !file.variables.some((v) => v.line === lineAt(file.lines, o))).map((o) => requestAt(file, o)).filter((r) => r !== undefined);
	return requestsSending(file, { requests, variables }).flatMap((r) => targetHosts(requestTarget(file, r), variableReadings(file)));
};
import { CORPUS, corpusFiles } from './corpus';

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

	it('follows 300 requests that each read the one before by name, to the last', () => {
		const lines: string[] = [];
		for (let i = 0; i < 300; i++) lines.push(`### r${i}`, `# @name r${i}`, `GET https://h${i}.example/`, i === 0 ? 'Authorization: Bearer eyJ.first.sig' : `X: {{r${i - 1}.request.headers.X}}`, '');
		const text = lines.join('\n');
		const hosts = receivingHostsAt(parseRestFile(text), [text.indexOf('eyJ.first')]);
		assert.deepEqual(hosts, Array.from({ length: 300 }, (_, i) => `h${i}.example`));
	});

	it('a file built to cost more than the scan budget is answered generously: every request with a reference counts', () => {
		const big = `{{ ${'w '.repeat(60_000)}}}`; // holds the word w, never w.w, w.w.w, …
		const file = (names: number) => [
			'@telematicsToken = eyJ.a.b',
			...Array.from({ length: names }, (_, i) => `@w${'.w'.repeat(i + 1)} = {{telematicsToken}}`), '',
			'### big', 'GET https://big.example/', `X: ${big}`, '',
			'### quiet', 'GET https://quiet.example/', '',
		].join('\n');
		const reached = (text: string) => receivingHostsAt(parseRestFile(text), [text.indexOf('eyJ')]);
		assert.deepEqual(reached(file(10)), [], 'within the budget: read, and it does not read the token');
		assert.deepEqual(reached(file(Math.ceil(SCAN_BUDGET / big.length) + 1)), ['big.example'], 'past it: taken as reading it; a request without references still not');
	});

	it('reads a reference no more once its reader is taken, and only those under the name\'s rarest word: a file that reads exactly the budget gets the exact answer; one character more, the generous one', () => {
		// The token in tok. A reads it and is named common-carrier; B reads A by that name; D reads tok and holds
		// common-carrier too, with the rest of the budget in one word; C holds the common word only, E words that
		// only start like the name's, F no reference. Read: tok's word (A, D), then carrier's (rarer than common,
		// though second in the name): B, and D no more. Any more reading passes the budget.
		const readsB = 'common-carrier.response.body.$';
		const heldByD = 'tok common-carrier ';
		// `length` characters in words of 999: one word of ten million overflowed V8's regex stack in a mocha worker.
		const words = (length: number) => `${'x'.repeat(999)} `.repeat(Math.floor(length / 1000)) + 'x'.repeat(length % 1000);
		const text = (filler: number) => [
			'@tok = eyJ.a.b', '',
			'### a', '# @name common-carrier', 'GET https://a.example/', 'X: {{tok}}', '',
			'### b', 'GET https://b.example/', `X: {{${readsB}}}`, '',
			'### c', 'GET https://c.example/', 'X: {{common}}', '',
			'### d', 'GET https://d.example/', `X: {{${heldByD}${words(filler)}}}`, '',
			'### e', 'GET https://e.example/', 'X: {{commonly carriers}}', '',
			'### f', 'GET https://f.example/', '',
		].join('\n');
		const exact = SCAN_BUDGET - 'tok'.length - heldByD.length - readsB.length;
		const hosts = (filler: number) => {
			const file = parseRestFile(text(filler));
			return requestsSending(file, { variables: ['tok'] }).flatMap((r) => targetHosts(requestTarget(file, r), variableReadings(file)));
		};
		assert.deepEqual(hosts(exact), ['a.example', 'b.example', 'd.example'], 'exactly the budget read: the exact answer');
		assert.deepEqual(hosts(exact + 1), ['a.example', 'b.example', 'c.example', 'd.example', 'e.example'], 'one character more: every request with a reference');
	});

	it('follows a request whose name has no letter or digit (# @name ---): every reader is read for it', () => {
		const text = ['### a', '# @name ---', 'GET https://a.example/', 'Authorization: Bearer eyJ.a.b', '', '### b', 'GET https://b.example/{{---.response.body.$}}', '', '### c', 'GET https://c.example/{{x}}', ''].join('\n');
		assert.deepEqual(receivingHostsAt(parseRestFile(text), [text.indexOf('eyJ')]), ['a.example', 'b.example']);
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

describe('the hosts a token at an offset reaches (receivingDestinationsAt)', () => {
	const hostsFrom = (lines: string[], token: string) => {
		const text = lines.join('\n');
		return receivingDestinationsAt(parseRestFile(text), [text.indexOf(token)]).map((d) => d.host);
	};

	it('a token in a file variable defined in a request\'s block reaches the requests that read the variable, not that request', () => {
		assert.deepEqual(hostsFrom(['### a', '@tok = eyJ.a.b', 'GET https://a.example/', '', '### c', 'GET https://c.example/{{tok}}', ''], 'eyJ'), ['c.example']);
	});

	it('a token in a request reaches it, not the requests that read the file\'s other variables', () => {
		assert.deepEqual(hostsFrom(['@other = x', '', '### a', 'GET https://a.example/', 'Authorization: Bearer eyJ.a.b', '', '### b', 'GET https://b.example/{{other}}', ''], 'eyJ'), ['a.example']);
	});
});

describe('each account\'s tokens in a file (Update Tokens, the host check)', () => {
	it('lists where each account\'s tokens start, in file order, under the account that owns them; a token of no account under none', () => {
		const text = 'A1 x B1 y A2 z A1';
		const jwts = [...text.matchAll(/[A-Z]\d/g)].map((m) => ({ token: m[0], start: m.index, end: m.index + 2, context: 'other' as const, line: 0 }));
		const owners: Record<string, string> = { A1: 'alice', A2: 'alice' }; // B1: a token of no logged-in account
		assert.deepEqual([...offsetsByAccount(jwts, (token) => owners[token])], [['alice', [0, 10, 15]]]);
		assert.deepEqual([...offsetsByAccount(jwts, () => undefined)], []);
	});
});

describe('requests that would send an account\'s token to another site', () => {
	const jwt = (claims: object, signature: string) => `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
	const current = jwt({ sub: 'driver-1', exp: 2_000_000_000 }, 'Y3VycmVudA');
	const older = jwt({ sub: 'driver-1', exp: 1_900_000_000 }, 'b2xkZXI');
	const stranger = jwt({ sub: 'someone-else', exp: 2_000_000_000 }, 'c3RyYW5nZXI');
	const accounts: AccountToken[] = [{ accountId: 'a1', accessToken: current, expiresAt: 2_000_000_000_000, serviceUrl: 'https://user.telematicssdk.com' }];

	it('names each request that sends a token of the account, current or older, to another site or where the file does not say; not its own service, nor a stranger\'s token', async () => {
		const text = [
			`@telematicsToken = ${older}`, '',
			'### to the service', 'GET https://api.telematicssdk.com/v1/x', 'Authorization: Bearer {{telematicsToken}}', '',
			'### elsewhere, through the variable', 'GET https://collector.example/a', 'Authorization: Bearer {{telematicsToken}}', '',
			'### elsewhere, written in', 'POST https://relay.example/b', `Authorization: Bearer ${current}`, '',
			'### a stranger\'s token, elsewhere', 'GET https://other.example/', `Authorization: Bearer ${stranger}`, '',
			'### where the file does not say', 'GET {{fromTheEnvironment}}/c', `Authorization: Bearer ${current}`, '',
		].join('\n');
		assert.deepEqual(await foreignSends(text, accounts), [
			{ requestLine: 7, host: 'collector.example', accountId: 'a1' },
			{ requestLine: 11, host: 'relay.example', accountId: 'a1' },
			{ requestLine: 19, host: undefined, accountId: 'a1' }, // fails closed (issue 34): a host the file does not say is not safe
		]);
	});

	it('a request to the account\'s platform host on another site (telematicsAuth.platformHosts) is not warned; without it, or elsewhere on that site, it is', async () => {
		const text = '### a\nGET https://api.partner-cloud.example/v1\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n\n### b\nGET https://collector.partner-cloud.example/v1\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n';
		const exposed = [{ name: 'TELEMATICS_TOKEN', accountId: 'a1' }];
		const withPlatform = accounts.map((a) => ({ ...a, platformOrigins: [a.serviceUrl, 'https://api.partner-cloud.example'] }));
		assert.deepEqual((await foreignSends(text, withPlatform, exposed)).map((s) => s.host), ['collector.partner-cloud.example']);
		assert.deepEqual((await foreignSends(text, accounts, exposed)).map((s) => s.host), ['api.partner-cloud.example', 'collector.partner-cloud.example']);
	});

	it('in a file outside the allow-list, any token anywhere reaches every request; no token reaches none', () => {
		const file = parseRestFile('{{\n  x\n}}\n\n###\nGET https://a.example/\n\n###\nGET https://b.example/\n');
		const all = file.requests.map((r) => r.requestLine);
		const reached = (places: Parameters<typeof requestsReached>[1]) => requestsReached(file, places).map((r) => r.requestLine);
		for (const places of [{ environment: true }, { elsewhere: true }, { requests: [file.requests[0]!] }, { variables: ['x'] }]) assert.deepEqual(reached(places), all, JSON.stringify(places));
		for (const places of [{}, { requests: [], variables: [] }, { environment: false, elsewhere: false }]) assert.deepEqual(reached(places), [], JSON.stringify(places));
		// A token written in the script (neither a request nor a definition) reaches them all; none written, none.
		assert.deepEqual(receivingDestinationsAt(file, [file.lines[1]!.start]).map((d) => d.line), all);
		assert.deepEqual(receivingDestinationsAt(file, []), []);
	});

	it('the token the environment holds counts for the account it belongs to, only when it is exposed', async () => {
		const text = '### a\nGET https://collector.example/\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN}}\n\n### b\nGET https://relay.example/\nAuthorization: Bearer {{$dotenv TELEMATICS_TOKEN}}\n\n### c\nGET https://user.telematicssdk.com/\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n';
		assert.deepEqual(await foreignSends(text, accounts), []);
		assert.deepEqual((await foreignSends(text, accounts, [{ name: 'TELEMATICS_TOKEN', accountId: 'a1' }])).map((s) => s.host), ['collector.example', 'relay.example']);
	});

	it('follows the token through definitions the parser skips (issue 34): an odd name, a definition in a body', () => {
		const text = [
			'@telematicsToken = eyJ.ours.sig',
			'@auth$ = Bearer {{telematicsToken}}',
			'',
			'### reads the odd name', 'GET https://collector.example/a', 'Authorization: {{auth$}}', '',
			'### defines one in its body', 'POST https://user.telematicssdk.com/b', 'Content-Type: text/plain', '', '@fwd = {{telematicsToken}}', '',
			'### reads the body\'s definition', 'GET https://relay.example/c', 'X-Forward: {{fwd}}', '',
			'### reads neither', 'GET https://quiet.example/d', '',
		].join('\n');
		const file = parseRestFile(text);
		const hosts = requestsSending(file, { variables: ['telematicsToken'] }).map((r) => file.lines[r.requestLine]!.text);
		assert.deepEqual(hosts, ['GET https://collector.example/a', 'POST https://user.telematicssdk.com/b', 'GET https://relay.example/c']);
	});

	it('the exposed token through a name the file does not say (issue 34): REST Client\'s %name, httpYac\'s process.env[…]', async () => {
		const exposed = [{ name: 'TELEMATICS_TOKEN', accountId: 'a1' }];
		const text = [
			'### a', 'GET https://collector.example/', 'Authorization: Bearer {{$processEnv %tokenName}}', '',
			'### b', 'GET https://relay.example/', "Authorization: Bearer {{ process.env['TELEMATICS' + '_TOKEN'] }}", '',
			'### c', 'GET https://third.example/', 'Authorization: Bearer {{$dotenv %tokenName}}', '',
			'### d: another variable read plainly', 'GET https://fourth.example/', 'X-Home: {{$processEnv HOME}}', '',
			'### e: the service', 'GET https://user.telematicssdk.com/', 'Authorization: Bearer {{$processEnv %tokenName}}', '',
		].join('\n');
		assert.deepEqual(await foreignSends(text, accounts), [], 'nothing while no token is exposed');
		assert.deepEqual((await foreignSends(text, accounts, exposed)).map((s) => s.host), [undefined, undefined, undefined, undefined, undefined], 'an expression may read it: every request, none said');
		const plain = text.replace("{{ process.env['TELEMATICS' + '_TOKEN'] }}", '{{TELEMATICS_TOKEN}}');
		assert.deepEqual((await foreignSends(plain, accounts, exposed)).map((s) => s.host), ['collector.example', 'relay.example', 'third.example']);
	});

	it('nothing for a file without tokens of logged-in accounts, whatever it holds (generated)', async () => {
		await fc.assert(fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom('###', 'GET https://collector.example/', `Authorization: Bearer ${stranger}`, '@v = {{telematicsToken}}', '# @name x', 'X: {{x.request.headers.Authorization}}', ''), fc.string()), { maxLength: 30 }), async (lines) => {
			assert.deepEqual(await foreignSends(lines.join('\n'), accounts), []);
		}), { numRuns: 200 });
	});
});
