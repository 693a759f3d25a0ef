// Bundles the extension: extension.js (activate(): the command registrations), startup.js (what shows, right after), onDemand.js,
// undici.js, publicSuffix.js and demo.js (loaded on first use), tokenClient.js (the terminals' telematics-token, its own process).
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
/** `--outdir=DIR`: bundle elsewhere (the VSIX test stages a package without touching dist/). */
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';
const watch = process.argv.includes('--watch');

/** The dynamic imports that load another bundle, by what they import → the sibling file (startup.js and onDemand.js load through src/platform/codeCache.ts). */
const LATER_BUNDLES = { './undici': './undici.js', './publicSuffix': './publicSuffix.js', '../../emulator/server': './demo.js' };

/** Keeps those imports runtime loads of the sibling bundles (esbuild cannot split cjs output). */
const laterBundlesPlugin = {
	name: 'later-bundles',
	setup(build) {
		build.onResolve({ filter: /^\.\.?\// }, (args) =>
			args.kind === 'dynamic-import' && LATER_BUNDLES[args.path] ? { path: LATER_BUNDLES[args.path], external: true } : undefined);
	},
};

/**
 * No copy of the `vscode` API at all: esbuild turns each `import * as vscode` into a copy of the
 * whole API object, made when the bundle loads (27 of them cost 8 ms of start-up CPU; one per bundle
 * still cost about 2 ms). Every import of `vscode` goes through one module that re-exports the API's
 * values by name (its classes, enums and namespaces, read from @types/vscode), which esbuild
 * compiles to one `require("vscode")` whose properties are read where they are used. A name used
 * but missing from the list fails the build (`import-is-undefined` is an error below).
 * Node's modules go the same way (the names src imports from each, read once per build): esbuild writes
 * a `require()` for each file that imports one, and in the extension host each `require()` is a walk
 * through VS Code's module interceptors (about 0.03 ms), so a bundle requires each module once.
 */
const externalModulesPlugin = {
	name: 'external-modules',
	setup(build) {
		let nodeImports; // module -> the names src imports from it, read at the first Node module of a build
		build.onStart(() => { nodeImports = undefined; });
		build.onResolve({ filter: /^(vscode|node:[a-z_/]+)$/ }, (args) =>
			args.namespace === 'external-module' || !args.importer.startsWith(path.resolve('src')) ? { path: args.path, external: true } : { path: args.path, namespace: 'external-module' });
		build.onLoad({ filter: /.*/, namespace: 'external-module' }, (args) => {
			const names = args.path === 'vscode'
				? [...fs.readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8').matchAll(/^\texport (?:namespace|class|enum|const|function|let|var) (\w+)/gm)].map((m) => m[1])
				: (nodeImports ??= namesImportedFromNodeModules()).get(args.path) ?? [];
			return { contents: `export { ${[...new Set(names)].join(', ')} } from ${JSON.stringify(args.path)};`, loader: 'js' };
		});
	},
};

/**
 * The names src imports from each Node module (`import { a, b as c, type T } from 'node:x'`). A name
 * imported in another form is not listed, and the build fails on it (`import-is-undefined`).
 */
function namesImportedFromNodeModules() {
	const names = new Map();
	for (const file of fs.readdirSync('src', { recursive: true }).filter((f) => f.endsWith('.ts'))) {
		for (const [, list, from] of fs.readFileSync(path.join('src', file), 'utf8').matchAll(/^import\s*\{([^}]*)\}\s*from\s*'(node:[^']+)'/gm)) {
			const listed = names.get(from) ?? names.set(from, new Set()).get(from);
			for (const item of list.split(',').map((i) => i.trim()).filter((i) => i && !i.startsWith('type '))) listed.add(item.split(/\s+as\s+/)[0]);
		}
	}
	return new Map([...names].map(([module, set]) => [module, [...set]]));
}

/**
 * onDemand.js takes the modules startup.js also needs from startup.js itself, so each class and each
 * module's state exists once (an ApiError thrown in one is `instanceof ApiError` in the other). Before
 * each build, a quick pass finds the modules both reach and what each exports; startup.js exports them
 * (`sharedModules`, a plain object of each module's values: a namespace object would be built with a
 * getter per name when startup.js loads, 0.35 ms of start-up CPU for 67 names), and onDemand.js's
 * imports of them become reads of that export, through one `require("./startup.js")`.
 */
const sharedWithStartupPlugin = {
	name: 'shared-with-startup',
	setup(build) {
		const root = process.cwd();
		const relative = (file) => path.relative(root, file).split(path.sep).join('/');
		let shared = new Set();
		let onDemandOnly = new Set();
		/** A shared module -> the names it exports (esbuild's pass over those files alone). */
		let exportsOf = new Map();
		build.onStart(async () => {
			const { metafile } = await esbuild.build({
				entryPoints: { startup: 'src/startup.ts', onDemand: 'src/onDemand.ts' },
				bundle: true, format: 'cjs', platform: 'node', outdir: 'unused', write: false, metafile: true, logLevel: 'silent',
				plugins: [laterBundlesPlugin, externalModulesPlugin],
			});
			const inputs = (name) => new Set(Object.keys(Object.entries(metafile.outputs).find(([file]) => file.endsWith(`${name}.js`))[1].inputs).filter((f) => f.startsWith('src/')));
			const [startup, onDemand] = [inputs('startup'), inputs('onDemand')];
			shared = new Set([...onDemand].filter((f) => startup.has(f)));
			onDemandOnly = new Set([...onDemand].filter((f) => !startup.has(f)));
			const { metafile: each } = await esbuild.build({ entryPoints: [...shared], bundle: false, format: 'esm', outdir: 'unused', write: false, metafile: true, logLevel: 'silent' });
			exportsOf = new Map(Object.values(each.outputs).map((o) => [o.entryPoint, o.exports]));
		});
		build.onLoad({ filter: /[\\/]src[\\/]startup\.ts$/ }, (args) => {
			const files = [...shared].sort();
			const local = (i, name) => `shared${i}_${name}`;
			const contents = fs.readFileSync(args.path, 'utf8')
				+ files.map((file, i) => `\nimport { ${exportsOf.get(file).map((name) => `${name} as ${local(i, name)}`).join(', ')} } from ${JSON.stringify(path.join(root, file))};`).join('')
				+ `\n/** The modules onDemand.js takes from this bundle (esbuild.js). */\nexport const sharedModules = { ${files.map((file, i) => `${JSON.stringify(file)}: { ${exportsOf.get(file).map((name) => `${name}: ${local(i, name)}`).join(', ')} }`).join(', ')} };\n`;
			return { contents, loader: 'ts' };
		});
		build.onResolve({ filter: /^\.\.?\// }, async (args) => {
			if (args.kind !== 'import-statement' || args.pluginData === 'resolving' || !onDemandOnly.has(relative(args.importer))) return undefined;
			const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
			const file = relative(resolved.path);
			return shared.has(file) ? { path: file, namespace: 'from-startup' } : resolved;
		});
		build.onLoad({ filter: /.*/, namespace: 'from-startup' }, (args) => args.path === 'startup-bundle'
			? { contents: 'module.exports = require("./startup.js").sharedModules;', loader: 'js' }
			: { contents: `module.exports = require("startup-bundle")[${JSON.stringify(args.path)}];`, loader: 'js' });
		build.onResolve({ filter: /^startup-bundle$/, namespace: 'from-startup' }, () => ({ path: 'startup-bundle', namespace: 'from-startup' }));
		build.onResolve({ filter: /^\.\/startup\.js$/, namespace: 'from-startup' }, () => ({ path: './startup.js', external: true }));
	},
};

/** Prints build start/end and errors as file:line:column for VS Code's problem matcher. */
const problemMatcherPlugin = {
	name: 'problem-matcher',
	setup(build) {
		build.onStart(() => console.log('[watch] build started'));
		build.onEnd((result) => {
			for (const { text, location } of result.errors) {
				console.error(`✘ [ERROR] ${text}`);
				if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
			}
			console.log('[watch] build finished');
		});
	},
};

/** The build, as `npm run build` runs it and as the bundle test inspects it. */
function buildOptions({ outdir, production }) {
	return {
		entryPoints: { extension: 'src/extension.ts', startup: 'src/startup.ts', onDemand: 'src/onDemand.ts', undici: 'src/core/api/undici.ts', publicSuffix: 'src/core/restFile/publicSuffix.ts', tokenClient: 'src/terminal/client.ts', demo: 'src/emulator/server.ts' },
		bundle: true,
		format: 'cjs',
		platform: 'node',
		target: 'node20',
		outdir,
		external: ['vscode'],
		minify: production,
		sourcemap: !production,
		sourcesContent: false,
		logLevel: 'silent',
		logOverride: { 'import-is-undefined': 'error' },
		// A later bundle loads with require(), not import(): Node's ESM loader would read the file again
		// and scan it for its exports before CommonJS loads it (about 1 ms of start-up CPU for startup.js).
		supported: { 'dynamic-import': false },
		metafile: true,
		plugins: [laterBundlesPlugin, externalModulesPlugin, sharedWithStartupPlugin],
	};
}

async function main() {
	fs.rmSync(outdir, { recursive: true, force: true }); // no bundle of an earlier layout stays behind
	const options = buildOptions({ outdir, production });
	const ctx = await esbuild.context({ ...options, plugins: [...options.plugins, problemMatcherPlugin] });
	if (watch) {
		await ctx.watch();
	} else {
		const result = await ctx.rebuild();
		await ctx.dispose();
		if (result.errors.length) process.exit(1);
	}
}

module.exports = { buildOptions };

if (require.main === module) {
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
}
