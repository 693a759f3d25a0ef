// Where start-up CPU goes: our VSIX beside a trivial extension, the host paused on an inspector port and
// profiled from its first line; a sample counts for the extension whose code is on its stack.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WebSocket } from 'undici';
import { freePort, launchBrowser, makeTempDir, startCodeServer } from '../host/codeServer';
import { packageVsix } from '../host/vsix';
import { waitFor, Workbench } from '../e2e/workbench';
import { trivialVsix } from './activationVsTrivial';
import { DEMO_USERS, LIFTED_RATE_LIMIT, startEmulator } from '../emulator/rig';
import { logInAsUser } from '../e2e/environment';
import { median, round, type BenchRow } from './types';

const RUNS = 9;
const SETTLE_MS = 4000;
/**
 * The most one sample stands for. The sampler ticks every 0.1–0.2 ms while the host's thread runs
 * (a thread blocked in a system call is still sampled); a longer gap means the thread was not
 * running at all (this 2-core machine runs the browser and the server too), not that ours was.
 */
const MAX_SAMPLE_MS = 1;

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
export interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

/** A minimal DevTools-protocol session over the inspector's WebSocket. */
class Inspector {
	private next = 1;
	private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
	private constructor(private readonly socket: WebSocket) {
		socket.addEventListener('message', (event) => {
			const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
			const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
			if (!waiting) return;
			this.pending.delete(message.id!);
			if (message.error) waiting.reject(new Error(message.error.message));
			else waiting.resolve(message.result);
		});
	}

	static async connect(port: number): Promise<Inspector> {
		const targets = await waitFor(`the extension host's inspector on ${port}`, async () => {
			try {
				const res = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(1000) });
				return (await res.json()) as { webSocketDebuggerUrl: string }[];
			} catch {
				return [];
			}
		}, (t) => t.length > 0, 60_000);
		const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
		await new Promise<void>((resolve, reject) => {
			socket.addEventListener('open', () => resolve());
			socket.addEventListener('error', () => reject(new Error('could not open the inspector socket')));
		});
		return new Inspector(socket);
	}

	send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
		const id = this.next++;
		return new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
			this.socket.send(JSON.stringify({ id, method, params }));
		});
	}

	close(): void {
		this.socket.close();
	}
}

/** One start-up: resumes the paused host with the profiler on, waits until both extensions show, stops. */
async function profileStartup(port: number, settled: () => Promise<void>): Promise<CpuProfile> {
	const inspector = await Inspector.connect(port);
	try {
		await inspector.send('Profiler.enable');
		await inspector.send('Profiler.setSamplingInterval', { interval: 100 });
		await inspector.send('Profiler.start');
		await inspector.send('Runtime.runIfWaitingForDebugger');
		await settled();
		await new Promise((r) => setTimeout(r, SETTLE_MS));
		const { profile } = await inspector.send<{ profile: CpuProfile }>('Profiler.stop');
		return profile;
	} finally {
		inspector.close();
	}
}

export interface Attribution {
	/** CPU ms on samples with a frame of the extension's files on the stack, each at most MAX_SAMPLE_MS. */
	totalMs: number;
	/** The same with every gap counted in full (the figure before MAX_SAMPLE_MS, noisier). */
	rawMs: number;
	/** The same, by the innermost of the extension's files on the stack. */
	byFile: Map<string, number>;
	/** By the extension's own innermost function on the stack (name:line:column). */
	byFunction: Map<string, number>;
}

/** Sums the profile's samples for the extension whose files live under `folder`. */
export function attribute(profile: CpuProfile, folder: string): Attribution {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const owner = new Map<number, ProfileNode | null>();
	const ownFrame = (id: number): ProfileNode | null => {
		const known = owner.get(id);
		if (known !== undefined) return known;
		const node = byId.get(id)!;
		const mine = node.callFrame.url.includes(folder) ? node : null;
		const up = parent.get(id);
		const found = mine ?? (up === undefined ? null : ownFrame(up));
		owner.set(id, found);
		return found;
	};
	const result: Attribution = { totalMs: 0, rawMs: 0, byFile: new Map(), byFunction: new Map() };
	profile.samples.forEach((id, i) => {
		const frame = ownFrame(id);
		if (!frame) return;
		const gap = (profile.timeDeltas[i + 1] ?? 0) / 1000;
		const ms = Math.min(gap, MAX_SAMPLE_MS);
		result.rawMs += gap;
		result.totalMs += ms;
		const file = path.basename(frame.callFrame.url);
		result.byFile.set(file, (result.byFile.get(file) ?? 0) + ms);
		const fn = `${file} ${frame.callFrame.functionName || '(top level)'}:${frame.callFrame.lineNumber + 1}:${frame.callFrame.columnNumber + 1}`;
		result.byFunction.set(fn, (result.byFunction.get(fn) ?? 0) + ms);
	});
	return result;
}

/**
 * Profiles `runs` start-ups of a fresh profile holding `vsix` and the trivial extension; with `storedSession`,
 * a user logged in to the demo service once before, so each start reads a stored session.
 */
export async function profileStarts(vsix: string, runs: number, options: { storedSession?: boolean } = {}): Promise<{ ours: Attribution[]; trivial: Attribution[] }> {
	const emulator = options.storedSession ? await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT }) : undefined;
	const server = await startCodeServer({ installExtensions: [vsix, trivialVsix()], settings: emulator ? { 'telematicsAuth.baseUrl': emulator.url } : {} });
	const browser = await launchBrowser({ persistentProfile: makeTempDir('chromium'), origin: server.url });
	const keep = process.env.TELEMATICS_PROFILE_DIR;
	try {
		const page = browser.context.pages()[0] ?? await browser.context.newPage();
		const wb = new Workbench(page);
		const user = DEMO_USERS[0]!;
		if (emulator) {
			await wb.open(server.workbenchUrl());
			await logInAsUser(wb, user);
			await wb.waitForStatus(user.name!);
		}
		const ours: Attribution[] = [];
		const trivial: Attribution[] = [];
		const folder = (name: string) => fs.readdirSync(server.extensionsDir).find((d) => d.includes(name))!;
		for (let run = 0; run < runs; run++) {
			const port = await freePort();
			const opened = wb.open(server.workbenchUrl({ inspectBrkExtensions: port }));
			const profile = await profileStartup(port, async () => {
				await opened;
				await waitFor('both status bar items', () => page.locator('.statusbar-item[id^="bench.trivial-status"], .statusbar-item[id*="telematics"]').count(), (n) => n >= 2, 60_000);
				if (emulator) await wb.waitForStatus(user.name!);
			});
			if (keep) fs.writeFileSync(path.join(keep, `startup-${options.storedSession ? 'session-' : ''}${Date.now()}.cpuprofile`), JSON.stringify(profile));
			ours.push(attribute(profile, folder('telematics-auth')));
			trivial.push(attribute(profile, folder('trivial-status')));
		}
		return { ours, trivial };
	} finally {
		await browser.close();
		await server.stop();
		await emulator?.close();
	}
}

/** The rows of one series of profiled starts: ours and the trivial extension's CPU, ours by file and by function. */
function profileRows(label: string, all: { ours: Attribution[]; trivial: Attribution[] }): BenchRow[] {
	// A start whose profile holds no sample of extension.js was caught too late.
	const kept = all.ours.map((a, i) => (a.byFile.has('extension.js') ? i : -1)).filter((i) => i >= 0);
	const ours = kept.map((i) => all.ours[i]!);
	const trivial = kept.map((i) => all.trivial[i]!);
	if (ours.length === 0) throw new Error(`no start ${label} was profiled from its beginning`);
	const files = [...new Set(ours.flatMap((a) => [...a.byFile.keys()]))].sort();
	const functions = new Map<string, number[]>();
	for (const a of ours) for (const [fn, ms] of a.byFunction) functions.set(fn, [...(functions.get(fn) ?? []), ms]);
	const top = [...functions].map(([fn, ms]) => ({ fn, ms: median([...ms, ...Array<number>(ours.length - ms.length).fill(0)]) }))
		.sort((a, b) => b.ms - a.ms).slice(0, 8);
	const ms = (values: number[]) => values.map((v) => round(v, 1)).join(', ');
	return [
		{ name: `start-up CPU ${label}, ours (profile, median of ${ours.length} of ${RUNS} starts${ours.length < RUNS ? `, ${RUNS - ours.length} caught too late` : ''}; ${ms(ours.map((a) => a.totalMs))} ms)`, value: round(median(ours.map((a) => a.totalMs)), 1), unit: 'ms' },
		{ name: `  the same with each sample's whole gap (${ms(ours.map((a) => a.rawMs))} ms)`, value: round(median(ours.map((a) => a.rawMs)), 1), unit: 'ms' },
		{ name: `start-up CPU ${label}, the trivial extension (same starts; ${ms(trivial.map((a) => a.totalMs))} ms)`, value: round(median(trivial.map((a) => a.totalMs)), 1), unit: 'ms' },
		...files.map((file): BenchRow => ({ name: `  ours in ${file}`, value: round(median(ours.map((a) => a.byFile.get(file) ?? 0)), 1), unit: 'ms' })),
		...top.map(({ fn, ms: value }): BenchRow => ({ name: `  ours, function ${fn}`, value: round(value, 1), unit: 'ms' })),
	];
}

export async function benchStartupProfile(): Promise<BenchRow[]> {
	const vsix = packageVsix();
	return [
		...profileRows('without an account', await profileStarts(vsix, RUNS)),
		...profileRows('with a stored session', await profileStarts(vsix, RUNS, { storedSession: true })),
	];
}
