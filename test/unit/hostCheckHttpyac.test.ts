// The host check proved against the client that sends (issue 34): generated request targets, variable
// arrangements and header shapes are sent through httpYac's engine to two loopback servers, 127.0.0.1
// standing for the service and 127.0.0.2 for another host, and the host the client reached is compared
// with the host the check reads. The check may say "does not say" (and ask); it may never name a host
// the client did not go to.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import * as httpyac from 'httpyac';
import { countingServer, type CountingServer } from '../support/countingServer';
import { requestDestinations } from '../../src/core/restFile/requestHost';
import { parseRestFile } from '../../src/core/restFile/requestParser';

const SERVICE = '127.0.0.1';
const OTHER = '127.0.0.2';
const RUNS = 1000;

describe('the host check against httpYac\'s engine, on two loopback hosts (generated)', function () {
	this.timeout(300_000);
	let service: CountingServer;
	let other: CountingServer;
	let dir: string;

	let logLevel: httpyac.LogLevel | undefined;
	before(async () => {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		// httpYac prints every request it cannot send; what it reached is all this test reads.
		logLevel = httpyac.io.log.options.level;
		httpyac.io.log.options.level = httpyac.LogLevel.none;
		service = await countingServer(SERVICE);
		other = await countingServer(OTHER, service.port);
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-check-'));
	});
	after(async () => {
		httpyac.io.log.options.level = logLevel;
		await Promise.all([service.close(), other.close()]);
		fs.rmSync(dir, { recursive: true, force: true });
	});

	/** Sends the file's requests with httpYac; which hosts got one. */
	async function send(text: string): Promise<Set<string>> {
		const before = { service: service.hits(), other: other.hits() };
		const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(path.join(dir, 'generated.http'), async () => text, 0, { workingDir: dir });
		try {
			await httpyac.send({ httpFile, logResponse: async () => undefined, config: { request: { timeout: 2_000 } } } as never);
		} catch {
			// A target httpYac cannot send is a request that reached nobody.
		}
		const reached = new Set<string>();
		if (service.hits() > before.service) reached.add(SERVICE);
		if (other.hits() > before.other) reached.add(OTHER);
		return reached;
	}

	it(`names no host the client did not reach, in ${RUNS} generated files`, async () => {
		const port = service.port;
		const host = fc.constantFrom(SERVICE, OTHER, 'localhost');
		const authority = host.map((h) => `${h}:${port}`);
		const ws = fc.constantFrom(' ', '\t');
		// The ways a target can be written, each with the other host smuggled in where a client may read it.
		const target = fc.oneof(
			authority.map((a) => `http://${a}/p`),
			fc.tuple(authority, ws, authority).map(([a, w, b]) => `http://${a}${w}@${b}/p`),
			fc.tuple(authority, authority).map(([a, b]) => `http://${a}\\@${b}/p`),
			fc.tuple(authority, authority).map(([a, b]) => `http://${a}@${b}/p`),
			fc.constant('{{base}}/p'),
			fc.constant('http://{{hostVar}}/p'),
			fc.constant('/p'),
			authority.map((a) => `${a}/p`),
			fc.constant("{{ 'http://' + hostVar }}/p"),
		);
		const value = fc.oneof(authority.map((a) => `http://${a}`), authority);
		const definitions = fc.array(fc.tuple(fc.constantFrom('base', 'hostVar', 'base$'), value), { maxLength: 3 });
		const continuation = fc.option(authority.map((a) => `    &@${a}`), { nil: undefined });
		const hostHeader = fc.option(authority, { nil: undefined });
		const bodyDefinition = fc.option(fc.tuple(fc.constantFrom('base', 'hostVar'), value), { nil: undefined });
		const version = fc.boolean();

		let checked = 0;
		let reachedSomewhere = 0;
		let saidNothing = 0;
		await fc.assert(fc.asyncProperty(target, definitions, continuation, hostHeader, bodyDefinition, version, async (t, defs, cont, hostValue, bodyDef, withVersion) => {
			const lines = [
				...defs.map(([name, v]) => `@${name} = ${name === 'base' && !v.startsWith('http') ? `http://${v}` : v}`),
				'',
				'###',
				`GET ${t}${withVersion ? ' HTTP/1.1' : ''}`,
				...(cont ? [cont] : []),
				...(hostValue ? [`Host: ${hostValue}`] : []),
				...(bodyDef ? ['', `@${bodyDef[0]} = ${bodyDef[1]}`] : []),
				'',
			];
			const text = lines.join('\n');
			const file = parseRestFile(text);
			const hosts = requestDestinations(file, file.requests).map((d) => d.host);
			const reached = await send(text);
			checked++;
			if (reached.size) reachedSomewhere++;
			if (hosts.includes(undefined)) {
				saidNothing++;
				return; // the check asks: whatever the client does, the person decides
			}
			// A destination is a host (https on 443) or `scheme://host:port`: the host is what the servers tell apart.
			const named = new Set(hosts.map((h) => (h!.includes('://') ? new URL(h!).hostname : h!)).map((h) => (h === 'localhost' ? SERVICE : h)));
			for (const h of reached) assert.ok(named.has(h), `the check read ${[...named].join(', ')}, httpYac went to ${h}:\n${text}`);
		}), { numRuns: RUNS });
		assert.equal(checked, RUNS);
		assert.ok(reachedSomewhere > RUNS / 4, `httpYac reached a server in ${reachedSomewhere} of ${RUNS} files`);
		assert.ok(saidNothing < RUNS * 0.9, `the check said nothing for ${saidNothing} of ${RUNS} files`);
	});
});
