// Live Tracking against the emulator over loopback: the real connection (core/liveTracking/connection.ts)
// over the real client socket (core/api/webSocket.ts, ws) to the emulator's realtime socket. What the
// emulator was sent, what the connection did, and the hostile frames it was handed.
import * as assert from 'node:assert/strict';
import { LiveConnection, type ConnectionState, type LiveToken } from '../../src/core/liveTracking/connection';
import { maskSecret } from '../../src/core/util/redact';
import { Fleet } from '../../src/core/liveTracking/fleet';
import { REALTIME_SOCKET_PATH } from '../../src/core/liveTracking/protocol';
import { openWebSocket } from '../../src/core/api/webSocket';
import { systemClock } from '../../src/core/util/clock';
import { HOSTILE_DEVICE_TOKEN } from '../../src/emulator/realtime';
import { startEmulator, type RiggedEmulator } from '../emulator/rig';
import { until } from '../support/until';
import { ADMIN, post } from './emulatorHttp';

interface Tokens { AccessToken: { Token: string }; RefreshToken: string }

async function logInAdmin(em: RiggedEmulator): Promise<Tokens> {
	const r = await post(`${em.url}/v1/Auth/Login`, { LoginFields: { Email: ADMIN.email }, Password: ADMIN.password }, { InstanceId: ADMIN.instanceId });
	assert.equal(r.status, 200);
	return r.json.Result as Tokens;
}

describe('Live Tracking against the emulator (loopback socket)', function () {
	this.timeout(30_000);
	let em: RiggedEmulator;
	let connection: LiveConnection | undefined;

	afterEach(async () => {
		connection?.dispose();
		connection = undefined;
		await em?.close();
	});

	function connect(token: () => LiveToken | undefined) {
		const states: ConnectionState[] = [];
		const fleet = new Fleet(maskSecret);
		connection = new LiveConnection({
			clock: systemClock,
			openSocket: (handlers) => openWebSocket(`${em.url.replace(/^http/, 'ws')}${REALTIME_SOCKET_PATH}`, handlers, { env: {} }),
			token: async () => token(),
			masked: (text) => text,
		}, {
			state: (s) => states.push(s),
			update: (u) => fleet.update(u.devices, u.dropped, Date.now()),
			refused: () => fleet.refusedFrame(),
		});
		connection.start();
		return { states, fleet };
	}

	it('authenticates, streams two drives, answers pings, and re-authenticates with the refreshed token', async () => {
		em = await startEmulator({ realtimePingSeconds: 0.05, realtimeUpdateMs: 50 });
		let tokens = await logInAdmin(em);
		const live = () => ({ accessToken: tokens.AccessToken.Token, instanceId: ADMIN.instanceId });
		const { states, fleet } = connect(live);
		await until('live', () => connection!.state.kind === 'live');
		await until('two devices, each moved', () => fleet.view().devices.length === 2 && fleet.view().devices.every((d) => d.track.length >= 3));
		const [a, b] = fleet.view().devices;
		assert.notDeepEqual(a!.track[0], a!.track.at(-1), 'the first drive moves');
		assert.notDeepEqual(b!.track[0], b!.track.at(-1), 'the second drive moves');
		await until('pongs', () => em.realtime.pongs >= 2);
		assert.deepEqual(em.realtime.authenticateTokens, [tokens.AccessToken.Token]);

		const refreshed = await post(`${em.url}/v1/Auth/RefreshToken`, { AccessToken: tokens.AccessToken.Token, RefreshToken: tokens.RefreshToken });
		tokens = refreshed.json.Result as Tokens;
		connection!.tokenChanged(live());
		await until('authenticate with the new token', () => em.realtime.authenticateTokens.at(-1) === tokens.AccessToken.Token);
		await until('live again', () => connection!.state.kind === 'live');
		assert.equal(em.realtime.authenticateTokens.length, 2);
		assert.ok(states.some((s) => s.kind === 'reauthenticating'));
		assert.equal(em.realtime.openConnections, 1, 'the same socket');
	});

	it('after a server close, reconnects and authenticates again', async () => {
		em = await startEmulator({ realtimeUpdateMs: 50 });
		const tokens = await logInAdmin(em);
		connect(() => ({ accessToken: tokens.AccessToken.Token, instanceId: ADMIN.instanceId }));
		await until('live', () => connection!.state.kind === 'live');
		em.realtime.dropConnections();
		await until('waiting', () => connection!.state.kind === 'waiting' || em.realtime.authenticateTokens.length === 2);
		await until('authenticated on a new socket', () => em.realtime.authenticateTokens.length === 2 && connection!.state.kind === 'live', 10_000);
	});

	it('at the token\'s expiry the emulator sends an error and closes; the connection waits to reconnect with a fresh token', async () => {
		em = await startEmulator({ realtimeUpdateMs: 50, accessTokenLifetimeSeconds: 2 });
		const tokens = await logInAdmin(em);
		const { states } = connect(() => ({ accessToken: tokens.AccessToken.Token, instanceId: ADMIN.instanceId }));
		await until('live', () => connection!.state.kind === 'live');
		const waiting = await until('waiting after the expiry', () => states.find((s) => s.kind === 'waiting'), 10_000);
		assert.equal(waiting.kind === 'waiting' && waiting.error, 'token_expired: The access token expired. Authenticate again.');
	});

	it('a token the emulator did not sign, or for another instance, is refused: stopped, asking for a login, no retry', async () => {
		em = await startEmulator({});
		const tokens = await logInAdmin(em);
		const { states } = connect(() => ({ accessToken: tokens.AccessToken.Token, instanceId: 'another-instance' }));
		const stopped = await until('refused', () => states.find((s) => s.kind === 'stopped'));
		assert.ok(stopped.kind === 'stopped' && stopped.reason === 'needsLogin' && /^access_denied/.test(stopped.error ?? ''), JSON.stringify(stopped));
		assert.ok(!states.some((s) => s.kind === 'waiting'), 'no retry');
		connection!.dispose();
		const forged = connect(() => ({ accessToken: 'e30.e30.x', instanceId: ADMIN.instanceId }));
		const refused = await until('refused', () => forged.states.find((s) => s.kind === 'stopped'));
		assert.match(refused.kind === 'stopped' ? refused.error ?? '' : '', /^unauthorized/);
	});

	it('hostile frames: markup kept as text, bad coordinates dropped and counted, oversized and non-JSON frames refused, the drives unaffected', async () => {
		em = await startEmulator({ realtimeUpdateMs: 50, realtimeHostileFrames: true });
		const tokens = await logInAdmin(em);
		const { fleet } = connect(() => ({ accessToken: tokens.AccessToken.Token, instanceId: ADMIN.instanceId }));
		await until('hostile frames seen', () => fleet.view().dropped >= 4 && fleet.view().refused >= 2 && fleet.view().devices.length === 3);
		const view = fleet.view();
		assert.deepEqual(view.devices.map((d) => d.label).sort(), ['••••en-2', '••••oken', `••••${HOSTILE_DEVICE_TOKEN.slice(-4)}`].sort());
		assert.equal(connection!.state.kind, 'live', 'still live');
	});
});
