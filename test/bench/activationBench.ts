// Activation with a stored session: the activation bundle's size and VS Code's own activation figure
// (Running Extensions) in a real extension host, after reloads.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_USERS } from '../emulator/rig';
import { logInAsUser, startE2e } from '../e2e/environment';
import { EXTENSION_ID, waitFor, type Workbench } from '../e2e/workbench';
import { projectRoot } from '../host/paths';
import { median, round, type BenchRow } from './types';

const BUNDLE = path.join(projectRoot, 'dist', 'extension.js');
const RELOADS = 3;

function build(production: boolean): void {
	const result = spawnSync(process.execPath, ['esbuild.js', ...(production ? ['--production'] : [])], { cwd: projectRoot, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`esbuild failed:\n${result.stdout}${result.stderr}`);
}

/** Bundle sizes; leaves the production build in dist/ for the activation run. */
export function benchBundleSize(): BenchRow[] {
	const development = fs.statSync(BUNDLE).size;
	build(true);
	const production = fs.statSync(BUNDLE).size;
	return [
		{ name: 'dist/extension.js, development build', value: round(development / 1024, 1), unit: 'KB' },
		{ name: 'dist/extension.js, production build (what activation loads)', value: round(production / 1024, 1), unit: 'KB' },
	];
}

/** Puts the development build back (what `npm run build` makes and the tests use). */
export function restoreDevelopmentBuild(): void {
	build(false);
}

/** Every log file of ours under the code-server user-data dir (one per extension host run). */
function ourLogFiles(dir: string): string[] {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return ourLogFiles(full);
		return entry.name.endsWith('.log') && entry.name.includes('Telematics Auth') ? [full] : [];
	});
}

const STORE_READY = /Read \d+ stored account\(s\) ([\d.]+) ms after activation started/;
const ACTIVATE = /activate\(\) took ([\d.]+) ms/;

/** Our activate() call and when the stored sessions were read, as logged, from the log file written after `since`. */
async function readOwnFigures(userDataDir: string, since: number): Promise<{ activateMs: number; storeReadyMs: number }> {
	return waitFor('the start-up lines in our log', async () => {
		const fresh = ourLogFiles(userDataDir)
			.map((file) => ({ file, mtime: fs.statSync(file).mtimeMs }))
			.filter((f) => f.mtime >= since)
			.sort((a, b) => b.mtime - a.mtime);
		for (const { file } of fresh) {
			const text = fs.readFileSync(file, 'utf8');
			const ready = [...text.matchAll(new RegExp(STORE_READY, 'g'))].at(-1);
			const activate = [...text.matchAll(new RegExp(ACTIVATE, 'g'))].at(-1);
			if (ready && activate) return { activateMs: Number(activate[1]), storeReadyMs: Number(ready[1]) };
		}
		return undefined;
	}, (f) => f !== undefined, 30_000) as Promise<{ activateMs: number; storeReadyMs: number }>;
}

async function readActivationMs(wb: Workbench): Promise<number> {
	await wb.runCommand('Developer: Show Running Extensions');
	const row = await waitFor('our row in Running Extensions',
		() => wb.page.$$eval('.runtime-extensions-editor .monaco-list-row', (rows) => rows.map((r) => r.textContent ?? '')),
		(rows) => rows.some((r) => r.includes(EXTENSION_ID) || r.includes('Telematics Auth')) , 30_000);
	const text = row.find((r) => r.includes(EXTENSION_ID) || r.includes('Telematics Auth'))!;
	const ms = /Activation: (\d+)\s*ms/.exec(text)?.[1];
	if (ms === undefined) throw new Error(`no activation time in: ${text}`);
	await wb.runCommand('View: Close All Editors');
	return Number(ms);
}

export async function benchActivation(): Promise<BenchRow[]> {
	const env = await startE2e();
	try {
		const wb = env.workbench;
		const user = DEMO_USERS[0]!;
		await logInAsUser(wb, user);
		await wb.waitForStatus(user.name!);
		const samples: number[] = [];
		const storeReady: number[] = [];
		const activate: number[] = [];
		for (let i = 0; i < RELOADS; i++) {
			const reloadedAt = Date.now();
			await wb.reload();
			await wb.waitForStatus(user.name!);
			samples.push(await readActivationMs(wb));
			const own = await readOwnFigures(env.server.userDataDir, reloadedAt);
			storeReady.push(own.storeReadyMs);
			activate.push(own.activateMs);
		}
		return [
			{
				name: `activation with a stored session, VS Code's figure (Running Extensions: loading + activate; median of ${RELOADS} reloads; ${samples.join(', ')} ms)`,
				value: median(samples),
				unit: 'ms',
				target: '≤ 15 ms',
			},
			{ name: `our activate() call, performance.now() (median of ${RELOADS}; ${activate.join(', ')} ms)`, value: median(activate), unit: 'ms', target: '≤ 15 ms' },
			{ name: `stored sessions read, after activate() started (not blocking; median of ${RELOADS}; ${storeReady.join(', ')} ms)`, value: median(storeReady), unit: 'ms' },
		];
	} finally {
		await env.close();
	}
}
