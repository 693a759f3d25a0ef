// The service emulator: a real HTTP server on loopback answering Login and RefreshToken as the service does
// (envelope, rotation, rate limit, lifetimes), and the platform's main operations (every host on this one
// origin) from demo data, with the token kind each needs. Ships as the demo service (dist/demo.js); the
// tests' rig adds faults.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { operationFor, pathParameters } from '../core/platform/catalog';
import { HOST_KEYS, type Operation } from '../core/platform/operations';
import { authenticate, safeEqual } from './authenticate';
import { DemoPlatform } from './demoData';
import { openApiDocument, servedOperations } from './openapi';
import { missingParameters, ROUTES, type Caller } from './platformRoutes';
import { resolveConfig, type EmulatorConfig } from './config';
import { failure, ok, validation, type Envelope, type TokenResult } from './envelope';
import { LoginRateLimiter } from './rateLimiter';
import { parseJsonObject, parseLogin, parseRefresh } from './requests';
import { fleetDeviceTokens, REALTIME_PATH, RealtimeService, type RealtimeFailure } from './realtime';
import { swaggerPage } from './swagger';
import { subjectOf, TokenIssuer } from './tokens';
import { isLoopbackHost } from '../core/util/url';

export { DEMO_ADMINS, DEMO_USERS } from './config';
export type { EmulatorAdmin, EmulatorConfig, EmulatorUser, LoginRateLimit } from './config';

export interface RunningEmulator {
	/** e.g. http://127.0.0.1:41234 (no trailing slash) */
	readonly url: string;
	readonly port: number;
	/** Live: changes made here (e.g. `loginRateLimit.max`) apply to the next request. */
	readonly config: EmulatorConfig;
	/** The live-tracking socket: the tokens sent in `authenticate`, and a way to drop every socket. */
	readonly realtime: RealtimeService;
	setAccessTokenLifetime(seconds: number): void;
	setRefreshTokenLifetime(seconds: number): void;
	resetRateLimit(): void;
	/** Closes the server and every socket, hung requests included. */
	close(): Promise<void>;
}

/** The service endpoints a rig may put a fault in front of. */
export type ServiceEndpoint = 'login' | 'refresh';

/** How a rig changes a successful answer: the access token's `exp`, and the token text as sent. */
export interface AnswerShape {
	exp?: number;
	token?: (token: string) => string;
}

const MAX_BODY_BYTES = 1024 * 1024;
const LOGIN_PATH = '/v1/auth/login';
const REFRESH_PATH = '/v1/auth/refreshtoken';
const SWAGGER_PATH = '/swagger/index.html';
const OPENAPI_PATH = '/swagger/v1/swagger.json';
/** A protected data endpoint of the emulator's own: who the bearer token belongs to. */
const ME_PATH = '/v1/me';

export async function startEmulator(partial: Partial<EmulatorConfig> = {}): Promise<RunningEmulator> {
	const emulator = new EmulatorServer(resolveConfig(partial));
	await emulator.listen();
	return emulator;
}

/**
 * The service. A test rig (test/emulator/rig.ts) extends it through the protected hooks below
 * (faults before an answer, a shape for a success, extra routes, a look at every answer); the
 * demo service uses it as it is.
 */
export class EmulatorServer implements RunningEmulator {
	readonly config: EmulatorConfig;
	private readonly server: Server;
	private readonly sockets = new Set<Socket>();
	private readonly timers = new Set<{ timer: NodeJS.Timeout; resolve: (done: boolean) => void }>();
	private readonly rateLimiter: LoginRateLimiter;
	private readonly tokens: TokenIssuer;
	/** The demo platform's data: profiles, trips, applications and instances. */
	private readonly platformData: DemoPlatform;
	/** The live-tracking socket (`/realtime/api/v1/ws/realtime`): what it was sent, and a way to drop every socket. */
	readonly realtime: RealtimeService;
	private address = { url: '', port: 0 };
	private closing: Promise<void> | undefined;

	constructor(config: EmulatorConfig) {
		this.config = config;
		this.rateLimiter = new LoginRateLimiter(() => this.config.loginRateLimit);
		this.tokens = new TokenIssuer({
			issuer: () => this.url,
			accessLifetimeSeconds: () => this.config.accessTokenLifetimeSeconds,
			refreshLifetimeSeconds: () => this.config.refreshTokenLifetimeSeconds,
			singleRefreshTokenPerSubject: () => this.config.singleRefreshTokenPerSubject,
			now: () => Date.now(),
		});
		this.platformData = new DemoPlatform(() => this.config.users, () => Date.now());
		this.server = createServer((req, res) => {
			this.handle(req, res).catch(() => {
				if (!res.headersSent) this.sendJson(req, res, 500, failure(500), false);
				else res.destroy();
			});
		});
		this.realtime = new RealtimeService({
			verify: (token) => this.tokens.verify(token),
			now: () => Date.now(),
			devices: () => [...this.config.users.map((u) => u.deviceToken), ...fleetDeviceTokens(this.config.realtimeFleetDevices)],
			pingMs: () => this.config.realtimePingSeconds * 1000,
			updateMs: () => this.config.realtimeUpdateMs,
			hostile: () => this.config.realtimeHostileFrames,
			failure: () => this.realtimeFailure(),
		});
		this.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
			const path = new URL(req.url ?? '/', 'http://emulator').pathname.toLowerCase();
			// As Login: a service on loopback answers only a loopback Host (no DNS rebinding).
			if (path !== REALTIME_PATH || !this.hostAllowed(req)) {
				socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
				return;
			}
			this.realtime.upgrade(req, socket, head);
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

	setAccessTokenLifetime(seconds: number): void {
		this.config.accessTokenLifetimeSeconds = seconds;
	}

	setRefreshTokenLifetime(seconds: number): void {
		this.config.refreshTokenLifetimeSeconds = seconds;
	}

	resetRateLimit(): void {
		this.rateLimiter.reset();
	}

	close(): Promise<void> {
		this.closing ??= new Promise<void>((resolve) => {
			for (const entry of this.timers) {
				clearTimeout(entry.timer);
				entry.resolve(false);
			}
			this.timers.clear();
			this.realtime.close();
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
		if (await this.extraRoute(req, res, route)) return;
		if (route === LOGIN_PATH || route === REFRESH_PATH) {
			if (method !== 'POST') return this.sendJson(req, res, 405, failure(405), true, { Allow: 'POST' });
			return route === LOGIN_PATH ? this.login(req, res) : this.refresh(req, res);
		}
		if (route === ME_PATH && method === 'GET') return this.me(req, res);
		if (route === SWAGGER_PATH && (method === 'GET' || method === 'HEAD')) {
			return this.send(req, res, 200, 'text/html; charset=utf-8', swaggerPage(this.url, servedOperations((id) => id in ROUTES)), true);
		}
		if (route === OPENAPI_PATH && (method === 'GET' || method === 'HEAD')) {
			const document = openApiDocument(this.url, servedOperations((id) => id in ROUTES));
			return this.send(req, res, 200, 'application/json; charset=utf-8', JSON.stringify(document, null, 2), true);
		}
		const operation = platformOperation(method, path);
		if (operation) return this.platform(req, res, operation, path);
		if ((route === '/' || route === '/swagger' || route === '/swagger/') && method === 'GET') {
			res.setHeader('Location', SWAGGER_PATH);
			return this.send(req, res, 302, 'text/plain; charset=utf-8', `See ${SWAGGER_PATH}\n`, true);
		}
		return this.sendJson(req, res, 404, failure(404, [{ Key: 'path', Message: `No endpoint at ${method} ${path}.` }]), true);
	}

	private async login(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const text = await this.readBody(req, res);
		if (text === undefined) return;
		this.sawBody('login', req, text);
		const shape = await this.beforeAnswer('login', req, res);
		if (shape === false) return;
		// What a web page can send without asking (a text/plain form post, another Host by DNS
		// rebinding) is refused before it counts against the login rate limit.
		if (!isJsonContentType(req.headers['content-type'])) return this.unsupportedMediaType(req, res);
		if (!this.hostAllowed(req)) return this.sendJson(req, res, 403, failure(403, [{ Key: 'Host', Message: 'This service answers only requests for its own loopback address.' }]), true);
		const decision = this.rateLimiter.attempt(req.socket.remoteAddress ?? 'unknown', Date.now());
		if (!decision.allowed) {
			const body = failure(429, [{ Key: 'Login', Message: 'Too many login attempts. Try again later.' }]);
			return this.sendJson(req, res, 429, body, true, { 'Retry-After': String(decision.retryAfterSeconds) });
		}
		const json = parseJsonObject(text);
		if (!json.ok) return this.sendJson(req, res, 422, validation(json.errors), true);
		const attempt = parseLogin(json.value, {
			instanceId: header(req, 'instanceid'),
			instanceKey: header(req, 'instancekey'),
		}, this.config.requireInstanceHeaderForAdmin);
		if (!attempt.ok) return this.sendJson(req, res, 422, validation(attempt.errors), true);
		const outcome = authenticate(attempt.value, this.config.users, this.config.admins);
		if (!outcome.ok) return this.sendJson(req, res, outcome.status, failure(outcome.status), true);
		return this.sendJson(req, res, 200, ok(shaped(shape, this.tokens.issue(outcome.identity, shape.exp))), true);
	}

	private async refresh(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const text = await this.readBody(req, res);
		if (text === undefined) return;
		this.sawBody('refresh', req, text);
		const shape = await this.beforeAnswer('refresh', req, res);
		if (shape === false) return;
		if (!isJsonContentType(req.headers['content-type'])) return this.unsupportedMediaType(req, res);
		const json = parseJsonObject(text);
		if (!json.ok) return this.sendJson(req, res, 422, validation(json.errors), true);
		const attempt = parseRefresh(json.value);
		if (!attempt.ok) return this.sendJson(req, res, 422, validation(attempt.errors), true);
		const result = this.tokens.refresh(attempt.value.accessToken, attempt.value.refreshToken, shape.exp);
		if (!result) return this.sendJson(req, res, 401, failure(401), true);
		return this.sendJson(req, res, 200, ok(shaped(shape, result)), true);
	}

	/**
	 * A platform operation: the token kind it needs (401 without a valid one, 403 for the wrong kind, as
	 * the service), then its required parameters (422), then the route's answer from the demo data.
	 */
	private async platform(req: IncomingMessage, res: ServerResponse, op: Operation, path: string): Promise<void> {
		const text = await this.readBody(req, res);
		if (text === undefined) return;
		let body: Record<string, unknown> = {};
		if (text.trim() !== '') {
			if (!isJsonContentType(req.headers['content-type'])) return this.unsupportedMediaType(req, res);
			const json = parseJsonObject(text);
			if (!json.ok) return this.sendJson(req, res, 422, validation(json.errors), true);
			body = json.value;
		}
		const caller = this.caller(req, op);
		if (typeof caller === 'number') return this.sendJson(req, res, caller, failure(caller), true, caller === 401 ? { 'WWW-Authenticate': 'Bearer' } : {});
		const query = new URL(req.url ?? '/', 'http://emulator').searchParams;
		const request = {
			op,
			caller,
			path: pathParameters(op.path, path) ?? {},
			query,
			body,
			header: (name: string) => header(req, name.toLowerCase()),
			issueUserTokens: (deviceToken: string) => {
				const user = this.config.users.find((u) => u.deviceToken === deviceToken)!;
				return this.tokens.issue({ role: 'user', user });
			},
			now: () => Date.now(),
		};
		const missing = missingParameters(op, request);
		if (missing.length > 0) return this.sendJson(req, res, 422, validation(missing), true);
		const answer = ROUTES[op.id]!(request, this.platformData);
		return this.sendJson(req, res, answer.status, answer.body, true);
	}

	/** Who sends a platform request, or the status that refuses it (401 no valid token, 403 the wrong kind). */
	private caller(req: IncomingMessage, op: Operation): Caller | 401 | 403 {
		if (op.token === 'none') {
			const instance = this.platformData.instanceById(header(req, 'instanceid') ?? '');
			const key = header(req, 'instancekey');
			return instance && key !== undefined && safeEqual(instance.Key, key) ? { role: 'none', instance } : 401;
		}
		const token = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '')?.[1];
		const claims = token ? this.tokens.verify(token) : undefined;
		const exp = typeof claims?.exp === 'number' ? claims.exp : 0;
		if (!claims || exp * 1000 <= Date.now()) return 401;
		if (claims.role !== op.token) return 403;
		if (claims.role === 'admin') return { role: 'admin' };
		// A user's token names its subject; a deleted user's token no longer opens anything.
		const user = this.config.users.find((u) => subjectOf({ role: 'user', user: u }) === claims.sub);
		return user ? { role: 'user', deviceToken: user.deviceToken } : 401;
	}

	/** A service bound to a loopback address answers Login only for a loopback `Host` (no DNS rebinding). */
	private hostAllowed(req: IncomingMessage): boolean {
		return !this.config.loopbackHostOnly || !isLoopbackHost(this.config.host) || isLoopbackHostHeader(req.headers.host);
	}

	// --- what a rig may add (the demo service adds nothing) -----------------------------

	/** How the realtime socket fails after `authenticated`: the service does not. */
	protected realtimeFailure(): RealtimeFailure {
		return 'none';
	}

	/** Before Login or Refresh is answered: false when the rig answered itself, else how to shape a success. */
	protected async beforeAnswer(_endpoint: ServiceEndpoint, _req: IncomingMessage, _res: ServerResponse): Promise<AnswerShape | false> {
		return {};
	}

	/** A request the service has no route for yet: true when the rig answered it. */
	protected async extraRoute(_req: IncomingMessage, _res: ServerResponse, _route: string): Promise<boolean> {
		return false;
	}

	/** The body of a Login or Refresh request, as received. */
	protected sawBody(_endpoint: ServiceEndpoint, _req: IncomingMessage, _text: string): void {
		// the service keeps nothing
	}

	/** Every answer sent to a service path (0: hung or reset by a rig). */
	protected record(_req: IncomingMessage, _status: number): void {
		// the service keeps nothing
	}

	/**
	 * `GET /v1/Me`: 200 with the subject, kind and expiry of a valid, unexpired access token in
	 * `Authorization: Bearer …`; 401 otherwise. Lets tests send a real request with the live token.
	 */
	private me(req: IncomingMessage, res: ServerResponse): void {
		const authorization = header(req, 'authorization');
		const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
		const claims = token ? this.tokens.verify(token) : undefined;
		const exp = typeof claims?.exp === 'number' ? claims.exp : 0;
		if (!claims || exp * 1000 <= Date.now()) return this.sendJson(req, res, 401, failure(401), true, { 'WWW-Authenticate': 'Bearer' });
		return this.sendJson(req, res, 200, ok({ Subject: claims.sub, Role: claims.role, ExpiresAt: new Date(exp * 1000).toISOString() }), true);
	}

	protected unsupportedMediaType(req: IncomingMessage, res: ServerResponse, recorded = true): void {
		const message = 'Send the body as application/json (or application/json-patch+json).';
		this.sendJson(req, res, 415, failure(415, [{ Key: 'Content-Type', Message: message }]), recorded);
	}

	/** The body as text, or undefined after answering 413 for a body too large. */
	protected readBody(req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
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
	protected delay(ms: number): Promise<boolean> {
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

	protected sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: Envelope<unknown> | object, recorded: boolean, headers: Record<string, string> = {}): void {
		this.send(req, res, status, 'application/json; charset=utf-8', JSON.stringify(body), recorded, headers);
	}

	protected send(req: IncomingMessage, res: ServerResponse, status: number, contentType: string, body: string, recorded: boolean, headers: Record<string, string> = {}): void {
		if (recorded) this.record(req, status);
		if (res.destroyed) return;
		res.writeHead(status, { ...headers, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
		res.end(req.method === 'HEAD' ? undefined : body);
	}

}

export function header(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
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

/** Whether a client address (`req.socket.remoteAddress`) is on this machine. */
export function isLoopback(address: string | undefined): boolean {
	return address !== undefined && isLoopbackHost(address);
}

/** The platform operation the emulator serves at `method` and `path` (on any host key: here they are one origin). */
function platformOperation(method: string, path: string): Operation | undefined {
	for (const key of HOST_KEYS) {
		const op = operationFor(method, key, path);
		if (op && op.id in ROUTES) return op;
	}
	return undefined;
}

/** A success as the rig shaped it (the service itself shapes nothing). */
function shaped(shape: AnswerShape, result: TokenResult): TokenResult {
	return shape.token ? { ...result, AccessToken: { ...result.AccessToken, Token: shape.token(result.AccessToken.Token) } } : result;
}
