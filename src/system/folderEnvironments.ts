// The environments a REST file's clients may fill its variables from, as files of the opened folder (attacker
// input), read for the host check (core/restFile/environments.ts). Read: in the file's folder and each folder
// above it up to the workspace folder, and on up to the filesystem's root (httpYac looks for its root there
// too), and in each one's `env/` folder (httpYac reads `<folder>/env/` over
// `<folder>/`), `http-client.env.json`, `http-client.private.env.json` and every dotenv file (`.env`,
// `.env.prod`, `prod.env`, by dotenv's own parser), and `.httpyac.json` holding only environments. Anything
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

/** How a file of that name is read, or undefined when it is not an environment file. */
function readerFor(name: string): ((text: string, into: EnvironmentReadings) => EnvironmentReadings) | undefined {
	if (name === 'http-client.env.json' || name === 'http-client.private.env.json') return readHttpClientEnv;
	if (name === '.httpyac.json') return readHttpyacJson;
	if (/^\.env(\..+)?$/.test(name) || /^[^.].*\.env$/.test(name)) return (text, into) => readDotenv(text, into, name);
	return undefined;
}

/** httpYac's configuration files (utils/configUtils.ts, defaultConfigFiles): only a `.httpyac.json` of environments is read. */
const CONFIG = /^(\.httpyac(\.config)?|httpyac\.config)\.(c|m)?(j|t)s$|^httpyac\.config\.json$/;
/** What a `.httpyac.json` may hold for the check to read it completely. */
const READ_CONFIG_KEYS = new Set(['$schema', 'environments', 'log']);
/** An httpYac plugin package, as httpYac picks them from package.json (utils/configUtils.ts, isPlugin). */
const PLUGIN = /^(httpyac-|@[\w-]+(\.)?[\w-]+\/httpyac-)plugin-/;

/** What the folder's environments give, and why they do not say, if they do not. */
export interface FolderEnvironments {
	environments: EnvironmentReadings;
	outside?: string;
}

/** Each environment file's reading, by path and the stamp (size, modification time, inode) it was read at. */
const kept = new Map<string, { stamp: string; reading: EnvironmentReadings | 'unread'; text?: string }>();
const MAX_KEPT = 256;

/** The reading of one file (`undefined`: none there; `'unread'`: there, but a link, too large, not UTF-8). */
async function readingOf(file: string, read: (text: string, into: EnvironmentReadings) => EnvironmentReadings, keepText: boolean): Promise<{ reading: EnvironmentReadings | 'unread'; text?: string } | undefined> {
	const stat = await lstat(file).catch(() => undefined);
	if (!stat) return undefined;
	const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}:${stat.nlink}:${stat.isFile()}`;
	const cached = kept.get(file);
	if (cached?.stamp === stamp) return cached;
	const result = await readRegularFile(file, MAX_ENVIRONMENT_FILE_CHARS).catch(() => undefined);
	const entry = result?.kind === 'text' ? { stamp, reading: read(result.text, new Map()), ...(keepText && { text: result.text }) } : { stamp, reading: 'unread' as const };
	if (result?.kind === 'missing') return undefined;
	if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
	kept.set(file, entry);
	return entry;
}

/** Why a package.json makes httpYac read what the check does not (an `httpyac` section, plugins), or undefined. */
function packageOutside(text: string | undefined): string | undefined {
	if (text === undefined) return 'a package.json the check does not read';
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return undefined; // httpYac cannot read it either
	}
	if (!isObject(json)) return undefined;
	if (Object.hasOwn(json, 'httpyac')) return 'an httpyac section in package.json';
	const dependencies = [json.dependencies, json.devDependencies].flatMap((d) => (isObject(d) ? Object.keys(d) : []));
	return dependencies.some((d) => PLUGIN.test(d)) ? 'an httpYac plugin in package.json' : undefined;
}

/** Why a `.httpyac.json` holds more than environments, or undefined. */
function configOutside(text: string | undefined): string | undefined {
	if (text === undefined) return 'a .httpyac.json the check does not read';
	try {
		const json: unknown = JSON.parse(text);
		return isObject(json) && Object.keys(json).every((key) => READ_CONFIG_KEYS.has(key)) ? undefined : 'settings in .httpyac.json';
	} catch {
		return undefined; // httpYac cannot read it either
	}
}

/** The folders above `dir`, nearest first, up to the filesystem's root. */
function foldersAbove(dir: string): string[] {
	const above: string[] = [];
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
	let reachedRoot = root === undefined;
	for (let dir = dirname(file); folders.length < MAX_FOLDERS; dir = dirname(dir)) {
		folders.push(dir);
		const rel = root === undefined ? '..' : relative(root, dir);
		if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || dirname(dir) === dir) {
			reachedRoot = true;
			break;
		}
	}
	if (!reachedRoot) return { environments: new Map(), outside: 'the file is deeper below its workspace folder than the check looks' };
	// A folder reached through a link that leads out of the workspace folder is not read: it does not say.
	const realRoot = root === undefined ? undefined : await realpath(root).catch(() => undefined);
	let files = 0;
	const inside = new Set(folders);
	for (const dir of [...folders, ...foldersAbove(folders.at(-1)!)]) {
		for (const folder of [dir, join(dir, 'env')]) {
			const names = await readdir(folder).catch(() => undefined);
			if (names === undefined) continue;
			if (realRoot !== undefined && inside.has(dir)) {
				const real = await realpath(folder).catch(() => undefined);
				if (real === undefined || (real !== realRoot && !real.startsWith(realRoot + sep))) return { environments: new Map(), outside: 'a folder that leads out of the workspace folder' };
			}
			const config = names.find((name) => CONFIG.test(name));
			if (config) return { environments: new Map(), outside: `an httpYac configuration (${config})` };
			for (const name of names.sort()) {
				const read = readerFor(name);
				if (name !== 'package.json' && !read) continue;
				if (++files > MAX_FILES) return { environments: new Map(), outside: 'more environment files than the check reads' };
				const found = await readingOf(join(folder, name), read ?? ((_text, readings) => readings), !read || name === '.httpyac.json');
				if (!found) continue;
				if (found.reading === 'unread') return { environments: new Map(), outside: `${name}, which the check does not read (a link, too large or not text)` };
				const why = name === 'package.json' ? packageOutside(found.text) : name === '.httpyac.json' ? configOutside(found.text) : undefined;
				if (why) return { environments: new Map(), outside: why };
				for (const [variable, values] of found.reading) {
					const merged = into.get(variable) ?? into.set(variable, new Map()).get(variable)!;
					for (const [key, value] of values) merged.set(key, value);
				}
				if (valueCount(into) > MAX_ENVIRONMENT_VALUES) return { environments: new Map(), outside: 'the environments hold more values than the check reads' };
			}
		}
	}
	const outside = environmentsOutside(into);
	return outside ? { environments: new Map(), outside } : { environments: into };
}
