// Login through our API client against raw undici `request` and `fetch` to the same local emulator:
// what our layers (body building, envelope parsing, redaction, the fetch transport) cost per call.
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, fetch, ProxyAgent, request, type Dispatcher } from 'undici';
import { loadTrustedRoots, nodeTrustStoreDeps } from '../../src/core/api/trustStore';
import * as fs from 'node:fs';
import * as tls from 'node:tls';
import { startConnectProxy } from '../support/connectProxy';
import { makeTestCa, startHttpsFront } from '../support/testCa';
import { loginBody, loginHeaders, joinUrl, LOGIN_PATH } from '../../src/core/api/client';
import { createServiceClient } from '../../src/core/api/serviceClient';
import type { LoginRequest, ProxySettings } from '../../src/core/api/types';
import { DEMO_USERS, startEmulator } from '../emulator/rig';
import { silentLog } from '../../src/core/util/log';
import { median, round, type BenchRow } from './types';

const WARMUP = 10;
const ROUNDS = 50;
const BLOCK = 10;
/** Independent runs of ROUNDS each: the ratio is their median, with its spread. */
const RUNS = 9;

/** Alternating blocks of `ours` and `theirs`: medians of each (ms). */
async function alternate(ours: () => Promise<void>, theirs: () => Promise<void>): Promise<[number, number]> {
	const timeOnce = async (fn: () => Promise<void>): Promise<number> => {
		const start = process.hrtime.bigint();
		await fn();
		return Number(process.hrtime.bigint() - start) / 1e6;
	};
	for (let i = 0; i < WARMUP; i++) {
		await ours();
		await theirs();
	}
	const a: number[] = [];
	const b: number[] = [];
	for (let block = 0; block < ROUNDS / BLOCK; block++) {
		for (let i = 0; i < BLOCK; i++) a.push(await timeOnce(ours));
		for (let i = 0; i < BLOCK; i++) b.push(await timeOnce(theirs));
	}
	return [median(a), median(b)];
}

/** RUNS alternating runs: the medians of each side's medians, and each run's ratio. */
async function compare(ours: () => Promise<void>, theirs: () => Promise<void>): Promise<{ ours: number; theirs: number; ratios: number[] }> {
	const a: number[] = [];
	const b: number[] = [];
	for (let run = 0; run < RUNS; run++) {
		const [x, y] = await alternate(ours, theirs);
		a.push(x);
		b.push(y);
	}
	return { ours: median(a), theirs: median(b), ratios: a.map((x, i) => x / b[i]!).sort((x, y) => x - y) };
}

/** The ratio row: the median of the runs' ratios, with their range in the name. */
function ratioRow(name: string, ratios: number[]): BenchRow {
	return { name: `${name} (median of ${RUNS} runs; ${round(ratios[0]!)}–${round(ratios.at(-1)!)})`, value: round(median(ratios)), unit: '×', target: '≤ 1.2' };
}

/**
 * The same over HTTPS, to a server signed by a test CA that only the "OS store" (a bundle named
 * by SSL_CERT_FILE) holds: our client with the trusted roots it builds, against raw undici given
 * just that CA. Also how long loading the trusted roots takes (once, on the first https request).
 */
export async function benchHttpsLogin(): Promise<BenchRow[]> {
	const ca = makeTestCa(path.join(os.tmpdir(), 'telematics-bench-ca'));
	const emulator = await startEmulator({ loginRateLimit: { max: 1_000_000, windowSeconds: 60, blockSeconds: 1 } });
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
		const { ours: a, theirs: b, ratios } = await compare(
			async () => {
				if (!(await client.login(login, { timeoutMs: 30_000, proxy })).accessToken) throw new Error('no token');
			},
			async () => {
				const res = await request(url, { method: 'POST', headers: loginHeaders(login), body: loginBody(login), dispatcher: agent });
				const body = await res.body.json() as { Result?: { AccessToken?: { Token?: string } } };
				if (res.statusCode !== 200 || !body.Result?.AccessToken?.Token) throw new Error(`raw login failed: ${res.statusCode}`);
			},
		);
		await agent.close();
		const sorted = [...loads].sort((x, y) => x - y);
		return [
			{ name: `login over HTTPS via our client, OS-store roots (median of ${RUNS} runs of ${ROUNDS})`, value: round(a), unit: 'ms' },
			{ name: `login over HTTPS via raw undici, the one CA (same runs)`, value: round(b), unit: 'ms' },
			ratioRow('HTTPS login time ratio, our client / raw undici', ratios),
			{ name: `trusted roots loaded + TLS context built, first https request only (median of 9, ${round(sorted[0]!, 1)}–${round(sorted.at(-1)!, 1)})`, value: round(median(loads), 1), unit: 'ms' },
		];
	} finally {
		await front.close();
		await emulator.close();
	}
}

/** One login by raw undici `request` or `fetch` through `dispatcher`, read and checked. */
function rawLogin(api: 'request' | 'fetch', url: string, login: LoginRequest, dispatcher: Dispatcher): () => Promise<void> {
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
	const emulator = await startEmulator({ loginRateLimit: { max: 1_000_000, windowSeconds: 60, blockSeconds: 1 }, loopbackHostOnly: false });
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
			// Alternating blocks, so drift on a busy machine hits both alike.
			const byRequest = await compare(viaClient, rawLogin('request', url, login, dispatcher));
			const byFetch = await compare(viaClient, rawLogin('fetch', url, login, dispatcher));
			rows.push(
				{ name: `login ${road} via our client (median of ${RUNS} runs of ${ROUNDS}, local emulator)`, value: round(byRequest.ours), unit: 'ms' },
				{ name: `login ${road} via raw undici request (same runs)`, value: round(byRequest.theirs), unit: 'ms' },
				{ name: `login ${road} via raw undici fetch (its own runs)`, value: round(byFetch.theirs), unit: 'ms' },
				ratioRow(`login ${road}, our client / raw undici request`, byRequest.ratios),
				ratioRow(`login ${road}, our client / raw undici fetch (what our layers add)`, byFetch.ratios),
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
