// The check at Send for httpYac as a table: where the token is × the destination × the proxy × the
// certificate checks → send, or ask (whose token, where, why).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { decideSend, gotOptionsRead, hostHeaderDiffers, personProxyFrom, sameProxy, turnsCertificatesOff, type HeldAccount, type OutgoingRequest, type SendDecision, type SendReason } from '../../src/core/httpyac/sendCheck';

const ACCESS = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLXVzZXI';
const REFRESH = 'refresh-0123456789abcdef0123456789';
const ADMIN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlLWFkbWlu';
const SERVICE = 'https://user.telematicssdk.com';
const OTHER = 'https://collector.example';
const PERSON_PROXY = 'http://corp.proxy:3128';

const user: HeldAccount = { name: 'user', label: 'User ••••1234', tokens: [ACCESS, REFRESH], platformOrigins: [SERVICE, 'https://api.telematicssdk.com'] };
const admin: HeldAccount = { name: 'admin', label: 'admin@example.com', tokens: [ADMIN], platformOrigins: ['https://admin.telematicssdk.com'] };

function request(over: Partial<OutgoingRequest>): OutgoingRequest {
	return { url: `${SERVICE}/v1/Me`, headers: [], certificatesOff: false, ...over };
}
const bearer = (token: string): Array<[string, string]> => [['Authorization', `Bearer ${token}`]];
const ask = (destination: string | undefined, ...accounts: Array<[string, string[], ...Array<'otherSite' | 'certificatesOff' | string | SendReason>]>): SendDecision => ({
	kind: 'ask',
	destination,
	accounts: accounts.map(([name, places, ...reasons]) => ({
		name,
		label: name === 'user' ? user.label : admin.label,
		places: places as Array<'url' | 'header' | 'body'>,
		reasons: reasons.map((r): SendReason => typeof r !== 'string' ? r : r === 'otherSite' || r === 'certificatesOff' ? { kind: r } : { kind: 'proxy', proxy: r }),
	})),
});
const SEND: SendDecision = { kind: 'send' };

describe('httpYac at Send: decideSend', () => {
	const cases: Array<{ name: string; request: Partial<OutgoingRequest>; proxy?: string; expected: SendDecision }> = [
		// Where the token is, to its own service: no question.
		{ name: 'header to its service', request: { headers: bearer(ACCESS) }, expected: SEND },
		{ name: 'header to another platform host of the account', request: { url: 'https://api.telematicssdk.com/x', headers: bearer(ACCESS) }, expected: SEND },
		{ name: 'in the URL to its service', request: { url: `${SERVICE}/v1/Me?token=${ACCESS}` }, expected: SEND },
		{ name: 'in the body to its service', request: { body: JSON.stringify({ refreshToken: REFRESH }) }, expected: SEND },
		{ name: 'no token, another site', request: { url: OTHER, headers: [['Authorization', 'Bearer something-else-entirely']] }, expected: SEND },
		{ name: 'no token, certificate checks off', request: { url: OTHER, certificatesOff: true }, expected: SEND },
		{ name: 'no token, a proxy nobody set', request: { url: OTHER, proxy: 'http://evil:8080' }, expected: SEND },
		// The same token, elsewhere.
		{ name: 'header to another site', request: { url: `${OTHER}/v1/Me`, headers: bearer(ACCESS) }, expected: ask(OTHER, ['user', ['header'], 'otherSite']) },
		{ name: 'any header, not only Authorization', request: { url: OTHER, headers: [['X-Forward', ACCESS]] }, expected: ask(OTHER, ['user', ['header'], 'otherSite']) },
		{ name: 'Basic authorization: base64(user:token)', request: { url: OTHER, headers: [['Authorization', `Basic ${Buffer.from(`user:${ACCESS}`).toString('base64')}`]] }, expected: ask(OTHER, ['user', ['header'], 'otherSite']) },
		{ name: 'base64url in any header', request: { url: OTHER, headers: [['X-Blob', `v1.${Buffer.from(`{"t":"${REFRESH}"}`).toString('base64url')}`]] }, expected: ask(OTHER, ['user', ['header'], 'otherSite']) },
		{ name: 'Basic authorization to its service', request: { headers: [['Authorization', `Basic ${Buffer.from(`user:${ACCESS}`).toString('base64')}`]] }, expected: SEND },
		{ name: 'a header\'s name', request: { url: OTHER, headers: [[`X-${ACCESS}`, '1']] }, expected: ask(OTHER, ['user', ['header'], 'otherSite']) },
		{ name: 'in the URL to another site', request: { url: `${OTHER}/?t=${ACCESS}` }, expected: ask(OTHER, ['user', ['url'], 'otherSite']) },
		{ name: 'percent-encoded in the URL', request: { url: `${OTHER}/?t=${ACCESS.replace(/\./g, '%2E')}` }, expected: ask(OTHER, ['user', ['url'], 'otherSite']) },
		{ name: 'in the body to another site', request: { url: OTHER, body: `{"t":"${ACCESS}"}` }, expected: ask(OTHER, ['user', ['body'], 'otherSite']) },
		{ name: 'the refresh token', request: { url: OTHER, body: `refresh=${REFRESH}` }, expected: ask(OTHER, ['user', ['body'], 'otherSite']) },
		{ name: 'a service origin with another port', request: { url: 'https://user.telematicssdk.com:8443/v1/Me', headers: bearer(ACCESS) }, expected: ask('https://user.telematicssdk.com:8443', ['user', ['header'], 'otherSite']) },
		{ name: 'the service over http', request: { url: 'http://user.telematicssdk.com/v1/Me', headers: bearer(ACCESS) }, expected: ask('http://user.telematicssdk.com', ['user', ['header'], 'otherSite']) },
		{ name: 'userinfo that names the service', request: { url: `https://user.telematicssdk.com@collector.example/`, headers: bearer(ACCESS) }, expected: ask(OTHER, ['user', ['header'], 'otherSite']) },
		{ name: 'no URL at all', request: { url: 'not a url', headers: bearer(ACCESS) }, expected: ask(undefined, ['user', ['header'], 'otherSite']) },
		{ name: 'another account\'s service', request: { url: 'https://admin.telematicssdk.com/x', headers: bearer(ACCESS) }, expected: ask('https://admin.telematicssdk.com', ['user', ['header'], 'otherSite']) },
		{ name: 'two accounts\' tokens, one at home', request: { url: 'https://admin.telematicssdk.com/x', headers: [...bearer(ADMIN), ['X-Other', ACCESS]] }, expected: ask('https://admin.telematicssdk.com', ['user', ['header'], 'otherSite']) },
		{ name: 'two accounts\' tokens, both away', request: { url: OTHER, headers: bearer(ADMIN), body: ACCESS }, expected: ask(OTHER, ['user', ['body'], 'otherSite'], ['admin', ['header'], 'otherSite']) },
		{ name: 'in the URL, a header and the body', request: { url: `${OTHER}/${ACCESS}`, headers: bearer(ACCESS), body: ACCESS }, expected: ask(OTHER, ['user', ['url', 'header', 'body'], 'otherSite']) },
		{ name: 'a body that could not be read, to another site', request: { url: OTHER, bodyUnread: true }, expected: ask(OTHER, ['user', ['body'], 'otherSite'], ['admin', ['body'], 'otherSite']) },
		// Proxy and certificate checks, to its own service.
		{ name: 'through the proxy the person set', request: { headers: bearer(ACCESS), proxy: PERSON_PROXY }, proxy: PERSON_PROXY, expected: SEND },
		{ name: 'the person\'s proxy, written with a slash and capitals', request: { headers: bearer(ACCESS), proxy: 'HTTP://CORP.proxy:3128/' }, proxy: PERSON_PROXY, expected: SEND },
		{ name: 'through a proxy the person did not set', request: { headers: bearer(ACCESS), proxy: 'http://evil:8080' }, proxy: PERSON_PROXY, expected: ask(SERVICE, ['user', ['header'], 'http://evil:8080']) },
		{ name: 'through a proxy while the person set none', request: { headers: bearer(ACCESS), proxy: 'http://evil:8080' }, expected: ask(SERVICE, ['user', ['header'], 'http://evil:8080']) },
		{ name: 'the person\'s proxy host with other credentials', request: { headers: bearer(ACCESS), proxy: 'http://me:pw@corp.proxy:3128' }, proxy: PERSON_PROXY, expected: ask(SERVICE, ['user', ['header'], 'http://corp.proxy:3128']) },
		{ name: 'a proxy with a password is shown without it', request: { headers: bearer(ACCESS), proxy: `http://u:${ACCESS}@evil:8080/` }, expected: ask(SERVICE, ['user', ['header'], 'http://evil:8080']) },
		{ name: 'a proxy that is not a URL is not shown', request: { headers: bearer(ACCESS), proxy: `${ACCESS} x` }, expected: ask(SERVICE, ['user', ['header'], 'a proxy address that is not a URL']) },
		{ name: 'certificate checks off', request: { headers: bearer(ACCESS), certificatesOff: true }, expected: ask(SERVICE, ['user', ['header'], 'certificatesOff']) },
		{ name: 'got options it does not read', request: { headers: bearer(ACCESS), unreadOptions: ['options.hostname'] }, expected: ask(SERVICE, ['user', ['header'], { kind: 'options', keys: ['options.hostname'] }]) },
		{ name: 'got options it does not read, no token', request: { unreadOptions: ['options.hostname'] }, expected: SEND },
		{ name: 'everything at once', request: { url: OTHER, headers: bearer(ACCESS), proxy: 'http://evil:8080', certificatesOff: true }, expected: ask(OTHER, ['user', ['header'], 'otherSite', 'http://evil:8080', 'certificatesOff']) },
	];
	for (const { name, request: over, proxy, expected } of cases) {
		it(name, () => assert.deepEqual(decideSend(request(over), [user, admin], proxy), expected));
	}

	it('searches for no token too short to be one (an empty token would match every request)', () => {
		const odd: HeldAccount = { name: 'user', label: 'x', tokens: ['', 'abc'], platformOrigins: [SERVICE] };
		assert.deepEqual(decideSend(request({ url: OTHER, headers: [['X', 'abc']] }), [odd], undefined), SEND);
	});

	it('asks about a token base64-encoded in a header value at any offset (generated)', () => {
		fc.assert(fc.property(fc.string(), fc.string(), fc.constantFrom<BufferEncoding>('base64', 'base64url'), (before, after, encoding) => {
			const value = `Basic ${Buffer.from(`${before}${ACCESS}${after}`).toString(encoding)}`;
			assert.equal(decideSend(request({ url: OTHER, headers: [['Authorization', value]] }), [user], undefined).kind, 'ask');
		}));
	});

	it('asks about a token anywhere in any text aimed at any other origin (generated)', () => {
		fc.assert(fc.property(fc.string(), fc.string(), fc.constantFrom<'url' | 'header' | 'body'>('url', 'header', 'body'), fc.domain(), (before, after, place, host) => {
			const text = `${before}${ACCESS}${after}`;
			const url = `https://${host}/`;
			const req = request({
				url: place === 'url' ? `${url}?q=${encodeURIComponent(text)}` : url,
				headers: place === 'header' ? [['X-Any', text]] : [],
				body: place === 'body' ? text : undefined,
			});
			const decision = decideSend(req, [user], undefined);
			const home = user.platformOrigins.includes(new URL(url).origin);
			assert.equal(decision.kind, home ? 'send' : 'ask');
		}));
	});
});

describe('httpYac at Send: gotOptionsRead (an allow-list of got options)', () => {
	const url = `${SERVICE}/v1/Me`;
	const fn = (): void => undefined;
	const cases: Array<[string, unknown, string[]]> = [
		['none', undefined, []],
		['what httpYac sets itself', { timeout: 5000, retry: 0, throwHttpErrors: false, decompress: true, allowGetBody: true, followRedirect: false, maxRedirects: 3, method: 'GET', http2: true }, []],
		['its client certificate and certificate checks on', { https: { rejectUnauthorized: true, certificate: 'c', key: 'k', pfx: undefined, passphrase: 'p' } }, []],
		['its own hooks (redirect log, post-redirect-get, digest)', { hooks: { beforeRequest: [fn], beforeRedirect: [fn, fn], afterResponse: [fn] } }, []],
		['hostname', { hostname: 'evil.example' }, ['hostname']],
		['host and port', { host: 'evil.example', port: 8080 }, ['host', 'port']],
		['prefixUrl', { prefixUrl: 'https://evil.example' }, ['prefixUrl']],
		['url', { url: 'https://evil.example' }, ['url']],
		['searchParams', { searchParams: { t: 'x' } }, ['searchParams']],
		['agent', { agent: { https: {} } }, ['agent']],
		['dnsLookup and lookup', { dnsLookup: fn, lookup: fn }, ['dnsLookup', 'lookup']],
		['socketPath', { socketPath: '/tmp/s' }, ['socketPath']],
		['a request function', { request: fn }, ['request']],
		['https other than its certificates', { https: { rejectUnauthorized: true, checkServerIdentity: fn, servername: 'x' } }, ['https.checkServerIdentity', 'https.servername']],
		['https that is no object', { https: true }, ['https']],
		['one beforeRequest hook more than httpYac adds', { hooks: { beforeRequest: [fn, fn] } }, ['hooks.beforeRequest']],
		['a hook httpYac never adds', { hooks: { init: [fn], beforeRetry: [] } }, ['hooks.init']],
		['hooks that are no object', { hooks: 'x' }, ['hooks']],
		['options that are no object', 'x', ['(options)']],
	];
	for (const [name, options, unread] of cases) it(`${name} → unread ${JSON.stringify(unread)}`, () => assert.deepEqual(gotOptionsRead(options, url).unread, unread));

	it('httpYac puts no hook in requestGotOptions: any hook there is unread', () => {
		assert.deepEqual(gotOptionsRead({ hooks: { beforeRequest: [fn] } }, url, false).unread, ['hooks.beforeRequest']);
	});

	it('reads headers and body from the options, so a token there is searched', () => {
		const read = gotOptionsRead({ headers: { 'X-A': ACCESS, 'X-B': ['1', '2'] }, body: 'b' }, url);
		assert.deepEqual(read.headers, [['X-A', ACCESS], ['X-B', '1'], ['X-B', '2']]);
		assert.equal(read.body, 'b');
		assert.equal(read.hasBody, true);
		assert.deepEqual(decideSend(request({ url: OTHER, headers: read.headers }), [user], undefined), ask(OTHER, ['user', ['header'], 'otherSite']));
	});

	it('reads the cookie jar httpYac moved the Cookie header into, as the Cookie header got will send', () => {
		const jar = { getCookieStringSync: (u: string) => u === url ? `session=${ACCESS}` : '' };
		const read = gotOptionsRead({ cookieJar: jar }, url);
		assert.deepEqual(read, { unread: [], headers: [['Cookie', `session=${ACCESS}`]], hasBody: false });
		assert.deepEqual(decideSend(request({ url, headers: read.headers }), [user], undefined), SEND);
		const away = gotOptionsRead({ cookieJar: { getCookieStringSync: () => `t=${ACCESS}` } }, OTHER);
		assert.deepEqual(decideSend(request({ url: OTHER, headers: away.headers }), [user], undefined), ask(OTHER, ['user', ['header'], 'otherSite']));
		assert.deepEqual(gotOptionsRead({ cookieJar: { getCookieStringSync: () => '' } }, url).headers, []);
	});

	it('a cookie jar it cannot read (another shape, throws, no text) is unread', () => {
		assert.deepEqual(gotOptionsRead({ cookieJar: { getCookieString: async () => ACCESS } }, url).unread, ['cookieJar']);
		assert.deepEqual(gotOptionsRead({ cookieJar: { getCookieStringSync: () => { throw new Error('x'); } } }, url).unread, ['cookieJar']);
		assert.deepEqual(gotOptionsRead({ cookieJar: { getCookieStringSync: () => 1 } }, url).unread, ['cookieJar']);
		assert.deepEqual(gotOptionsRead({ cookieJar: 'jar' }, url).unread, ['cookieJar']);
	});

	it('any key outside the allow-list is unread (generated)', () => {
		const allowed = new Set(['timeout', 'retry', 'throwHttpErrors', 'decompress', 'allowGetBody', 'followRedirect', 'maxRedirects', 'method', 'http2', 'headers', 'body', 'cookieJar', 'https', 'hooks']);
		fc.assert(fc.property(fc.string({ minLength: 1 }).filter((k) => !allowed.has(k) && k !== '__proto__'), fc.anything().filter((v) => v !== undefined), (key, value) => {
			assert.deepEqual(gotOptionsRead({ [key]: value }, url).unread, [key]);
		}));
	});
});

describe('httpYac at Send: the person\'s proxy', () => {
	it('is http.proxy, else HTTPS_PROXY, https_proxy, HTTP_PROXY, http_proxy from the environment', () => {
		assert.equal(personProxyFrom(PERSON_PROXY, { HTTPS_PROXY: 'http://env:1' }), PERSON_PROXY);
		assert.equal(personProxyFrom(undefined, { https_proxy: 'http://b:2', HTTP_PROXY: 'http://c:3' }), 'http://b:2');
		assert.equal(personProxyFrom(' ', { HTTP_PROXY: 'http://c:3' }), 'http://c:3');
		assert.equal(personProxyFrom(undefined, { http_proxy: 'http://d:4' }), 'http://d:4');
		assert.equal(personProxyFrom(undefined, {}), undefined);
	});

	it('a request through the environment\'s proxy goes with no question', () => {
		const proxy = personProxyFrom(undefined, { HTTPS_PROXY: PERSON_PROXY });
		assert.deepEqual(decideSend(request({ headers: bearer(ACCESS), proxy: PERSON_PROXY }), [user], proxy), SEND);
	});
});

describe('httpYac at Send: turnsCertificatesOff', () => {
	const cases: Array<[unknown, boolean]> = [
		[undefined, false], [null, false], ['rejectUnauthorized', false], [{}, false],
		[{ rejectUnauthorized: true }, false], [{ rejectUnauthorized: false }, true],
		[{ https: { rejectUnauthorized: false } }, true], [{ https: { rejectUnauthorized: 0 } }, false], [{ https: null }, false],
	];
	for (const [options, off] of cases) it(`${JSON.stringify(options)} → ${off}`, () => assert.equal(turnsCertificatesOff(options), off));
});

describe('httpYac at Send: edges of the check', () => {
	it('a URL with no origin of its own (file:, data:) is no destination to name', () => {
		assert.deepEqual(decideSend(request({ url: `file:///tmp/${ACCESS}` }), [user], undefined), ask(undefined, ['user', ['url'], 'otherSite']));
	});

	it('a token of exactly 16 characters is searched for', () => {
		const short: HeldAccount = { name: 'user', label: user.label, tokens: ['0123456789abcdef'], platformOrigins: [SERVICE] };
		assert.deepEqual(decideSend(request({ url: OTHER, headers: [['X', '0123456789abcdef']] }), [short], undefined), ask(OTHER, ['user', ['header'], 'otherSite']));
	});

	it('a body it could not read is asked about only for accounts holding a token', () => {
		const none: HeldAccount = { name: 'user', label: user.label, tokens: ['short'], platformOrigins: [SERVICE] };
		assert.deepEqual(decideSend(request({ url: OTHER, bodyUnread: true }), [none], undefined), SEND);
	});

	it('a Host header naming another site is another site, whichever of several it is', () => {
		assert.deepEqual(decideSend(request({ headers: [...bearer(ACCESS), ['Host', 'user.telematicssdk.com'], ['host', 'collector.example']] }), [user], undefined), ask(SERVICE, ['user', ['header'], 'otherSite']));
		assert.deepEqual(decideSend(request({ headers: [...bearer(ACCESS), ['Host', 'user.telematicssdk.com']] }), [user], undefined), SEND);
		assert.equal(hostHeaderDiffers({ url: 'not a url', headers: [] }), false, 'no Host header: none differs');
		assert.equal(hostHeaderDiffers({ url: 'not a url', headers: [['Host', 'a.example']] }), true);
	});

	it('proxies are compared by scheme, credentials and host; one that is no URL by its text, any case, no trailing slashes', () => {
		assert.deepEqual(decideSend(request({ headers: bearer(ACCESS), proxy: 'socks5://evil:1080' }), [user], 'socks5://corp:1080'), ask(SERVICE, ['user', ['header'], 'socks5://evil:1080']));
		assert.equal(sameProxy('corp proxy//', 'CORP PROXY'), true);
		assert.equal(sameProxy(' corp proxy/ ', 'corp proxy'), true);
		assert.equal(sameProxy('proxy one', 'proxy two'), false);
		assert.equal(personProxyFrom(' http://a:1 ', {}), 'http://a:1');
	});
});

describe('httpYac at Send: gotOptionsRead edges', () => {
	const url = `${SERVICE}/v1/Me`;
	const fn = (): void => undefined;
	const nested = (depth: number): unknown => { let v: unknown = {}; for (let i = 1; i < depth; i++) v = { v }; return v; };

	it('options that are null, and keys that are undefined, are nothing to read', () => {
		assert.deepEqual(gotOptionsRead(null, url), { unread: [], headers: [], hasBody: false });
		assert.deepEqual(gotOptionsRead({ hostname: undefined, https: { servername: undefined }, hooks: { init: undefined } }, url).unread, []);
	});

	it('null where an object is expected is unread; null data in a read key is data', () => {
		assert.deepEqual(gotOptionsRead({ https: null, hooks: null, headers: 'x' }, url).unread, ['https', 'hooks', 'headers']);
		assert.deepEqual(gotOptionsRead({ retry: { limit: null } }, url).unread, []);
	});

	it('a hook that is no list is unread', () => {
		assert.deepEqual(gotOptionsRead({ hooks: { beforeRequest: fn } }, url).unread, ['hooks.beforeRequest']);
	});

	it('header values null or undefined are no header', () => {
		assert.deepEqual(gotOptionsRead({ headers: { 'X-A': null, 'X-B': undefined, 'X-C': [null, 'c', undefined] } }, url).headers, [['X-C', 'c']]);
	});

	it('a function in any data-only key is unread', () => {
		for (const key of ['timeout', 'retry', 'throwHttpErrors', 'decompress', 'allowGetBody', 'followRedirect', 'maxRedirects', 'method', 'http2', 'headers']) {
			assert.deepEqual(gotOptionsRead({ [key]: { x: fn } }, url).unread, [key], key);
		}
		for (const key of ['rejectUnauthorized', 'certificate', 'key', 'pfx', 'passphrase']) assert.deepEqual(gotOptionsRead({ https: { [key]: 'x' } }, url).unread, [], key);
	});

	it('data nested past 1,000 objects counts as holding a function', () => {
		assert.deepEqual(gotOptionsRead({ retry: nested(1000) }, url).unread, []);
		assert.deepEqual(gotOptionsRead({ retry: nested(1001) }, url).unread, ['retry']);
	});

	it('a Host header that is no host is another site', () => {
		assert.equal(hostHeaderDiffers({ url: `${SERVICE}/v1/Me`, headers: [['Host', 'not a host']] }), true);
		assert.equal(hostHeaderDiffers({ url: `${SERVICE}/v1/Me`, headers: [['host', new URL(SERVICE).host]] }), false);
	});

	it('a cookie jar that is null is no jar: nothing unread, no Cookie header, no error', () => {
		assert.deepEqual(gotOptionsRead({ cookieJar: null }, url), { unread: [], headers: [], hasBody: false });
		assert.deepEqual(gotOptionsRead({ headers: null }, url), { unread: [], headers: [], hasBody: false }, 'no headers: read whole, no throw');
		assert.deepEqual(gotOptionsRead({ cookieJar: null, headers: { 'X-A': 'a' } }, url, false), { unread: [], headers: [['X-A', 'a']], hasBody: false });
	});

	it('a cookie jar that is a function is unread', () => {
		const jar = Object.assign(() => undefined, { getCookieStringSync: () => `t=${ACCESS}` });
		assert.deepEqual(gotOptionsRead({ cookieJar: jar }, OTHER), { unread: ['cookieJar'], headers: [], hasBody: false });
	});
});
