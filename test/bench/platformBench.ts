// The platform's description and its index on first use: a fresh Node process loads dist/platform.js (the
// bundle the extension requires the first time a tool, a completion or a warning needs an operation) and
// answers a first lookup and a first search. Runs alternate with a baseline process that loads nothing,
// so a busy machine shows in both. Activation itself never loads the bundle (test/unit/bundles.test.ts).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { projectRoot } from '../host/paths';
import { median, round, type BenchRow } from './types';

const RUNS = 11;
const BUNDLE = path.join(projectRoot, 'dist', 'platform.js');

/** Wall-clock and CPU milliseconds the child spends in `body` (run after Node has started), as it reports them. */
function timeInFreshProcess(body: string): { wall: number; cpu: number } {
	const script = [
		'process.hrtime.bigint(); process.cpuUsage()',
		'const t = process.hrtime.bigint(), c = process.cpuUsage()',
		body,
		'const u = process.cpuUsage(c)',
		'process.stdout.write(JSON.stringify({ wall: Number(process.hrtime.bigint() - t) / 1e6, cpu: (u.user + u.system) / 1000 }))',
	].join('; ');
	const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, BUNDLE } });
	if (result.status !== 0) throw new Error(`the bench process failed: ${result.stderr.split('\n')[0]}`);
	return JSON.parse(result.stdout) as { wall: number; cpu: number };
}

const FIRST_USE = [
	'const p = require(process.env.BUNDLE)',
	"if (p.operationFor('POST', 'api', '/trips/get/v1/')?.id !== 'trips.user.list') throw new Error('lookup')",
	"if (p.searchOperations('delete user').length === 0) throw new Error('search')",
].join('; ');

export function benchPlatform(): BenchRow[] {
	const firstUse: Array<{ wall: number; cpu: number }> = [];
	const baseline: Array<{ wall: number; cpu: number }> = [];
	for (let i = 0; i < RUNS; i++) {
		firstUse.push(timeInFreshProcess(FIRST_USE));
		baseline.push(timeInFreshProcess('void 0'));
	}
	const spread = (samples: number[]) => Math.max(...samples) - Math.min(...samples);
	const wall = firstUse.map((r) => r.wall);
	const cpu = firstUse.map((r) => r.cpu);
	return [
		{ name: `platform description: load + first lookup and search, median of ${RUNS} fresh processes (CPU)`, value: round(median(cpu)), unit: 'ms', target: '≤ 20' },
		{ name: 'platform description: the same, wall clock', value: round(median(wall)), unit: 'ms' },
		{ name: 'platform description: spread (max − min) of the CPU runs', value: round(spread(cpu)), unit: 'ms' },
		{ name: 'platform description: baseline process (loads nothing), median CPU', value: round(median(baseline.map((r) => r.cpu)), 3), unit: 'ms' },
	];
}
