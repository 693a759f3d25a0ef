// The shipped bundles, built as `npm run build` builds them: the extension's classes and module
// state exist once (so `instanceof` holds everywhere), and undici and the emulator load late.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build, type Metafile } from 'esbuild';

const root = path.resolve(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is plain CommonJS
const { buildOptions } = require(path.join(root, 'esbuild.js')) as { buildOptions(o: { outdir: string; production: boolean }): object };

describe('shipped bundles', function () {
	this.timeout(60_000);
	let inputs: Map<string, string[]>;
	let texts: Map<string, string>;

	before(async () => {
		const result = await build({ ...buildOptions({ outdir: 'dist', production: true }), absWorkingDir: root, write: false, metafile: true });
		texts = new Map((result.outputFiles ?? []).map((f) => [path.basename(f.path), f.text]));
		const outputs = (result.metafile as Metafile).outputs;
		inputs = new Map(Object.entries(outputs)
			.filter(([file]) => file.endsWith('.js'))
			.map(([file, output]) => [path.basename(file), Object.keys(output.inputs)]));
	});

	it('are the activation (one registration per command), what shows at start-up, what the commands do, undici, the public suffix list, the demo service and the terminal command', () => {
		assert.deepEqual([...inputs.keys()].sort(), ['demo.js', 'extension.js', 'onDemand.js', 'publicSuffix.js', 'startup.js', 'tokenClient.js', 'undici.js']);
	});

	it('give onDemand.js the modules startup.js also needs from startup.js, so their classes and state exist once', () => {
		const taken = inputs.get('onDemand.js')!.filter((f) => f.startsWith('from-startup:src/')).map((f) => f.slice('from-startup:'.length));
		// What the commands share with start-up at least: the error classes and the notifications' recorder.
		for (const file of ['src/core/api/errors.ts', 'src/features/shared/notify.ts']) assert.ok(taken.includes(file), `onDemand.js has its own ${file}`);
		for (const file of taken) {
			assert.ok(inputs.get('startup.js')!.includes(file), `startup.js lacks ${file}`);
			assert.ok(texts.get('startup.js')!.includes(`${JSON.stringify(file)}:`), `startup.js does not export ${file}`);
		}
		assert.ok(!inputs.get('startup.js')!.some((f) => /features\/(login|restFiles|walkthrough)\/|tokenCommands|exposureCommand|accountActions/.test(f)), 'no command\'s work is in startup.js');
		assert.equal(texts.get('onDemand.js')!.match(/require\("\.\/startup\.js"\)/g)?.length, 1, 'onDemand.js reads startup.js once');
	});

	it('require each module once (in the extension host each require() walks VS Code\'s interceptors), and build no namespace object for what they share', () => {
		for (const name of ['extension.js', 'startup.js', 'onDemand.js']) {
			const required = [...texts.get(name)!.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!);
			assert.deepEqual(required.filter((m, i) => required.indexOf(m) !== i && m !== './undici.js'), [], `${name} requires a module twice`);
			assert.ok(required.includes('vscode') && required.some((m) => m.startsWith('node:')), `${name}: the check sees its requires`);
		}
		// esbuild's namespace objects (a getter defined per name at load) are made only for the entry's own two exports.
		const exported = texts.get('startup.js')!.match(/\{[\w$]+:\(\)=>[\w$]+(,[\w$]+:\(\)=>[\w$]+)*\}/g) ?? [];
		assert.deepEqual(exported.map((e) => e.match(/[\w$]+(?=:\(\)=>)/g)!.sort().join()), ['sharedModules,startCore']);
	});

	it('that load with kept compiled code (startup.js, onDemand.js) hold no import(): a vm.Script has no loader for it', () => {
		// codeCache.ts runs them in a vm.Script, where import() throws; esbuild lowers it to require().
		for (const name of ['startup.js', 'onDemand.js']) assert.doesNotMatch(texts.get(name)!, /\bimport\(/, name);
	});

	it('share no source module, but for stateless helpers the demo service reuses', () => {
		const seen = new Map<string, string>();
		for (const [bundle, files] of inputs) {
			for (const file of files.filter((f) => f.startsWith('src/'))) {
				const other = seen.get(file);
				seen.set(file, bundle);
				if (other === undefined) continue;
				// tokenClient.js runs in its own process (the terminal's), so nothing it holds meets the extension's.
				if ([other, bundle].includes('tokenClient.js')) continue;
				assert.ok([other, bundle].includes('demo.js'), `${file} is in both ${other} and ${bundle}`);
				const text = fs.readFileSync(path.join(root, file), 'utf8');
				assert.doesNotMatch(text, /^export (abstract )?class |^(export )?let /m, `${file}, in ${other} and ${bundle}, holds a class or state`);
			}
		}
	});

	it('load undici only in undici.js, tldts only in publicSuffix.js and the emulator only in demo.js', () => {
		for (const [bundle, files] of inputs) {
			if (bundle !== 'undici.js') assert.ok(!files.some((f) => f.includes('node_modules/undici/')), `undici is in ${bundle}`);
			if (bundle !== 'publicSuffix.js') assert.ok(!files.some((f) => f.includes('node_modules/tldts')), `tldts is in ${bundle}`);
			if (bundle !== 'demo.js') assert.ok(!files.some((f) => f.startsWith('src/emulator/')), `the emulator is in ${bundle}`);
		}
		assert.ok(inputs.get('extension.js')!.every((f) => !f.includes('node_modules')), 'activation loads no library');
		assert.ok(inputs.get('tokenClient.js')!.every((f) => !f.includes('node_modules') && !f.startsWith('src/features/')), 'the terminal command is small: no library, no feature');
	});

	it('ship the demo service without the tests\' rig: no faults, control endpoints or hostile payloads', () => {
		const demo = inputs.get('demo.js')!;
		assert.ok(demo.every((f) => !f.startsWith('test/')), 'nothing of test/ is in demo.js');
		const text = texts.get('demo.js')!;
		assert.ok(text.length > 1000, 'demo.js was built');
		for (const rig of ['/__emulator/', 'collector.invalid', 'bodyStatusMismatch', 'lastLoginBody']) assert.ok(!text.includes(rig), `demo.js holds ${rig}`);
	});
});
