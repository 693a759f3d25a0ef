// The real-time tracking socket as the demo service plays it (`/realtime/api/v1/ws/realtime`):
// `authenticate` in the first frame with a live access token, then `authenticated`, `welcome`,
// `subscribed`, a `device_update` per synthetic drive every update interval, a `ping` every ping
// interval, and at the token's `exp` an `error` and a close (a new `authenticate` on the same socket
// moves that to the new token's `exp`). On request it mixes in hostile frames. It keeps the tokens it
// was sent in `authenticate`, so a test can see a re-authentication with the new token.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';

export const REALTIME_PATH = '/realtime/api/v1/ws/realtime';
/** Largest frame a client may send; `authenticate` is a few KiB. */
const MAX_CLIENT_FRAME = 64 * 1024;
/** A socket that has not authenticated by then is closed. */
const AUTHENTICATE_WITHIN_MS = 10_000;
/** WebSocket close codes of the demo service (4000–4999 are the application's). */
export const CLOSE_TOKEN_EXPIRED = 4001;
export const CLOSE_UNAUTHORIZED = 4003;

export interface RealtimeOptions {
	/** The claims of a token the service signed (expired or not), else undefined. */
	verify(token: string): Record<string, unknown> | undefined;
	now(): number;
	/** The device tokens whose drives are streamed. */
	devices(): string[];
	pingMs(): number;
	updateMs(): number;
	/** Whether each update is followed by hostile frames (markup, bad coordinates, an oversized frame, not JSON). */
	hostile(): boolean;
	/** How a failing service behaves after `authenticated` (RealtimeFailure); `none`: it streams. */
	failure(): RealtimeFailure;
}

/**
 * A failing service, after `authenticated`: `silent` sends nothing more and keeps the socket open (a
 * half-open socket after sleep or a VPN change looks the same); `closeAfterOneUpdate` sends one round of
 * updates and closes.
 */
export type RealtimeFailure = 'none' | 'silent' | 'closeAfterOneUpdate';

/** The hostile frames sent when asked: what a client must show as text, drop with a count, or refuse. */
export const HOSTILE_DEVICE_TOKEN = '<img src=x onerror="document.title=\'pwned\'">-0000';
export function hostileFrames(now: number): string[] {
	const at = new Date(now).toISOString();
	return [
		JSON.stringify({ type: 'device_update', device_token: HOSTILE_DEVICE_TOKEN, position: { latitude: 52.51, longitude: 13.39, speed: 10, heading: 0, timestamp: at } }),
		JSON.stringify({ type: 'device_update', device_token: 'bad-latitude-device', position: { latitude: '52.5', longitude: 13.4, timestamp: at } }),
		JSON.stringify({ type: 'device_update', device_token: 'out-of-range-device', position: { latitude: 200, longitude: 13.4, timestamp: at } }),
		JSON.stringify({ type: 'device_update', device_token: 'huge-device', position: { latitude: 1, longitude: 1 }, pad: 'x'.repeat(70 * 1024) }),
		'not json <script>',
	];
}

/** The device tokens of `count` more drives (a large fleet): `fleet-device-0001` …. */
export function fleetDeviceTokens(count: number): string[] {
	return Array.from({ length: Math.max(0, count) }, (_, i) => `fleet-device-${String(i + 1).padStart(4, '0')}`);
}

/** Where drive `index` is at `now`: a loop of about 1.4 km a device, one lap every two minutes. */
export function drivePosition(index: number, now: number): { latitude: number; longitude: number; speed: number; heading: number } {
	const centre = [[52.52, 13.405], [52.505, 13.44], [52.53, 13.37]][index % 3]!;
	const lapMs = 120_000 + index * 30_000;
	const radius = 0.004; // degrees of latitude, about 450 m
	const angle = ((now % lapMs) / lapMs) * 2 * Math.PI * (index % 2 === 0 ? 1 : -1);
	const latitude = centre[0]! + radius * Math.sin(angle);
	const longitude = centre[1]! + (radius / Math.cos((centre[0]! * Math.PI) / 180)) * Math.cos(angle);
	const speed = Math.round(((2 * Math.PI * radius * 111.32) / (lapMs / 3_600_000)) * 10) / 10;
	const heading = Math.round((((index % 2 === 0 ? 0 : 180) - (angle * 180) / Math.PI) % 360 + 360) % 360);
	return { latitude, longitude, speed, heading };
}

interface Connection {
	socket: WebSocket;
	authenticated: boolean;
	timers: Set<NodeJS.Timeout>;
	expiry?: NodeJS.Timeout;
}

export class RealtimeService {
	/** The access tokens sent in `authenticate`, oldest first (tests read it). */
	readonly authenticateTokens: string[] = [];
	/** `pong`s received. */
	pongs = 0;
	private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME });
	private readonly connections = new Set<Connection>();

	constructor(private readonly options: RealtimeOptions) { }

	/** Sockets open now (authenticated or not). */
	get openConnections(): number {
		return this.connections.size;
	}

	upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
		this.server.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
	}

	/** Closes every socket as a server restart would (code 1012), so clients reconnect. */
	dropConnections(code = 1012): void {
		for (const connection of this.connections) connection.socket.close(code, 'service restart');
	}

	close(): void {
		for (const connection of this.connections) {
			this.stopTimers(connection);
			connection.socket.terminate();
		}
		this.connections.clear();
		this.server.close();
	}

	private accept(socket: WebSocket): void {
		const connection: Connection = { socket, authenticated: false, timers: new Set() };
		this.connections.add(connection);
		const deadline = setTimeout(() => {
			if (!connection.authenticated) this.refuse(connection, 'unauthorized', 'Send authenticate first.', CLOSE_UNAUTHORIZED);
		}, AUTHENTICATE_WITHIN_MS);
		connection.timers.add(deadline);
		socket.on('message', (data, isBinary) => this.received(connection, isBinary ? undefined : data.toString()));
		socket.on('close', () => {
			this.stopTimers(connection);
			this.connections.delete(connection);
		});
		socket.on('error', () => socket.terminate());
	}

	private received(connection: Connection, text: string | undefined): void {
		let message: Record<string, unknown> | undefined;
		try {
			const value: unknown = text === undefined ? undefined : JSON.parse(text);
			if (typeof value === 'object' && value !== null && !Array.isArray(value)) message = value as Record<string, unknown>;
		} catch {
			// answered below
		}
		if (!message) return this.send(connection, { type: 'error', code: 'bad_request', message: 'Frames are JSON objects.' });
		if (message.type === 'pong') {
			this.pongs++;
			return;
		}
		if (message.type !== 'authenticate') {
			if (!connection.authenticated) this.refuse(connection, 'unauthorized', 'Send authenticate first.', CLOSE_UNAUTHORIZED);
			return;
		}
		const token = typeof message.access_token === 'string' ? message.access_token : '';
		this.authenticateTokens.push(token);
		const claims = this.options.verify(token);
		const exp = typeof claims?.exp === 'number' ? claims.exp * 1000 : 0;
		if (!claims || exp <= this.options.now()) return this.refuse(connection, 'unauthorized', 'Invalid or expired access token.', CLOSE_UNAUTHORIZED);
		if (message.instance_id !== claims.instanceId) return this.refuse(connection, 'access_denied', 'The token is not for this instance.', CLOSE_UNAUTHORIZED);
		this.expireAt(connection, exp);
		this.send(connection, { type: 'authenticated' });
		if (connection.authenticated) return;
		connection.authenticated = true;
		this.send(connection, { type: 'welcome', connection_id: randomUUID(), server_time: new Date(this.options.now()).toISOString(), instance_id: claims.instanceId });
		this.send(connection, { type: 'subscribed', topic: `instance:${String(claims.instanceId)}` });
		const failure = this.options.failure();
		if (failure === 'silent') return;
		this.sendUpdates(connection);
		if (failure === 'closeAfterOneUpdate') return connection.socket.close(1000, 'bye');
		this.every(connection, this.options.updateMs(), () => this.sendUpdates(connection));
		this.every(connection, this.options.pingMs(), () => this.send(connection, { type: 'ping', timestamp: this.options.now() }));
	}

	/** At the token's `exp`: an `error` and a close, as the service is expected to do (not documented). */
	private expireAt(connection: Connection, exp: number): void {
		if (connection.expiry) {
			clearTimeout(connection.expiry);
			connection.timers.delete(connection.expiry);
		}
		// setTimeout's longest wait is about 24.8 days; a longer-lived token is checked again then.
		const wait = Math.min(exp - this.options.now(), 2 ** 31 - 1);
		connection.expiry = setTimeout(() => {
			if (exp <= this.options.now()) this.refuse(connection, 'token_expired', 'The access token expired. Authenticate again.', CLOSE_TOKEN_EXPIRED);
			else this.expireAt(connection, exp);
		}, Math.max(0, wait));
		connection.timers.add(connection.expiry);
	}

	private sendUpdates(connection: Connection): void {
		const now = this.options.now();
		const timestamp = new Date(now).toISOString();
		this.options.devices().forEach((deviceToken, index) => {
			this.send(connection, { type: 'device_update', device_token: deviceToken, position: { ...drivePosition(index, now), timestamp } });
		});
		if (this.options.hostile()) for (const frame of hostileFrames(now)) this.sendText(connection, frame);
	}

	private every(connection: Connection, ms: number, work: () => void): void {
		const timer = setInterval(work, Math.max(10, ms));
		connection.timers.add(timer);
	}

	private refuse(connection: Connection, code: string, message: string, closeCode: number): void {
		this.send(connection, { type: 'error', code, message });
		this.stopTimers(connection);
		connection.socket.close(closeCode, code);
	}

	private send(connection: Connection, frame: object): void {
		this.sendText(connection, JSON.stringify(frame));
	}

	private sendText(connection: Connection, text: string): void {
		if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(text);
	}

	private stopTimers(connection: Connection): void {
		for (const timer of connection.timers) clearTimeout(timer);
		connection.timers.clear();
	}
}
