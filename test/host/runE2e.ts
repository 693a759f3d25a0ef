// `npm run test:e2e`: the end-to-end tests, mocha in plain Node, each driving code-server in Chromium; prints
// `N passed, N failed`. Arguments: file name filters (e.g. `login`), `--grep TEXT`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import Mocha from 'mocha';
import { openWorkbenches } from '../e2e/workbench';
import { ensureTestHost } from './install';
import { projectRoot } from './paths';
import { printSuiteTimes } from '../support/suiteTimes';

const OVERALL_TIMEOUT_MS = Number(process.env.TELEMATICS_E2E_TIMEOUT_MS ?? 45 * 60_000);

async function main(): Promise<number> {
	const started = Date.now();
	if (!fs.existsSync(path.join(projectRoot, 'dist', 'extension.js'))) {
		console.error('[e2e] dist/extension.js is missing: run `npm run build && npm run compile-tests` first (npm test does).');
		return 1;
	}
	await ensureTestHost();
	const args = process.argv.slice(2);
	const grepAt = args.indexOf('--grep');
	const grep = grepAt >= 0 ? args.splice(grepAt, 2)[1] : undefined;
	const dir = path.join(projectRoot, 'out', 'test', 'e2e');
	const files = fs.readdirSync(dir).filter((f) => f.endsWith('.e2e.js')).filter((f) => !args.length || args.some((a) => f.includes(a))).sort();
	if (!files.length) {
		console.error(`[e2e] no e2e test matched in ${dir}`);
		return 1;
	}
	const mocha = new Mocha({ ui: 'bdd', timeout: 180_000, slow: 30_000, color: false, reporter: 'spec', rootHooks: { afterEach: reportFailure } });
	if (grep) mocha.grep(grep);
	for (const f of files) mocha.addFile(path.join(dir, f));
	const timer = setTimeout(() => {
		console.error(`[e2e] TIMEOUT: the e2e tests did not finish within ${OVERALL_TIMEOUT_MS / 1000} s`);
		console.log('0 passed, 1 failed');
		process.exit(124);
	}, OVERALL_TIMEOUT_MS);
	timer.unref();
	return new Promise((resolve) => {
		const runner = mocha.run((failures) => {
			const passed = runner.stats?.passes ?? 0;
			const failed = runner.stats?.failures ?? failures;
			console.log(`${passed} passed, ${failed} failed`);
			console.log(`[e2e] finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
			resolve(failed > 0 || passed === 0 ? 1 : 0);
		});
		printSuiteTimes(runner, (line) => console.log(line));
	});
}

/** After a failed test: what each open window shows, in the log, and its picture in a temporary folder. */
async function reportFailure(this: Mocha.Context): Promise<void> {
	if (this.currentTest?.state !== 'failed') return;
	const dir = path.join(os.tmpdir(), 'telematics-e2e-failures');
	fs.mkdirSync(dir, { recursive: true });
	for (const wb of openWorkbenches) {
		const picture = path.join(dir, `${this.currentTest.fullTitle().replace(/[^\w-]+/g, '-').slice(0, 100)}-${Date.now()}.png`);
		const shown = await wb.describe().catch((e: unknown) => `(not read: ${String(e)})`);
		await wb.page.screenshot({ path: picture, timeout: 10_000 }).catch(() => undefined);
		console.log(`      [failed] the window showed:\n${shown.replace(/^/gm, '        ')}\n        picture: ${picture}`);
	}
}

main().then((code) => process.exit(code), (e: unknown) => {
	console.error(`[e2e] FAILED: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
