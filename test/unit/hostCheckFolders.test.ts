// The host check proved against httpYac on generated folders (issue 41): env files in every dotenv form, env/
// folders at any depth, nested configs (JSON and code), imports, metadata, scripts, request options, schemes
// and ports. Each folder's file is sent by httpYac's engine, in-process, to a service on 127.0.0.1 and another
// site on an address the product counts neither as loopback nor as the service (this machine's own non-loopback
// address; where it has none, another port of 127.0.0.1, which is another site too). The check may say "does not
// say"; where it says, it never stays silent about the other site httpYac reached, and never names only the
// other site where httpYac reached the service. A fixed seed in npm test; TELEMATICS_HOST_FOLDER_RUNS sets more (TELEMATICS_HOST_FOLDER_SEED another seed).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import * as httpyac from 'httpyac';
import { countingServer, type CountingServer } from '../support/countingServer';
import { withEnvironments } from '../../src/core/restFile/environments';
import { isSameSite, requestDestinations, variableReadings } from '../../src/core/restFile/requestHost';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { globalNames } from '../../src/core/restFile/requestShape';
import { readFolderEnvironments } from '../../src/system/folderEnvironments';

const RUNS = Number(process.env.TELEMATICS_HOST_FOLDER_RUNS ?? 150);
const SEED = Number(process.env.TELEMATICS_HOST_FOLDER_SEED ?? 41);

/**
 * The other site: another loopback address on the service's port (traffic never leaves this machine), which
 * the check must tell from the service's own address.
 */
const OTHER_ADDRESS = '127.0.0.2';

interface Spec {
	/** Where the REST file sits, below the workspace folder. */
	depth: number;
	/** Env files: [folder depth, in env/, dotenv form, value]. */
	envFiles: Array<[number, boolean, number, number]>;
	/** A config at some depth: none, .httpyac.json of environments, with a proxy, with envDirName, package.json section, JS config. */
	config: [number, number, number];
	/** The request's target form and value. */
	target: [number, number];
	/** A definition of host: none, global, in the second request's region, `@host value` (httpYac's other form). */
	definition: [number, number];
	/** Something that can move the request: none, an import, a global script, @proxy, @request_proxy, a hook. */
	mover: [number, number];
	/** Harmless metadata on the request. */
	metadata: number;
}

const spec: fc.Arbitrary<Spec> = fc.record({
	depth: fc.integer({ min: 0, max: 3 }),
	envFiles: fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean(), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 4 }),
	config: fc.tuple(fc.integer({ min: 0, max: 12 }).map((n) => (n > 6 ? 0 : n)), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })),
	target: fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 })),
	definition: fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })),
	mover: fc.tuple(fc.integer({ min: 0, max: 11 }).map((n) => (n > 5 ? 0 : n)), fc.integer({ min: 0, max: 3 })),
	metadata: fc.integer({ min: 0, max: 3 }),
});

describe('the host check against httpYac\'s engine, on generated folders (issue 41)', function () {
	this.timeout(600_000);
	let service: CountingServer;
	let other: CountingServer;
	let otherHost: string;
	let base: string;
	let logLevel: httpyac.LogLevel | undefined;
	const noise = { log: console.log, info: console.info };

	before(async () => {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		logLevel = httpyac.io.log.options.level;
		httpyac.io.log.options.level = httpyac.LogLevel.none;
		service = await countingServer('127.0.0.1');
		other = await countingServer(OTHER_ADDRESS, service.port);
		otherHost = OTHER_ADDRESS;
		base = fs.mkdtempSync(path.join(os.tmpdir(), 'host-folders-'));
		// httpYac prints requests it cannot send; what it reached is all this test reads.
		console.log = () => undefined;
		console.info = () => undefined;
	});
	after(async () => {
		Object.assign(console, noise);
		httpyac.io.log.options.level = logLevel;
		await Promise.all([service.close(), other.close()]);
		fs.rmSync(base, { recursive: true, force: true });
	});

	it(`never silent where httpYac reached the other site, never only the other site where it reached the service (${RUNS} folders, seed ${SEED})`, async () => {
		const serviceUrl = `http://127.0.0.1:${service.port}`;
		const otherUrl = `http://${otherHost}:${other.port}`;
		/** The values a generated spot takes: the service or the other site, as a URL or an authority. */
		const url = (v: number) => [serviceUrl, otherUrl, `https://127.0.0.1:${service.port}`, `http://${otherHost}:${service.port === other.port ? other.port : other.port}`][v % 4]!;
		const authority = (v: number) => [`127.0.0.1:${service.port}`, `${otherHost}:${other.port}`][v % 2]!;
		const dotenvLine = (form: number, value: string) => [
			`host=${value}`, `host: ${value}`, `export host=${value}`, `host="${value}"`, `host='${value}'`, `host=${value} # note`,
			`x="open\nhost=${value}`, `host=${serviceUrl}\nhost=${value}`, `  host = ${value}  `,
		][form]!;
		let folders = 0;
		let said = 0;
		let reachedOther = 0;
		await fc.assert(fc.asyncProperty(spec, async (s) => {
			const root = path.join(base, `f${folders++}`);
			const dirs = Array.from({ length: s.depth + 1 }, (_, i) => path.join(root, ...Array.from({ length: i }, (__, j) => `d${j}`)));
			fs.mkdirSync(dirs[s.depth]!, { recursive: true });
			const write = (file: string, text: string) => {
				fs.mkdirSync(path.dirname(file), { recursive: true });
				fs.appendFileSync(file, text + '\n');
			};
			for (const [depth, inEnv, form, value] of s.envFiles) write(path.join(dirs[Math.min(depth, s.depth)]!, ...(inEnv ? ['env'] : []), '.env'), dotenvLine(form, url(value)));
			const [config, configDepth, configValue] = s.config;
			const configDir = dirs[Math.min(configDepth, s.depth)]!;
			if (config === 1) write(path.join(configDir, '.httpyac.json'), JSON.stringify({ environments: { $shared: { host: url(configValue) } } }));
			if (config === 2) write(path.join(configDir, '.httpyac.json'), JSON.stringify({ proxy: otherUrl }));
			if (config === 3) {
				write(path.join(configDir, '.httpyac.json'), JSON.stringify({ envDirName: 'secrets' }));
				write(path.join(configDir, 'secrets', '.env'), `host=${url(configValue)}`);
			}
			if (config === 4) write(path.join(configDir, 'package.json'), JSON.stringify({ name: 'x', httpyac: { environments: { $shared: { host: url(configValue) } } } }));
			if (config === 5) write(path.join(configDir, '.httpyac.config.js'), `module.exports = { environments: { $shared: { host: ${JSON.stringify(url(configValue))} } } };`);
			if (config === 6) write(path.join(configDir, 'package.json'), JSON.stringify({ name: 'x' }));
			const [form, value] = s.target;
			const target = [`{{host}}/p`, `http://{{h}}/p`, `${url(value)}/p`, `http://${authority(value)}/p`, `${authority(value)}/p`][form]!;
			const [definition, definitionValue] = s.definition;
			const [mover, moverValue] = s.mover;
			const global: string[] = [];
			const first: string[] = [];
			if (definition === 1) global.push(`@host = ${url(definitionValue)}`, `@h = ${authority(definitionValue)}`);
			if (definition === 3) first.push(`@host ${url(definitionValue)}`);
			if (mover === 1) {
				write(path.join(dirs[s.depth]!, 'other.http'), `@host = ${url(moverValue)}\n@h = ${authority(moverValue)}`);
				global.push('# @import ./other.http');
			}
			if (mover === 2) global.push('{{', `  exports.host = ${JSON.stringify(url(moverValue))};`, `  exports.h = ${JSON.stringify(authority(moverValue))};`, '}}');
			if (mover === 3) first.push(`# @proxy ${otherUrl}`);
			if (mover === 4) global.push(`@request_proxy = ${otherUrl}`);
			if (mover === 5) global.push('{{@request', `  request.url = ${JSON.stringify(`${url(moverValue)}/hooked`)};`, '}}');
			first.push(['', '# @name first', '# @no-log', '# @timeout 2000'][s.metadata]!);
			const text = [
				...global, '',
				'###', ...first.filter((l) => l !== ''), `GET ${target}`, '',
				'###', ...(definition === 2 ? [`@host = ${url(definitionValue)}`, `@h = ${authority(definitionValue)}`] : []), `GET ${target}`, '',
			].join('\n');
			const httpPath = path.join(dirs[s.depth]!, 'requests.http');
			fs.writeFileSync(httpPath, text);

			// The check, as the extension runs it.
			const { environments, outside } = await readFolderEnvironments(httpPath, root);
			const file = parseRestFile(text);
			const variables = withEnvironments(variableReadings(file), environments, globalNames(file));
			const hosts = requestDestinations(file, file.requests, variables, outside).map((d) => d.host);

			// httpYac, sending every request of the file.
			const before = { service: service.hits(), other: other.hits() };
			const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(httpPath, async () => text, 0, { workingDir: root });
			try {
				await httpyac.send({ httpFile, logResponse: async () => undefined, config: { request: { timeout: 2_000 } } } as never);
			} catch {
				// a target httpYac cannot send reached nobody
			}
			const reached = { service: service.hits() > before.service, other: other.hits() > before.other };
			if (reached.other) reachedOther++;
			if (hosts.includes(undefined)) return; // the check asks: whatever httpYac does, the person decides
			said++;
			const same = await Promise.all(hosts.map((h) => isSameSite(h!, serviceUrl)));
			const where = `${text}\n(folder: ${JSON.stringify(s)}; the check read ${hosts.join(', ')})`;
			if (reached.other) assert.ok(same.includes(false), `httpYac reached the other site, the check said only the service:\n${where}`);
			if (reached.service) assert.ok(same.includes(true), `httpYac reached the service, the check named only other sites:\n${where}`);
		}), { numRuns: RUNS, seed: SEED });
		console.info = noise.info;
		console.info(`      the check said where ${said} of ${RUNS} folders go; httpYac reached the other site from ${reachedOther}`);
		assert.ok(said > RUNS / 5 && said < RUNS, `the check said where ${said} of ${RUNS} folders go`);
		assert.ok(reachedOther > RUNS / 10, `httpYac reached the other site from ${reachedOther} of ${RUNS} folders`);
	});
});
