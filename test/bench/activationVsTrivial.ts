// Activation as users run it: our VSIX beside a trivial status-bar extension in one fresh profile,
// 9 reloads, both figures read from VS Code's Running Extensions view on each reload.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser, makeTempDir, startCodeServer } from '../host/codeServer';
import { projectRoot } from '../host/paths';
import { packageVsix } from '../host/vsix';
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

export async function benchActivationVsTrivial(): Promise<BenchRow[]> {
	const server = await startCodeServer({ installExtensions: [packageVsix(), trivialVsix()] });
	const browser = await launchBrowser({ persistentProfile: makeTempDir('chromium'), origin: server.url });
	try {
		const page = browser.context.pages()[0] ?? await browser.context.newPage();
		const wb = new Workbench(page);
		await wb.open(server.workbenchUrl());
		const ours: number[] = [];
		const trivial: number[] = [];
		for (let i = 0; i < RELOADS; i++) {
			await wb.reload();
			await waitFor('the trivial item', () => page.locator(`.statusbar-item[id^="${TRIVIAL_ID}"]`).count(), (n) => n > 0, 60_000);
			const both = await readBoth(wb);
			ours.push(both.ours);
			trivial.push(both.trivial);
		}
		const ratios = ours.map((o, i) => o / Math.max(1, trivial[i]!)).sort((a, b) => a - b);
		return [
			{ name: `activation, our VSIX (Running Extensions, median of ${RELOADS} reloads; ${ours.join(', ')} ms)`, value: median(ours), unit: 'ms' },
			{ name: `activation, a trivial status-bar extension (same reloads; ${trivial.join(', ')} ms)`, value: median(trivial), unit: 'ms' },
			{ name: `activation ratio, ours / trivial (median of the medians; per-reload ${round(ratios[0]!)}–${round(ratios.at(-1)!)})`, value: round(median(ours) / Math.max(1, median(trivial))), unit: '×', target: '≤ 1.25' },
		];
	} finally {
		await browser.close();
		await server.stop();
	}
}
