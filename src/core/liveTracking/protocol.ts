// The real-time tracking socket's protocol (`/realtime/api/v1/ws/realtime` on the portal-apis host):
// the messages we send (authenticate, pong) and the reading of every frame the server sends. A frame is
// data from the network: it is bounded, checked field by field, and one bad device in it never stops the
// others. Pure: no I/O, no `vscode`.

/** The socket's path on the `portal` host. */
export const REALTIME_SOCKET_PATH = '/realtime/api/v1/ws/realtime';

/** Largest frame read; a device update is a few hundred bytes. A larger one is refused unread. */
export const MAX_FRAME_BYTES = 64 * 1024;
/** Most devices one frame may carry; the rest are dropped and counted. */
export const MAX_DEVICES_PER_FRAME = 500;
/** Longest text kept from a frame's string field (a device token, a message); longer is cut. */
export const MAX_TEXT = 200;

export interface AuthenticateFields {
	accessToken: string;
	instanceId: string;
	units?: 'metric' | 'imperial';
	timezone?: string;
	dateFormat?: 'unix' | 'iso' | 'localized';
}

/** The first message on a socket, and again on the same socket after a refresh: the token is in the frame, not a header. */
export function authenticateMessage(fields: AuthenticateFields): string {
	return JSON.stringify({
		type: 'authenticate',
		access_token: fields.accessToken,
		instance_id: fields.instanceId,
		units: fields.units ?? 'metric',
		timezone: fields.timezone ?? 'UTC',
		date_format: fields.dateFormat ?? 'iso',
	});
}

/** The answer to a `ping`: `{type: "pong", timestamp: <number>}`, the ping's own when it was a number, else ours (epoch ms). */
export function pongMessage(timestamp: number | string | undefined, now: number): string {
	return JSON.stringify({ type: 'pong', timestamp: typeof timestamp === 'number' ? timestamp : now });
}

export interface DevicePosition {
	/** The device token as sent: text, never markup. Mask it before a person sees it. */
	deviceToken: string;
	latitude: number;
	longitude: number;
	/** km/h, when the frame had a finite, non-negative one. */
	speed?: number;
	/** Degrees, 0–360, when the frame had one. */
	heading?: number;
	/** Epoch ms of the fix, when the frame had a readable one. */
	timestamp?: number;
}

/** Why a frame was not read. */
export type RefusedReason = 'tooLarge' | 'notJson' | 'notObject' | 'unknownType' | 'binary';

export type ServerFrame =
	| { type: 'authenticated' }
	| { type: 'welcome'; connectionId?: string; serverTime?: string; instanceId?: string }
	| { type: 'subscribed'; topic?: string }
	| { type: 'device_update'; devices: DevicePosition[]; dropped: number }
	| { type: 'ping'; timestamp?: number | string }
	| { type: 'error'; code?: string; message?: string }
	| { type: 'refused'; reason: RefusedReason };

/** One frame as the socket delivered it (text, or binary the protocol does not use). */
export function parseFrame(data: string | { byteLength: number }): ServerFrame {
	if (typeof data !== 'string') return { type: 'refused', reason: data.byteLength > MAX_FRAME_BYTES ? 'tooLarge' : 'binary' };
	// Length in UTF-16 units bounds the bytes from below; the byte count is taken only when it could pass.
	if (
		(
			// A frame over the bound in UTF-16 units is over it in bytes too: this only spares the count.
			// Stryker disable next-line ConditionalExpression: equivalent
			data.length > MAX_FRAME_BYTES
		) || Buffer.byteLength(data) > MAX_FRAME_BYTES
	) return { type: 'refused', reason: 'tooLarge' };
	let value: unknown;
	try {
		value = JSON.parse(data);
	} catch {
		return { type: 'refused', reason: 'notJson' };
	}
	if (!isRecord(value)) return { type: 'refused', reason: 'notObject' };
	switch (value.type) {
		case 'authenticated':
			return { type: 'authenticated' };
		case 'welcome':
			return { type: 'welcome', ...optionalText('connectionId', value.connection_id), ...optionalText('serverTime', value.server_time), ...optionalText('instanceId', value.instance_id) };
		case 'subscribed':
			return { type: 'subscribed', ...optionalText('topic', value.topic) };
		case 'ping': {
			const timestamp = value.timestamp;
			if (typeof timestamp === 'string') return { type: 'ping', timestamp: text(timestamp) };
			return { type: 'ping', ...(isFiniteNumber(timestamp) && { timestamp }) };
		}
		case 'error':
			return { type: 'error', ...optionalText('code', typeof value.code === 'number' ? String(value.code) : value.code), ...optionalText('message', value.message) };
		case 'device_update':
			return deviceUpdate(value);
		default:
			return { type: 'refused', reason: 'unknownType' };
	}
}

/**
 * `{device_token, position}` for one device, or `{devices: [{device_token, position}, …]}` for several:
 * each device read on its own; one that fails is dropped and counted.
 */
function deviceUpdate(value: Record<string, unknown>): ServerFrame {
	const entries: unknown[] = Array.isArray(value.devices) ? value.devices : [value];
	const devices: DevicePosition[] = [];
	let dropped = 0;
	for (const [index, entry] of entries.entries()) {
		const device = index < MAX_DEVICES_PER_FRAME ? readDevice(entry) : undefined;
		if (device) devices.push(device);
		else dropped++;
	}
	return { type: 'device_update', devices, dropped };
}

function readDevice(entry: unknown): DevicePosition | undefined {
	if (!isRecord(entry) || !isRecord(entry.position)) return undefined;
	const token = entry.device_token;
	if (typeof token !== 'string' || token.length === 0) return undefined;
	const { latitude, longitude, speed, heading, timestamp } = entry.position;
	if (!inRange(latitude, -90, 90) || !inRange(longitude, -180, 180)) return undefined;
	const time = readTime(timestamp);
	return {
		deviceToken: text(token),
		latitude,
		longitude,
		...(inRange(speed, 0, 2000) && { speed }),
		...(inRange(heading, 0, 360) && { heading }),
		...(time !== undefined && { timestamp: time }),
	};
}

/** Epoch ms from an ISO date or epoch seconds/ms; undefined when it reads as neither. */
function readTime(value: unknown): number | undefined {
	if (isFiniteNumber(value) && value > 0) return value < 1e11 ? value * 1000 : value;
	if (typeof value === 'string' && value.length <= 40) {
		const ms = Date.parse(value);
		return Number.isFinite(ms) ? ms : undefined;
	}
	return undefined;
}

function inRange(value: unknown, min: number, max: number): value is number {
	return isFiniteNumber(value) && value >= min && value <= max;
}

/** A finite number (JSON's `1e400` reads as Infinity). */
function isFiniteNumber(value: unknown): value is number {
	// Stryker disable next-line ConditionalExpression,LogicalOperator: redundant
	return typeof value === 'number'
		&& Number.isFinite(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field kept as text, cut to MAX_TEXT. */
function text(value: string): string {
	return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}

function optionalText<K extends string>(key: K, value: unknown): Partial<Record<K, string>> {
	return typeof value === 'string' ? ({ [key]: text(value) } as Record<K, string>) : {};
}
