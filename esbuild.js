// Bundles the extension. Two entry points: the activation bundle (dist/extension.js)
// and the network code (dist/undiciTransport.js, undici inside), which the activation
// bundle loads on the first request only, so activation never pays for undici.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Keeps `import('./undiciTransport')` a real runtime load of the sibling bundle. */
const lazyNetworkPlugin = {
	name: 'lazy-network',
	setup(build) {
		build.onResolve({ filter: /^\.\/undiciTransport$/ }, (args) =>
			/[\\/]transport\.ts$/.test(args.importer) ? { path: './undiciTransport.js', external: true } : undefined);
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
		entryPoints: { extension: 'src/extension.ts', undiciTransport: 'src/api/undiciTransport.ts' },
		bundle: true,
		format: 'cjs',
		platform: 'node',
		target: 'node20',
		outdir: 'dist',
		external: ['vscode'],
		minify: production,
		sourcemap: !production,
		sourcesContent: false,
		logLevel: 'silent',
		logOverride: { 'import-is-undefined': 'error' },
		metafile: true,
		plugins: [lazyNetworkPlugin, problemMatcherPlugin],
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
