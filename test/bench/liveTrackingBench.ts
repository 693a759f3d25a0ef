// Live Tracking with a large fleet (`npm run bench -- "Live Tracking"`): the emulator, in a process of its
// own, streams 100 and then 1,000 devices at one update a second each; this process runs what the
// extension host runs for the panel: the socket (ws), the connection, the fleet and the page feed, with
// each post serialized as VS Code serializes a webview message. It prints frame-to-post latency (the
// server's send time of a device's fix to the post that carries it: median and p95) and this process's CPU
// over the same window, as a share of one core. VS Code's webview transport and the page's drawing are
// not in it (the e2e test shows the page answering with 1,000 devices). Its reference, in the same runs:
// frame to arrival off the socket. Sizes alternate, nine runs each.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { openWebSocket } from '../../src/core/api/webSocket';
import { LiveConnection } from '../../src/core/liveTracking/connection';
import { Fleet } from '../../src/core/liveTracking/fleet';
import { PageFeed } from '../../src/core/liveTracking/pageFeed';
import { REALTIME_SOCKET_PATH } from '../../src/core/liveTracking/protocol';
import { systemClock } from '../../src/core/util/clock';
import { maskSecret } from '../../src/core/util/redact';
import { median, round, type BenchRow } from './types';

const WARM_UP_MS = 3000;
const MEASURE_MS = 8000;
const RUNS = 9;
const SIZES = [100, 1000] as const;

interface Run {
	latencies: number[];
	/** The reference: the server's send time of each fix to its arrival off the socket, parsed. */
	arrivals: number[];
	/** CPU time over the window, in ms per ms of wall time (1 = one core). */
	cpu: number;
	posts: number;
}

async function startEmulator(fleet: number): Promise<{ url: string; child: ChildProcess; admin: { instanceId: string; email: string; password: string } }> {
	const cli = path.join(__dirname, '..', 'emulator', 'cli.js');
	const child = spawn(process.execPath, [cli, '--port', '0', '--json', '--realtime-fleet', String(fleet)], { stdio: ['ignore', 'pipe', 'inherit'] });
	const line = await new Promise<string>((resolve, reject) => {
		createInterface({ input: child.stdout! }).once('line', resolve);
		child.once('exit', (code) => reject(new Error(`the emulator exited (${code})`)));
	});
	const started = JSON.parse(line) as { url: string; admins: Array<{ instanceId: string; email: string; password: string }> };
	return { url: started.url, child, admin: started.admins[0]! };
}

async function adminToken(url: string, admin: { instanceId: string; email: string; password: string }): Promise<string> {
	const answer = await fetch(`${url}/v1/Auth/Login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', InstanceId: admin.instanceId },
		body: JSON.stringify({ LoginFields: { Email: admin.email }, Password: admin.password }),
	});
	return ((await answer.json()) as { Result: { AccessToken: { Token: string } } }).Result.AccessToken.Token;
}

function percentile(samples: readonly number[], p: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(devices: number): Promise<Run> {
	const emulator = await startEmulator(devices - 2); // the two demo drives, and the rest
	try {
		const accessToken = await adminToken(emulator.url, emulator.admin);
		const fleet = new Fleet(maskSecret);
		let measuring = false;
		const latencies: number[] = [];
		const arrivals: number[] = [];
		let posts = 0;
		let connection: LiveConnection | undefined = undefined;
		const feed = new PageFeed({
			clock: systemClock,
			fleet,
			state: () => ({ kind: connection?.state.kind }),
			post: (message) => {
				JSON.stringify(message); // what VS Code does to a webview message
				if (!measuring) return;
				const now = Date.now();
				posts++;
				for (const device of message.fleet.devices) latencies.push(now - device.updatedAt);
			},
		});
		connection = new LiveConnection({
			clock: systemClock,
			openSocket: (handlers) => openWebSocket(`${emulator.url.replace(/^http/, 'ws')}${REALTIME_SOCKET_PATH}`, handlers),
			token: async () => ({ accessToken, instanceId: emulator.admin.instanceId }),
			masked: (text) => text,
		}, {
			state: () => feed.changed(),
			update: ({ devices: update, dropped }) => {
				const now = Date.now();
				if (measuring) for (const device of update) arrivals.push(now - (device.timestamp ?? now));
				fleet.update(update, dropped, now);
				feed.changed();
			},
			refused: () => fleet.refusedFrame(),
		});
		connection.start();
		await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
		if (connection.state.kind !== 'live') throw new Error(`the connection is ${connection.state.kind}, not live`);
		measuring = true;
		const cpuBefore = process.cpuUsage();
		const wallBefore = performance.now();
		await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
		const cpu = process.cpuUsage(cpuBefore);
		const wall = performance.now() - wallBefore;
		measuring = false;
		connection.dispose();
		feed.dispose();
		return { latencies, arrivals, cpu: (cpu.user + cpu.system) / 1000 / wall, posts };
	} finally {
		emulator.child.kill();
	}
}

export async function benchLiveTracking(): Promise<BenchRow[]> {
	const runs = new Map<number, Run[]>(SIZES.map((n) => [n, []]));
	for (let i = 0; i < RUNS; i++) for (const n of SIZES) runs.get(n)!.push(await measure(n));
	const rows: BenchRow[] = [];
	for (const n of SIZES) {
		const done = runs.get(n)!;
		const all = done.flatMap((r) => r.latencies);
		const cpu = done.map((r) => r.cpu * 100);
		const p95s = done.map((r) => percentile(r.latencies, 95));
		const arrived = done.flatMap((r) => r.arrivals);
		rows.push(
			{ name: `Live Tracking, ${n} devices at 1 Hz: reference, frame to arrival off the socket, median / p95`, value: round(median(arrived), 1), unit: 'ms', note: `p95 ${round(percentile(arrived, 95), 1)} ms` },
			{ name: `Live Tracking, ${n} devices at 1 Hz: frame to post, median (${RUNS} runs of ${MEASURE_MS / 1000} s, ${all.length} fixes)`, value: round(median(all), 1), unit: 'ms' },
			{ name: `Live Tracking, ${n} devices at 1 Hz: frame to post, p95 (per run ${p95s.map((p) => round(p, 0)).join(', ')}; reference p95 ${round(percentile(arrived, 95), 1)})`, value: round(percentile(all, 95), 1), unit: 'ms', ...(n === 100 && { target: '≤ 100' }) },
			{ name: `Live Tracking, ${n} devices at 1 Hz: CPU of the host's side, median (runs ${cpu.map((c) => round(c, 1)).join(', ')} %)`, value: round(median(cpu), 1), unit: '% core', ...(n === 1000 && { target: '≤ 10' }) },
			{ name: `Live Tracking, ${n} devices at 1 Hz: posts to the page a second`, value: round(median(done.map((r) => r.posts)) / (MEASURE_MS / 1000), 1), unit: '/s', target: '≤ 10' },
		);
	}
	return rows;
}
