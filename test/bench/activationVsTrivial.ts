// Activation as users run it: our VSIX beside a trivial status-bar extension, VS Code's own figures
// (Running Extensions) read on each reload. Two windows, each a code-server with its own profile and both
// extensions installed: one with no account, one with a session stored (a user logged in to the demo
// service once). Their reloads alternate, 15 each; every reload reads ours and the trivial extension's
// figures from the same extension host, so the ratio is taken reload by reload.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser, makeTempDir, startCodeServer } from '../host/codeServer';
import { projectRoot } from '../host/paths';
import { packageVsix } from '../host/vsix';
import { DEMO_USERS, LIFTED_RATE_LIMIT, startEmulator } from '../emulator/rig';
import { logInAsUser } from '../e2e/environment';
import { waitFor, Workbench } from '../e2e/workbench';
import { median, round, type BenchRow } from './types';

const RELOADS = 15;
const TRIVIAL_ID = 'bench.trivial-status';

/** A VSIX of an extension that shows one status bar item on startup, and nothing else. */
export function trivialVsix(): string {
	const dir = makeTempDir('trivial');
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
		name: 'trivial-status', publisher: 'bench', version: '0.0.1', license: 'MIT',
		engines: { vscode: '^1.100.0' }, activationEvents: ['onStartupFinished'], main: './extension.js',
		repository: { type: 'git', url: 'https://example.invalid/trivial.git' },
	}));
	fs.writeFileSync(path.join(dir, 'extension.js'), `const vscode = require('vscode');
exports.activate = (context) => {
	const item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left);
	item.text = 'trivial';
	item.show();
	context.subscriptions.push(item);
};
`);
	fs.writeFileSync(path.join(dir, 'README.md'), '# trivial\n');
	fs.writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
	const out = path.join(dir, 'trivial.vsix');
	execFileSync(process.execPath, [path.join(projectRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', out], { cwd: dir, stdio: 'pipe' });
	return out;
}

/** Both rows' activation figures from Running Extensions. */
async function readBoth(wb: Workbench): Promise<{ ours: number; trivial: number }> {
	await wb.runCommand('Developer: Show Running Extensions');
	const rows = await waitFor('both rows in Running Extensions',
		() => wb.page.$$eval('.runtime-extensions-editor .monaco-list-row', (r) => r.map((x) => x.textContent ?? '')),
		(r) => r.some((x) => /Telematics Auth/.test(x) && /Activation: \d+/.test(x)) && r.some((x) => x.includes('trivial-status') && /Activation: \d+/.test(x)), 30_000);
	const ms = (row: string | undefined) => Number(/Activation: (\d+)\s*ms/.exec(row ?? '')?.[1]);
	const figures = { ours: ms(rows.find((x) => /Telematics Auth/.test(x))), trivial: ms(rows.find((x) => x.includes('trivial-status'))) };
	await wb.runCommand('View: Close All Editors');
	return figures;
}

interface BenchWindow { wb: Workbench; close(): Promise<void> }

/** A code-server with both VSIXes installed and the demo service set, opened in a browser profile of its own. */
async function openWindow(vsixes: string[], serviceUrl: string): Promise<BenchWindow> {
	const server = await startCodeServer({ installExtensions: vsixes, settings: { 'telematicsAuth.baseUrl': serviceUrl } });
	const browser = await launchBrowser({ persistentProfile: makeTempDir('chromium'), origin: server.url });
	const page = browser.context.pages()[0] ?? await browser.context.newPage();
	const wb = new Workbench(page);
	await wb.open(server.workbenchUrl());
	return { wb, async close() { await browser.close(); await server.stop(); } };
}

/** One reload: both extensions' figures once the window is up (and, with a session, once it shows). */
async function reloadAndRead(wb: Workbench, shown: string | undefined): Promise<{ ours: number; trivial: number }> {
	await wb.reload();
	await waitFor('the trivial item', () => wb.page.locator(`.statusbar-item[id^="${TRIVIAL_ID}"]`).count(), (n) => n > 0, 60_000);
	if (shown) await wb.waitForStatus(shown);
	return readBoth(wb);
}

const spread = (values: readonly number[], digits = 0): string => {
	const sorted = [...values].sort((a, b) => a - b);
	return `${round(sorted[0]!, digits)}–${round(sorted.at(-1)!, digits)}`;
};

/** The rows of one window: ours, the trivial extension's and the ratio, median and spread (min–max). */
function rows(label: string, ours: number[], trivial: number[]): BenchRow[] {
	const ratios = ours.map((o, i) => o / Math.max(1, trivial[i]!));
	return [
		{ name: `activation ${label}, our VSIX (Running Extensions, ${ours.length} reloads: median, spread ${spread(ours)}; ${ours.join(', ')} ms)`, value: median(ours), unit: 'ms' },
		{ name: `activation ${label}, a trivial status-bar extension (same reloads: spread ${spread(trivial)}; ${trivial.join(', ')} ms)`, value: median(trivial), unit: 'ms' },
		{ name: `activation ${label}, ours ÷ trivial (median of the per-reload ratios, spread ${spread(ratios, 2)}; ratio of the medians ${round(median(ours) / Math.max(1, median(trivial)))})`, value: round(median(ratios)), unit: '×', target: '≤ 2' },
	];
}

export async function benchActivationVsTrivial(): Promise<BenchRow[]> {
	const emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT });
	const windows: BenchWindow[] = [];
	try {
		const vsixes = [packageVsix(), trivialVsix()];
		const none = await openWindow(vsixes, emulator.url);
		windows.push(none);
		const stored = await openWindow(vsixes, emulator.url);
		windows.push(stored);
		const user = DEMO_USERS[0]!;
		await logInAsUser(stored.wb, user);
		await stored.wb.waitForStatus(user.name!);
		const figures = { none: { ours: [] as number[], trivial: [] as number[] }, stored: { ours: [] as number[], trivial: [] as number[] } };
		for (let i = 0; i < RELOADS; i++) {
			// Alternating, and each pair in turn led by one window, then the other.
			const order = i % 2 ? (['stored', 'none'] as const) : (['none', 'stored'] as const);
			for (const which of order) {
				const both = which === 'stored' ? await reloadAndRead(stored.wb, user.name!) : await reloadAndRead(none.wb, undefined);
				figures[which].ours.push(both.ours);
				figures[which].trivial.push(both.trivial);
			}
		}
		return [
			...rows('with a stored session', figures.stored.ours, figures.stored.trivial),
			...rows('without an account', figures.none.ours, figures.none.trivial),
		];
	} finally {
		for (const w of windows) await w.close().catch(() => undefined);
		await emulator.close();
	}
}
