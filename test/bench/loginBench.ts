// Login through our API client against a raw undici `request` to the same local emulator:
// what our layers (body building, envelope parsing, redaction, lazy transport) cost per call.
import { request } from 'undici';
import { loginBody, loginHeaders, joinUrl, LOGIN_PATH } from '../../src/api/client';
import { lazyApiClient } from '../../src/api/lazyClient';
import type { LoginRequest } from '../../src/api/types';
import { DEMO_USERS, startEmulator } from '../../src/emulator/server';
import { silentLog } from '../../src/util/log';
import { median, round, type BenchRow } from './types';

const WARMUP = 10;
const ROUNDS = 50;
const BLOCK = 10;

export async function benchLogin(): Promise<BenchRow[]> {
	const emulator = await startEmulator({ loginRateLimit: { max: 1_000_000, windowSeconds: 60, blockSeconds: 1 } });
	try {
		const user = DEMO_USERS[0]!;
		const login: LoginRequest = {
			kind: 'user',
			baseUrl: emulator.url,
			instanceId: user.instanceId,
			login: user.deviceToken,
			password: user.instanceKey,
			loginFieldsFormat: 'object',
		};
		const client = lazyApiClient(silentLog);
		const viaClient = async (): Promise<void> => {
			const tokens = await client.login(login, { timeoutMs: 30_000 });
			if (!tokens.accessToken) throw new Error('no token');
		};
		const url = joinUrl(emulator.url, LOGIN_PATH);
		const raw = async (): Promise<void> => {
			const res = await request(url, { method: 'POST', headers: loginHeaders(login), body: loginBody(login) });
			const body = await res.body.json() as { Result?: { AccessToken?: { Token?: string } } };
			if (res.statusCode !== 200 || !body.Result?.AccessToken?.Token) throw new Error(`raw login failed: ${res.statusCode}`);
		};
		const timeOnce = async (fn: () => Promise<void>): Promise<number> => {
			const start = process.hrtime.bigint();
			await fn();
			return Number(process.hrtime.bigint() - start) / 1e6;
		};
		for (let i = 0; i < WARMUP; i++) {
			await viaClient();
			await raw();
		}
		const ours: number[] = [];
		const theirs: number[] = [];
		// Alternating blocks, so drift on a busy machine hits both alike (strict one-by-one
		// alternation between the two connection pools measured slower for both here).
		for (let block = 0; block < ROUNDS / BLOCK; block++) {
			for (let i = 0; i < BLOCK; i++) ours.push(await timeOnce(viaClient));
			for (let i = 0; i < BLOCK; i++) theirs.push(await timeOnce(raw));
		}
		const a = median(ours);
		const b = median(theirs);
		return [
			{ name: `login via our client (median of ${ROUNDS}, local emulator)`, value: round(a), unit: 'ms' },
			{ name: `login via raw undici request (median of ${ROUNDS})`, value: round(b), unit: 'ms' },
			{ name: 'login time ratio, our client / raw undici', value: round(a / b), unit: '×', target: '≤ 1.2' },
		];
	} finally {
		await emulator.close();
	}
}
