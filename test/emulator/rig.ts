// The tests' emulator: the shipped service (src/emulator/server.ts) plus what only tests may have: faults
// before an answer, hostile answers, stats of what clients sent, and control endpoints under /__emulator/.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveConfig, type EmulatorConfig, type LoginRateLimit } from '../../src/emulator/config';
import { failure, validation } from '../../src/emulator/envelope';
import { parseJsonObject } from '../../src/emulator/requests';
import { EmulatorServer, header, isJsonContentType, isLoopback, isLoopbackHostHeader, type AnswerShape, type RunningEmulator, type ServiceEndpoint } from '../../src/emulator/server';
import type { RealtimeFailure } from '../../src/emulator/realtime';
import { FAULT_RETRY_AFTER_SECONDS, FaultState, INJECTED_TAIL, LINK_IN_ERROR, readFaults, SHELL_TAIL, type EmulatorFaults } from './faults';

export { DEMO_ADMINS, DEMO_USERS } from '../../src/emulator/config';
export type { EmulatorAdmin, EmulatorUser, LoginRateLimit } from '../../src/emulator/config';
export type { EmulatorFaults, FaultMode } from './faults';
export { FAULT_MODES, FAULT_RETRY_AFTER_SECONDS, INJECTED_TAIL, LINK_IN_ERROR, SHELL_TAIL } from './faults';

/** The service's configuration plus the faults in force (live: reading shows spent ones as 'none'). */
export interface RigConfig extends EmulatorConfig {
	faults: EmulatorFaults;
	/** Live tracking: how the socket fails after `authenticated` (realtime.ts's RealtimeFailure; default `none`). */
	realtimeFailure: RealtimeFailure;
}

export interface EmulatorRequestRecord {
	method: string;
	path: string;
	/** The HTTP status sent; 0 when the request was hung or reset by a fault. */
	status: number;
	at: number;
	/** The query as sent (`?…`, or empty). */
	query: string;
	/** The `role` claim of the bearer token sent (`user`, `admin`), read without checking it; absent without one. */
	bearerRole?: string;
}

export interface EmulatorStats {
	loginCalls: number;
	refreshCalls: number;
	/** Requests to the service paths (control endpoints are left out); the latest 1000. */
	requests: EmulatorRequestRecord[];
	/** The parsed JSON body (or the raw text when it was not JSON). */
	lastLoginBody?: unknown;
	lastRefreshBody?: unknown;
	/** `InstanceId`/`InstanceKey`/`Content-Type` as sent with the last login. */
	lastLoginHeaders?: Record<string, string>;
	/** `InstanceId`/`InstanceKey`/`Content-Type` as sent with the last refresh. */
	lastRefreshHeaders?: Record<string, string>;
	/** The `Authorization` header of the last `GET /v1/Me` (what a REST client sent), or null when it sent none. */
	lastMeAuthorization?: string | null;
}

export interface RiggedEmulator extends RunningEmulator {
	readonly config: RigConfig;
	readonly stats: EmulatorStats;
	setFaults(faults: EmulatorFaults): void;
	resetStats(): void;
}

/** Kept of the requests: the latest this many. */
const MAX_RECORDS = 1000;
const CONTROL_PREFIX = '/__emulator/';
const ME_PATH = '/v1/me';

const BAD_GATEWAY_PAGE = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;

/** The `role` claim of a `Bearer <jwt>` value, unchecked: which kind of token a client sent. */
function bearerRole(authorization: string | undefined): string | undefined {
	const payload = /^Bearer\s+[\w-]+\.([\w-]+)\./i.exec(authorization ?? '')?.[1];
	if (!payload) return undefined;
	try {
		const role = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { role?: unknown }).role;
		return typeof role === 'string' ? role : undefined;
	} catch {
		return undefined;
	}
}

function emptyStats(): EmulatorStats {
	return { loginCalls: 0, refreshCalls: 0, requests: [] };
}

/** A login rate limit no test reaches: for tests whose subject is not the limit itself. */
export const LIFTED_RATE_LIMIT: LoginRateLimit = { max: 1_000_000, windowSeconds: 60, blockSeconds: 1 };

export async function startEmulator(partial: Partial<RigConfig> = {}): Promise<RiggedEmulator> {
	const { faults, realtimeFailure, ...service } = partial;
	const rig = new Rig({ ...resolveConfig(service), faults: { ...faults }, realtimeFailure: realtimeFailure ?? 'none' });
	await rig.listen();
	return rig;
}

class Rig extends EmulatorServer implements RiggedEmulator {
	declare readonly config: RigConfig;
	readonly stats: EmulatorStats = emptyStats();
	private readonly faults: FaultState;

	constructor(config: RigConfig) {
		super(config);
		const faults = new FaultState(config.faults);
		this.faults = faults;
		Object.defineProperty(this.config, 'faults', {
			enumerable: true,
			get: () => faults.current(),
			set: (value: EmulatorFaults) => faults.set(value),
		});
	}

	protected override realtimeFailure(): RealtimeFailure {
		return this.config.realtimeFailure;
	}

	setFaults(faults: EmulatorFaults): void {
		this.faults.set(faults);
	}

	resetStats(): void {
		for (const key of Object.keys(this.stats) as (keyof EmulatorStats)[]) delete this.stats[key];
		Object.assign(this.stats, emptyStats());
	}

	protected override sawBody(endpoint: ServiceEndpoint, req: IncomingMessage, text: string): void {
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// kept as the raw text
		}
		const headers: Record<string, string> = {};
		for (const [name, key] of [['InstanceId', 'instanceid'], ['InstanceKey', 'instancekey'], ['Content-Type', 'content-type']] as const) {
			const value = header(req, key);
			if (value !== undefined) headers[name] = value;
		}
		if (endpoint === 'login') Object.assign(this.stats, { loginCalls: this.stats.loginCalls + 1, lastLoginBody: body, lastLoginHeaders: headers });
		else Object.assign(this.stats, { refreshCalls: this.stats.refreshCalls + 1, lastRefreshBody: body, lastRefreshHeaders: headers });
	}

	protected override record(req: IncomingMessage, status: number): void {
		const url = new URL(req.url ?? '/', 'http://emulator');
		const path = url.pathname;
		if (path.toLowerCase() === ME_PATH) this.stats.lastMeAuthorization = header(req, 'authorization') ?? null;
		const role = bearerRole(header(req, 'authorization'));
		this.stats.requests.push({ method: req.method ?? 'GET', path, query: url.search, status, at: Date.now(), ...(role && { bearerRole: role }) });
		if (this.stats.requests.length > MAX_RECORDS) this.stats.requests.splice(0, this.stats.requests.length - MAX_RECORDS);
	}

	/** Plays the endpoint's fault, if any: false when it answered; else how to shape a success. */
	protected override async beforeAnswer(endpoint: ServiceEndpoint, req: IncomingMessage, res: ServerResponse): Promise<AnswerShape | false> {
		const { mode, slowMs } = this.faults.take(endpoint);
		switch (mode) {
			case 'none':
				return {};
			case 'slow':
				return (await this.delay(slowMs)) ? {} : false;
			case 'hang':
				this.record(req, 0);
				return false;
			case 'reset':
				this.record(req, 0);
				req.socket.resetAndDestroy();
				return false;
			case 'html502':
				this.send(req, res, 502, 'text/html; charset=utf-8', BAD_GATEWAY_PAGE, true);
				return false;
			case 'error500':
				this.sendJson(req, res, 500, failure(500, [{ Key: 'server', Message: 'An unexpected error occurred.' }]), true);
				return false;
			case 'bodyStatusMismatch':
				this.sendJson(req, res, 200, failure(401), true);
				return false;
			case 'rateLimited': {
				const body = failure(429, [{ Key: endpoint === 'login' ? 'Login' : 'RefreshToken', Message: 'Too many requests. Try again later.' }]);
				this.sendJson(req, res, 429, body, true, { 'Retry-After': String(FAULT_RETRY_AFTER_SECONDS) });
				return false;
			}
			case 'linkInError': {
				const body = { ...failure(422, [{ Key: endpoint === 'login' ? 'Login' : 'RefreshToken', Message: LINK_IN_ERROR.message }]), Title: LINK_IN_ERROR.title };
				this.sendJson(req, res, 422, body, true);
				return false;
			}
			case 'injectedToken':
				return { token: (token) => token + INJECTED_TAIL };
			case 'shellToken':
				return { token: (token) => token + SHELL_TAIL };
			case 'expiredToken':
				return { exp: Math.floor(Date.now() / 1000) - 60 };
			case 'absurdExp':
				return { exp: 1e16 };
		}
	}

	/**
	 * Control endpoints answer loopback clients that also name a loopback host (no DNS
	 * rebinding from a web page), and take only JSON bodies (no cross-site form posts).
	 */
	protected override async extraRoute(req: IncomingMessage, res: ServerResponse, route: string): Promise<boolean> {
		if (!route.startsWith(CONTROL_PREFIX)) return false;
		await this.control(req, res, route);
		return true;
	}

	private async control(req: IncomingMessage, res: ServerResponse, route: string): Promise<void> {
		if (!isLoopback(req.socket.remoteAddress) || !isLoopbackHostHeader(req.headers.host)) return this.sendJson(req, res, 403, failure(403), false);
		const method = req.method ?? 'GET';
		if (method === 'POST' && !isJsonContentType(req.headers['content-type'])) return this.unsupportedMediaType(req, res, false);
		if (method === 'GET' && route === '/__emulator/stats') return this.sendJson(req, res, 200, this.stats, false);
		if (method === 'GET' && route === '/__emulator/faults') return this.sendJson(req, res, 200, this.faults.current(), false);
		// A service that answers with a redirect elsewhere (`?to=` the address): what a client then carries along.
		if (method === 'GET' && route === '/__emulator/redirect') {
			res.writeHead(307, { location: new URL(req.url ?? '/', 'http://emulator').searchParams.get('to') ?? '/' }).end();
			return;
		}
		if (method !== 'POST') return this.sendJson(req, res, 404, failure(404), false);
		const text = await this.readBody(req, res);
		if (text === undefined) return;
		if (route === '/__emulator/reset') {
			this.resetRateLimit();
			this.resetStats();
			return this.sendJson(req, res, 200, {}, false);
		}
		const json = parseJsonObject(text);
		if (!json.ok) return this.sendJson(req, res, 422, validation(json.errors), false);
		if (route === '/__emulator/faults') {
			const faults = readFaults(json.value);
			if (typeof faults === 'string') return this.sendJson(req, res, 422, validation([{ Key: 'faults', Message: faults }]), false);
			this.setFaults(faults);
			return this.sendJson(req, res, 200, this.faults.current(), false);
		}
		if (route === '/__emulator/lifetime') {
			const { seconds, refreshSeconds } = json.value;
			const valid = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v));
			if (!valid(seconds) || !valid(refreshSeconds)) {
				return this.sendJson(req, res, 422, validation([{ Key: 'seconds', Message: 'seconds and refreshSeconds must be numbers.' }]), false);
			}
			if (typeof seconds === 'number') this.setAccessTokenLifetime(seconds);
			if (typeof refreshSeconds === 'number') this.setRefreshTokenLifetime(refreshSeconds);
			const lifetimes = { seconds: this.config.accessTokenLifetimeSeconds, refreshSeconds: this.config.refreshTokenLifetimeSeconds };
			return this.sendJson(req, res, 200, lifetimes, false);
		}
		return this.sendJson(req, res, 404, failure(404), false);
	}
}
