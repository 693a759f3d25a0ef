// The service emulator: a real HTTP server on loopback answering Login and RefreshToken as the service does
// (envelope, rotation, rate limit), with switchable faults. Ships as the demo service (dist/demo.js).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { authenticate } from './authenticate';
import {
	INJECTED_TAIL,
	resolveConfig,
	SHELL_TAIL,
	type EmulatorConfig,
	type EmulatorFaults,
	type FaultMode,
} from './config';
import { failure, ok, validation, type Envelope, type TokenResult } from './envelope';
import { FaultState, type FaultEndpoint } from './faults';
import { LoginRateLimiter } from './rateLimiter';
import { parseJsonObject, parseLogin, parseRefresh } from './requests';
import { swaggerPage } from './swagger';
import { TokenIssuer } from './tokens';
import { isLoopbackHost } from '../core/util/url';

export { DEMO_ADMINS, DEMO_USERS } from './config';
export type { EmulatorAdmin, EmulatorConfig, EmulatorFaults, EmulatorUser, FaultMode, LoginRateLimit } from './config';

export interface EmulatorRequestRecord {
	method: string;
	path: string;
	/** The HTTP status sent; 0 when the request was hung or reset by a fault. */
	status: number;
	at: number;
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

export interface RunningEmulator {
	/** e.g. http://127.0.0.1:41234 (no trailing slash) */
	readonly url: string;
	readonly port: number;
	/** Live: changes made here (e.g. `loginRateLimit.max`) apply to the next request. */
	readonly config: EmulatorConfig;
	readonly stats: EmulatorStats;
	setFaults(faults: EmulatorFaults): void;
	setAccessTokenLifetime(seconds: number): void;
	setRefreshTokenLifetime(seconds: number): void;
	resetRateLimit(): void;
	resetStats(): void;
	/** Closes the server and every socket, hung requests included. */
	close(): Promise<void>;
}

export const FAULT_MODES: readonly FaultMode[] = ['none', 'hang', 'reset', 'html502', 'slow', 'error500', 'bodyStatusMismatch', 'rateLimited', 'injectedToken', 'shellToken', 'expiredToken', 'absurdExp'];
/** The `Retry-After` (seconds) the `rateLimited` fault sends. */
export const FAULT_RETRY_AFTER_SECONDS = 60;

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_RECORDS = 1000;
const LOGIN_PATH = '/v1/auth/login';
const REFRESH_PATH = '/v1/auth/refreshtoken';
const SWAGGER_PATH = '/swagger/index.html';
/** A protected data endpoint of the emulator's own: who the bearer token belongs to. */
const ME_PATH = '/v1/me';
const CONTROL_PREFIX = '/__emulator/';

export async function startEmulator(partial: Partial<EmulatorConfig> = {}): Promise<RunningEmulator> {
	const emulator = new Emulator(resolveConfig(partial));
	await emulator.listen();
	return emulator;
}

function emptyStats(): EmulatorStats {
	return { loginCalls: 0, refreshCalls: 0, requests: [] };
}

class Emulator implements RunningEmulator {
	readonly config: EmulatorConfig;
	readonly stats: EmulatorStats = emptyStats();
	private readonly server: Server;
	private readonly sockets = new Set<Socket>();
	private readonly timers = new Set<{ timer: NodeJS.Timeout; resolve: (done: boolean) => void }>();
	private readonly faults: FaultState;
	private readonly rateLimiter: LoginRateLimiter;
	private readonly tokens: TokenIssuer;
	private address = { url: '', port: 0 };
	private closing: Promise<void> | undefined;

	constructor(config: EmulatorConfig) {
		this.faults = new FaultState(config.faults);
		const faults = this.faults;
		this.config = config;
		Object.defineProperty(this.config, 'faults', {
			enumerable: true,
			get: () => faults.current(),
			set: (value: EmulatorFaults) => faults.set(value),
		});
		this.rateLimiter = new LoginRateLimiter(() => this.config.loginRateLimit);
		this.tokens = new TokenIssuer({
			issuer: () => this.url,
			accessLifetimeSeconds: () => this.config.accessTokenLifetimeSeconds,
			refreshLifetimeSeconds: () => this.config.refreshTokenLifetimeSeconds,
			singleRefreshTokenPerSubject: () => this.config.singleRefreshTokenPerSubject,
			now: () => Date.now(),
		});
		this.server = createServer((req, res) => {
			this.handle(req, res).catch(() => {
				if (!res.headersSent) this.sendJson(req, res, 500, failure(500), false);
				else res.destroy();
			});
		});
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
	}

	get url(): string {
		return this.address.url;
	}

	get port(): number {
		return this.address.port;
	}

	listen(): Promise<void> {
		return new Promise((resolve, reject) => {
			const onError = (error: Error) => reject(error);
			this.server.once('error', onError);
			this.server.listen(this.config.port, this.config.host, () => {
				this.server.off('error', onError);
				const address = this.server.address();
				const port = typeof address === 'object' && address ? address.port : this.config.port;
				const host = this.config.host.includes(':') ? `[${this.config.host}]` : this.config.host;
				this.address = { url: `http://${host}:${port}`, port };
				resolve();
			});
		});
	}

	setFaults(faults: EmulatorFaults): void {
		this.faults.set(faults);
	}

	setAccessTokenLifetime(seconds: number): void {
		this.config.accessTokenLifetimeSeconds = seconds;
	}

	setRefreshTokenLifetime(seconds: number): void {
		this.config.refreshTokenLifetimeSeconds = seconds;
	}

	resetRateLimit(): void {
		this.rateLimiter.reset();
	}

	resetStats(): void {
		for (const key of Object.keys(this.stats) as (keyof EmulatorStats)[]) delete this.stats[key];
		Object.assign(this.stats, emptyStats());
	}

	close(): Promise<void> {
		this.closing ??= new Promise<void>((resolve) => {
			for (const entry of this.timers) {
				clearTimeout(entry.timer);
				entry.resolve(false);
			}
			this.timers.clear();
			this.server.close(() => resolve());
			this.server.closeAllConnections();
			for (const socket of this.sockets) socket.destroy();
		});
		return this.closing;
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const path = new URL(req.url ?? '/', 'http://emulator').pathname;
		const route = path.toLowerCase();
		const method = req.method ?? 'GET';
		if (route.startsWith(CONTROL_PREFIX)) return this.control(req, res, route);
		if (route === LOGIN_PATH || route === REFRESH_PATH) {
			if (method !== 'POST') return this.sendJson(req, res, 405, failure(405), true, { Allow: 'POST' });
			return route === LOGIN_PATH ? this.login(req, res) : this.refresh(req, res);
		}
		if (route === ME_PATH && method === 'GET') return this.me(req, res);
		if (route === SWAGGER_PATH && (method === 'GET' || method === 'HEAD')) {
			return this.send(req, res, 200, 'text/html; charset=utf-8', swaggerPage(this.url), true);
		}
		if ((route === '/' || route === '/swagger' || route === '/swagger/') && method === 'GET') {
			res.setHeader('Location', SWAGGER_PATH);
			return this.send(req, res, 302, 'text/plain; charset=utf-8', `See ${SWAGGER_PATH}\n`, true);
		}
		return this.sendJson(req, res, 404, failure(404, [{ Key: 'path', Message: `No endpoint at ${method} ${path}.` }]), true);
	}

	private async login(req: IncomingMessage, res: ServerResponse): Promise<void> {
		this.stats.loginCalls += 1;
		const text = await this.readBody(req, res);
		if (text === undefined) return;
		this.stats.lastLoginBody = bodyForStats(text);
		this.stats.lastLoginHeaders = headersForStats(req);
		const fault = await this.applyFault('login', req, res);
		if (fault === false) return;
		const decision = this.rateLimiter.attempt(req.socket.remoteAddress ?? 'unknown', Date.now());
		if (!decision.allowed) {
			const body = failure(429, [{ Key: 'Login', Message: 'Too many login attempts. Try again later.' }]);
			return this.sendJson(req, res, 429, body, true, { 'Retry-After': String(decision.retryAfterSeconds) });
		}
		if (!isJsonContentType(req.headers['content-type'])) return this.unsupportedMediaType(req, res);
		const json = parseJsonObject(text);
		if (!json.ok) return this.sendJson(req, res, 422, validation(json.errors), true);
		const attempt = parseLogin(json.value, {
			instanceId: header(req, 'instanceid'),
			instanceKey: header(req, 'instancekey'),
		}, this.config.requireInstanceHeaderForAdmin);
		if (!attempt.ok) return this.sendJson(req, res, 422, validation(attempt.errors), true);
		const outcome = authenticate(attempt.value, this.config.users, this.config.admins);
		if (!outcome.ok) return this.sendJson(req, res, outcome.status, failure(outcome.status), true);
		return this.sendJson(req, res, 200, ok(hostile(fault, this.tokens.issue(outcome.identity, answerExp(fault)))), true);
	}

	private async refresh(req: IncomingMessage, res: ServerResponse): Promise<void> {
		this.stats.refreshCalls += 1;
		const text = await this.readBody(req, res);
		if (text === undefined) return;
		this.stats.lastRefreshBody = bodyForStats(text);
		this.stats.lastRefreshHeaders = headersForStats(req);
		const fault = await this.applyFault('refresh', req, res);
		if (fault === false) return;
		if (!isJsonContentType(req.headers['content-type'])) return this.unsupportedMediaType(req, res);
		const json = parseJsonObject(text);
		if (!json.ok) return this.sendJson(req, res, 422, validation(json.errors), true);
		const attempt = parseRefresh(json.value);
		if (!attempt.ok) return this.sendJson(req, res, 422, validation(attempt.errors), true);
		const result = this.tokens.refresh(attempt.value.accessToken, attempt.value.refreshToken, answerExp(fault));
		if (!result) return this.sendJson(req, res, 401, failure(401), true);
		return this.sendJson(req, res, 200, ok(hostile(fault, result)), true);
	}

	/**
	 * `GET /v1/Me`: 200 with the subject, kind and expiry of a valid, unexpired access token in
	 * `Authorization: Bearer …`; 401 otherwise. Lets tests send a real request with the live token.
	 */
	private me(req: IncomingMessage, res: ServerResponse): void {
		const authorization = header(req, 'authorization');
		this.stats.lastMeAuthorization = authorization ?? null;
		const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
		const claims = token ? this.tokens.verify(token) : undefined;
		const exp = typeof claims?.exp === 'number' ? claims.exp : 0;
		if (!claims || exp * 1000 <= Date.now()) return this.sendJson(req, res, 401, failure(401), true, { 'WWW-Authenticate': 'Bearer' });
		return this.sendJson(req, res, 200, ok({ Subject: claims.sub, Role: claims.role, ExpiresAt: new Date(exp * 1000).toISOString() }), true);
	}

	/**
	 * Plays the endpoint's fault, if any. False when it answered; otherwise the request goes on,
	 * and a hostile-answer fault (or 'none') says how to shape a successful answer.
	 */
	private async applyFault(endpoint: FaultEndpoint, req: IncomingMessage, res: ServerResponse): Promise<false | FaultMode> {
		const { mode, slowMs } = this.faults.take(endpoint);
		switch (mode) {
			case 'none':
				return 'none';
			case 'slow':
				return (await this.delay(slowMs)) ? 'none' : false;
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
			default:
				return mode; // a hostile-answer fault
		}
	}

	/**
	 * Control endpoints answer loopback clients that also name a loopback host (no DNS
	 * rebinding from a web page), and take only JSON bodies (no cross-site form posts).
	 */
	private async control(req: IncomingMessage, res: ServerResponse, route: string): Promise<void> {
		if (!isLoopback(req.socket.remoteAddress) || !isLoopbackHostHeader(req.headers.host)) return this.sendJson(req, res, 403, failure(403), false);
		const method = req.method ?? 'GET';
		if (method === 'POST' && !isJsonContentType(req.headers['content-type'])) return this.unsupportedMediaType(req, res, false);
		if (method === 'GET' && route === '/__emulator/stats') return this.sendJson(req, res, 200, this.stats, false);
		if (method === 'GET' && route === '/__emulator/faults') return this.sendJson(req, res, 200, this.faults.current(), false);
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

	private unsupportedMediaType(req: IncomingMessage, res: ServerResponse, recorded = true): void {
		const message = 'Send the body as application/json (or application/json-patch+json).';
		this.sendJson(req, res, 415, failure(415, [{ Key: 'Content-Type', Message: message }]), recorded);
	}

	/** The body as text, or undefined after answering 413 for a body too large. */
	private readBody(req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
		return new Promise((resolve, reject) => {
			const chunks: Buffer[] = [];
			let size = 0;
			let tooLarge = false;
			req.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (size > MAX_BODY_BYTES) tooLarge = true;
				else chunks.push(chunk);
			});
			req.on('end', () => {
				if (!tooLarge) return resolve(Buffer.concat(chunks).toString('utf8'));
				this.sendJson(req, res, 413, failure(413), true);
				resolve(undefined);
			});
			req.on('error', reject);
		});
	}

	/** Waits `ms`; false when the emulator closed meanwhile. */
	private delay(ms: number): Promise<boolean> {
		return new Promise((resolve) => {
			const entry = {
				timer: setTimeout(() => {
					this.timers.delete(entry);
					resolve(true);
				}, ms),
				resolve,
			};
			this.timers.add(entry);
		});
	}

	private sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: Envelope<unknown> | object, recorded: boolean, headers: Record<string, string> = {}): void {
		this.send(req, res, status, 'application/json; charset=utf-8', JSON.stringify(body), recorded, headers);
	}

	private send(req: IncomingMessage, res: ServerResponse, status: number, contentType: string, body: string, recorded: boolean, headers: Record<string, string> = {}): void {
		if (recorded) this.record(req, status);
		if (res.destroyed) return;
		res.writeHead(status, { ...headers, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
		res.end(req.method === 'HEAD' ? undefined : body);
	}

	private record(req: IncomingMessage, status: number): void {
		const path = new URL(req.url ?? '/', 'http://emulator').pathname;
		this.stats.requests.push({ method: req.method ?? 'GET', path, status, at: Date.now() });
		if (this.stats.requests.length > MAX_RECORDS) this.stats.requests.splice(0, this.stats.requests.length - MAX_RECORDS);
	}
}

const BAD_GATEWAY_PAGE = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;

function header(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

function headersForStats(req: IncomingMessage): Record<string, string> {
	const picked: Record<string, string> = {};
	for (const [name, key] of [['InstanceId', 'instanceid'], ['InstanceKey', 'instancekey'], ['Content-Type', 'content-type']] as const) {
		const value = header(req, key);
		if (value !== undefined) picked[name] = value;
	}
	return picked;
}

function bodyForStats(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** `application/json`, `application/json-patch+json`, `text/json`, any `+json`, with parameters. */
export function isJsonContentType(value: string | undefined): boolean {
	if (value === undefined) return false;
	const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
	return type === 'application/json' || type === 'text/json' || /^application\/[\w.-]+\+json$/.test(type);
}

/** A `Host` header naming a loopback host: `127.x.x.x`, `localhost`, `[::1]`, with any port. */
export function isLoopbackHostHeader(host: string | undefined): boolean {
	return host !== undefined && isLoopbackHost(host.trim().replace(/:\d+$/, ''));
}

/** The `exp` a hostile-answer fault gives the access token, if it changes it. */
function answerExp(fault: FaultMode): number | undefined {
	if (fault === 'expiredToken') return Math.floor(Date.now() / 1000) - 60;
	if (fault === 'absurdExp') return 1e16;
	return undefined;
}

/** A real answer made hostile by `fault`: a token carrying a new request, or a shell command. */
function hostile(fault: FaultMode, result: TokenResult): TokenResult {
	if (fault === 'injectedToken') return { ...result, AccessToken: { ...result.AccessToken, Token: result.AccessToken.Token + INJECTED_TAIL } };
	if (fault === 'shellToken') return { ...result, AccessToken: { ...result.AccessToken, Token: result.AccessToken.Token + SHELL_TAIL } };
	return result;
}

/** Whether a client address (`req.socket.remoteAddress`) is on this machine. */
export function isLoopback(address: string | undefined): boolean {
	return address !== undefined && isLoopbackHost(address);
}

/** Faults from a control request body, or a message saying what is wrong. */
export function readFaults(body: Record<string, unknown>): EmulatorFaults | string {
	const faults: EmulatorFaults = {};
	for (const endpoint of ['login', 'refresh'] as const) {
		const mode = body[endpoint];
		if (mode === undefined) continue;
		if (!FAULT_MODES.includes(mode as FaultMode)) return `${endpoint} must be one of ${FAULT_MODES.join(', ')}.`;
		faults[endpoint] = mode as FaultMode;
	}
	for (const key of ['slowMs', 'count'] as const) {
		const value = body[key];
		if (value === undefined) continue;
		if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${key} must be a number of at least 0.`;
		faults[key] = value;
	}
	return faults;
}
