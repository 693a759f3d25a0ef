// The environments a REST file's clients may fill its variables from, as files of the opened folder (attacker
// input), read for the host check (core/restFile/environments.ts). Read: in the file's folder and each folder
// above it up to the workspace folder, and on up to the filesystem's root (httpYac looks for its root there
// too), and in each one's `env/` folder (httpYac reads `<folder>/env/` over
// `<folder>/`), `http-client.env.json`, `http-client.private.env.json` and every dotenv file (`.env`,
// `.env.prod`, `prod.env`, `.prod.env`: each name httpYac takes an environment from, by dotenv's own parser), and `.httpyac.json` holding only environments. Anything
// else that could decide where a request goes, through which proxy or with which certificate check is not
// modelled, so it makes the folder "not say" (`outside`): an httpYac configuration that is code or holds
// other settings, a package.json with an `httpyac` section or httpYac plugins, an environment file that is a
// link or too large, a folder deeper than the check looks, a request option (`request_proxy`) in an
// environment, more values than the check reads. Each file's reading is kept by its path, size and
// modification time, so a pass over an unchanged folder reads no file again. Node only, no `vscode`.
import { lstat, readdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { isObject } from '../core/restFile/envFiles';
import { environmentsOutside, MAX_ENVIRONMENT_FILE_CHARS, MAX_ENVIRONMENT_VALUES, readDotenv, readHttpClientEnv, readHttpyacJson, valueCount, type EnvironmentReadings } from '../core/restFile/environments';
import { readRegularFile } from './regularFile';

/** Folders looked in, from the file's up: at most this many (a file deeper below its workspace folder does not say). */
const MAX_FOLDERS = 8;
/** Most environment files read in all (each at most MAX_ENVIRONMENT_FILE_CHARS bytes). */
const MAX_FILES = 64;

/** httpYac's configuration files (utils/configUtils.ts, defaultConfigFiles): only a `.httpyac.json` of environments is read. */
const CONFIG = /^(\.httpyac(\.config)?|httpyac\.config)\.(c|m)?(j|t)s$|^httpyac\.config\.json$/;
/** What a `.httpyac.json` may hold for the check to read it completely. */
const READ_CONFIG_KEYS = new Set(['$schema', 'environments', 'log']);
/** An httpYac plugin package, as httpYac picks them from package.json (utils/configUtils.ts, isPlugin). */
const PLUGIN = /^(httpyac-|@[\w-]+(\.)?[\w-]+\/httpyac-)plugin-/;

/** What a file gives: its environments, or why the folder does not say. */
type Reading = EnvironmentReadings | string;
type Reader = (text: string) => Reading;

/** What JSON.parse gives for text that is not JSON: httpYac cannot read such a file either. */
const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return NOT_JSON;
	}
}

/** Why a package.json makes httpYac read what the check does not (an `httpyac` section, plugins), or undefined. */
function packageOutside(text: string): string | undefined {
	const json = parseJson(text);
	if (!isObject(json)) return undefined;
	if (Object.hasOwn(json, 'httpyac')) return 'an httpyac section in package.json';
	const dependencies = [json.dependencies, json.devDependencies].flatMap((d) => Object.keys(isObject(d) ? d : {}));
	return dependencies.some((d) => PLUGIN.test(d)) ? 'an httpYac plugin in package.json' : undefined;
}

/** Why a `.httpyac.json` holds more than environments, or undefined. */
function configOutside(text: string): string | undefined {
	const json = parseJson(text);
	if (json === NOT_JSON) return undefined;
	return isObject(json) && Object.keys(json).every((key) => READ_CONFIG_KEYS.has(key)) ? undefined : 'settings in .httpyac.json';
}

/**
 * How a file of that name is read, or undefined when it is none the check reads. Dotenv files as httpYac names
 * environments by them (`.env.<name>`, `<name>.env`, whatever `<name>` holds), and `.env`.
 */
function readerFor(name: string): Reader | undefined {
	if (name === 'http-client.env.json' || name === 'http-client.private.env.json') return (text) => readHttpClientEnv(text, new Map());
	if (name === '.httpyac.json') return (text) => configOutside(text) ?? readHttpyacJson(text, new Map());
	if (name === 'package.json') return (text) => packageOutside(text) ?? new Map();
	if (name.startsWith('.env.') || name.endsWith('.env')) return (text) => readDotenv(text, new Map(), name);
	return undefined;
}

/** What the folder's environments give, and why they do not say, if they do not. */
export interface FolderEnvironments {
	environments: EnvironmentReadings;
	outside?: string;
}

/** Each environment file's reading, by path and the stamp (size, modification time, inode) it was read at. */
const kept = new Map<string, { stamp: string; reading: Reading }>();
const MAX_KEPT = 256;

/** The reading of one file (`undefined`: none there); a link, one too large or not UTF-8 does not say. */
async function readingOf(folder: string, name: string, read: Reader): Promise<Reading | undefined> {
	const file = join(folder, name);
	const stat = await lstat(file).catch(() => undefined);
	// Stryker disable next-line ConditionalExpression: race
	if (!stat) return undefined; // removed since the folder was listed
	const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}:${stat.nlink}:${stat.isFile()}`;
	const cached = kept.get(file);
	if (cached?.stamp === stamp) return cached.reading;
	// A file this user may not read (EACCES) throws; the tests run as root, which reads every file.
	const result = await readRegularFile(file, MAX_ENVIRONMENT_FILE_CHARS).catch(() => undefined);
	// Stryker disable next-line ConditionalExpression,StringLiteral,OptionalChaining: race
	if (result?.kind === 'missing') return undefined; // removed since lstat
	// Stryker disable next-line OptionalChaining: unreachable
	const reading = result?.kind === 'text' ? read(result.text) : `${name}, which the check does not read (a link, too large or not text)`;
	if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
	kept.set(file, { stamp, reading });
	return reading;
}

/** The folders above `dir`, nearest first, up to the filesystem's root. */
function foldersAbove(dir: string): string[] {
	// Stryker disable next-line ArrayDeclaration: equivalent
	const above: string[] = []; // a name in it that is no folder is listed by no readdir
	for (let at = dir; dirname(at) !== at;) {
		at = dirname(at);
		above.push(at);
	}
	return above;
}

/**
 * The environments of the folders from `file`'s up to `root` (its workspace folder; undefined: a file in no
 * folder), and of every folder above those up to the filesystem's root: httpYac takes for its root the
 * nearest folder up to `/` with a configuration, else a package.json or an `env/`, and reads the env files
 * of every folder up to it, so a folder above the workspace may decide where a request goes. Read alike
 * (what is not read completely there makes the file not say), but not held to the workspace folder.
 */
export async function readFolderEnvironments(file: string, root: string | undefined, into: EnvironmentReadings = new Map()): Promise<FolderEnvironments> {
	const folders: string[] = [];
	let reachedRoot = false;
	for (let dir = dirname(file); folders.length < MAX_FOLDERS; dir = dirname(dir)) {
		folders.push(dir);
		const rel = root === undefined ? '' : relative(root, dir);
		if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
			reachedRoot = true;
			break;
		}
	}
	if (!reachedRoot) return { environments: new Map(), outside: 'the file is deeper below its workspace folder than the check looks' };
	let files = 0;
	const inside = new Set(folders);
	// The workspace folder as the system resolves it: it may be opened through a link (macOS's /tmp is one).
	const realRoot = root && (await realpath(root).catch(() => undefined));
	for (const dir of [...folders, ...foldersAbove(folders.at(-1)!)]) {
		for (const folder of [dir, join(dir, 'env')]) {
			const names = await readdir(folder).catch(() => undefined);
			if (names === undefined) continue;
			// A folder reached through a link that leads out of the workspace folder is not read: it does not say.
			if (root !== undefined && inside.has(dir)) {
				const leadsOut = { environments: new Map(), outside: 'a folder that leads out of the workspace folder' };
				const real = await realpath(folder).catch(() => undefined);
				// Either is gone since it was listed: a race with whoever removed it.
				// Stryker disable next-line ConditionalExpression,LogicalOperator: race
				if (real === undefined || realRoot === undefined) return leadsOut;
				if (real !== realRoot && !real.startsWith(realRoot + sep)) return leadsOut;
			}
			const config = names.find((name) => CONFIG.test(name));
			if (config) return { environments: new Map(), outside: `an httpYac configuration (${config})` };
			// By name, whatever order the system lists them in (libuv's readdir sorts them already).
			// Stryker disable next-line MethodExpression: equivalent
			for (const name of names.sort()) {
				const read = readerFor(name);
				if (!read) continue;
				if (++files > MAX_FILES) return { environments: new Map(), outside: 'more environment files than the check reads' };
				const reading = await readingOf(folder, name, read);
				// Stryker disable next-line ConditionalExpression: race
				if (reading === undefined) continue; // removed since the folder was listed
				if (typeof reading === 'string') return { environments: new Map(), outside: reading };
				for (const [variable, values] of reading) {
					const merged = into.get(variable) ?? into.set(variable, new Map()).get(variable)!;
					for (const [key, value] of values) merged.set(key, value);
				}
				// Stopped early to bound memory; the same check on all of them follows.
				// Stryker disable next-line ConditionalExpression: redundant
				if (valueCount(into) > MAX_ENVIRONMENT_VALUES) return { environments: new Map(), outside: 'the environments hold more values than the check reads' };
			}
		}
	}
	const outside = environmentsOutside(into);
	return outside ? { environments: new Map(), outside } : { environments: into };
}
