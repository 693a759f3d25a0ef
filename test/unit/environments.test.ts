// The environments' values for the host check (issue 30): each client's file read as data, hostile files
// (huge, broken, deep, odd values) adding nothing and never throwing, and a file's own definition winning.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { parse as parseDotenv } from 'dotenv';
import { environmentsByHost, environmentsOutside, referencedNames, MAX_ENVIRONMENT_FILE_CHARS, readDotenv, readEnvironmentObject, readHttpClientEnv, readHttpyacJson, withEnvironments, type EnvironmentReadings } from '../../src/core/restFile/environments';
import { requestDestinations, variableReadings } from '../../src/core/restFile/requestHost';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { globalNames } from '../../src/core/restFile/requestShape';

const values = (readings: EnvironmentReadings, name: string) => [...(readings.get(name)?.values() ?? [])].map((v) => `${v.environment}=${v.value}`);

describe('environments: what each client\'s file gives a variable', () => {
	it('http-client.env.json: every environment and $shared', () => {
		const read = readHttpClientEnv('{"$shared": {"baseUrl": "https://a.example"}, "dev": {"baseUrl": "https://b.example", "n": 1}, "prod": {"baseUrl": "https://c.example"}}');
		assert.deepEqual(values(read, 'baseUrl'), ['$shared=https://a.example', 'dev=https://b.example', 'prod=https://c.example']);
		assert.deepEqual(values(read, 'n'), ['dev=undefined'], 'a number is kept, as a value the check does not read');
	});

	it('.httpyac.json: its environments only', () => {
		const read = readHttpyacJson('{"log": {"level": 1}, "environments": {"prod": {"host": "x.example"}}, "baseUrl": "y.example"}');
		assert.deepEqual([...read.keys()], ['host']);
	});

	it('.env: what dotenv reads, in every form (KEY: value, the last one winning, quotes, a quote that never closes)', () => {
		const text = '# c\nbaseUrl=https://a.example\nexport host="b.example"\nq=\'c.example\'\nhost: https://d.example\nmulti="never\nclosed';
		const read = readDotenv(text);
		assert.deepEqual([...read.keys()], Object.keys(parseDotenv(text)));
		assert.deepEqual(values(read, 'host'), ['.env=https://d.example'], 'KEY: value, the last one, as httpYac reads it');
		assert.deepEqual(values(read, 'q'), ['.env=c.example']);
		const ok = readDotenv('baseUrl=https://a.example # note\nexport host="b.example"\n');
		assert.deepEqual(values(ok, 'baseUrl'), ['.env=https://a.example']);
		assert.deepEqual(values(ok, 'host'), ['.env=b.example']);
	});

	it('REST Client\'s setting: the same shape as the JSON files; anything else gives nothing', () => {
		assert.deepEqual(values(readEnvironmentObject({ $shared: { h: 'a' }, local: { h: 'b' } }), 'h'), ['$shared=a', 'local=b']);
		for (const odd of [undefined, null, 'text', 7, [], [{ h: 'a' }], { env: 'not an object' }, { env: [1] }]) assert.equal(readEnvironmentObject(odd).size, 0, JSON.stringify(odd));
	});

	it('bounds are bounds: 64 environments, 512 variables, 4096-character values, 256 KB files', () => {
		const envs = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`e${i}`, { h: `v${i}` }]));
		assert.equal(readHttpClientEnv(JSON.stringify(envs)).get('h')!.size, 64);
		const vars = Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`v${i}`, 'x']));
		assert.equal(readHttpClientEnv(JSON.stringify({ dev: vars })).has('v512'), false);
		assert.equal(readDotenv(Array.from({ length: 513 }, (_, i) => `v${i}=x`).join('\n')).has('v512'), false);
		assert.deepEqual(values(readHttpClientEnv(JSON.stringify({ dev: { a: 'a'.repeat(4096), b: 'b'.repeat(4097) } })), 'a'), [`dev=${'a'.repeat(4096)}`]);
		assert.deepEqual(values(readHttpClientEnv(JSON.stringify({ dev: { b: 'b'.repeat(4097) } })), 'b'), ['dev=undefined'], 'a longer value is kept as one not read, never dropped');
		// A file of many short values: at the bound it is read, one character past it is not.
		const file = (size: number) => {
			const head = '{"dev": {"h": "x", "pad": "';
			return `${head}${'p'.repeat(size - head.length - 3)}"}}`;
		};
		assert.equal(file(MAX_ENVIRONMENT_FILE_CHARS).length, MAX_ENVIRONMENT_FILE_CHARS);
		assert.equal(readHttpClientEnv(file(MAX_ENVIRONMENT_FILE_CHARS)).has('h'), true);
		assert.equal(readHttpClientEnv(file(MAX_ENVIRONMENT_FILE_CHARS + 1)).has('h'), false);
		const dotenv = (size: number) => `h=x\n#${'p'.repeat(size - 5)}`;
		assert.equal(readDotenv(dotenv(MAX_ENVIRONMENT_FILE_CHARS)).has('h'), true);
		assert.equal(readDotenv(dotenv(MAX_ENVIRONMENT_FILE_CHARS + 1)).has('h'), false);
	});

	it('more values in all than the check reads (4096) do not say; 4096 do', () => {
		const readings = (n: number): EnvironmentReadings => new Map([['h', new Map(Array.from({ length: n }, (_, i) => [`e${i}`, { value: `https://h${i}.example`, environment: `e${i}` }]))]]);
		assert.equal(environmentsOutside(readings(4096)), undefined);
		assert.equal(environmentsOutside(readings(4097)), 'the environments hold more values than the check reads');
	});

	it('what the bounds leave unread makes the environments not say: the 65th environment, the 513th variable (allow-list: never ignored)', () => {
		// The 65th environment (or the 513th variable) is the one that sends elsewhere; the check must not read the rest as all there is.
		const envs = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`e${i}`, { host: i === 64 ? 'https://collector.example' : 'https://user.telematicssdk.com' }])));
		assert.equal(environmentsOutside(readHttpClientEnv(envs(64))), undefined);
		assert.equal(environmentsOutside(readHttpClientEnv(envs(65))), 'an environment file holds more environments or variables than the check reads');
		const vars = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [i === 512 ? 'host' : `v${i}`, i === 512 ? 'https://collector.example' : 'x']));
		assert.equal(environmentsOutside(readHttpClientEnv(JSON.stringify({ dev: vars(512) }))), undefined);
		assert.match(environmentsOutside(readHttpClientEnv(JSON.stringify({ dev: vars(513) }))) ?? '', /more environments or variables/);
		assert.match(environmentsOutside(readHttpyacJson(JSON.stringify({ environments: { $shared: vars(513) } }))) ?? '', /more environments or variables/);
		assert.match(environmentsOutside(readEnvironmentObject({ local: vars(513) })) ?? '', /more environments or variables/, 'REST Client\'s setting alike');
		const dotenv = (n: number) => Object.entries(vars(n)).map(([k, v]) => `${k}=${v}`).join('\n');
		assert.equal(environmentsOutside(readDotenv(dotenv(512))), undefined);
		assert.match(environmentsOutside(readDotenv(dotenv(513))) ?? '', /more environments or variables/);
	});

	it('a value is kept once per environment; the same value in two environments twice; no environments changes nothing', () => {
		const read = readHttpClientEnv('{"a": {"h": "x"}, "b": {"h": "x"}}');
		readHttpClientEnv('{"a": {"h": "x"}}', read);
		assert.deepEqual(values(read, 'h'), ['a=x', 'b=x']);
		readHttpClientEnv('{"a": {"h": "y"}}', read);
		assert.deepEqual(values(read, 'h'), ['a=x', 'b=x', 'a=y']);
		const both = readHttpClientEnv('{"a": {"h": "undefined"}}');
		readHttpClientEnv('{"a": {"h": null}}', both);
		assert.deepEqual([...both.get('h')!.values()].map((v) => v.value), ['undefined', undefined], 'a value not read is kept beside a string, whatever the string');
		assert.deepEqual(withEnvironments(new Map(), both).get('h'), [], 'and the name has no reading');
		assert.equal(environmentsOutside(readHttpClientEnv('{"dev": {"": "x", "h": "y"}}')), undefined, 'a variable with an empty name is one like any other');
		const own = new Map([['h', ['z']]]);
		assert.equal(withEnvironments(own, new Map()), own);
	});

	it('hostile files add nothing and never throw: broken, too large, deep, values that are not text (generated)', () => {
		const odd = readHttpClientEnv('{"dev": {"h": {"nested": "x"}, "i": null, "j": [1]}}');
		assert.deepEqual([...odd.keys()].map((name) => values(odd, name)), [['dev=undefined'], ['dev=undefined'], ['dev=undefined']], 'a value that is not text is kept by its name, not read');
		assert.equal(readHttpClientEnv('{"dev": {').size, 0);
		assert.equal(readHttpClientEnv(`{"dev": {"h": "${'a'.repeat(MAX_ENVIRONMENT_FILE_CHARS)}"}}`).size, 0, 'past the bound');
		assert.equal(readDotenv(`h=${'a'.repeat(MAX_ENVIRONMENT_FILE_CHARS)}`).size, 0);
		assert.equal(readHttpClientEnv(`${'['.repeat(100_000)}`).size, 0, 'deep and broken');
		assert.equal(readHttpClientEnv(`{"dev": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`).size, 0, 'deep and whole');
		assert.deepEqual(values(readHttpClientEnv('{"dev": {"h": {"nested": "x"}, "i": null, "j": [1], "k": true}}'), 'k'), ['dev=undefined']);
		fc.assert(fc.property(fc.string({ maxLength: 300 }), fc.jsonValue(), (text, json) => {
			readHttpClientEnv(text);
			readHttpyacJson(text);
			readDotenv(text);
			const read = readHttpClientEnv(JSON.stringify(json));
			for (const list of read.values()) for (const v of list.values()) assert.ok(v.value === undefined || typeof v.value === 'string');
		}));
	});
});

describe('environments: the host check reads through them', () => {
	const SERVICE = 'https://user.telematicssdk.com';
	const hosts = (text: string, env: EnvironmentReadings) => {
		const file = parseRestFile(text);
		return [...new Set(requestDestinations(file, file.requests, withEnvironments(variableReadings(file), env, globalNames(file))).map((d) => d.host ?? '?'))].sort();
	};

	it('a variable the file does not define takes every environment\'s value', () => {
		const env = readHttpClientEnv(`{"dev": {"baseUrl": "${SERVICE}"}, "prod": {"baseUrl": "https://collector.example"}}`);
		assert.deepEqual(hosts('GET {{baseUrl}}/v1/Me\n', env), ['collector.example', 'user.telematicssdk.com']);
	});

	it('values that name other variables are followed', () => {
		const env = readHttpClientEnv('{"prod": {"host": "collector.example", "baseUrl": "https://{{host}}"}}');
		assert.deepEqual(hosts('GET {{baseUrl}}/v1/Me\n', env), ['collector.example']);
	});

	it('a definition in a global region wins, as in every client; one in a request\'s region does not hide the environments\' (httpYac scopes it)', () => {
		const env = readHttpClientEnv('{"prod": {"baseUrl": "https://collector.example"}}');
		assert.deepEqual(hosts(`@baseUrl = ${SERVICE}\n\n###\nGET {{baseUrl}}/v1/Me\n`, env), ['user.telematicssdk.com']);
		assert.deepEqual(hosts(`GET {{baseUrl}}/v1/Me\n\n###\n@baseUrl = ${SERVICE}\nGET {{baseUrl}}/v1/Other\n`, env), ['collector.example', 'user.telematicssdk.com']);
		assert.deepEqual(hosts(`### setup\n@baseUrl = ${SERVICE}\n\n###\nGET {{baseUrl}}/v1/Me\n`, env), ['collector.example', 'user.telematicssdk.com'], 'a region with a title is a named one, not global');
	});

	it('a value that is not a string anywhere in an environment: every reference to its name does not say, whatever string another environment gives it (issue 50)', () => {
		for (const odd of [{ url: 'https://collector.example' }, ['https://collector.example'], 443, true, null]) {
			const env = readHttpClientEnv(JSON.stringify({ $shared: { host: odd }, prod: { host: SERVICE } }));
			assert.deepEqual(hosts('GET {{host}}/v1/Me\n', env), ['?'], JSON.stringify(odd));
			assert.deepEqual(hosts(`GET {{host}}/v1/Me\n\n###\n@host = ${SERVICE}\nGET {{host}}/v1/Other\n`, env), ['?'], 'a definition in a request\'s region does not hide it');
			assert.deepEqual(hosts(`@host = ${SERVICE}\n\n###\nGET {{host}}/v1/Me\n`, env), ['user.telematicssdk.com'], 'a global definition wins, as in every client');
		}
		assert.deepEqual(hosts('GET {{host}}/v1/Me\n', readHttpClientEnv(JSON.stringify({ prod: { host: `https://${'a'.repeat(4096)}.example` }, dev: { host: SERVICE } }))), ['?'], 'a value longer than the check reads');
		assert.deepEqual(environmentsByHost(readHttpClientEnv(JSON.stringify({ prod: { host: { a: 1 } }, dev: { host: SERVICE } }))).get('user.telematicssdk.com'), ['dev'], 'the question names only the values read');
	});

	it('a request option is one by its name, whatever its value: null, an object, a number (issue 50)', () => {
		for (const odd of [null, { a: 1 }, 0, false, '']) {
			assert.equal(environmentsOutside(readHttpClientEnv(JSON.stringify({ $shared: { request_rejectUnauthorized: odd } }))), 'the environments set request_rejectUnauthorized', JSON.stringify(odd));
		}
		assert.equal(environmentsOutside(readHttpClientEnv(JSON.stringify({ $shared: { requestId: null } }))), undefined);
	});

	it('the names a file\'s {{…}} may read: every word in them, on every line, none outside them', () => {
		const file = parseRestFile('{{d}}\nGET {{base}}/v1/{{ a.b }}?q={{$processEnv HOME}}&r={{x-y}}{{\nHost: {{ host }} }} {{unclosed\n# {{c}}\n');
		assert.deepEqual([...referencedNames(file)].sort(), ['$processEnv', 'HOME', 'a.b', 'base', 'c', 'd', 'host', 'x-y']);
		assert.deepEqual([...referencedNames(parseRestFile('GET https://x/{p}/v1 {{}} }}{{\n'))], []);
	});

	it('a name no environment gives still does not say', () => {
		assert.deepEqual(hosts('GET {{baseUrl}}/v1/Me\n', readHttpClientEnv('{"prod": {"other": "x"}}')), ['?']);
	});
});

describe('environments: which ones send a request to a host (named in the question)', () => {
	const read = readHttpClientEnv(JSON.stringify({
		$shared: { api: 'https://user.telematicssdk.com' },
		dev: { baseUrl: 'http://localhost:3000' },
		prod: { baseUrl: 'https://collector.example/v1', other: 'collector.example' },
		stage: { baseUrl: 'collector.example', ref: '{{baseUrl}}' },
	}));
	readDotenv('baseUrl=https://collector.example\n', read, 'prod.env');

	const environmentsGiving = (readings: typeof read, host: string) => environmentsByHost(readings).get(host) ?? [];

	it('every environment with a URL or host on it, sorted, each once', () => {
		assert.deepEqual(environmentsGiving(read, 'collector.example'), ['prod', 'prod.env']);
		assert.deepEqual(environmentsGiving(read, 'http://collector.example'), ['prod', 'stage'], 'a bare host is sent over http');
		assert.deepEqual(environmentsGiving(read, 'http://localhost:3000'), ['dev']);
		assert.deepEqual(environmentsGiving(read, 'user.telematicssdk.com'), ['$shared']);
		assert.deepEqual([...environmentsByHost(read).keys()].sort(), ['collector.example', 'http://collector.example', 'http://localhost:3000', 'user.telematicssdk.com'], 'a value that references a variable gives no host');
		assert.deepEqual([...environmentsByHost(read, new Set(['api'])).keys()], ['user.telematicssdk.com'], 'only the names the file reads');
	});

	it('a host no value is on: none (a reference is not followed here)', () => {
		assert.deepEqual(environmentsGiving(read, 'relay.example'), []);
		assert.deepEqual(environmentsGiving(new Map(), 'collector.example'), []);
	});
});
