// `telematics-token`'s time per call (the per-window script, VS Code's runtime, the client, the channel and
// back) beside the same runtime started by the same kind of script on an empty file: 9 alternating runs.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHANNEL_ENV, NONCE_ENV } from '../../src/core/terminal/protocol';
import { posixScript } from '../../src/core/terminal/scripts';
import { openTokenChannel } from '../../src/features/terminal/tokenChannel';
import { projectRoot } from '../host/paths';
import { median, round, type BenchRow } from './types';

const RUNS = 9;
const CALLS = 10;
const BLOCK = 5;
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9.c2ln';

/** One call, timed from spawn to exit (asynchronously: the channel answers from this process). */
function timeCall(script: string, env: NodeJS.ProcessEnv): Promise<number> {
	const started = process.hrtime.bigint();
	return new Promise((resolve, reject) => {
		execFile(script, [], { env }, (error, _stdout, stderr) => {
			if (error) reject(new Error(`${path.basename(script)} failed: ${stderr}`));
			else resolve(Number(process.hrtime.bigint() - started) / 1e6);
		});
	});
}

export async function benchTerminalToken(): Promise<BenchRow[]> {
	const client = path.join(projectRoot, 'dist', 'tokenClient.js');
	if (!fs.existsSync(client)) return [{ name: 'telematics-token per call', value: undefined, unit: 'ms', note: 'dist/tokenClient.js is missing: npm run build' }];
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'terminal-bench-'));
	const channel = await openTokenChannel(async () => ({ ok: true, token: TOKEN, expiresAt: Date.now() + 3_600_000, label: 'Bench', serviceUrl: 'http://127.0.0.1:1' }), dir);
	await channel.listen();
	try {
		const helper = path.join(dir, 'telematics-token');
		const empty = path.join(dir, 'empty.js');
		const reference = path.join(dir, 'empty-runtime');
		fs.writeFileSync(empty, '');
		fs.writeFileSync(helper, posixScript(process.execPath, client), { mode: 0o700 });
		fs.writeFileSync(reference, posixScript(process.execPath, empty), { mode: 0o700 });
		const env = { PATH: process.env.PATH, [CHANNEL_ENV]: channel.address, [NONCE_ENV]: channel.nonce };
		for (let i = 0; i < 3; i++) {
			await timeCall(helper, env);
			await timeCall(reference, env);
		}
		const ours: number[] = [];
		const theirs: number[] = [];
		for (let run = 0; run < RUNS; run++) {
			const a: number[] = [];
			const b: number[] = [];
			for (let block = 0; block < CALLS / BLOCK; block++) {
				for (let i = 0; i < BLOCK; i++) a.push(await timeCall(helper, env));
				for (let i = 0; i < BLOCK; i++) b.push(await timeCall(reference, env));
			}
			ours.push(median(a));
			theirs.push(median(b));
		}
		const ratios = ours.map((x, i) => x / theirs[i]!).sort((x, y) => x - y);
		return [
			{ name: `telematics-token per call ÷ the same runtime on an empty script (median of ${RUNS} alternating runs; ${round(ratios[0]!)}–${round(ratios.at(-1)!)})`, value: round(median(ratios)), unit: '×', target: '≤ 1.3' },
			{ name: `telematics-token per call; the empty runtime (medians of ${RUNS} runs)`, value: round(median(ours), 1), unit: `ms; ${round(median(theirs), 1)} ms` },
		];
	} finally {
		await channel.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}
