// The host check proved against httpYac on generated folders (issues 41 and 50): env files in every dotenv form,
// env/ folders at any depth, nested configs (JSON and code), imports, metadata, scripts, request options, schemes
// and ports; environment values of every JSON type at every level, dotted and bracketed references, separators
// after whitespace and with titles, empty definitions, and configs and env files in the folders above the
// workspace folder (which the test nests in generated parents). Each request of each folder's file is sent alone,
// as a person sends it, by httpYac's engine, in-process, to a service on 127.0.0.1, another site on 127.0.0.2, and
// an impostor on 127.0.0.1 whose certificate no one trusts (reached only with the certificate check off). The
// check may say "does not say"; where it says, it never stays silent about the other site or the impostor
// httpYac reached, and never names only other sites where httpYac reached the service. A fixed seed in npm test;
// TELEMATICS_HOST_FOLDER_RUNS sets more (TELEMATICS_HOST_FOLDER_SEED another seed).
//
// Which arbitrary covers which shape of issue 50's review (each found on the code before its fix; the seeds and
// shrunk cases are in the commit that added them):
// - objects and dotted names: `config` 1 and 4 (a dotted target name's value as an object in `$shared`, the
//   dotted name as one key in `dev`) and `jsonEnvironments` (values of every JSON type at every level), with
//   the target forms `{{svc.url}}`, `{{svc["url"]}}`, `http://{{svc.h}}`;
// - configuration above the workspace folder: `parents` (how many folders hold the workspace folder) and the
//   `place` of `config`, `envFiles` and `jsonConfig`, which reaches into them;
// - indented separators: `separators` (each `###` after spaces or a tab, with a title or not), also heading
//   the definitions' own region (`definition` 4);
// - empty definitions: `empties` (`@name =`, `@name =   `) and the empty prefix (`prefix(0)`) a definition
//   gives the target form `http://{{pre}}<service>/p`;
// - request options of any value: `config`'s option (`request_rejectUnauthorized`: null, {}, [], 0, false,
//   '', true, a URL) and `jsonEnvironments`' request options, with targets on the impostor (`spot` 2).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import * as fc from 'fast-check';
import * as httpyac from 'httpyac';
import { countingServer, type CountingServer } from '../support/countingServer';
import { withEnvironments } from '../../src/core/restFile/environments';
import { isSameSite, requestDestinations, variableReadings } from '../../src/core/restFile/requestHost';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { globalNames } from '../../src/core/restFile/requestShape';
import { readFolderEnvironments } from '../../src/system/folderEnvironments';

const RUNS = Number(process.env.TELEMATICS_HOST_FOLDER_RUNS ?? 200);
const SEED = Number(process.env.TELEMATICS_HOST_FOLDER_SEED ?? 41);

/**
 * The other site: another loopback address on the service's port (traffic never leaves this machine), which
 * the check must tell from the service's own address.
 */
const OTHER_ADDRESS = '127.0.0.2';

/**
 * A JSON value of an environment, its strings as tokens the test fills in once it knows its servers' ports:
 * `U<n>` a URL (url(n)), `A<n>` an authority, `P<n>` a prefix of an authority (`P0` empty: the service's own).
 */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
const token = fc.constantFrom('U0', 'U1', 'U2', 'A0', 'A1', 'P0', 'P1');
const leaf: fc.Arbitrary<Json> = fc.oneof(token, fc.constantFrom<Json>(null, true, false, 0, 1, 8080, ''));
const json: fc.Arbitrary<Json> = fc.letrec<{ node: Json }>((tie) => ({
	node: fc.oneof({ depthSize: 'small', maxDepth: 3 },
		{ arbitrary: leaf, weight: 3 },
		{ arbitrary: fc.array(tie('node'), { maxLength: 2 }), weight: 1 },
		{ arbitrary: fc.dictionary(fc.constantFrom('url', 'h', 'host'), tie('node'), { maxKeys: 2 }), weight: 2 }),
})).node;
/** Names an environment gives: `T` the name the request's target reads, `T0` its first dotted part (`svc` for `svc.url`), request options. */
const variableName = fc.oneof(
	{ arbitrary: fc.constant('T'), weight: 4 },
	{ arbitrary: fc.constant('T0'), weight: 2 },
	{ arbitrary: fc.constantFrom('host', 'svc', 'svc.url', 'pre'), weight: 2 },
	{ arbitrary: fc.constantFrom('request_rejectUnauthorized', 'request_rejectUnauthorized', 'request_proxy', 'request_noRedirect'), weight: 1 },
);
/** Environments of a JSON file: each a dictionary of variables, or (rarely) a value of another type. */
const jsonEnvironments = fc.dictionary(fc.constantFrom('$shared', 'dev'), fc.oneof(
	{ arbitrary: fc.dictionary(variableName, json, { minKeys: 1, maxKeys: 3 }), weight: 6 },
	{ arbitrary: leaf, weight: 1 },
), { minKeys: 1, maxKeys: 2 });

interface Spec {
	/** How many folders the test nests the workspace folder in (httpYac looks up to the filesystem's root). */
	parents: number;
	/** Where the REST file sits, below the workspace folder. */
	depth: number;
	/** Env files: [folder (parents first, then the workspace folder and down), in env/, dotenv form, value, name (0: the target's)]. */
	envFiles: Array<[number, boolean, number, number, number]>;
	/**
	 * A config in a folder: none, .httpyac.json of environments, with a proxy, with envDirName, package.json section,
	 * JS config, a bare package.json; its value in `$shared` (an object for a dotted name), another in `dev`
	 * (the dotted name as one key), and a request option of any JSON value in `$shared`.
	 */
	config: [number, number, number, number, Json | undefined];
	/** A JSON file of generated environments in a folder: none, http-client.env.json, .httpyac.json, package.json's httpyac section, http-client.private.env.json. */
	jsonConfig: [number, number];
	jsonEnvironments: Record<string, Json>;
	/** The request's target form, and the value of each of the two requests. */
	target: [number, number, number];
	/** A definition of the target's name: none, global, in the second request's region, `@host value`, a region of its own (after the generated separator). */
	definition: [number, number];
	/** The form of each separator: before the definitions' own region, before the first request, before the second. */
	separators: [number, number, number];
	/** Empty definitions: [region (0 global, 1 the first request's, 2 the second's), name (0: the target's), blank after `=`]. */
	empties: Array<[number, number, boolean]>;
	/** Something that can move the request: none, an import, a global script, @proxy, @request_proxy, a hook. */
	mover: [number, number];
	/** Harmless metadata on the request. */
	metadata: number;
}

/** Where a generated place is: up to 2 parents, the workspace folder, up to 3 below it. */
const place = fc.noBias(fc.integer({ min: 0, max: 5 }));
/** Which value a spot takes (url(n), authority(n), prefix(n)): 0 the service, 1 and 3 the other site, 2 the impostor, 4 https on the service's (http) port. */
const spot = fc.noBias(fc.integer({ min: 0, max: 4 }));
const spec: fc.Arbitrary<Spec> = fc.record({
	parents: fc.noBias(fc.integer({ min: 0, max: 2 })),
	depth: fc.integer({ min: 0, max: 3 }),
	envFiles: fc.array(fc.tuple(place, fc.boolean(), fc.integer({ min: 0, max: 8 }), spot, fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 4 }),
	config: fc.tuple(fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.constant(1), weight: 3 }, { arbitrary: fc.constant(6), weight: 1 }, { arbitrary: fc.constantFrom(2, 3, 4, 5), weight: 2 }), place, spot, spot,
		fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: fc.constantFrom<Json>(null, {}, [], null, 0, false, '', 'U1'), weight: 1 })),
	jsonConfig: fc.tuple(fc.constantFrom(0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4), place),
	jsonEnvironments,
	target: fc.tuple(fc.noBias(fc.integer({ min: 0, max: 9 })), spot, spot),
	definition: fc.tuple(fc.noBias(fc.integer({ min: 0, max: 4 })), spot),
	separators: fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 })),
	empties: fc.oneof({ arbitrary: fc.constant<Array<[number, number, boolean]>>([]), weight: 2 }, { arbitrary: fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 3 }), fc.boolean()), { minLength: 1, maxLength: 2 }), weight: 1 }),
	mover: fc.tuple(fc.integer({ min: 0, max: 11 }).map((n) => (n > 5 ? 0 : n)), fc.integer({ min: 0, max: 4 })),
	metadata: fc.integer({ min: 0, max: 3 }),
});

/** httpYac's separators: `###` or more, after whitespace or not, with a title or not. */
const SEPARATORS = ['###', '  ###', '\t###', '### setup', '  ### setup', '\t###setup', '####', ' #### x'];
/** Each target form: its text (`S` the value's spot) and the name it reads (`host` for a literal target). */
const TARGETS: Array<[string, string]> = [
	['{{host}}/p', 'host'], ['http://{{h}}/p', 'h'], ['URL/p', 'host'], ['http://AUTH/p', 'host'], ['AUTH/p', 'host'],
	['{{svc.url}}/p', 'svc.url'], ['{{svc["url"]}}/p', 'svc.url'], ['http://{{svc.h}}/p', 'svc.h'],
	['http://{{pre}}SERVICE/p', 'pre'], ['http://{{pre}}SERVICE/p', 'pre'],
];
const NAMES = ['host', 'h', 'pre', 'svc.url', 'svc.h'];

describe('the host check against httpYac\'s engine, on generated folders (issues 41 and 50)', function () {
	this.timeout(600_000);
	let service: CountingServer;
	let other: CountingServer;
	let impostor: https.Server;
	let impostorHits = 0;
	let base: string;
	let logLevel: httpyac.LogLevel | undefined;
	const noise = { log: console.log, info: console.info, warn: console.warn, error: console.error };

	before(async () => {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		logLevel = httpyac.io.log.options.level;
		httpyac.io.log.options.level = httpyac.LogLevel.none;
		service = await countingServer('127.0.0.1');
		other = await countingServer(OTHER_ADDRESS, service.port);
		base = fs.mkdtempSync(path.join(os.tmpdir(), 'host-folders-'));
		// The impostor: a certificate for 127.0.0.1 that no one trusts (self-signed; an EC key is made in milliseconds).
		const [key, cert] = [path.join(base, 'impostor.key'), path.join(base, 'impostor.pem')];
		execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=impostor', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
		impostor = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (_req, res) => {
			impostorHits++;
			res.writeHead(204).end();
		});
		await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', () => resolve()));
		// httpYac prints requests it cannot send; what it reached is all this test reads.
		console.log = () => undefined;
		console.info = () => undefined;
		console.warn = () => undefined;
		console.error = () => undefined;
	});
	after(async () => {
		Object.assign(console, noise);
		httpyac.io.log.options.level = logLevel;
		await Promise.all([service.close(), other.close(), new Promise<void>((resolve) => impostor.close(() => resolve()))]);
		fs.rmSync(base, { recursive: true, force: true });
	});

	it(`never silent where httpYac reached the other site or an impostor, never only other sites where it reached the service (${RUNS} folders, seed ${SEED})`, async () => {
		const serviceUrl = `http://127.0.0.1:${service.port}`;
		const otherUrl = `http://${OTHER_ADDRESS}:${other.port}`;
		/** The impostor stands on an address the check counts as the service's (a platform host of the account). */
		const impostorUrl = `https://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
		/** The values a generated spot takes: the service or the other site, as a URL, an authority or an authority's prefix. */
		const url = (v: number) => [serviceUrl, otherUrl, impostorUrl, `http://${OTHER_ADDRESS}:${other.port}`, `https://127.0.0.1:${service.port}`][v % 5]!;
		const authority = (v: number) => [`127.0.0.1:${service.port}`, `${OTHER_ADDRESS}:${other.port}`][v % 2]!;
		const prefix = (v: number) => ['', `${OTHER_ADDRESS}:${other.port}/`][v % 2]!;
		/** A value for `name`, of the kind its spot in the target wants. */
		const valueFor = (name: string, v: number) => (name === 'pre' ? prefix(v) : name === 'h' || name.endsWith('.h') ? authority(v) : url(v));
		const fill = (value: Json): Json => {
			if (typeof value === 'string') return ({ U: url, A: authority, P: prefix } as Record<string, (v: number) => string>)[value[0]!]?.(Number(value.slice(1))) ?? value;
			if (Array.isArray(value)) return value.map(fill);
			if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
			return value;
		};
		const dotenvLine = (form: number, name: string, value: string) => [
			`${name}=${value}`, `${name}: ${value}`, `export ${name}=${value}`, `${name}="${value}"`, `${name}='${value}'`, `${name}=${value} # note`,
			`x="open\n${name}=${value}`, `${name}=${valueFor(name, 0)}\n${name}=${value}`, `  ${name} = ${value}  `,
		][form]!;
		let folders = 0;
		let said = 0;
		let reachedOther = 0;
		await fc.assert(fc.asyncProperty(spec, async (s) => {
			const top = path.join(base, `f${folders++}`);
			const parents = Array.from({ length: s.parents }, (_, i) => path.join(top, ...Array.from({ length: i }, (__, j) => `p${j}`)));
			const root = path.join(top, ...Array.from({ length: s.parents }, (_, j) => `p${j}`));
			const dirs = Array.from({ length: s.depth + 1 }, (_, i) => path.join(root, ...Array.from({ length: i }, (__, j) => `d${j}`)));
			/** The folder at a generated place: the parents (outermost first), then the workspace folder and down to the file's. */
			const at = (n: number) => {
				const all = [...parents, ...dirs];
				return all[Math.min(n + parents.length - 2, all.length - 1)] ?? all[0]!;
			};
			fs.mkdirSync(dirs[s.depth]!, { recursive: true });
			const write = (file: string, text: string) => {
				fs.mkdirSync(path.dirname(file), { recursive: true });
				fs.appendFileSync(file, text + '\n');
			};
			const [form, value, value2] = s.target;
			const [targetText, targetName] = TARGETS[form]!;
			const nameOf = (n: number) => (n === 0 ? targetName : NAMES[n % NAMES.length]!);
			for (const [where, inEnv, dotenvForm, v, name] of s.envFiles) write(path.join(at(where), ...(inEnv ? ['env'] : []), '.env'), dotenvLine(dotenvForm, nameOf(name), valueFor(nameOf(name), v)));
			const [config, configPlace, configValue, devValue, option] = s.config;
			const configDir = at(configPlace);
			const [head, tail] = targetName.split('.');
			const configEnvironments = {
				$shared: { [head!]: tail ? { [tail]: valueFor(targetName, configValue) } : valueFor(targetName, configValue), ...(option !== undefined && { request_rejectUnauthorized: fill(option) }) },
				dev: { [targetName]: valueFor(targetName, devValue) },
			};
			if (config === 1) write(path.join(configDir, '.httpyac.json'), JSON.stringify({ environments: configEnvironments }));
			if (config === 2) write(path.join(configDir, '.httpyac.json'), JSON.stringify({ proxy: otherUrl }));
			if (config === 3) {
				write(path.join(configDir, '.httpyac.json'), JSON.stringify({ envDirName: 'secrets' }));
				write(path.join(configDir, 'secrets', '.env'), `${targetName}=${valueFor(targetName, configValue)}`);
			}
			if (config === 4) write(path.join(configDir, 'package.json'), JSON.stringify({ name: 'x', httpyac: { environments: configEnvironments } }));
			if (config === 5) write(path.join(configDir, '.httpyac.config.js'), `module.exports = { environments: { $shared: { ${JSON.stringify(targetName)}: ${JSON.stringify(valueFor(targetName, configValue))} } } };`);
			if (config === 6) write(path.join(configDir, 'package.json'), JSON.stringify({ name: 'x' }));
			const [jsonConfig, jsonPlace] = s.jsonConfig;
			const environments = Object.fromEntries(Object.entries(s.jsonEnvironments).map(([env, variables]) => [env,
				variables !== null && typeof variables === 'object' && !Array.isArray(variables)
					? Object.fromEntries(Object.entries(variables).map(([name, v]) => [name === 'T' ? targetName : name === 'T0' ? targetName.split('.')[0]! : name, fill(v)]))
					: fill(variables)]));
			const jsonFile = ['', 'http-client.env.json', '.httpyac.json', 'package.json', 'http-client.private.env.json'][jsonConfig]!;
			if (jsonFile) {
				const file = path.join(at(jsonPlace), jsonFile);
				if (!fs.existsSync(file)) fs.writeFileSync(file, JSON.stringify(jsonConfig === 2 ? { environments } : jsonConfig === 3 ? { name: 'x', httpyac: { environments } } : environments));
			}
			const fillTarget = (v: number) => targetText.replace('URL', url(v)).replace('AUTH', authority(v)).replace('SERVICE', authority(0));
			const [definition, definitionValue] = s.definition;
			const [mover, moverValue] = s.mover;
			const defines = (v: number) => [`@${targetName} = ${valueFor(targetName, v)}`, ...(targetName === 'host' ? [`@h = ${authority(v)}`] : [])];
			const global: string[] = [];
			const own: string[] = [];
			const first: string[] = [];
			const second: string[] = [];
			if (definition === 1) global.push(...defines(definitionValue));
			if (definition === 2) second.push(...defines(definitionValue));
			if (definition === 3) first.push(`@${targetName} ${valueFor(targetName, definitionValue)}`);
			if (definition === 4) own.push(SEPARATORS[s.separators[0]]!, ...defines(definitionValue), '');
			for (const [region, name, blank] of s.empties) [global, first, second][region]!.push(`@${nameOf(name)} =${blank ? '   ' : ''}`);
			if (mover === 1) {
				write(path.join(dirs[s.depth]!, 'other.http'), defines(moverValue).join('\n'));
				global.push('# @import ./other.http');
			}
			if (mover === 2) global.push('{{', `  exports[${JSON.stringify(targetName)}] = ${JSON.stringify(valueFor(targetName, moverValue))};`, '}}');
			if (mover === 3) first.push(`# @proxy ${otherUrl}`);
			if (mover === 4) global.push(`@request_proxy = ${otherUrl}`);
			if (mover === 5) global.push('{{@request', `  request.url = ${JSON.stringify(`${url(moverValue)}/hooked`)};`, '}}');
			first.push(['', '# @name first', '# @no-log', '# @timeout 2000'][s.metadata]!);
			const text = [
				...global, '', ...own,
				SEPARATORS[s.separators[1]]!, ...first.filter((l) => l !== ''), `GET ${fillTarget(value)}`, '',
				SEPARATORS[s.separators[2]]!, ...second, `GET ${fillTarget(value2)}`, '',
			].join('\n');
			const httpPath = path.join(dirs[s.depth]!, 'requests.http');
			fs.writeFileSync(httpPath, text);

			// The check, as the extension runs it.
			const { environments: read, outside } = await readFolderEnvironments(httpPath, root);
			const file = parseRestFile(text);
			const variables = withEnvironments(variableReadings(file), read, globalNames(file));
			const hosts = requestDestinations(file, file.requests, variables, outside).map((d) => d.host);

			// httpYac, sending each request of the file alone, as a person sends it from the editor.
			const before = { service: service.hits(), other: other.hits(), impostor: impostorHits };
			try {
				const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(httpPath, async () => text, 0, { workingDir: root });
				for (const httpRegion of httpFile.httpRegions.filter((r) => r.request)) {
					try {
						await httpyac.send({ httpFile, httpRegion, logResponse: async () => undefined, config: { request: { timeout: 2_000 } } } as never);
					} catch {
						// a target httpYac cannot send reached nobody
					} finally {
						await httpyac.store.userSessionStore.reset();
					}
				}
			} catch {
				// a folder httpYac cannot read sends nothing
			}
			const reached = { service: service.hits() > before.service, other: other.hits() > before.other || impostorHits > before.impostor };
			if (reached.other) reachedOther++;
			if (hosts.includes(undefined)) return; // the check asks: whatever httpYac does, the person decides
			said++;
			const same = await Promise.all(hosts.map((h) => isSameSite(h!, serviceUrl, [impostorUrl])));
			const where = `${text}\n(folder: ${JSON.stringify(s)}; the check read ${hosts.join(', ')})`;
			if (reached.other) assert.ok(same.includes(false), `httpYac reached the other site or the impostor, the check said only the service:\n${where}`);
			if (reached.service) assert.ok(same.includes(true), `httpYac reached the service, the check named only other sites:\n${where}`);
		}), { numRuns: RUNS, seed: SEED });
		console.info = noise.info;
		console.info(`      the check said where ${said} of ${RUNS} folders go; httpYac reached the other site from ${reachedOther}`);
		assert.ok(said > RUNS / 8 && said < RUNS, `the check said where ${said} of ${RUNS} folders go`);
		assert.ok(reachedOther > RUNS / 10, `httpYac reached the other site from ${reachedOther} of ${RUNS} folders`);
	});
});
