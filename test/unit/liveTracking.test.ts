// Live Tracking's protocol and reconnect plan, in plain Node on a fake clock: the frames read (hostile
// ones as data), the messages sent, and when the connection re-authenticates, reconnects or stops.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { authenticateMessage, MAX_DEVICES_PER_FRAME, MAX_FRAME_BYTES, MAX_TEXT, parseFrame, pongMessage } from '../../src/core/liveTracking/protocol';
import { backoffMs, MAX_BACKOFF_MS, GOT_IN_AFTER_MS, AUTH_DEADLINE_MS, SILENCE_MS, MAX_CONNECTS_PER_HOUR, LiveConnection, MAX_ATTEMPTS, type ConnectionState, type DeviceUpdate, type LiveSocket, type LiveToken, type SocketHandlers } from '../../src/core/liveTracking/connection';
import { maskSecret, redact } from '../../src/core/util/redact';
import { Fleet, MAX_DEVICES, TRACK_POINTS } from '../../src/core/liveTracking/fleet';
import { addressSignature, NETWORK_CHECK_MS, SLEPT_AFTER_MS, watchNetwork, type Interfaces, type NetworkChange } from '../../src/core/liveTracking/networkWatch';
import { createTestClock, settle } from '../support/doubles/fakeClock';

const update = (token: unknown, position: unknown) => JSON.stringify({ type: 'device_update', device_token: token, position });

describe('Live Tracking protocol', () => {
	it('authenticate carries the token and the instance in the frame; pong echoes the ping', () => {
		const sent = JSON.parse(authenticateMessage({ accessToken: 'tok.en.x', instanceId: 'inst-1' })) as Record<string, unknown>;
		assert.equal(sent.type, 'authenticate');
		assert.equal(sent.access_token, 'tok.en.x');
		assert.equal(sent.instance_id, 'inst-1');
		assert.deepEqual(Object.keys(sent).sort(), ['access_token', 'date_format', 'instance_id', 'timezone', 'type', 'units']);
		assert.deepEqual(JSON.parse(pongMessage(1234, 0)), { type: 'pong', timestamp: 1234 });
		assert.deepEqual(JSON.parse(pongMessage('soon', 99)), { type: 'pong', timestamp: 99 }, 'the timestamp is a number');
	});

	it('reads the server frames of the protocol', () => {
		assert.deepEqual(parseFrame('{"type":"authenticated"}'), { type: 'authenticated' });
		assert.deepEqual(parseFrame('{"type":"welcome","connection_id":"c1","server_time":"t","instance_id":"i"}'), { type: 'welcome', connectionId: 'c1', serverTime: 't', instanceId: 'i' });
		assert.deepEqual(parseFrame('{"type":"subscribed","topic":"devices"}'), { type: 'subscribed', topic: 'devices' });
		assert.deepEqual(parseFrame('{"type":"ping","timestamp":5}'), { type: 'ping', timestamp: 5 });
		assert.deepEqual(parseFrame('{"type":"error","code":"token_expired","message":"Token expired"}'), { type: 'error', code: 'token_expired', message: 'Token expired' });
		assert.deepEqual(parseFrame(update('dev-1', { latitude: 52.5, longitude: 13.4, speed: 42, heading: 90, timestamp: '2026-01-01T00:00:00Z' })), {
			type: 'device_update', dropped: 0,
			devices: [{ deviceToken: 'dev-1', latitude: 52.5, longitude: 13.4, speed: 42, heading: 90, timestamp: Date.UTC(2026, 0, 1) }],
		});
	});

	it('drops a device whose coordinates are not numbers or out of range, and counts it', () => {
		for (const position of [
			{ latitude: '52.5', longitude: 13.4 }, { latitude: 91, longitude: 0 }, { latitude: 0, longitude: -180.5 },
			{ latitude: null, longitude: 0 }, { longitude: 0 }, { latitude: 1e400, longitude: 0 }, 'here', null,
		]) {
			assert.deepEqual(parseFrame(update('dev-1', position)), { type: 'device_update', devices: [], dropped: 1 }, JSON.stringify(position));
		}
	});

	it('one bad device never stops the others in the same frame', () => {
		const frame = JSON.stringify({ type: 'device_update', devices: [
			{ device_token: 'a', position: { latitude: 1, longitude: 2 } },
			{ device_token: 'b', position: { latitude: 'x', longitude: 2 } },
			{ device_token: 42, position: { latitude: 1, longitude: 2 } },
			{ device_token: 'c', position: { latitude: -1, longitude: -2, speed: -5, heading: 'north' } },
		] });
		const read = parseFrame(frame);
		assert.equal(read.type, 'device_update');
		if (read.type !== 'device_update') return;
		assert.deepEqual(read.devices.map((d) => d.deviceToken), ['a', 'c']);
		assert.equal(read.dropped, 2);
		assert.equal(read.devices[1]!.speed, undefined, 'a negative speed is left out, the position kept');
		assert.equal(read.devices[1]!.heading, undefined);
	});

	it('keeps markup in a string field as text, cut to a bound', () => {
		const html = '<img src=x onerror=alert(1)>';
		const read = parseFrame(update(html, { latitude: 1, longitude: 1 }));
		assert.equal(read.type === 'device_update' && read.devices[0]!.deviceToken, html);
		const long = parseFrame(JSON.stringify({ type: 'error', message: 'x'.repeat(10_000) }));
		assert.equal(long.type === 'error' && long.message!.length, MAX_TEXT + 1);
	});

	it('refuses an oversized, binary, non-JSON or unknown frame unread', () => {
		assert.deepEqual(parseFrame(update('d', { latitude: 1, longitude: 1, pad: 'x'.repeat(MAX_FRAME_BYTES) })), { type: 'refused', reason: 'tooLarge' });
		assert.deepEqual(parseFrame(JSON.stringify({ type: 'ping', pad: 'é'.repeat(MAX_FRAME_BYTES / 2) })), { type: 'refused', reason: 'tooLarge' }, 'counted in bytes, not characters');
		assert.deepEqual(parseFrame({ byteLength: 10 }), { type: 'refused', reason: 'binary' });
		assert.deepEqual(parseFrame('{"type":'), { type: 'refused', reason: 'notJson' });
		assert.deepEqual(parseFrame('[1,2]'), { type: 'refused', reason: 'notObject' });
		assert.deepEqual(parseFrame('{"type":"__proto__"}'), { type: 'refused', reason: 'unknownType' });
	});

	it('never throws, and every device it keeps has coordinates in range (generated frames)', () => {
		const position = fc.record({ latitude: fc.oneof(fc.double(), fc.string(), fc.constant(null)), longitude: fc.oneof(fc.double(), fc.string()), speed: fc.anything(), timestamp: fc.anything() }, { requiredKeys: [] });
		const device = fc.record({ device_token: fc.oneof(fc.string(), fc.anything()), position: fc.oneof(position, fc.anything()) }, { requiredKeys: [] });
		const frame = fc.oneof(
			fc.record({ type: fc.constant('device_update'), devices: fc.array(device, { maxLength: 20 }) }).map((v) => JSON.stringify(v)),
			fc.json(), fc.string(),
		);
		fc.assert(fc.property(frame, (text) => {
			const read = parseFrame(text);
			if (read.type !== 'device_update') return;
			for (const d of read.devices) {
				assert.ok(Number.isFinite(d.latitude) && Math.abs(d.latitude) <= 90);
				assert.ok(Number.isFinite(d.longitude) && Math.abs(d.longitude) <= 180);
				assert.equal(typeof d.deviceToken, 'string');
			}
		}), { numRuns: 300 });
	});
});

describe('Live Tracking fleet', () => {
	it('keeps a short track per device and shows device tokens masked', () => {
		const fleet = new Fleet(maskSecret);
		for (let i = 0; i < TRACK_POINTS + 5; i++) fleet.update([{ deviceToken: 'demo-device-token-0001', latitude: i / 100, longitude: 0 }], 0, 1000 + i);
		const view = fleet.view();
		assert.equal(view.devices.length, 1);
		assert.equal(view.devices[0]!.label, '••••0001');
		assert.equal(view.devices[0]!.track.length, TRACK_POINTS);
		assert.equal(view.devices[0]!.updatedAt, 1000 + TRACK_POINTS + 4);
		assert.ok(!JSON.stringify(view).includes('demo-device-token'), 'no device token in what the page gets');
	});

	it('bounds the devices it keeps and counts what it drops', () => {
		const fleet = new Fleet(maskSecret);
		fleet.update(Array.from({ length: MAX_DEVICES + 3 }, (_, i) => ({ deviceToken: `device-${i}`, latitude: 0, longitude: 0 })), 2, 0);
		assert.equal(fleet.view().devices.length, MAX_DEVICES);
		assert.equal(fleet.view().dropped, 2, 'bad data only');
		assert.equal(fleet.view().notShown, 3, 'devices past the bound are counted as not shown');
	});

	it('gives only what changed since a version, and everything for none', () => {
		const fleet = new Fleet(maskSecret);
		fleet.update([{ deviceToken: 'a-device-token', latitude: 1, longitude: 1 }, { deviceToken: 'b-device-token', latitude: 2, longitude: 2 }], 0, 0);
		const first = fleet.view();
		assert.deepEqual([first.full, first.devices.length], [true, 2]);
		fleet.update([{ deviceToken: 'b-device-token', latitude: 3, longitude: 3 }], 0, 1);
		const changed = fleet.view(first.version);
		assert.deepEqual([changed.full, changed.devices.map((d) => d.id)], [false, [2]]);
		assert.deepEqual(fleet.view(changed.version).devices, [], 'nothing since');
		assert.equal(fleet.view(changed.version + 5).full, true, 'a version it never gave: everything');
	});
});

/** A socket the test drives: what the connection sent, and the server's side. */
class FakeSocket implements LiveSocket {
	readonly sent: Array<Record<string, unknown>> = [];
	closed = false;
	constructor(readonly handlers: SocketHandlers) { }
	send(text: string): void {
		this.sent.push(JSON.parse(text) as Record<string, unknown>);
	}
	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.handlers.closed(1000);
	}
	serverSends(frame: object): void {
		this.handlers.message(JSON.stringify(frame));
	}
	serverCloses(code = 1006): void {
		this.closed = true;
		this.handlers.closed(code);
	}
}

function rig(tokens: Array<LiveToken | undefined>) {
	const { timers, clock } = createTestClock();
	const sockets: FakeSocket[] = [];
	const states: ConnectionState[] = [];
	const updates: DeviceUpdate[] = [];
	let tokenCalls = 0;
	const connection = new LiveConnection({
		clock,
		openSocket: async (handlers) => {
			const socket = new FakeSocket(handlers);
			sockets.push(socket);
			return socket;
		},
		token: async () => tokens[Math.min(tokenCalls++, tokens.length - 1)],
		random: () => 1,
		masked: (text) => redact(text, [SECRET, ...tokens.flatMap((t) => (t ? [t.accessToken] : []))]),
	});
	connection.listen({ state: (s) => states.push(s), update: (u) => updates.push(u), refused: () => undefined });
	const open = async () => {
		await settle();
		const socket = sockets.at(-1)!;
		socket.handlers.open();
		return socket;
	};
	return { timers, connection, sockets, states, updates, open, tokenCalls: () => tokenCalls };
}

/** Another session's refresh token, known to the extension (what `sessionSecrets` lists). */
const SECRET = 'rt-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const T1 = { accessToken: 'token-1', instanceId: 'inst' };
const T2 = { accessToken: 'token-2', instanceId: 'inst' };

describe('Live Tracking reconnect plan (fake clock)', () => {
	it('authenticates in the first frame, goes live, pongs every ping and passes device updates on', async () => {
		const r = rig([T1]);
		r.connection.start();
		const socket = await r.open();
		assert.deepEqual(socket.sent[0], JSON.parse(authenticateMessage(T1)));
		assert.equal(r.connection.state.kind, 'authenticating');
		socket.serverSends({ type: 'authenticated' });
		socket.serverSends({ type: 'welcome', connection_id: 'c' });
		assert.equal(r.connection.state.kind, 'live');
		socket.serverSends({ type: 'ping', timestamp: 7 });
		socket.serverSends({ type: 'ping', timestamp: 8 });
		assert.deepEqual(socket.sent.slice(1), [{ type: 'pong', timestamp: 7 }, { type: 'pong', timestamp: 8 }]);
		socket.serverSends({ type: 'device_update', device_token: 'd', position: { latitude: 1, longitude: 2 } });
		assert.equal(r.updates.length, 1);
		r.connection.dispose();
	});

	it('re-authenticates on the open socket with the new token after a refresh', async () => {
		const r = rig([T1]);
		r.connection.start();
		const socket = await r.open();
		socket.serverSends({ type: 'authenticated' });
		r.connection.tokenChanged(T1); // the same token: nothing sent
		r.connection.tokenChanged(T2);
		assert.deepEqual(socket.sent.map((m) => m.access_token).filter(Boolean), ['token-1', 'token-2']);
		assert.equal(r.connection.state.kind, 'reauthenticating');
		socket.serverSends({ type: 'authenticated' });
		assert.equal(r.connection.state.kind, 'live');
		assert.equal(r.sockets.length, 1, 'no new socket for a refresh');
		r.connection.dispose();
	});

	it('after an error or a close, waits with a growing backoff and connects again with a fresh token', async () => {
		const r = rig([T1, T2, T2]);
		r.connection.start();
		let socket = await r.open();
		socket.serverSends({ type: 'authenticated' });
		socket.serverSends({ type: 'error', code: 'token_expired', message: 'Token expired' });
		assert.ok(socket.closed, 'the connection closes the socket after an error');
		assert.deepEqual(r.connection.state, { kind: 'waiting', attempt: 1, retryInMs: 1000, error: 'token_expired: Token expired' });
		r.timers.tick(999);
		await settle();
		assert.equal(r.sockets.length, 1, 'not before the backoff');
		r.timers.tick(1);
		socket = await r.open();
		assert.equal(r.sockets.length, 2);
		assert.equal(socket.sent[0]!.access_token, 'token-2', 'the new connection asks for a fresh token');
		socket.serverCloses(1006);
		assert.deepEqual(r.connection.state, { kind: 'waiting', attempt: 2, retryInMs: 2000, error: 'closed (1006)' });
		r.timers.tick(2000);
		socket = await r.open();
		socket.serverSends({ type: 'authenticated' });
		socket.serverSends({ type: 'device_update', device_token: 'd', position: { latitude: 1, longitude: 2 } });
		socket.serverCloses();
		assert.equal(r.connection.state.kind === 'waiting' && r.connection.state.attempt, 3, 'a device update alone does not start the backoff over');
		r.timers.tick(4000);
		socket = await r.open();
		socket.serverSends({ type: 'authenticated' });
		for (let s = 0; s < GOT_IN_AFTER_MS; s += 30_000) {
			r.timers.tick(30_000);
			socket.serverSends({ type: 'ping', timestamp: s });
		}
		socket.serverCloses();
		assert.equal(r.connection.state.kind === 'waiting' && r.connection.state.attempt, 1, 'one that stayed live a minute does');
		r.connection.dispose();
	});

	it(`a service that authenticates and then closes is a failed attempt: it stops after ${MAX_ATTEMPTS}, the token sent no more`, async () => {
		const r = rig([T1]);
		r.connection.start();
		for (let i = 1; i <= MAX_ATTEMPTS + 1; i++) {
			const socket = await r.open();
			socket.serverSends({ type: 'authenticated' });
			socket.serverSends({ type: 'ping', timestamp: i });
			r.timers.tick(GOT_IN_AFTER_MS - 1);
			socket.serverCloses(1000);
			r.timers.tick(backoffMs(i));
		}
		await settle();
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'refused', error: 'closed (1000)' });
		r.timers.tick(60 * 60_000);
		await settle();
		assert.equal(r.sockets.length, MAX_ATTEMPTS + 1, 'no socket after the stop');
		assert.equal(r.tokenCalls(), MAX_ATTEMPTS + 1, 'no token asked for after the stop');
	});

	it('the service\'s error text reaches the state (the page, the log) with every session secret masked', async () => {
		const r = rig([{ accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl', instanceId: 'inst' }]);
		r.connection.start();
		let socket = await r.open();
		socket.serverSends({ type: 'authenticated' });
		socket.serverSends({ type: 'error', code: 'bad', message: `token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl and ${SECRET} refused` });
		const waiting = r.connection.state;
		assert.ok(waiting.kind === 'waiting' && waiting.error?.startsWith('bad: token '), JSON.stringify(waiting));
		assert.ok(!JSON.stringify(r.states).includes('c2lnbmF0dXJlLXZhbHVl'), 'the access token is masked');
		assert.ok(!JSON.stringify(r.states).includes(SECRET), 'another session\'s secret is masked');
		r.timers.tick(1000);
		socket = await r.open();
		socket.serverSends({ type: 'authenticated' });
		socket.serverSends({ type: 'error', message: SECRET });
		assert.ok(!JSON.stringify(r.connection.state).includes(SECRET));
		r.connection.dispose();
	});

	it('stops without a session, opens no socket and does not loop', async () => {
		const r = rig([undefined]);
		r.connection.start();
		await settle();
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'needsLogin' });
		r.timers.tick(10 * 60_000);
		await settle();
		assert.equal(r.sockets.length, 0);
		assert.equal(r.tokenCalls(), 1);
	});

	it('a session lost mid-connection stops it; a new login starts it again', async () => {
		const r = rig([T1, T2]);
		r.connection.start();
		const socket = await r.open();
		socket.serverSends({ type: 'authenticated' });
		r.connection.tokenChanged(undefined);
		assert.ok(socket.closed);
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'needsLogin' });
		r.timers.tick(10 * 60_000);
		assert.equal(r.sockets.length, 1);
		r.connection.tokenChanged(T2);
		const again = await r.open();
		assert.equal(again.sent[0]!.access_token, 'token-2');
		r.connection.dispose();
	});

	it(`gives up after ${MAX_ATTEMPTS} attempts in a row that never got in`, async () => {
		const r = rig([T1]);
		r.connection.start();
		for (let i = 1; i <= MAX_ATTEMPTS + 1; i++) {
			const socket = await r.open();
			socket.serverCloses(1011);
			r.timers.tick(backoffMs(i));
		}
		await settle();
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'refused', error: 'closed (1011)' });
		assert.equal(r.sockets.length, MAX_ATTEMPTS + 1);
		r.timers.tick(10 * 60_000);
		await settle();
		assert.equal(r.sockets.length, MAX_ATTEMPTS + 1);
	});

	it('backoff doubles from 1 s and stays at 30 s, jittered down to half', () => {
		assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 20].map((a) => backoffMs(a)), [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
		assert.deepEqual([1, 6].map((a) => backoffMs(a, 0)), [500, 15000]);
		assert.equal(backoffMs(3, 0.5), 3000);
	});

	it('a token the service refuses before authenticated stops and asks for a login; a new token resumes', async () => {
		const r = rig([T1, T2]);
		r.connection.start();
		const socket = await r.open();
		socket.serverSends({ type: 'error', code: 'unauthorized', message: 'invalid token' });
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'needsLogin', error: 'unauthorized: invalid token' });
		r.timers.tick(60 * 60_000);
		r.connection.tokenChanged(T1);
		await settle();
		assert.equal(r.sockets.length, 1, 'neither time nor the same token sends it again');
		r.connection.tokenChanged(T2);
		const again = await r.open();
		assert.equal(again.sent[0]!.access_token, 'token-2', 'a new token resumes');
		r.connection.dispose();
	});

	it(`no authenticated within ${AUTH_DEADLINE_MS / 1000} s: the socket is replaced, and nothing sent before it is taken`, async () => {
		const r = rig([T1]);
		r.connection.start();
		const socket = await r.open();
		socket.serverSends({ type: 'device_update', device_token: 'd', position: { latitude: 1, longitude: 2 } });
		assert.equal(r.updates.length, 0, 'an update before authenticated is not taken');
		r.timers.tick(AUTH_DEADLINE_MS - 1);
		assert.equal(r.connection.state.kind, 'authenticating');
		r.timers.tick(1);
		assert.ok(socket.closed);
		assert.deepEqual(r.connection.state, { kind: 'waiting', attempt: 1, retryInMs: 1000, error: `no answer to authenticate within ${AUTH_DEADLINE_MS / 1000} s` });
		r.connection.dispose();
	});

	it(`a socket silent for ${SILENCE_MS / 1000} s (after sleep, a VPN change) is replaced; pings keep it`, async () => {
		const r = rig([T1]);
		r.connection.start();
		const socket = await r.open();
		socket.serverSends({ type: 'authenticated' });
		for (let i = 0; i < 10; i++) {
			r.timers.tick(30_000);
			socket.serverSends({ type: 'ping', timestamp: i });
		}
		assert.equal(r.connection.state.kind, 'live', 'a ping every 30 s keeps it live');
		r.timers.tick(SILENCE_MS);
		assert.ok(socket.closed);
		assert.equal(r.connection.state.kind, 'waiting');
		r.timers.tick(1000);
		const next = await r.open();
		next.serverSends({ type: 'authenticated' });
		assert.equal((r.connection.state as ConnectionState).kind, 'live', 'and a new socket is live');
		r.connection.dispose();
	});

	it('a service that authenticates, sends one update and closes gets a handful of reconnects in five minutes, then stops; a refresh resumes', async () => {
		const r = rig([T1, T1, T1, T1, T1, T1, T1, T1, T1, T1, T2]);
		r.connection.start();
		const started = r.sockets.length;
		for (let elapsed = 0; elapsed < 5 * 60_000 && r.connection.state.kind !== 'stopped'; elapsed += 1000) {
			const socket = r.sockets.at(-1);
			if (socket && !socket.closed && r.connection.state.kind === 'connecting') {
				await r.open();
				socket.serverSends({ type: 'authenticated' });
				socket.serverSends({ type: 'device_update', device_token: 'd', position: { latitude: 1, longitude: 2 } });
				socket.serverCloses(1000);
			}
			r.timers.tick(1000);
			await settle();
		}
		const reconnects = r.sockets.length - started;
		assert.ok(reconnects <= MAX_ATTEMPTS + 1, `${reconnects} sockets in five minutes`);
		assert.equal(r.connection.state.kind, 'stopped');
		r.connection.tokenChanged(T2);
		await settle();
		assert.equal((r.connection.state as ConnectionState).kind, 'connecting', 'the next refresh resumes');
		r.connection.dispose();
	});

	it(`opens at most ${MAX_CONNECTS_PER_HOUR} sockets in an hour, whatever got in`, async () => {
		const r = rig([T1]);
		r.connection.start();
		for (let i = 0; i < MAX_CONNECTS_PER_HOUR + 5; i++) {
			const socket = await r.open();
			if (r.connection.state.kind === 'stopped') break;
			socket.serverSends({ type: 'authenticated' });
			for (let s = 0; s < GOT_IN_AFTER_MS; s += 30_000) {
				r.timers.tick(30_000);
				socket.serverSends({ type: 'ping', timestamp: s });
			}
			socket.serverCloses(1000);
			r.timers.tick(1000);
		}
		await settle();
		assert.ok(r.sockets.length <= MAX_CONNECTS_PER_HOUR, `${r.sockets.length} sockets`);
		assert.equal(r.connection.state.kind === 'stopped' && r.connection.state.reason, 'refused');
		r.connection.dispose();
	});

	it('a network change: a connection waiting to retry tries at once; one that gave up starts again; one that needs a login does not', async () => {
		const waiting = rig([T1]);
		waiting.connection.start();
		(await waiting.open()).serverCloses(1006);
		await settle();
		assert.equal(waiting.connection.state.kind, 'waiting');
		const before = waiting.sockets.length;
		waiting.connection.networkChanged();
		await settle();
		assert.equal(waiting.sockets.length, before + 1, 'connected now, not after the wait');
		assert.equal(waiting.connection.state.kind, 'connecting');
		waiting.timers.tick(MAX_BACKOFF_MS);
		await settle();
		assert.equal(waiting.sockets.length, before + 1, 'the wait it replaced opens nothing more');
		waiting.connection.dispose();

		const gaveUp = rig([T1]);
		gaveUp.connection.start();
		for (let i = 1; i <= MAX_ATTEMPTS + 1; i++) {
			(await gaveUp.open()).serverCloses(1011);
			gaveUp.timers.tick(backoffMs(i));
		}
		await settle();
		assert.equal(gaveUp.connection.state.kind === 'stopped' && gaveUp.connection.state.reason, 'refused');
		gaveUp.connection.networkChanged();
		(await gaveUp.open()).serverSends({ type: 'authenticated' });
		assert.equal(gaveUp.connection.state.kind, 'live');
		gaveUp.connection.dispose();

		const loggedOut = rig([undefined]);
		loggedOut.connection.start();
		await settle();
		assert.equal(loggedOut.connection.state.kind === 'stopped' && loggedOut.connection.state.reason, 'needsLogin');
		loggedOut.connection.networkChanged();
		await settle();
		assert.equal(loggedOut.sockets.length, 0);
		assert.equal(loggedOut.connection.state.kind === 'stopped' && loggedOut.connection.state.reason, 'needsLogin');
	});

	it(`network changes cannot make a loop: the ${MAX_CONNECTS_PER_HOUR} sockets an hour still hold`, async () => {
		const r = rig([T1]);
		r.connection.start();
		for (let i = 0; i < MAX_CONNECTS_PER_HOUR * 3; i++) {
			await settle();
			r.sockets.at(-1)?.serverCloses(1006);
			r.connection.networkChanged();
			r.timers.tick(NETWORK_CHECK_MS);
		}
		await settle();
		assert.equal(r.sockets.length, MAX_CONNECTS_PER_HOUR);
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'refused', error: `${MAX_CONNECTS_PER_HOUR} connections in the last hour` });
		r.connection.dispose();
	});

	it('a disposed connection closes its socket and ignores what comes after', async () => {
		const r = rig([T1]);
		r.connection.start();
		const socket = await r.open();
		r.connection.dispose();
		assert.ok(socket.closed);
		socket.serverSends({ type: 'authenticated' });
		r.timers.tick(60_000);
		await settle();
		assert.equal(r.sockets.length, 1);
	});
});

describe('Live Tracking network watch (fake clock)', () => {
	const wifi = (address: string): Interfaces => ({ lo: [{ address: '127.0.0.1', internal: true }], wlan0: [{ address, internal: false }] });

	function watch(interfaces: () => Interfaces) {
		const { timers, clock } = createTestClock();
		const changes: NetworkChange[] = [];
		const watcher = watchNetwork({ clock, interfaces }, (why) => changes.push(why));
		return { timers, changes, watcher };
	}

	it('says when the outward addresses change (a VPN, another Wi-Fi), and nothing while they stay', () => {
		let now = wifi('192.168.1.20');
		const w = watch(() => now);
		w.timers.tick(NETWORK_CHECK_MS * 5);
		assert.deepEqual(w.changes, []);
		now = { ...wifi('192.168.1.20'), tun0: [{ address: '10.8.0.2', internal: false }] };
		w.timers.tick(NETWORK_CHECK_MS);
		assert.deepEqual(w.changes, ['addresses']);
		w.timers.tick(NETWORK_CHECK_MS * 3);
		assert.deepEqual(w.changes, ['addresses'], 'once per change');
		w.watcher.dispose();
		now = wifi('172.16.0.9');
		w.timers.tick(NETWORK_CHECK_MS * 3);
		assert.deepEqual(w.changes, ['addresses'], 'nothing after dispose');
	});

	it('says when the machine slept: a check far later than asked', () => {
		const w = watch(() => wifi('192.168.1.20'));
		w.timers.tick(NETWORK_CHECK_MS - 1);
		w.timers.setSystemTime(w.timers.now + 10 * 60_000); // asleep: the clock moves, no timer runs
		w.timers.tick(1);
		assert.deepEqual(w.changes, ['slept']);
		w.timers.tick(NETWORK_CHECK_MS + SLEPT_AFTER_MS - 1);
		assert.deepEqual(w.changes, ['slept'], 'a check on time is no sleep');
		w.watcher.dispose();
	});

	it('loopback, the order of the list and an unreadable list are no change', () => {
		assert.equal(addressSignature({ b: [{ address: '2', internal: false }], a: [{ address: '1', internal: false }], lo: [{ address: '::1', internal: true }] }),
			addressSignature({ a: [{ address: '1', internal: false }], b: [{ address: '2', internal: false }], eth9: undefined }));
		let calls = 0;
		const w = watch(() => {
			if (++calls > 1) throw new Error('EPERM');
			return wifi('192.168.1.20');
		});
		w.timers.tick(NETWORK_CHECK_MS * 3);
		assert.deepEqual(w.changes, []);
		w.watcher.dispose();
	});
});

describe('Live Tracking protocol: bounds and defaults', () => {
	it('authenticate asks for metric units, UTC and ISO dates unless told otherwise', () => {
		assert.deepEqual(JSON.parse(authenticateMessage({ accessToken: 'a', instanceId: 'i' })), { type: 'authenticate', access_token: 'a', instance_id: 'i', units: 'metric', timezone: 'UTC', date_format: 'iso' });
		assert.deepEqual(JSON.parse(authenticateMessage({ accessToken: 'a', instanceId: 'i', units: 'imperial', timezone: 'Europe/Berlin', dateFormat: 'unix' })), { type: 'authenticate', access_token: 'a', instance_id: 'i', units: 'imperial', timezone: 'Europe/Berlin', date_format: 'unix' });
	});

	it('a binary frame is refused as binary, or as too large past the bound', () => {
		assert.deepEqual(parseFrame({ byteLength: MAX_FRAME_BYTES }), { type: 'refused', reason: 'binary' });
		assert.deepEqual(parseFrame({ byteLength: MAX_FRAME_BYTES + 1 }), { type: 'refused', reason: 'tooLarge' });
	});

	it('a text frame of exactly the bound is read; one byte more is refused', () => {
		const frame = (bytes: number) => { const base = '{"type":"ping","pad":""}'; return `${base.slice(0, -2)}${'x'.repeat(bytes - base.length)}"}`; };
		assert.deepEqual(parseFrame(frame(MAX_FRAME_BYTES)), { type: 'ping' });
		assert.deepEqual(parseFrame(frame(MAX_FRAME_BYTES + 1)), { type: 'refused', reason: 'tooLarge' });
	});

	it('a ping\'s timestamp is kept when it is a finite number or text (cut to the bound), else left out', () => {
		assert.deepEqual(parseFrame('{"type":"ping"}'), { type: 'ping' });
		assert.deepEqual(parseFrame('{"type":"ping","timestamp":true}'), { type: 'ping' });
		assert.deepEqual(parseFrame('{"type":"ping","timestamp":1e400}'), { type: 'ping' });
		assert.deepEqual(parseFrame('{"type":"ping","timestamp":"soon"}'), { type: 'ping', timestamp: 'soon' });
		assert.deepEqual(parseFrame(JSON.stringify({ type: 'ping', timestamp: 'x'.repeat(MAX_TEXT + 5) })), { type: 'ping', timestamp: `${'x'.repeat(MAX_TEXT)}…` });
	});

	it('an error\'s numeric code reads as text; text of exactly the bound is kept whole', () => {
		assert.deepEqual(parseFrame('{"type":"error","code":4001}'), { type: 'error', code: '4001' });
		assert.deepEqual(parseFrame('{"type":"error","code":true,"message":7}'), { type: 'error' });
		assert.deepEqual(parseFrame(JSON.stringify({ type: 'error', message: 'm'.repeat(MAX_TEXT) })), { type: 'error', message: 'm'.repeat(MAX_TEXT) });
	});

	it(`reads at most ${MAX_DEVICES_PER_FRAME} devices of a frame and counts the rest as dropped`, () => {
		const devices = Array.from({ length: MAX_DEVICES_PER_FRAME + 2 }, (_, i) => ({ device_token: `d${i}`, position: { latitude: 1, longitude: 2 } }));
		const read = parseFrame(JSON.stringify({ type: 'device_update', devices }));
		assert.ok(read.type === 'device_update');
		assert.equal(read.devices.length, MAX_DEVICES_PER_FRAME);
		assert.equal(read.devices.at(-1)!.deviceToken, `d${MAX_DEVICES_PER_FRAME - 1}`);
		assert.equal(read.dropped, 2);
	});

	const device = (position: object, token: unknown = 'dev') => {
		const read = parseFrame(update(token, position));
		return read.type === 'device_update' ? read.devices[0] : undefined;
	};

	it('keeps coordinates, speed and heading at the ends of their ranges, and only fields that were there', () => {
		assert.deepEqual(device({ latitude: -90, longitude: -180, speed: 0, heading: 0 }), { deviceToken: 'dev', latitude: -90, longitude: -180, speed: 0, heading: 0 });
		assert.deepEqual(device({ latitude: 90, longitude: 180, speed: 2000, heading: 360 }), { deviceToken: 'dev', latitude: 90, longitude: 180, speed: 2000, heading: 360 });
		assert.deepEqual(device({ latitude: 1, longitude: 2, speed: 2001, heading: 361 }), { deviceToken: 'dev', latitude: 1, longitude: 2 });
		assert.equal(device({ latitude: 1, longitude: 2 }, ''), undefined, 'an empty device token is no device');
	});

	it('reads a fix time in epoch seconds, epoch ms or a date of at most 40 characters; anything else is no time', () => {
		const time = (timestamp: unknown) => device({ latitude: 1, longitude: 2, timestamp })?.timestamp;
		assert.equal(time(1_767_225_600), 1_767_225_600_000, 'seconds');
		assert.equal(time(99_999_999_999), 99_999_999_999_000, 'seconds, the last below 1e11');
		assert.equal(time(1e11), 1e11, 'from 1e11 on: milliseconds');
		assert.equal(time(1_767_225_600_000), 1_767_225_600_000);
		for (const none of [0, -5, true, 'not a date', null]) assert.equal(time(none), undefined, JSON.stringify(none));
		const forty = 'Thu, 01 Jan 2026 00:00:00.0000000000 GMT';
		assert.equal(forty.length, 40);
		assert.equal(time(forty), Date.UTC(2026, 0, 1));
		assert.equal(time(forty.replace('.', '.0')), undefined, 'a 41-character date is not read');
		const read = parseFrame(`{"type":"device_update","device_token":"dev","position":{"latitude":1,"longitude":2,"timestamp":1e400}}`);
		assert.deepEqual(read.type === 'device_update' && read.devices[0], { deviceToken: 'dev', latitude: 1, longitude: 2 });
	});
});

describe('Live Tracking fleet: what the page gets', () => {
	it('a new device\'s track is its one point; speed and heading only when the fix had them', () => {
		const fleet = new Fleet(maskSecret);
		fleet.update([{ deviceToken: 'a-device-token', latitude: 1, longitude: 2, speed: 0, heading: 0, timestamp: 5 }, { deviceToken: 'b-device-token', latitude: 3, longitude: 4 }], 0, 9);
		assert.deepEqual(fleet.view().devices, [
			{ id: 1, label: maskSecret('a-device-token'), latitude: 1, longitude: 2, speed: 0, heading: 0, updatedAt: 5, track: [[1, 2]] },
			{ id: 2, label: maskSecret('b-device-token'), latitude: 3, longitude: 4, updatedAt: 9, track: [[3, 4]] },
		]);
		assert.deepEqual([1, 2, 3].map((id) => fleet.tokenOf(id)), ['a-device-token', 'b-device-token', undefined], 'the extension host (Share) maps a page id back to its device');
	});

	it(`keeps exactly the last ${TRACK_POINTS} points`, () => {
		const fleet = new Fleet(maskSecret);
		for (let i = 0; i < TRACK_POINTS; i++) fleet.update([{ deviceToken: 'a-device-token', latitude: i, longitude: 0 }], 0, 0);
		assert.equal(fleet.view().devices[0]!.track.length, TRACK_POINTS);
		assert.deepEqual(fleet.view().devices[0]!.track[0], [0, 0]);
		fleet.update([{ deviceToken: 'a-device-token', latitude: TRACK_POINTS, longitude: 0 }], 0, 0);
		assert.deepEqual(fleet.view().devices[0]!.track.map(([lat]) => lat), Array.from({ length: TRACK_POINTS }, (_, i) => i + 1));
	});

	it('a refused frame is a change the page is told of', () => {
		const fleet = new Fleet(maskSecret);
		fleet.update([{ deviceToken: 'a-device-token', latitude: 1, longitude: 1 }], 0, 0);
		const seen = fleet.view();
		fleet.refusedFrame();
		const next = fleet.view(seen.version);
		assert.deepEqual([next.full, next.refused, next.devices], [false, 1, []]);
		assert.ok(next.version > seen.version);
	});

	it('counts at most 100,000 distinct devices as not shown', () => {
		const fleet = new Fleet(maskSecret);
		fleet.update(Array.from({ length: MAX_DEVICES }, (_, i) => ({ deviceToken: `shown-${i}`, latitude: 0, longitude: 0 })), 0, 0);
		fleet.update(Array.from({ length: 100_001 }, (_, i) => ({ deviceToken: `past-${i}`, latitude: 0, longitude: 0 })), 0, 0);
		assert.equal(fleet.view().notShown, 100_000);
	});
});

describe('Live Tracking network watch: edges (fake clock)', () => {
	it('another address on the same interface is a change; the signature tells address sets apart', () => {
		let now: Interfaces = { wlan0: [{ address: '192.168.1.20', internal: false }] };
		const { timers, clock } = createTestClock();
		const changes: NetworkChange[] = [];
		const watcher = watchNetwork({ clock, interfaces: () => now }, (why) => changes.push(why));
		now = { wlan0: [{ address: '192.168.1.21', internal: false }] };
		timers.tick(NETWORK_CHECK_MS);
		assert.deepEqual(changes, ['addresses']);
		watcher.dispose();
		assert.notEqual(addressSignature({ a: [{ address: '1', internal: false }, { address: '2', internal: false }] }), addressSignature({ 'a 1a': [{ address: '2', internal: false }] }));
	});

	it('a list unreadable at first, then with no outward address, is no change', () => {
		let calls = 0;
		const { timers, clock } = createTestClock();
		const changes: NetworkChange[] = [];
		const watcher = watchNetwork({ clock, interfaces: () => {
			if (++calls === 1) throw new Error('EPERM');
			return { lo: [{ address: '127.0.0.1', internal: true }] };
		} }, (why) => changes.push(why));
		timers.tick(NETWORK_CHECK_MS * 2);
		assert.deepEqual(changes, []);
		watcher.dispose();
	});

	it(`a check exactly ${(NETWORK_CHECK_MS + SLEPT_AFTER_MS) / 1000} s after the last is a sleep`, () => {
		const { timers, clock } = createTestClock();
		const changes: NetworkChange[] = [];
		const watcher = watchNetwork({ clock, interfaces: () => ({}) }, (why) => changes.push(why));
		timers.tick(NETWORK_CHECK_MS - 1);
		timers.setSystemTime(timers.now + SLEPT_AFTER_MS);
		timers.tick(1);
		assert.deepEqual(changes, ['slept']);
		watcher.dispose();
	});
});

/** A connection whose token and sockets the test hands out when it likes: what was asked and opened. */
function slowRig() {
	const { timers, clock } = createTestClock();
	const tokenAsks: Array<(token: LiveToken | undefined) => void> = [];
	const opens: Array<{ socket: FakeSocket; resolve: () => void; reject: (error: unknown) => void }> = [];
	const connection = new LiveConnection({
		clock,
		openSocket: (handlers) => new Promise((resolve, reject) => {
			const socket = new FakeSocket(handlers);
			opens.push({ socket, resolve: () => resolve(socket), reject });
		}),
		token: () => new Promise((resolve) => tokenAsks.push(resolve)),
		random: () => 1,
		masked: (text) => text,
	});
	return { timers, connection, tokenAsks, opens };
}

describe('Live Tracking reconnect plan: edges (fake clock)', () => {
	it('a new connection is stopped until started; a token change does not start it, nor does a logout and a login', async () => {
		const r = rig([T1]);
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'disposed' });
		r.connection.tokenChanged(T1);
		r.connection.tokenChanged(undefined);
		r.connection.tokenChanged(T2);
		await settle();
		assert.equal(r.sockets.length, 0);
		assert.equal(r.tokenCalls(), 0);
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'disposed' });
	});

	it('works without a listener', async () => {
		const { clock } = createTestClock();
		const sockets: FakeSocket[] = [];
		const connection = new LiveConnection({ clock, openSocket: async (handlers) => { const s = new FakeSocket(handlers); sockets.push(s); return s; }, token: async () => T1, masked: (t) => t });
		connection.start();
		await settle();
		sockets[0]!.handlers.open();
		sockets[0]!.serverSends({ type: 'authenticated' });
		sockets[0]!.serverSends({ type: 'device_update', device_token: 'd', position: { latitude: 1, longitude: 2 } });
		assert.equal(connection.state.kind, 'live');
		connection.dispose();
	});

	it('a disposed connection stays disposed: start, a token or the network opens nothing', async () => {
		const r = rig([T1, T2]);
		r.connection.start();
		await r.open();
		r.connection.dispose();
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'disposed' });
		r.connection.start();
		r.connection.tokenChanged(T2);
		r.connection.networkChanged();
		await settle();
		assert.equal(r.sockets.length, 1);
		assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'disposed' });
	});

	it('a token change re-authenticates while authenticating or re-authenticating, and waits for a socket that is not open yet', async () => {
		const r = rig([T1]);
		r.connection.start();
		await settle();
		r.connection.tokenChanged(T2);
		assert.deepEqual(r.sockets[0]!.sent, [], 'nothing is sent before the socket opens');
		assert.equal(r.connection.state.kind, 'connecting');
		const socket = await r.open();
		assert.equal((r.connection.state as ConnectionState).kind, 'authenticating');
		r.connection.tokenChanged(T2);
		assert.equal((r.connection.state as ConnectionState).kind, 'reauthenticating');
		r.connection.tokenChanged({ accessToken: 'token-3', instanceId: 'inst' });
		assert.deepEqual(socket.sent.map((m) => m.access_token), ['token-1', 'token-2', 'token-3']);
		r.connection.dispose();
	});

	it('a live connection, or one stopped for a refused token, ignores a network change', async () => {
		const live = rig([T1]);
		live.connection.start();
		(await live.open()).serverSends({ type: 'authenticated' });
		live.connection.networkChanged();
		await settle();
		assert.equal(live.sockets.length, 1);
		assert.equal(live.connection.state.kind, 'live');
		live.connection.dispose();

		const refused = rig([T1]);
		refused.connection.start();
		(await refused.open()).serverSends({ type: 'error', code: 'unauthorized' });
		assert.deepEqual(refused.connection.state, { kind: 'stopped', reason: 'needsLogin', error: 'unauthorized' });
		refused.connection.networkChanged();
		await settle();
		assert.equal(refused.sockets.length, 1, 'the refused token is not sent again');
	});

	it('the service\'s error says what it has: its code, its message, or that it was an error', async () => {
		for (const [frame, error] of [[{ type: 'error', message: 'Token expired' }, 'Token expired'], [{ type: 'error', code: 'token_expired' }, 'token_expired'], [{ type: 'error' }, 'error']] as const) {
			const r = rig([T1]);
			r.connection.start();
			(await r.open()).serverSends(frame);
			assert.deepEqual(r.connection.state, { kind: 'stopped', reason: 'needsLogin', error });
		}
	});

	it('a socket that cannot even start is a failed attempt, said with its error', async () => {
		for (const [thrown, error] of [[new Error('ECONNREFUSED 127.0.0.1:1'), 'ECONNREFUSED 127.0.0.1:1'], ['down', 'could not connect']] as const) {
			const r = slowRig();
			r.connection.start();
			await settle();
			r.tokenAsks[0]!(T1);
			await settle();
			r.opens[0]!.reject(thrown);
			await settle();
			assert.deepEqual(r.connection.state, { kind: 'waiting', attempt: 1, retryInMs: 1000, error });
			r.connection.dispose();
		}
	});

	it(`a silent socket is said as ${SILENCE_MS / 1000} s with no frame, counted from the last frame`, async () => {
		const r = rig([T1]);
		r.connection.start();
		const socket = await r.open();
		socket.serverSends({ type: 'authenticated' });
		r.timers.tick(SILENCE_MS - 1);
		socket.serverSends({ type: 'welcome' });
		r.timers.tick(SILENCE_MS - 1);
		assert.equal(r.connection.state.kind, 'live');
		r.timers.tick(1);
		assert.deepEqual(r.connection.state, { kind: 'waiting', attempt: 1, retryInMs: 1000, error: `no frame for ${SILENCE_MS / 1000} s` });
		r.connection.dispose();
	});

	it('a replaced socket\'s late frames are ignored: after a close, after a stop, and when started again', async () => {
		const closedOne = rig([T1]);
		closedOne.connection.start();
		const first = await closedOne.open();
		first.serverCloses(1006);
		closedOne.timers.tick(1000);
		await settle();
		first.handlers.message(JSON.stringify({ type: 'authenticated' }));
		first.handlers.open();
		assert.equal(closedOne.connection.state.kind, 'connecting');
		assert.deepEqual(closedOne.sockets[1]!.sent, []);
		closedOne.connection.dispose();

		const stopped = rig([T1, T2]);
		stopped.connection.start();
		const old = await stopped.open();
		old.serverSends({ type: 'authenticated' });
		stopped.connection.tokenChanged(undefined);
		stopped.connection.tokenChanged(T2);
		await settle();
		old.handlers.message(JSON.stringify({ type: 'authenticated' }));
		old.handlers.message(JSON.stringify({ type: 'device_update', device_token: 'd', position: { latitude: 1, longitude: 2 } }));
		assert.equal(stopped.connection.state.kind, 'connecting');
		assert.equal(stopped.updates.length, 0);
		stopped.connection.dispose();
	});

	it('started twice while the first start waits for its token or its socket: one socket', async () => {
		const r = slowRig();
		r.connection.start();
		r.connection.start();
		await settle();
		r.tokenAsks[0]!(T1);
		r.tokenAsks[1]!(T1);
		await settle();
		assert.equal(r.opens.length, 1, 'the first start\'s token came too late');
		r.connection.start();
		await settle();
		r.tokenAsks[2]!(T1);
		await settle();
		r.opens[0]!.resolve();
		r.opens[1]!.resolve();
		await settle();
		assert.ok(r.opens[0]!.socket.closed, 'the first socket, opened too late, is closed');
		assert.ok(!r.opens[1]!.socket.closed);
		r.opens[1]!.socket.handlers.open();
		assert.equal(r.connection.state.kind, 'authenticating');
		r.connection.dispose();
		r.connection.start();
		await settle();
		assert.equal(r.tokenAsks.length, 3, 'nothing after dispose');
	});

	it('a replaced socket that fails to start late is ignored', async () => {
		const r = slowRig();
		r.connection.start();
		await settle();
		r.tokenAsks[0]!(T1);
		await settle();
		r.connection.start();
		await settle();
		r.tokenAsks[1]!(T1);
		await settle();
		r.opens[0]!.reject(new Error('late'));
		await settle();
		assert.deepEqual(r.connection.state, { kind: 'connecting', attempt: 0 });
		r.connection.dispose();
	});

	it(`a socket silent from its authenticated on is said as ${SILENCE_MS / 1000} s with no frame`, async () => {
		const r = rig([T1]);
		r.connection.start();
		(await r.open()).serverSends({ type: 'authenticated' });
		r.timers.tick(SILENCE_MS);
		assert.deepEqual(r.connection.state, { kind: 'waiting', attempt: 1, retryInMs: 1000, error: `no frame for ${SILENCE_MS / 1000} s` });
		r.connection.dispose();
	});

	it('a socket whose open is still pending when the panel closes is closed once it opens', async () => {
		const r = slowRig();
		r.connection.start();
		await settle();
		r.tokenAsks[0]!(T1);
		await settle();
		r.connection.dispose();
		r.opens[0]!.resolve();
		await settle();
		assert.ok(r.opens[0]!.socket.closed);
	});

	it(`the hourly limit counts each socket for exactly an hour`, async () => {
		const r = rig([T1]);
		r.connection.start();
		for (let i = 0; i < MAX_CONNECTS_PER_HOUR; i++) {
			await settle();
			r.sockets.at(-1)!.serverCloses(1006);
			r.connection.networkChanged();
		}
		await settle();
		assert.equal(r.sockets.length, MAX_CONNECTS_PER_HOUR);
		assert.equal(r.connection.state.kind === 'stopped' && r.connection.state.reason, 'refused');
		r.timers.tick(60 * 60_000 - 1);
		r.connection.start();
		await settle();
		assert.equal(r.sockets.length, MAX_CONNECTS_PER_HOUR, 'not a moment before the hour');
		r.timers.tick(1);
		r.connection.start();
		await settle();
		assert.equal(r.sockets.length, MAX_CONNECTS_PER_HOUR + 1);
		r.connection.dispose();
	});
});
