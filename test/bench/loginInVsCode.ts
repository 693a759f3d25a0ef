// The extension host's side of the in-VS-Code login bench (loginBench.ts starts it): login through VS
// Code's fetch, through our own undici road and through raw undici, same emulator, alternating.
import * as fs from 'node:fs';
import { Agent } from 'undici';
import { joinUrl, LOGIN_PATH } from '../../src/core/api/client';
import { createServiceClient } from '../../src/core/api/serviceClient';
import type { LoginRequest } from '../../src/core/api/types';
import { silentLog } from '../../src/core/util/log';
import { DEMO_USERS, LIFTED_RATE_LIMIT, startEmulator } from '../emulator/rig';
import { makeTestCa, startHttpsFront, trustTestRootLikeTheOsStore } from '../support/testCa';
import { BENCH_OUTPUT_ENV, compare, rawLogin, ratioRow } from './loginBench';
import { round, type BenchRow } from './types';

export async function run(): Promise<void> {
	const dir = process.env.TELEMATICS_TEST_CA_DIR!;
	trustTestRootLikeTheOsStore(dir);
	const ca = makeTestCa(dir);
	const emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT });
	const front = await startHttpsFront(ca, emulator.port);
	const rows: BenchRow[] = [];
	try {
		const user = DEMO_USERS[0]!;
		for (const [scheme, baseUrl] of [['http', emulator.url], ['https', `https://localhost:${front.port}`]] as const) {
			const login: LoginRequest = { kind: 'user', baseUrl, instanceId: user.instanceId, login: user.deviceToken, password: user.instanceKey, loginFieldsFormat: 'object' };
			const options = { timeoutMs: 30_000, proxy: { strictSSL: true, noProxy: [] } };
			const viaHost = createServiceClient(silentLog);
			const viaUndici = createServiceClient(silentLog, undefined, { hostFetch: () => undefined });
			const agent = new Agent({ connect: { ca: [fs.readFileSync(ca.caFile, 'utf8')] } });
			const { ours, theirs, ratios } = await compare(
				async () => void await viaHost.login(login, options),
				async () => void await viaUndici.login(login, options),
				rawLogin('request', joinUrl(baseUrl, LOGIN_PATH), login, agent),
			);
			await agent.close();
			rows.push(
				{ name: `in VS Code, ${scheme} login via VS Code's fetch (median of 9 runs of 50)`, value: round(ours), unit: 'ms' },
				{ name: `in VS Code, ${scheme} login via our own undici road (same runs)`, value: round(theirs[0]!), unit: 'ms' },
				{ name: `in VS Code, ${scheme} login via raw undici request (same runs)`, value: round(theirs[1]!), unit: 'ms' },
				{ ...ratioRow(`in VS Code, ${scheme} login, VS Code's fetch / our own undici road`, ratios[0]!), target: undefined },
				ratioRow(`in VS Code, ${scheme} login, VS Code's fetch / raw undici request`, ratios[1]!),
			);
		}
	} finally {
		await front.close();
		await emulator.close();
		fs.writeFileSync(process.env[BENCH_OUTPUT_ENV]!, JSON.stringify(rows));
	}
}
