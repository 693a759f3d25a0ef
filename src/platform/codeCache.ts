// Loads one of our later bundles as require() would, with the code V8 compiled for it at an earlier start
// kept in the extension's own storage: a start then skips most of compiling it and the first call of each function.
import { hash } from 'node:crypto';
import { promises as fsp, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

export interface LoadedBundle<T> {
	readonly exports: T;
	/** Whether V8 took the kept code (not on a first start, after an update, or when it was unreadable or damaged). */
	readonly cacheUsed: boolean;
	/** Keeps the code V8 has compiled for the bundle so far (what has run included); false if there was nothing to do. */
	saveCache(): Promise<boolean>;
}

const EXTENSION = '.v8cache';
/** Each file starts with the SHA-256 of the rest: V8 does not check its cache's contents, and damaged ones crash it. */
const DIGEST_BYTES = 32;
const digest = (data: Uint8Array): Buffer => hash('sha256', data, 'buffer');

/** The bundle's and the runtime's: another bundle, Node, V8 or architecture finds no file to take. */
const cacheKey = (bundle: Uint8Array): string =>
	hash('sha256', `${process.version} ${process.versions.v8} ${process.arch} ${hash('sha256', bundle)}`).slice(0, 16);

/** The kept code in `file`, if it is whole: a damaged, truncated or foreign file is as good as none. */
function readCache(file: string): Buffer | undefined {
	try {
		const data = readFileSync(file);
		const payload = data.subarray(DIGEST_BYTES);
		return data.length > DIGEST_BYTES && digest(payload).equals(data.subarray(0, DIGEST_BYTES)) ? payload : undefined;
	} catch {
		return undefined; // none yet, or unreadable: compile as usual
	}
}

/**
 * Our bundles in `folder`, their compiled code kept in `cacheDir` (the extension's private storage).
 * Without one they load with plain require(), as a debugger expects them (extension.ts: run from source).
 */
export class CodeCache {
	constructor(private readonly folder: string, private readonly cacheDir: string | undefined) {}

	/** The bundle `name` (e.g. `startup.js`), loaded with the code kept for it if there is any. */
	load<T>(name: string): LoadedBundle<T> {
		const file = join(this.folder, name);
		if (this.cacheDir === undefined) return { exports: createRequire(file)(file) as T, cacheUsed: false, saveCache: () => Promise.resolve(false) };
		return requireWithCodeCache<T>(file, this.cacheDir);
	}
}

/**
 * Runs `file` in this context exactly as require() would (the same wrapper, a `require` of its own
 * folder) and enters it in require's cache, so a later require() of it (onDemand.js's) gets this
 * instance. The kept code is code V8 runs, so it lives only in `cacheDir`, the extension's private
 * storage, never in a shared or opened folder; its name carries a hash of the bundle and the runtime,
 * its first bytes a hash of the rest, and V8 checks its own version and flags besides.
 */
function requireWithCodeCache<T>(file: string, cacheDir: string): LoadedBundle<T> {
	const bytes = readFileSync(file);
	const source = bytes.toString('utf8');
	const prefix = `${basename(file)}.`;
	const cacheFile = join(cacheDir, `${prefix}${cacheKey(bytes)}${EXTENSION}`);
	const cachedData = readCache(cacheFile);
	// The wrapper on a line of its own and lineOffset -1: stack traces keep the bundle's lines and columns.
	const script = new Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, { filename: file, lineOffset: -1, cachedData });
	const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
	const module = { id: file, filename: file, path: dirname(file), loaded: false, exports: {} as T, children: [], paths: [] };
	const moduleRequire = createRequire(file);
	moduleRequire.cache[file] = module as unknown as NodeJS.Module;
	try {
		(script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, moduleRequire, module, file, module.path);
	} catch (e) {
		delete moduleRequire.cache[file];
		throw e;
	}
	module.loaded = true;
	return {
		exports: module.exports,
		cacheUsed,
		async saveCache() {
			if (cacheUsed) return false;
			const data = script.createCachedData();
			await fsp.mkdir(cacheDir, { recursive: true, mode: 0o700 });
			for (const name of await fsp.readdir(cacheDir)) {
				if (name.startsWith(prefix) && name.endsWith(EXTENSION) && name !== basename(cacheFile)) await fsp.rm(join(cacheDir, name), { force: true });
			}
			// Written beside it, then renamed over it: a reader finds the old file or the whole new one.
			const partial = `${cacheFile}.${process.pid}.partial`;
			await fsp.writeFile(partial, Buffer.concat([digest(data), data]), { mode: 0o600 });
			await fsp.rename(partial, cacheFile);
			return true;
		},
	};
}
