// `npm run bench`: prints the project's figures with their targets. Never fails on time; a figure that
// cannot be measured here is printed as n/a with the reason.
import { benchActivation, benchBundleSize, restoreDevelopmentBuild } from './activationBench';
import { benchActivationVsTrivial } from './activationVsTrivial';
import { benchStartupProfile } from './startupProfile';
import { benchHttpsLogin, benchLogin, benchLoginInVsCode } from './loginBench';
import { benchPlatform } from './platformBench';
import { benchRestPlatform } from './restPlatformBench';
import { benchTimer } from './timerBench';
import { benchTerminalToken } from './terminalBench';
import { withinTarget, type BenchRow } from './types';

type Bench = { name: string; run: () => Promise<BenchRow[]> | BenchRow[] };

async function insertBench(): Promise<BenchRow[]> {
	const mod = await import('./insertBench');
	return mod.benchInsert();
}

/** A count of what must never happen: its target is 0. */
function zero(name: string, value: number): BenchRow {
	return { name, value, unit: 'count', target: '≤ 0' };
}

/** The fault and fuzz suite's counts: each must be 0 (target `0`). */
async function hostileBench(): Promise<BenchRow[]> {
	const { runHostileService } = await import('../fuzz/hostileService');
	const counts = await runHostileService(1000);
	return [
		{ name: 'hostile service: generated answers', value: counts.answers, unit: 'count' },
		zero('hostile service: crashes', counts.crashes),
		zero('hostile service: unhandled rejections', counts.unhandledRejections),
		zero('hostile service: sessions lost', counts.sessionsLost),
		zero('hostile service: secrets in logs or errors', counts.secretsLeaked),
		zero('hostile service: injected lines', counts.injectedLines),
		zero('hostile service: refreshes closer than 30 s', counts.refreshStorms),
	];
}

/** The hostile-folder suite's counts: each must be 0 (target `0`). */
async function hostileFolderBench(): Promise<BenchRow[]> {
	const { runHostileFolder } = await import('../fuzz/hostileFolder');
	const counts = await runHostileFolder(300, 5000);
	return [
		{ name: 'hostile folder: generated folders', value: counts.folders, unit: 'count' },
		{ name: 'hostile folder: of them in Restricted Mode', value: counts.restricted, unit: 'count' },
		zero('hostile folder: programs of the folder run', counts.programsRun),
		zero('hostile folder: files changed outside the folder', counts.outsideChanged),
		zero('hostile folder: secrets behind a link copied into the folder', counts.secretsCopied),
		zero('hostile folder: untrusted folders touched (a file, or git asked)', counts.untrustedTouched),
		zero('hostile folder: links or icons rendered from a folder name', counts.linksRendered),
		{ name: 'hostile keychain: generated schedules', value: counts.keychainScenarios, unit: 'count' },
		zero('hostile keychain: sessions lost on a failing or forgetting keychain', counts.sessionsLost),
		zero('hostile keychain: logouts undone', counts.logoutsUndone),
	];
}

async function hostCheckBench(): Promise<BenchRow[]> {
	const mod = await import('./hostCheckBench');
	return mod.benchHostCheck();
}

async function httpyacDoorBench(): Promise<BenchRow[]> {
	const mod = await import('./httpyacDoorBench');
	return mod.benchHttpyacDoor();
}

async function liveTrackingBench(): Promise<BenchRow[]> {
	const mod = await import('./liveTrackingBench');
	return mod.benchLiveTracking();
}

const BENCHES: Bench[] = [
	{ name: 'hostile service (fuzz)', run: hostileBench },
	{ name: 'hostile folder (fuzz)', run: hostileFolderBench },
	{ name: 'telematics-token in the terminal', run: benchTerminalToken },
	{ name: 'activation bundle size', run: benchBundleSize },
	{ name: 'activation time (real VS Code)', run: benchActivation },
	{ name: 'activation against a trivial extension (VSIX)', run: benchActivationVsTrivial },
	{ name: 'start-up profile against a trivial extension (VSIX)', run: benchStartupProfile },
	{ name: 'login time', run: benchLogin },
	{ name: 'login time over HTTPS', run: benchHttpsLogin },
	{ name: 'login time in VS Code, through its fetch', run: benchLoginInVsCode },
	{ name: 'status bar timer', run: benchTimer },
	{ name: 'insert into a big .http file', run: insertBench },
	{ name: 'platform description on first use', run: benchPlatform },
	{ name: 'the platform in REST files', run: benchRestPlatform },
	{ name: 'host check over the worst folder', run: hostCheckBench },
	{ name: 'httpYac at Send (the check and the door)', run: httpyacDoorBench },
	{ name: 'Live Tracking with a large fleet', run: liveTrackingBench },
];

function table(rows: BenchRow[]): string {
	const cells = rows.map((r) => {
		const within = withinTarget(r);
		return [r.name, r.value === undefined ? 'n/a' : String(r.value), r.unit, r.target ?? '', within === undefined ? '' : within ? 'yes' : 'NO'];
	});
	const header = ['benchmark', 'value', 'unit', 'target', 'within target'];
	const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
	const line = (c: string[]) => c.map((v, i) => (i === 1 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ');
	return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

async function main(): Promise<void> {
	const rows: BenchRow[] = [];
	const notes: string[] = [];
	const only = process.argv.slice(2);
	try {
		for (const bench of BENCHES) {
			if (only.length && !only.some((o) => bench.name.includes(o))) continue;
			const started = Date.now();
			process.stdout.write(`[bench] ${bench.name}…`);
			try {
				rows.push(...await bench.run());
				console.log(` ${((Date.now() - started) / 1000).toFixed(1)} s`);
			} catch (e) {
				const reason = e instanceof Error ? e.message.split('\n')[0]! : String(e);
				console.log(' could not run');
				rows.push({ name: bench.name, value: undefined, unit: '', note: reason });
				notes.push(`${bench.name}: ${reason}`);
			}
		}
	} finally {
		restoreDevelopmentBuild();
	}
	console.log('');
	console.log(table(rows));
	for (const note of notes) console.log(`n/a — ${note}`);
}

main().then(() => process.exit(0), (e: unknown) => {
	console.error(`[bench] ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
	process.exit(1);
});
