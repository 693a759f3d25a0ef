// Bundles the extension: extension.js (what activate() runs), and what loads on first use as bundles
// of their own: undici.js (the network client), publicSuffix.js (the public suffix list), platform.js (the
// platform's operations), openapi.js (the reader of a host's OpenAPI document and its $ref resolver),
// demo.js (the built-in demo service), httpyac.js (the plugin for httpYac, once httpYac is there), liveTracking.js
// (the Live Tracking panel, its socket and protocol); tokenClient.js is the terminals'
// telematics-token and mcp.js their telematics-mcp, each its own process.
const esbuild = require('esbuild');
const fs = require('node:fs');

const production = process.argv.includes('--production');
/** `--outdir=DIR`: bundle elsewhere (the VSIX test stages a package without touching dist/). */
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';
const watch = process.argv.includes('--watch');

/** The `import()`s that load a bundle of its own, by what they import → the file beside extension.js. */
const LATER_BUNDLES = { './undici': './undici.js', './publicSuffix': './publicSuffix.js', './catalog': './platform.js', '../../core/platform/openapiImport': './openapi.js', '../../emulator/server': './demo.js', './httpyacPlugin': './httpyac.js', './livePanel': './liveTracking.js' };

/** Keeps those imports a require() of the sibling bundle (esbuild cannot split CommonJS output). */
const laterBundlesPlugin = {
	name: 'later-bundles',
	setup(build) {
		build.onResolve({ filter: /^\.\.?\// }, (args) =>
			args.kind === 'dynamic-import' && LATER_BUNDLES[args.path] ? { path: LATER_BUNDLES[args.path], external: true } : undefined);
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
		entryPoints: {
			extension: 'src/extension.ts',
			undici: 'src/core/api/undici.ts',
			publicSuffix: 'src/core/restFile/publicSuffix.ts',
			platform: 'src/core/platform/catalog.ts',
			openapi: 'src/core/platform/openapiImport.ts',
			demo: 'src/emulator/server.ts',
			httpyac: 'src/features/httpyac/httpyacPlugin.ts',
			liveTracking: 'src/features/liveTracking/livePanel.ts',
			tokenClient: 'src/features/terminal/client.ts',
			mcp: 'src/features/mcp/server.ts',
		},
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
		// A later bundle loads as CommonJS, with require(), like everything else in the extension host.
		supported: { 'dynamic-import': false },
		plugins: [laterBundlesPlugin],
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
