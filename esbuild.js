// Bundles the extension. Five entry points: dist/extension.js (activation: command stubs and
// the load of the core), dist/startup.js (the store, the scheduler, the status bar, the view and
// thin registrations, loaded right after activation), dist/features.js (what runs only when a
// person does something), dist/network.js (the API client over undici, on the first request)
// and dist/demo.js (the built-in demo service, when a person tries it). esbuild cannot split
// cjs output, so the later bundles are loaded with `import('./startup')` and the like, kept as
// runtime loads of the sibling files by lazyBundlesPlugin.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
/** `--outdir=DIR`: bundle elsewhere (the VSIX test stages a package without touching dist/). */
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';
const watch = process.argv.includes('--watch');

/**
 * Keeps `import('./features')`, `import('./network')` and `import('../demo/demoBundle')` real
 * runtime loads of the sibling bundles (dist/features.js, dist/network.js, dist/demo.js).
 */
const lazyBundlesPlugin = {
	name: 'lazy-bundles',
	setup(build) {
		build.onResolve({ filter: /^\.\/(startup|features|network)$/ }, (args) =>
			args.kind === 'dynamic-import' ? { path: `${args.path}.js`, external: true } : undefined);
		build.onResolve({ filter: /\/demo\/demoBundle$/ }, (args) =>
			args.kind === 'dynamic-import' ? { path: './demo.js', external: true } : undefined);
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

async function main() {
	const ctx = await esbuild.context({
		entryPoints: { extension: 'src/extension.ts', startup: 'src/startup.ts', features: 'src/features.ts', network: 'src/core/api/network.ts', demo: 'src/demo/demoBundle.ts' },
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
		metafile: true,
		plugins: [lazyBundlesPlugin, problemMatcherPlugin],
	});
	if (watch) {
		await ctx.watch();
	} else {
		const result = await ctx.rebuild();
		await ctx.dispose();
		if (result.errors.length) process.exit(1);
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
