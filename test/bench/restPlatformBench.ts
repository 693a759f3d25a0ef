// The platform in REST files (issue 43): how long path completion takes to answer (the provider's work:
// the origins of four accounts' platforms indexed, the line read, the operations chosen), and the
// wrong-identity check over a 10,000-line file. 9 runs, alternating a POST and a GET line; each run is the
// median of 200 answers. Pure core only.
import { operationFor, OPERATIONS } from '../../src/core/platform/catalog';
import { platformHosts, type PlatformHosts } from '../../src/core/platform/hosts';
import { originIndex, pathCompletions } from '../../src/core/platform/pathCompletion';
import { wrongIdentities } from '../../src/core/restFile/wrongIdentity';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { median, round, type BenchRow } from './types';

const RUNS = 9;
const CALLS = 200;

function perCall(run: () => unknown, calls: number): number {
	const samples: number[] = [];
	for (let i = 0; i < calls; i++) {
		const start = process.hrtime.bigint();
		run();
		samples.push(Number(process.hrtime.bigint() - start) / 1e6);
	}
	return median(samples);
}

export function benchRestPlatform(): BenchRow[] {
	const platforms: PlatformHosts[] = ['https://user.telematicssdk.com', 'https://user.eu.telematicssdk.com', 'http://127.0.0.1:4100', 'https://gateway.example.com'].map((url) => platformHosts(url)!);
	const lines = ['POST https://api.telematicssdk.com/trips/get/', 'GET https://accounts.telematicssdk.com/v1/'];
	const complete = (line: string) => () => pathCompletions(line, originIndex(platforms), OPERATIONS);
	for (const line of lines) perCall(complete(line), 50); // warm up
	const runs: number[] = [];
	for (let run = 0; run < RUNS; run++) runs.push(perCall(complete(lines[run % 2]!), CALLS));
	const sorted = [...runs].sort((a, b) => a - b);

	const requests: string[] = [];
	for (let i = 0; requests.length < 10_000; i++) {
		requests.push(`### ${i}`, `POST https://api.telematicssdk.com/trips/get/admin/v1`, `Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_${i % 2 ? 'USER' : 'ADMIN'}}}`, 'Content-Type: application/json', '', '{}');
	}
	const text = requests.join('\n');
	const accounts = [
		{ id: 'u', name: 'user', kind: 'user' as const, hosts: platforms[0]! },
		{ id: 'a', name: 'admin', kind: 'admin' as const, hosts: platforms[0]! },
	];
	const check = () => wrongIdentities(parseRestFile(text), { accounts, bindings: new Map() }, operationFor);
	check();
	const checks: number[] = [];
	for (let run = 0; run < RUNS; run++) checks.push(perCall(check, 3));
	const checked = [...checks].sort((a, b) => a - b);
	return [
		{ name: `path completion answer (median of ${RUNS} alternating runs; spread ${round(sorted[0]!, 3)}–${round(sorted.at(-1)!, 3)} ms)`, value: round(median(runs), 3), unit: 'ms', target: '≤ 10' },
		{ name: `wrong-identity check of a 10,000-line file (median of ${RUNS} runs; spread ${round(checked[0]!)}–${round(checked.at(-1)!)} ms)`, value: round(median(checks)), unit: 'ms' },
	];
}
