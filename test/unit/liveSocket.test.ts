// Live Tracking's socket (core/api/webSocket.ts) the way VS Code's network carries it: VS Code's own proxy
// agent patched onto Node's modules as the desktop host does (support/vscodeNetwork.ts), a PAC file that
// names a company proxy, a proxy that asks for sign-in, a company root; and what the socket refuses itself
// (an untrusted certificate, a redirect, a message past 1 MiB). Real servers on loopback throughout.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { LiveConnection, type ConnectionState } from '../../src/core/liveTracking/connection';
import { REALTIME_SOCKET_PATH } from '../../src/core/liveTracking/protocol';
import { MAX_SOCKET_MESSAGE_BYTES, openWebSocket } from '../../src/core/api/webSocket';
import { systemClock } from '../../src/core/util/clock';
import { startEmulator, type RiggedEmulator } from '../emulator/rig';
import { startCompanyNetwork, type CompanyNetwork } from '../support/companyNetwork';
import { installVsCodeNetwork, type VsCodeNetwork } from '../support/vscodeNetwork';
import { until } from '../support/until';
import { ADMIN, post } from './emulatorHttp';

/** Only the proxy knows this name (it tunnels every CONNECT to the company's HTTPS front). */
const SOCKET_URL = `wss://telematics.test${REALTIME_SOCKET_PATH}`;
const SIGN_IN = `Basic ${Buffer.from('corp:proxy-secret').toString('base64')}`;

describe('Live Tracking\'s socket through VS Code\'s network (its proxy agent, a PAC file, proxy sign-in)', function () {
	this.timeout(30_000);
	let em: RiggedEmulator;
	let network: CompanyNetwork;
	let vscodeNetwork: VsCodeNetwork | undefined;
	let connection: LiveConnection | undefined;
	let accessToken: string;

	before(async () => {
		// Through the front, the socket names telematics.test: the emulator takes any host name here.
		em = await startEmulator({ loopbackHostOnly: false });
		network = await startCompanyNetwork(em.port);
		const r = await post(`${em.url}/v1/Auth/Login`, { LoginFields: { Email: ADMIN.email }, Password: ADMIN.password }, { InstanceId: ADMIN.instanceId });
		assert.equal(r.status, 200);
		accessToken = (r.json.Result as { AccessToken: { Token: string } }).AccessToken.Token;
	});
	after(async () => {
		await network?.close();
		await em?.close();
	});
	afterEach(() => {
		connection?.dispose();
		connection = undefined;
		vscodeNetwork?.uninstall();
		vscodeNetwork = undefined;
		network.proxy.requireAuthorization = undefined;
		network.proxy.challenge = undefined;
	});

	/** A PAC file as a company publishes one: its own hosts through the proxy, everything else direct. */
	function pac(): string {
		return `function FindProxyForURL(url, host) {
			if (dnsDomainIs(host, "telematics.test")) return "PROXY 127.0.0.1:${new URL(network.proxy.url).port}";
			return "DIRECT";
		}`;
	}

	function connect(extraCertificates: readonly string[] = [network.ca.caFile]): ConnectionState[] {
		const states: ConnectionState[] = [];
		connection = new LiveConnection({
			clock: systemClock,
			openSocket: (handlers) => openWebSocket(SOCKET_URL, handlers, { extraCertificates, env: {} }),
			token: async () => ({ accessToken, instanceId: ADMIN.instanceId }),
			masked: (text) => text,
		}, { state: (s) => states.push(s), update: () => undefined, refused: () => undefined });
		connection.start();
		return states;
	}

	it('behind a PAC file that names a proxy, the socket goes through that proxy and authenticates', async () => {
		vscodeNetwork = await installVsCodeNetwork({ pac: pac() });
		const before = network.proxy.targets.length;
		connect();
		await until('live', () => connection!.state.kind === 'live');
		assert.deepEqual(network.proxy.targets.slice(before), ['telematics.test:443'], 'one tunnel, to the host the PAC file sends through the proxy');
		assert.ok(vscodeNetwork.asked.some((url) => url.startsWith('https://telematics.test/')), `the PAC file was asked: ${vscodeNetwork.asked.join(', ')}`);
	});

	it('a proxy that asks for sign-in: VS Code\'s sign-in answers once, and the socket gets through', async () => {
		vscodeNetwork = await installVsCodeNetwork({ pac: pac(), signIn: () => SIGN_IN });
		network.proxy.requireAuthorization = SIGN_IN;
		network.proxy.challenge = 'Basic realm="corp"';
		const before = network.proxy.authorizations.length;
		connect();
		await until('live', () => connection!.state.kind === 'live');
		assert.deepEqual(vscodeNetwork.signIns, ['Basic realm="corp"']);
		assert.deepEqual(network.proxy.authorizations.slice(before), ['', SIGN_IN], 'asked, then signed in');
	});

	it('sign-in cancelled: the socket does not get through, and nothing else is tried', async () => {
		vscodeNetwork = await installVsCodeNetwork({ pac: pac(), signIn: () => undefined });
		network.proxy.requireAuthorization = SIGN_IN;
		network.proxy.challenge = 'Basic realm="corp"';
		const states = connect();
		await until('waiting to reconnect', () => states.find((s) => s.kind === 'waiting'));
		assert.ok(!states.some((s) => s.kind === 'live' || s.kind === 'authenticating'), states.map((s) => s.kind).join());
	});

	it('without VS Code\'s network (Node\'s own modules) the same socket does not find the proxy: the choice is VS Code\'s', async () => {
		const before = network.proxy.targets.length;
		const states = connect();
		await until('waiting to reconnect', () => states.find((s) => s.kind === 'waiting'));
		assert.equal(network.proxy.targets.length, before);
	});

	it('through the proxy, a certificate no trusted root signed stops the socket: checks stay on', async () => {
		vscodeNetwork = await installVsCodeNetwork({ pac: pac() });
		const states = connect([]);
		await until('waiting to reconnect', () => states.find((s) => s.kind === 'waiting'));
		assert.ok(!states.some((s) => s.kind === 'authenticating' || s.kind === 'live'));
		assert.ok(network.proxy.targets.includes('telematics.test:443'), 'it did go through the proxy');
	});
});

describe('Live Tracking\'s socket refuses what it is handed (loopback servers)', () => {
	const servers: { close(): void }[] = [];
	afterEach(() => {
		for (const s of servers.splice(0)) s.close();
	});

	function open(url: string): Promise<{ opened: boolean; code: number; messages: number }> {
		return new Promise((resolve, reject) => {
			let opened = false;
			let messages = 0;
			openWebSocket(url, {
				open: () => (opened = true),
				message: () => messages++,
				closed: (code) => resolve({ opened, code, messages }),
			}).catch(reject);
		});
	}

	async function listen(server: Server): Promise<string> {
		servers.push(server);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
	}

	it('a message past 1 MiB closes the socket (1009) before it is taken; one just under is taken', async () => {
		const http = createServer();
		const wss = new WebSocketServer({ server: http });
		servers.push(wss);
		wss.on('connection', (socket, req) => {
			const size = req.url === '/over' ? MAX_SOCKET_MESSAGE_BYTES + 1 : MAX_SOCKET_MESSAGE_BYTES;
			socket.send('x'.repeat(size));
			if (req.url !== '/over') socket.close(1000);
		});
		const url = await listen(http);
		assert.deepEqual(await open(`${url}/under`), { opened: true, code: 1000, messages: 1 });
		assert.deepEqual(await open(`${url}/over`), { opened: true, code: 1009, messages: 0 });
	});

	it('an upgrade answered by a redirect is not followed', async () => {
		const hits: string[] = [];
		const url = await listen(createServer((req, res) => {
			hits.push(req.url ?? '');
			res.writeHead(302, { location: '/elsewhere' }).end();
		}));
		assert.deepEqual(await open(`${url}/socket`), { opened: false, code: 1006, messages: 0 });
		assert.deepEqual(hits, ['/socket']);
	});
});
