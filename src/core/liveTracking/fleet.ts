// What Live Tracking shows: each device's latest position and short track, bounded in devices and
// points, and what the webview gets of it (positions and masked device tokens, never a token). Pure. The
// mask is handed in (the extension's maskSecret, from extension.js), so this bundle holds no copy of it.
import type { DevicePosition } from './protocol';

/** Points kept per device for its track. */
export const TRACK_POINTS = 60;
/** Devices kept and shown; more are counted as not shown (never as bad data). */
export const MAX_DEVICES = 1000;
/** Distinct devices counted past MAX_DEVICES (a bound on what a hostile stream can make us remember). */
const MAX_NOT_SHOWN_COUNTED = 100_000;

export interface DeviceView {
	/** A stable id for the page (the order first seen), not the device token. */
	id: number;
	/** The device token as everywhere else: `••••abcd`. */
	label: string;
	latitude: number;
	longitude: number;
	speed?: number;
	heading?: number;
	/** Epoch ms of the fix, else of its arrival. */
	updatedAt: number;
	/** Oldest first, the latest last: [latitude, longitude]. */
	track: Array<[number, number]>;
}

/** What the webview is sent: nothing in it is a token. */
export interface FleetView {
	/** Every device, or (`full: false`) only those changed since the version asked for. */
	devices: DeviceView[];
	full: boolean;
	/** The fleet's version: ask for what changed since it next time. */
	version: number;
	/** Devices dropped from frames (bad coordinates, no device token). */
	dropped: number;
	/** Devices past MAX_DEVICES: not shown. */
	notShown: number;
	/** Frames refused unread (too large, not JSON, unknown type). */
	refused: number;
}

interface DeviceTrack {
	id: number;
	/** The fleet's version when it last changed. */
	version: number;
	latest: DevicePosition;
	updatedAt: number;
	track: Array<[number, number]>;
}

export class Fleet {
	private readonly devices = new Map<string, DeviceTrack>();
	private dropped = 0;
	private refused = 0;
	private version = 0;
	private readonly notShown = new Set<string>();

	/** `mask`: how a device token is shown (core/util/redact.ts's maskSecret, as everywhere else). */
	constructor(private readonly mask: (deviceToken: string) => string) { }

	/** Takes a frame's devices; `now` stands in for a fix without a time. */
	update(devices: readonly DevicePosition[], dropped: number, now: number): void {
		this.dropped += dropped;
		this.version++;
		for (const device of devices) {
			let entry = this.devices.get(device.deviceToken);
			if (!entry) {
				if (this.devices.size >= MAX_DEVICES) {
					if (this.notShown.size < MAX_NOT_SHOWN_COUNTED) this.notShown.add(device.deviceToken);
					continue;
				}
				entry = { id: this.devices.size + 1, version: this.version, latest: device, updatedAt: now, track: [] };
				this.devices.set(device.deviceToken, entry);
			}
			entry.version = this.version;
			entry.latest = device;
			entry.updatedAt = device.timestamp ?? now;
			entry.track.push([device.latitude, device.longitude]);
			if (entry.track.length > TRACK_POINTS) entry.track.shift(); // one point a time: at most one over
		}
	}

	/** The device token of a page id: for the extension host only (Share), never for the page. */
	tokenOf(id: number): string | undefined {
		for (const [token, entry] of this.devices) if (entry.id === id) return token;
		return undefined;
	}

	refusedFrame(): void {
		this.refused++;
		this.version++;
	}

	/** Every device, or only those changed since `since` (a version an earlier view gave). */
	view(since?: number): FleetView {
		const full = since === undefined || since > this.version;
		return {
			full,
			version: this.version,
			devices: [...this.devices.values()].filter((d) => full || d.version > since).map(({ id, latest, updatedAt, track }) => ({
				id,
				label: this.mask(latest.deviceToken),
				latitude: latest.latitude,
				longitude: latest.longitude,
				...(latest.speed !== undefined && { speed: latest.speed }),
				...(latest.heading !== undefined && { heading: latest.heading }),
				updatedAt,
				track: track.map(([lat, lon]) => [lat, lon] as [number, number]),
			})),
			dropped: this.dropped,
			notShown: this.notShown.size,
			refused: this.refused,
		};
	}
}
