import * as assert from 'node:assert/strict';
import { decideProxy, matchesNoProxy, type ProxyDecision } from '../../src/core/api/proxy';
import type { ProxySettings } from '../../src/core/api/types';

const none: ProxySettings = { strictSSL: true, noProxy: [] };
const proxied = (proxyUrl: string, strictSSL = true): ProxyDecision => ({ kind: 'proxy', proxyUrl, strictSSL });
const direct: ProxyDecision = { kind: 'direct' };

describe('decideProxy', () => {
	const cases: { name: string; url: string; settings?: Partial<ProxySettings>; env?: NodeJS.ProcessEnv; expected: ProxyDecision }[] = [
		{ name: 'no proxy anywhere', url: 'https://user.telematicssdk.com', expected: direct },
		{ name: 'http.proxy', url: 'https://user.telematicssdk.com', settings: { proxyUrl: 'http://corp:3128' }, expected: proxied('http://corp:3128') },
		{ name: 'http.proxy without scheme', url: 'https://a.example', settings: { proxyUrl: 'corp:3128' }, expected: proxied('http://corp:3128') },
		{ name: 'http.proxy with strictSSL off', url: 'https://a.example', settings: { proxyUrl: 'http://corp:3128', strictSSL: false }, expected: proxied('http://corp:3128', false) },
		{ name: 'http.proxy beats env', url: 'https://a.example', settings: { proxyUrl: 'http://corp:3128' }, env: { HTTPS_PROXY: 'http://env:1' }, expected: proxied('http://corp:3128') },
		{ name: 'HTTPS_PROXY for https', url: 'https://a.example', env: { HTTPS_PROXY: 'http://env-s:1', HTTP_PROXY: 'http://env-h:2' }, expected: proxied('http://env-s:1') },
		{ name: 'HTTP_PROXY for http', url: 'http://a.example', env: { HTTPS_PROXY: 'http://env-s:1', HTTP_PROXY: 'http://env-h:2' }, expected: proxied('http://env-h:2') },
		{ name: 'HTTP_PROXY as fallback for https', url: 'https://a.example', env: { HTTP_PROXY: 'http://env-h:2' }, expected: proxied('http://env-h:2') },
		{ name: 'lowercase env first', url: 'https://a.example', env: { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' }, expected: proxied('http://lower:1') },
		{ name: 'empty env var is unset', url: 'https://a.example', env: { HTTPS_PROXY: '  ' }, expected: direct },
		{ name: 'localhost always direct', url: 'http://localhost:8787', settings: { proxyUrl: 'http://corp:3128' }, expected: direct },
		{ name: '127.x always direct', url: 'http://127.0.0.2:8787', env: { HTTP_PROXY: 'http://env:1' }, expected: direct },
		{ name: '::1 always direct', url: 'http://[::1]:8787', settings: { proxyUrl: 'http://corp:3128' }, expected: direct },
		{ name: 'http.noProxy exact', url: 'https://a.example', settings: { proxyUrl: 'http://corp:3128', noProxy: ['a.example'] }, expected: direct },
		{ name: 'NO_PROXY applies with env proxy', url: 'https://x.corp.local', env: { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'foo, .corp.local' }, expected: direct },
		{ name: 'no_proxy lowercase', url: 'https://x.corp.local', env: { HTTPS_PROXY: 'http://env:1', no_proxy: '*.corp.local' }, expected: direct },
		{ name: 'NO_PROXY *', url: 'https://anything', env: { HTTPS_PROXY: 'http://env:1', NO_PROXY: '*' }, expected: direct },
		{ name: 'NO_PROXY other host', url: 'https://a.example', env: { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'b.example' }, expected: proxied('http://env:1') },
		{ name: 'invalid URL', url: 'not a url', settings: { proxyUrl: 'http://corp:3128' }, expected: direct },
	];
	for (const c of cases) {
		it(c.name, () => assert.deepEqual(decideProxy(c.url, { ...none, ...c.settings }, c.env ?? {}), c.expected));
	}
});

describe('matchesNoProxy', () => {
	const cases: [entry: string, host: string, port: string, expected: boolean][] = [
		['*', 'a.example', '443', true],
		['example.com', 'example.com', '443', true],
		['example.com', 'api.example.com', '443', true],
		['example.com', 'badexample.com', '443', false],
		['.example.com', 'api.example.com', '443', true],
		['.example.com', 'example.com', '443', false],
		['*.example.com', 'api.example.com', '443', true],
		['*.example.com', 'example.com', '443', false],
		['EXAMPLE.com', 'example.com', '443', true],
		['example.com:8443', 'example.com', '8443', true],
		['example.com:8443', 'example.com', '443', false],
		// No CIDR ranges, as VS Code's own http.noProxy has none: the entry names no host.
		['10.0.0.0/8', '10.1.2.3', '443', false],
		['', 'example.com', '443', false],
	];
	for (const [entry, host, port, expected] of cases) {
		it(`${JSON.stringify(entry)} vs ${host}:${port} → ${expected}`, () => assert.equal(matchesNoProxy(entry, host, port), expected));
	}
});
