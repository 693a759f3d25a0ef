// The shipped bundles, built as `npm run build` builds them: one bundle for the extension, and
// undici, the public suffix list and the emulator in bundles of their own, loaded late.
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

	it('are the extension, undici, the public suffix list, the platform\'s operations, the OpenAPI reader, the demo service, the plugin for httpYac, Live Tracking and the terminal commands', () => {
		assert.deepEqual([...inputs.keys()].sort(), ['demo.js', 'extension.js', 'httpyac.js', 'liveTracking.js', 'mcp.js', 'openapi.js', 'platform.js', 'publicSuffix.js', 'tokenClient.js', 'undici.js']);
	});

	it('are each in the VSIX: .vscodeignore allows every one of them', () => {
		const allowed = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n').filter((l) => l.startsWith('!dist/')).map((l) => l.slice('!dist/'.length).trim());
		assert.deepEqual(allowed.sort(), [...inputs.keys()].sort());
	});

	it('load what is heavy and rarely needed with a plain require() of its own bundle, on first use', () => {
		const extension = texts.get('extension.js')!;
		for (const later of ['./undici.js', './publicSuffix.js', './platform.js', './openapi.js', './demo.js', './httpyac.js', './liveTracking.js']) assert.ok(extension.includes(`require("${later}")`), later);
		// Nothing loads through Node's ESM loader (import()): the extension host runs CommonJS.
		assert.doesNotMatch(extension, /\bimport\(/);
	});

	it('require vscode once each: VS Code resolves every require(\'vscode\') anew, a realpath and a lookup (issue 55)', () => {
		for (const [bundle, text] of texts) {
			if (!bundle.endsWith('.js')) continue;
			const requires = text.match(/require\("vscode"\)/g)?.length ?? 0;
			assert.ok(requires <= 1, `${bundle} requires vscode ${requires} times`);
		}
		assert.equal(texts.get('extension.js')!.match(/require\("vscode"\)/g)?.length, 1, 'extension.js requires vscode');
	});

	it('share no source module, but for stateless helpers the demo service, the OpenAPI reader and Live Tracking reuse', () => {
		const seen = new Map<string, string>();
		for (const [bundle, files] of inputs) {
			for (const file of files.filter((f) => f.startsWith('src/'))) {
				const other = seen.get(file);
				seen.set(file, bundle);
				if (other === undefined) continue;
				// tokenClient.js and mcp.js run in processes of their own (the terminal's), so nothing they hold meets the extension's.
				if ([other, bundle].some((b) => b === 'tokenClient.js' || b === 'mcp.js')) continue;
				assert.ok([other, bundle].some((b) => b === 'demo.js' || b === 'openapi.js' || b === 'liveTracking.js'), `${file} is in both ${other} and ${bundle}`);
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
		// The OpenAPI reader and its $ref resolver load when the person asks to read a host's document, never before,
		// and reuse the platform bundle's description instead of holding a copy.
		for (const [bundle, files] of inputs) {
			if (bundle !== 'openapi.js') assert.ok(!files.some((f) => f.includes('node_modules/@apidevtools/') || f === 'src/core/platform/openapiImport.ts'), `the OpenAPI reader is in ${bundle}`);
		}
		assert.ok(!inputs.get('openapi.js')!.some((f) => f === 'src/core/platform/operations.ts' || f === 'src/core/platform/catalog.ts'), 'the description is in openapi.js');
		// The platform's description and its index load on first use (issue 43): activation never builds them.
		for (const file of ['src/core/platform/operations.ts', 'src/core/platform/catalog.ts']) {
			assert.ok(!inputs.get('extension.js')!.includes(file), `${file} is in extension.js`);
			assert.ok(inputs.get('platform.js')!.includes(file), `${file} is in platform.js`);
		}
		// Live Tracking (its panel, socket and protocol) loads when the panel first opens, never with the extension.
		for (const file of ['src/features/liveTracking/livePanel.ts', 'src/core/liveTracking/connection.ts', 'src/core/liveTracking/protocol.ts', 'src/core/api/webSocket.ts']) {
			assert.ok(!inputs.get('extension.js')!.includes(file), `${file} is in extension.js`);
			assert.ok(inputs.get('liveTracking.js')!.includes(file), `${file} is not in liveTracking.js`);
		}
		// Its one library is ws, the socket over the http/https modules VS Code's network patches (core/api/webSocket.ts).
		const liveLibraries = new Set(inputs.get('liveTracking.js')!.filter((f) => f.includes('node_modules/')).map((f) => f.split('node_modules/')[1]!.split('/')[0]));
		assert.deepEqual([...liveLibraries], ['ws'], 'Live Tracking bundles ws and no other library');
		// jwt-decode (1 KB) reads the stored tokens' claims as soon as they are read, dotenv (its parser, 10 KB) the
		// folder's .env files as httpYac reads them; no other library loads with the extension.
		const libraries = new Set(inputs.get('extension.js')!.filter((f) => f.includes('node_modules/')).map((f) => f.split('node_modules/')[1]!.split('/')[0]));
		assert.deepEqual([...libraries].sort(), ['dotenv', 'jwt-decode'], 'the extension loads no library but jwt-decode and dotenv');
		assert.ok(inputs.get('tokenClient.js')!.every((f) => /^src\/features\/terminal\/(client|channelClient)\.ts$/.test(f) || f.startsWith('src/core/')), 'the terminal command is small: no library, nothing of the VS Code layer but itself');
		// The plugin for httpYac loads only once httpYac runs: activation holds none of it, and it holds nothing of ours but itself and its decisions.
		assert.deepEqual(inputs.get('httpyac.js')!.filter((f) => f.startsWith('src/')).sort(), ['src/core/httpyac/door.ts', 'src/core/httpyac/liveVariables.ts', 'src/core/httpyac/plugin.ts', 'src/core/httpyac/sendCheck.ts', 'src/features/httpyac/httpyacPlugin.ts']);
		assert.ok(!inputs.get('extension.js')!.some((f) => f.includes('/httpyac/') && !f.endsWith('features/httpyac/index.ts')), 'the plugin is in extension.js');
		// The MCP SDK (and zod, its schemas) only in telematics-mcp's own process: never loaded by the extension.
		for (const [bundle, files] of inputs) {
			if (bundle !== 'mcp.js') assert.ok(!files.some((f) => /node_modules\/(@modelcontextprotocol|zod)\//.test(f)), `the MCP SDK is in ${bundle}`);
		}
		assert.ok(inputs.get('mcp.js')!.filter((f) => f.startsWith('src/')).every((f) => /^src\/(core\/|features\/mcp\/server\.ts$|features\/terminal\/channelClient\.ts$)/.test(f)), 'telematics-mcp holds no token logic of the window: the protocol, the channel and the SDK');
	});

	it('ship the demo service without the tests\' rig: no faults, control endpoints or hostile payloads', () => {
		const demo = inputs.get('demo.js')!;
		assert.ok(demo.every((f) => !f.startsWith('test/')), 'nothing of test/ is in demo.js');
		const text = texts.get('demo.js')!;
		assert.ok(text.length > 1000, 'demo.js was built');
		for (const rig of ['/__emulator/', 'collector.invalid', 'bodyStatusMismatch', 'lastLoginBody']) assert.ok(!text.includes(rig), `demo.js holds ${rig}`);
	});
});
