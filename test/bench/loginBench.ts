// Login through our API client against raw undici `request` and `fetch` to the same local emulator:
// what our layers (body building, envelope parsing, redaction, the fetch transport) cost per call.
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, fetch, ProxyAgent, request, type Dispatcher } from 'undici';
import { loadTrustedRoots, nodeTrustStoreDeps } from '../../src/core/api/trustStore';
import * as fs from 'node:fs';
import * as tls from 'node:tls';
import { launchBrowser, makeTempDir, startCodeServer } from '../host/codeServer';
import { projectRoot } from '../host/paths';
import { startConnectProxy } from '../support/connectProxy';
import { makeTestCa, startHttpsFront } from '../support/testCa';
import { loginBody, loginHeaders, joinUrl, LOGIN_PATH } from '../../src/core/api/client';
import { createServiceClient } from '../../src/core/api/serviceClient';
import type { LoginRequest, ProxySettings } from '../../src/core/api/types';
import { DEMO_USERS, LIFTED_RATE_LIMIT, startEmulator } from '../emulator/rig';
import { silentLog } from '../../src/core/util/log';
import { median, round, type BenchRow } from './types';

const WARMUP = 10;
const ROUNDS = 50;
const BLOCK = 10;
/** Independent runs of ROUNDS each: the ratio is their median, with its spread. */
const RUNS = 9;

/** Alternating blocks of each function in turn: the median time of each (ms). */
async function alternate(fns: (() => Promise<void>)[]): Promise<number[]> {
	const timeOnce = async (fn: () => Promise<void>): Promise<number> => {
		const start = process.hrtime.bigint();
		await fn();
		return Number(process.hrtime.bigint() - start) / 1e6;
	};
	for (let i = 0; i < WARMUP; i++) for (const fn of fns) await fn();
	const times: number[][] = fns.map(() => []);
	for (let block = 0; block < ROUNDS / BLOCK; block++) {
		for (const [k, fn] of fns.entries()) for (let i = 0; i < BLOCK; i++) times[k]!.push(await timeOnce(fn));
	}
	return times.map(median);
}

/** RUNS alternating runs of `ours` and the references: the medians of each one's medians, and each run's ratio ours / reference. */
export async function compare(ours: () => Promise<void>, ...references: (() => Promise<void>)[]): Promise<{ ours: number; theirs: number[]; ratios: number[][] }> {
	const runs: number[][] = [];
	for (let run = 0; run < RUNS; run++) runs.push(await alternate([ours, ...references]));
	return {
		ours: median(runs.map((r) => r[0]!)),
		theirs: references.map((_, k) => median(runs.map((r) => r[k + 1]!))),
		ratios: references.map((_, k) => runs.map((r) => r[0]! / r[k + 1]!).sort((x, y) => x - y)),
	};
}

/** The ratio row: the median of the runs' ratios, with their range in the name. */
export function ratioRow(name: string, ratios: number[]): BenchRow {
	return { name: `${name} (median of ${RUNS} runs; ${round(ratios[0]!)}–${round(ratios.at(-1)!)})`, value: round(median(ratios)), unit: '×', target: '≤ 1.2' };
}

/**
 * The same over HTTPS, to a server signed by a test CA that only the "OS store" (a bundle named
 * by SSL_CERT_FILE) holds: our client with the trusted roots it builds, against raw undici given
 * just that CA. Also how long loading the trusted roots takes (once, on the first https request).
 */
export async function benchHttpsLogin(): Promise<BenchRow[]> {
	const ca = makeTestCa(path.join(os.tmpdir(), 'telematics-bench-ca'));
	const emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT });
	const front = await startHttpsFront(ca, emulator.port);
	try {
		const loads: number[] = [];
		for (let i = 0; i < 9; i++) {
			const started = performance.now();
			const roots = await loadTrustedRoots([], { ...nodeTrustStoreDeps, env: { SSL_CERT_FILE: ca.bundleFile } });
			tls.createSecureContext({ ca: roots.certificates });
			loads.push(performance.now() - started);
		}
		const user = DEMO_USERS[0]!;
		const login: LoginRequest = { kind: 'user', baseUrl: `https://localhost:${front.port}`, instanceId: user.instanceId, login: user.deviceToken, password: user.instanceKey, loginFieldsFormat: 'object' };
		const client = createServiceClient(silentLog, undefined, { env: { SSL_CERT_FILE: ca.bundleFile } });
		const proxy = { strictSSL: true, noProxy: [] };
		const agent = new Agent({ connect: { ca: [fs.readFileSync(ca.caFile, 'utf8')] } });
		const url = joinUrl(login.baseUrl, LOGIN_PATH);
		const { ours, theirs, ratios } = await compare(
			async () => {
				if (!(await client.login(login, { timeoutMs: 30_000, proxy })).accessToken) throw new Error('no token');
			},
			rawLogin('request', url, login, agent),
			rawLogin('fetch', url, login, agent),
		);
		await agent.close();
		const sorted = [...loads].sort((x, y) => x - y);
		return [
			{ name: `login over HTTPS via our client, OS-store roots (median of ${RUNS} runs of ${ROUNDS})`, value: round(ours), unit: 'ms' },
			{ name: `login over HTTPS via raw undici request, the one CA (same runs)`, value: round(theirs[0]!), unit: 'ms' },
			{ name: `login over HTTPS via raw undici fetch, the one CA (same runs)`, value: round(theirs[1]!), unit: 'ms' },
			ratioRow('HTTPS login, our client / raw undici request', ratios[0]!),
			ratioRow('HTTPS login, our client / raw undici fetch (what our layers add)', ratios[1]!),
			{ name: `trusted roots loaded + TLS context built, first https request only (median of 9, ${round(sorted[0]!, 1)}–${round(sorted.at(-1)!, 1)})`, value: round(median(loads), 1), unit: 'ms' },
		];
	} finally {
		await front.close();
		await emulator.close();
	}
}

/** One login by raw undici `request` or `fetch` through `dispatcher`, read and checked. */
export function rawLogin(api: 'request' | 'fetch', url: string, login: LoginRequest, dispatcher: Dispatcher): () => Promise<void> {
	const check = (status: number, body: { Result?: { AccessToken?: { Token?: string } } }) => {
		if (status !== 200 || !body.Result?.AccessToken?.Token) throw new Error(`raw login failed: ${status}`);
	};
	return api === 'request'
		? async () => {
			const res = await request(url, { method: 'POST', headers: loginHeaders(login), body: loginBody(login), dispatcher });
			check(res.statusCode, await res.body.json() as never);
		}
		: async () => {
			const res = await fetch(url, { method: 'POST', headers: loginHeaders(login), body: loginBody(login), dispatcher, redirect: 'manual' });
			check(res.status, await res.json() as never);
		};
}

/**
 * Login through our client (outside VS Code: the undici road, over undici's fetch as VS Code's own
 * road is a fetch) against raw undici `request` and raw undici `fetch` with the same dispatcher,
 * directly and through a CONNECT proxy on loopback.
 */
export async function benchLogin(): Promise<BenchRow[]> {
	const emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT, loopbackHostOnly: false });
	const proxy = await startConnectProxy(() => emulator.port);
	const direct = new Agent();
	const proxied = new ProxyAgent({ uri: proxy.url });
	try {
		const user = DEMO_USERS[0]!;
		const rows: BenchRow[] = [];
		const roads: [string, string, ProxySettings, Dispatcher][] = [
			['direct', emulator.url, { strictSSL: true, noProxy: [] }, direct],
			['through a CONNECT proxy', `http://telematics.test:${emulator.port}`, { proxyUrl: proxy.url, strictSSL: true, noProxy: [] }, proxied],
		];
		for (const [road, baseUrl, settings, dispatcher] of roads) {
			const login: LoginRequest = { kind: 'user', baseUrl, instanceId: user.instanceId, login: user.deviceToken, password: user.instanceKey, loginFieldsFormat: 'object' };
			const client = createServiceClient(silentLog);
			const viaClient = async (): Promise<void> => {
				const tokens = await client.login(login, { timeoutMs: 30_000, proxy: settings });
				if (!tokens.accessToken) throw new Error('no token');
			};
			const url = joinUrl(baseUrl, LOGIN_PATH);
			// Alternating blocks, so drift on a busy machine hits all three alike.
			const { ours, theirs, ratios } = await compare(viaClient, rawLogin('request', url, login, dispatcher), rawLogin('fetch', url, login, dispatcher));
			rows.push(
				{ name: `login ${road} via our client (median of ${RUNS} runs of ${ROUNDS}, local emulator)`, value: round(ours), unit: 'ms' },
				{ name: `login ${road} via raw undici request (same runs)`, value: round(theirs[0]!), unit: 'ms' },
				{ name: `login ${road} via raw undici fetch (same runs)`, value: round(theirs[1]!), unit: 'ms' },
				ratioRow(`login ${road}, our client / raw undici request`, ratios[0]!),
				ratioRow(`login ${road}, our client / raw undici fetch (what our layers add)`, ratios[1]!),
			);
		}
		return rows;
	} finally {
		await direct.close();
		await proxied.close();
		await proxy.close();
		await emulator.close();
	}
}

/** Where loginInVsCode.ts writes its rows (JSON). */
export const BENCH_OUTPUT_ENV = 'TELEMATICS_BENCH_OUTPUT';

/**
 * The same login inside a real extension host (code-server): through VS Code's fetch, through our
 * own undici road and through raw undici, over http and over HTTPS signed by a root VS Code's
 * certificate list holds (loginInVsCode.ts runs there as the tests module).
 */
export async function benchLoginInVsCode(): Promise<BenchRow[]> {
	const ca = makeTestCa(path.join(projectRoot, '.cache', 'test-ca'));
	const output = path.join(makeTempDir('bench'), 'rows.json');
	const server = await startCodeServer({ env: { TELEMATICS_TEST_CA_DIR: ca.dir, SSL_CERT_FILE: ca.bundleFile, NODE_EXTRA_CA_CERTS: undefined, [BENCH_OUTPUT_ENV]: output } });
	const browser = await launchBrowser({ origin: server.url });
	try {
		const page = await browser.context.newPage();
		const exited = new Promise<number>((resolve) => void page.exposeFunction('codeAutomationExit', resolve));
		await page.goto(server.workbenchUrl({ extensionDevelopmentPath: projectRoot, extensionTestsPath: path.join(projectRoot, 'out', 'test', 'bench', 'loginInVsCode') }));
		const code = await Promise.race([exited, new Promise<number>((resolve) => setTimeout(() => resolve(124), 10 * 60_000))]);
		if (code !== 0 || !fs.existsSync(output)) throw new Error(`the in-host login bench ended with ${code}`);
		return JSON.parse(fs.readFileSync(output, 'utf8')) as BenchRow[];
	} finally {
		await browser.close();
		await server.stop();
	}
}
