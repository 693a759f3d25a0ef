// Where requests go (VS Code's fetch or undici) and what holds on either road: no redirect followed,
// 1 MiB read at most, one deadline for the whole exchange, certificate checks on, extra roots added.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../../src/core/api/errors';
import { chooseRoute } from '../../src/core/api/routes';
import { createServiceClient } from '../../src/core/api/serviceClient';
import type { Fetch } from '../../src/core/api/transport';
import type { ApiClient, LoginRequest, ProxySettings } from '../../src/core/api/types';
import { DEMO_USERS, LIFTED_RATE_LIMIT, type RiggedEmulator, startEmulator } from '../emulator/rig';
import { startCompanyNetwork, type CompanyNetwork } from '../support/companyNetwork';
import type { HttpsFront } from '../support/testCa';
import { RecordingLog } from '../support/doubles/recordingLog';
import { until } from '../support/until';

const none: ProxySettings = { strictSSL: true, noProxy: [] };
const user = DEMO_USERS[0]!;
const login = (baseUrl: string): LoginRequest => ({ kind: 'user', baseUrl, instanceId: user.instanceId, login: user.deviceToken, password: user.instanceKey, loginFieldsFormat: 'object' });

describe('chooseRoute: VS Code\'s fetch wherever it serves', () => {
	const cases: [string, Partial<ProxySettings>, boolean, 'host' | 'undici'][] = [
		['in VS Code, by default', {}, true, 'host'],
		['with a proxy, noProxy, strictSSL off or extra certificates', { proxyUrl: 'http://corp:3128', noProxy: ['a'], strictSSL: false, extraCertificates: ['/ca.pem'] }, true, 'host'],
		['with http.proxySupport off (VS Code\'s fetch then goes direct itself)', { proxySupport: 'off' }, true, 'host'],
		['outside VS Code, or in a host without the patched fetch', {}, false, 'undici'],
		['with http.fetchAdditionalSupport off', { fetchAdditionalSupport: false }, true, 'undici'],
		['with http.proxyAuthorization, which VS Code\'s fetch does not send', { proxyAuthorization: 'Basic eA==' }, true, 'undici'],
	];
	for (const [name, settings, host, expected] of cases) {
		it(`${name} → ${expected}`, () => assert.equal(chooseRoute({ ...none, ...settings }, host).kind, expected));
	}
});

/** Node's own fetch standing in for VS Code's, recording every URL it is asked for. */
function recordingHostFetch(): { fetch: () => Fetch; urls: string[] } {
	const urls: string[] = [];
	const fetch: Fetch = (url, init) => {
		urls.push(url);
		return globalThis.fetch(url, init as RequestInit) as unknown as ReturnType<Fetch>;
	};
	return { fetch: () => fetch, urls };
}

async function listen(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
	const outcome = await promise.then(() => undefined, (e: unknown) => e);
	assert.ok(outcome instanceof ApiError, `expected an ApiError, got ${String(outcome)}`);
	return outcome;
}

for (const road of ['VS Code\'s fetch', 'undici'] as const) {
	describe(`every request through ${road}`, function () {
		this.timeout(15_000);
		let emulator: RiggedEmulator;
		let server: Server;
		let baseUrl: string;
		let handler: Parameters<typeof createServer>[1];
		let host: ReturnType<typeof recordingHostFetch>;
		let client: ApiClient;

		before(async () => {
			emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT });
			server = createServer((req, res) => handler?.(req, res));
			baseUrl = await listen(server);
		});
		after(async () => {
			server.closeAllConnections();
			server.close();
			await emulator.close();
		});
		beforeEach(() => {
			host = recordingHostFetch();
			client = createServiceClient(new RecordingLog(), undefined, road === 'undici' ? { hostFetch: () => undefined } : { hostFetch: host.fetch });
		});

		it('logs in and refreshes, and only the chosen road carries them', async () => {
			const tokens = await client.login(login(emulator.url), { timeoutMs: 5000, proxy: none });
			await client.refresh({ baseUrl: emulator.url, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }, { timeoutMs: 5000, proxy: none });
			assert.deepEqual(host.urls.map((u) => new URL(u).pathname), road === 'undici' ? [] : ['/v1/Auth/Login', '/v1/Auth/RefreshToken']);
		});

		it('never follows a redirect: a 302 is an answer, and its Location gets no request', async () => {
			let followed = 0;
			const elsewhere = createServer((_req, res) => {
				followed++;
				res.end('{}');
			});
			const target = await listen(elsewhere);
			handler = (_req, res) => {
				res.writeHead(302, { Location: `${target}/v1/Auth/Login` });
				res.end();
			};
			try {
				const error = await failure(client.login(login(baseUrl), { timeoutMs: 5000, proxy: none }));
				assert.equal(error.kind, 'badResponse', error.message);
				assert.equal(followed, 0);
			} finally {
				elsewhere.close();
			}
		});

		it('reads at most 1 MiB of a body that does not say its length, then stops', async () => {
			let written = 0;
			handler = (_req, res) => {
				res.writeHead(200, { 'Content-Type': 'application/json' });
				const chunk = Buffer.alloc(64 * 1024, 'a');
				const pump = () => {
					while (written < 64 * 1024 * 1024 && !res.destroyed) {
						written += chunk.length;
						if (!res.write(chunk)) return void res.once('drain', pump);
					}
					res.end();
				};
				pump();
			};
			const error = await failure(client.login(login(baseUrl), { timeoutMs: 10_000, proxy: none }));
			assert.equal(error.kind, 'badResponse');
			assert.match(error.message, /larger than 1024 KiB/);
			assert.ok(written < 16 * 1024 * 1024, `the server wrote ${written} bytes before the client stopped reading`);
		});

		it('one deadline over the whole exchange: a body that trickles in still times out', async () => {
			handler = (_req, res) => {
				res.writeHead(200, { 'Content-Type': 'application/json' });
				const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
				res.on('close', () => clearInterval(timer));
			};
			const error = await failure(client.login(login(baseUrl), { timeoutMs: 600, proxy: none }));
			assert.equal(error.kind, 'timeout', error.message);
		});
	});
}

describe('the deadline on VS Code\'s road', () => {
	it('holds while VS Code\'s fetch is still looking up the proxy (a PAC file that never answers), and while it is cancelled', async () => {
		let asked = 0;
		const stuck: Fetch = () => {
			asked++;
			return new Promise(() => undefined);
		};
		const client = createServiceClient(new RecordingLog(), undefined, { hostFetch: () => stuck });
		const started = Date.now();
		const timedOut = await failure(client.login(login('https://telematics.test'), { timeoutMs: 300, proxy: none }));
		assert.equal(timedOut.kind, 'timeout', timedOut.message);
		assert.ok(Date.now() - started < 5000, 'it did not wait for the lookup');
		const controller = new AbortController();
		const pending = client.login(login('https://telematics.test'), { timeoutMs: 60_000, signal: controller.signal, proxy: none });
		await until('the second lookup to start', () => asked === 2);
		controller.abort();
		assert.equal((await failure(pending)).kind, 'cancelled');
	});
});

describe('certificates on either road', function () {
	this.timeout(15_000);
	let emulator: RiggedEmulator;
	let network: CompanyNetwork;
	let front: HttpsFront;

	before(async () => {
		emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT, loopbackHostOnly: false });
		network = await startCompanyNetwork(emulator.port);
		({ front } = network);
	});
	after(async () => {
		await network.close();
		await emulator.close();
	});

	it('VS Code\'s fetch with telematicsAuth.extraCertificates: gets Node\'s roots, the store and the extra file as its CA list', async () => {
		const host = recordingHostFetch();
		const client = createServiceClient(new RecordingLog(), undefined, { hostFetch: host.fetch, env: {} });
		const url = `https://localhost:${front.port}`;
		// Node's fetch alone does not know the company root ...
		const refused = await failure(client.login(login(url), { timeoutMs: 5000, proxy: none }));
		assert.match(refused.message, /issued by "Fleet Corp Inspection Root CA, Fleet Corp", which this computer does not trust/);
		// ... and trusts it once it is listed, through the bundled undici Agent it is handed.
		const tokens = await client.login(login(url), { timeoutMs: 5000, proxy: { ...none, extraCertificates: [network.ca.caFile] } });
		assert.ok(tokens.accessToken);
		assert.equal(host.urls.length, 2);
	});

	it('VS Code\'s fetch with NODE_EXTRA_CA_CERTS (which its own CA list leaves out): gets our list with that file in it', async () => {
		const host = recordingHostFetch();
		const url = `https://localhost:${front.port}`;
		const withoutIt = createServiceClient(new RecordingLog(), undefined, { hostFetch: host.fetch, env: {} });
		assert.match((await failure(withoutIt.login(login(url), { timeoutMs: 5000, proxy: none }))).message, /does not trust/);
		const withIt = createServiceClient(new RecordingLog(), undefined, { hostFetch: host.fetch, env: { NODE_EXTRA_CA_CERTS: network.ca.caFile } });
		assert.ok((await withIt.login(login(url), { timeoutMs: 5000, proxy: none })).accessToken);
		assert.equal(host.urls.length, 2);
	});

	it('undici with http.proxyStrictSSL off still checks the service\'s own certificate', async () => {
		const client = createServiceClient(new RecordingLog(), undefined, { hostFetch: () => undefined, env: {} });
		const error = await failure(client.login(login(`https://localhost:${front.port}`), { timeoutMs: 5000, proxy: { ...none, strictSSL: false } }));
		assert.equal(error.kind, 'network');
		assert.match(error.message, /does not trust/);
	});
});
