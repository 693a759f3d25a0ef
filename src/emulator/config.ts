// The emulator's configuration: its shape, the demo accounts and the defaults. Pure: no I/O. Used by the
// built-in demo service, `npm start` and the tests (whose rig, test/emulator/, adds faults).

export interface EmulatorUser {
	/** User Group InstanceID. */
	instanceId: string;
	deviceToken: string;
	/** User Group InstanceKey: the user's password. */
	instanceKey: string;
	name?: string;
}

export interface EmulatorAdmin {
	/** API InstanceID. */
	instanceId: string;
	/** API Login. */
	email: string;
	/** API Password. */
	password: string;
}

export interface LoginRateLimit {
	max: number;
	windowSeconds: number;
	blockSeconds: number;
}

export interface EmulatorConfig {
	host: string;
	port: number;
	users: EmulatorUser[];
	admins: EmulatorAdmin[];
	/** Becomes the JWT `exp` (iat + this) and `ExpiresIn` (seconds). */
	accessTokenLifetimeSeconds: number;
	refreshTokenLifetimeSeconds: number;
	/**
	 * Per client IP; failed and successful logins both count. The default plays the vendor's account:
	 * 5 a minute, then every login refused for an hour with a 429 and `Retry-After`.
	 */
	loginRateLimit: LoginRateLimit;
	/**
	 * When true (the default), a service bound to a loopback address answers Login only for a
	 * loopback `Host`, so a web page cannot reach it by DNS rebinding. Tests that put a proxy or
	 * a TLS front with another name before it turn it off.
	 */
	loopbackHostOnly: boolean;
	/** When true, an admin login without an `InstanceId` header is a 422 (older samples send it). */
	requireInstanceHeaderForAdmin: boolean;
	/**
	 * When true (the default), a subject has one live refresh token: a new login or refresh
	 * spends the one before. When false, each login starts its own rotation chain.
	 */
	singleRefreshTokenPerSubject: boolean;
	/** Live tracking: a `ping` on each socket every this many seconds (the service: 30). */
	realtimePingSeconds: number;
	/** Live tracking: a `device_update` for each demo drive every this many milliseconds. */
	realtimeUpdateMs: number;
	/** Live tracking: hostile frames (markup, bad coordinates, an oversized frame, not JSON) after each update. */
	realtimeHostileFrames: boolean;
	/** Live tracking: this many more drives beside the demo users' (`fleet-device-0001` …), for a large fleet. */
	realtimeFleetDevices: number;
}

export const DEMO_USERS: EmulatorUser[] = [
	{ instanceId: 'demo-user-instance', deviceToken: 'demo-device-token', instanceKey: 'demo-instance-key', name: 'Demo Driver' },
	{ instanceId: 'demo-user-instance', deviceToken: 'demo-device-token-2', instanceKey: 'demo-instance-key', name: 'Second Driver' },
];

export const DEMO_ADMINS: EmulatorAdmin[] = [
	{ instanceId: 'demo-api-instance', email: 'admin@example.com', password: 'demo-password' },
];

export const DEFAULT_PORT = 0;

export function defaultConfig(): EmulatorConfig {
	return {
		host: '127.0.0.1',
		port: DEFAULT_PORT,
		users: DEMO_USERS.map((u) => ({ ...u })),
		admins: DEMO_ADMINS.map((a) => ({ ...a })),
		accessTokenLifetimeSeconds: 7200,
		refreshTokenLifetimeSeconds: 90 * 24 * 60 * 60,
		loginRateLimit: { max: 5, windowSeconds: 60, blockSeconds: 3600 },
		loopbackHostOnly: true,
		requireInstanceHeaderForAdmin: false,
		singleRefreshTokenPerSubject: true,
		realtimePingSeconds: 30,
		realtimeUpdateMs: 1000,
		realtimeHostileFrames: false,
		realtimeFleetDevices: 0,
	};
}

/** Fills what `partial` leaves out with the defaults; nested objects are merged one level deep. */
export function resolveConfig(partial: Partial<EmulatorConfig> = {}): EmulatorConfig {
	const base = defaultConfig();
	const defined = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<EmulatorConfig>;
	return {
		...base,
		...defined,
		loginRateLimit: { ...base.loginRateLimit, ...defined.loginRateLimit },
	};
}
