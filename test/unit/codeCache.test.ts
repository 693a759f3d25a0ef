// Loading a bundle with V8's code kept from an earlier start: the bundle runs as require() would run it,
// a next start (a new process) takes the kept code, and a changed or damaged cache never runs stale code.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { CodeCache } from '../../src/platform/codeCache';

/** A start in a new process: loads `name` from `folder` and reports what ran. */
function nextStart(folder: string, cacheDir: string, name = 'bundle.js'): { cacheUsed: boolean; exports: { version: number; sibling: string } } {
	const script = `const { CodeCache } = require(${JSON.stringify(require.resolve('../../src/platform/codeCache'))});
const b = new CodeCache(${JSON.stringify(folder)}, ${JSON.stringify(cacheDir)}).load(${JSON.stringify(name)});
b.saveCache().then(() => console.log(JSON.stringify({ cacheUsed: b.cacheUsed, exports: b.exports })));`;
	return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as ReturnType<typeof nextStart>;
}

/** A bundle of the same length for every version (V8's own check compares lengths, not contents). */
const bundle = (version: number) => `const sibling = require('./sibling.js');\nmodule.exports = { version: ${version}, sibling, dir: __dirname === ${JSON.stringify('')} ? '' : 'ok' };\n`;

describe('code cache: loading our bundles with the code compiled at an earlier start', () => {
	let folder: string;
	let cacheDir: string;
	const cacheFiles = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []);

	beforeEach(() => {
		folder = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-'));
		cacheDir = path.join(folder, 'storage', 'compiled');
		fs.writeFileSync(path.join(folder, 'sibling.js'), `module.exports = 'sibling';\n`);
		fs.writeFileSync(path.join(folder, 'bundle.js'), bundle(1));
	});
	afterEach(() => {
		for (const key of Object.keys(require.cache)) if (key.startsWith(folder)) delete require.cache[key];
		fs.rmSync(folder, { recursive: true, force: true });
	});

	it('runs the bundle as require() would, and a later require() of it gets the same instance', () => {
		const loaded = new CodeCache(folder, cacheDir).load<{ version: number; sibling: string; dir: string }>('bundle.js');
		assert.deepEqual(loaded.exports, { version: 1, sibling: 'sibling', dir: 'ok' });
		assert.equal(loaded.cacheUsed, false);
		// As onDemand.js takes startup.js: a require() from beside it.
		assert.equal(createRequire(path.join(folder, 'sibling.js'))('./bundle.js'), loaded.exports);
	});

	it('keeps the compiled code in its folder only, readable by the user alone, and the next start takes it', async () => {
		const loaded = new CodeCache(folder, cacheDir).load('bundle.js');
		assert.equal(await loaded.saveCache(), true);
		const [file, ...more] = cacheFiles();
		assert.deepEqual(more, []);
		assert.match(file!, /^bundle\.js\.[0-9a-f]{16}\.v8cache$/);
		if (process.platform !== 'win32') assert.equal(fs.statSync(path.join(cacheDir, file!)).mode & 0o777, 0o600);
		assert.deepEqual(fs.readdirSync(folder).sort(), ['bundle.js', 'sibling.js', 'storage']);
		const next = nextStart(folder, cacheDir);
		assert.equal(next.cacheUsed, true);
		assert.deepEqual(next.exports, { version: 1, sibling: 'sibling', dir: 'ok' });
	});

	it('never runs the code of an earlier bundle: a changed one of the same length compiles afresh and replaces the cache', async () => {
		assert.equal(nextStart(folder, cacheDir).cacheUsed, false);
		const first = cacheFiles();
		fs.writeFileSync(path.join(folder, 'bundle.js'), bundle(2));
		const changed = nextStart(folder, cacheDir);
		assert.deepEqual([changed.cacheUsed, changed.exports.version], [false, 2]);
		assert.equal(cacheFiles().length, 1);
		assert.notDeepEqual(cacheFiles(), first);
		assert.equal(nextStart(folder, cacheDir).cacheUsed, true);
	});

	it('a damaged or truncated cache never reaches V8 (it would crash the extension host): the bundle compiles, runs, and the cache is written again (generated)', () => {
		nextStart(folder, cacheDir);
		const file = path.join(cacheDir, cacheFiles()[0]!);
		const whole = fs.readFileSync(file);
		fc.assert(fc.property(
			fc.oneof(
				fc.nat(whole.length - 1).map((at) => (b: Buffer) => b.subarray(0, at)),
				fc.tuple(fc.nat(whole.length - 1), fc.integer({ min: 1, max: 255 })).map(([at, bits]) => (b: Buffer) => Buffer.from(b.map((x, i) => (i === at ? x ^ bits : x)))),
			),
			(damage) => {
				fs.writeFileSync(file, damage(whole));
				const damaged = nextStart(folder, cacheDir);
				assert.deepEqual([damaged.cacheUsed, damaged.exports.version], [false, 1]);
				assert.equal(nextStart(folder, cacheDir).cacheUsed, true);
			},
		), { numRuns: 8 });
	});

	it('without a folder for it (run from source), loads with plain require() and keeps nothing', async () => {
		const loaded = new CodeCache(folder, undefined).load<{ version: number }>('bundle.js');
		assert.equal(loaded.exports.version, 1);
		assert.equal(loaded.cacheUsed, false);
		assert.equal(await loaded.saveCache(), false);
		assert.deepEqual(cacheFiles(), []);
		assert.equal(require.cache[path.join(folder, 'bundle.js')]?.exports, loaded.exports, 'require() loaded it');
	});

	it("keeps the bundle's line numbers in stack traces", () => {
		fs.writeFileSync(path.join(folder, 'throws.js'), `'use strict';\n\nthrow new Error('on line 3');\n`);
		const file = path.join(folder, 'throws.js');
		assert.throws(() => new CodeCache(folder, cacheDir).load('throws.js'), (e: Error) => e.stack!.includes(`${file}:3:`));
		assert.equal(require.cache[file], undefined, 'a bundle that failed to load is not left in the cache');
	});
});
