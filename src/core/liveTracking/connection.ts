// One live-tracking connection and its reconnect plan: authenticate in the first frame, pong every ping,
// authenticate again on the open socket when the token rotates, reconnect with backoff (jittered) and a
// fresh token after an error, a close, no `authenticated` within its deadline or a silent socket, and stop
// (no loop) when the account has no session, its token is refused, the service keeps failing, or too many
// sockets were opened in an hour; a new token (a refresh, a login), a network change or a click resumes it. Nothing the
// service sends is taken before `authenticated`. The socket and the timers are handed in, so the whole plan runs on a fake clock. Pure: no
// I/O of its own, no `vscode`.
import type { Clock } from '../util/clock';
import { authenticateMessage, parseFrame, pongMessage, type DevicePosition, type RefusedReason } from './protocol';

/** What the connection needs of a socket: ws over VS Code's network in the extension host (core/api/webSocket.ts), a fake in tests. */
export interface LiveSocket {
	send(text: string): void;
	close(): void;
}

export interface SocketHandlers {
	open(): void;
	message(data: string | { byteLength: number }): void;
	/** The socket closed or failed; called at most once per socket. */
	closed(code: number): void;
}

/** The account's live token and its instance, or undefined when it has no session to send. */
export interface LiveToken {
	accessToken: string;
	instanceId: string;
}

export interface ConnectionDeps {
	clock: Clock;
	/** A number in [0, 1) for the backoff's jitter (Math.random; tests fix it). */
	random?: () => number;
	/** Opens a socket to the service and reports to `handlers`; rejects when it cannot even start. */
	openSocket(handlers: SocketHandlers): Promise<LiveSocket>;
	/** A token to send now (refreshed first when due), or undefined: the account needs a login. */
	token(): Promise<LiveToken | undefined>;
	/** `text` with every secret of every session masked (redact.ts, given by the caller: this module runs in its own bundle). An error is masked so before it is shown or logged (the service's text included). */
	masked(text: string): string;
}

export type StopReason = 'needsLogin' | 'refused' | 'disposed';

export type ConnectionState =
	| { kind: 'connecting'; attempt: number }
	| { kind: 'authenticating' }
	| { kind: 'live' }
	| { kind: 'reauthenticating' }
	/** `error`: what went wrong, with every session secret masked. */
	| { kind: 'waiting'; attempt: number; retryInMs: number; error?: string }
	| { kind: 'stopped'; reason: StopReason; error?: string };

export interface DeviceUpdate {
	devices: DevicePosition[];
	/** Devices in the frame that were dropped (coordinates not numbers or out of range, no device token). */
	dropped: number;
}

/** First wait after a failure; doubles each attempt up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 1000;
export const MAX_BACKOFF_MS = 30_000;
/** Attempts in a row that never got in before the connection stops and says so. */
export const MAX_ATTEMPTS = 8;
/**
 * A connection got in when it stayed live this long: only then does the next failure start the backoff
 * over. `authenticated` or a `device_update` alone does not count, so a service that authenticates, sends
 * one update and closes is not asked again every second, with the token, forever.
 */
export const GOT_IN_AFTER_MS = 60_000;
/** How long the service may take to answer `authenticate`; past it the socket counts as failed. */
export const AUTH_DEADLINE_MS = 15_000;
/** The service pings every 30 s: no frame for longer than two pings (and a little) means a dead socket. */
export const SILENCE_MS = 65_000;
/** Sockets opened in any hour before the connection stops and says so, whatever got in. */
export const MAX_CONNECTS_PER_HOUR = 20;
const HOUR_MS = 60 * 60_000;

/**
 * The wait before attempt `attempt` (1-based): 1 s, 2 s, 4 s … 30 s, each with jitter (`random` in [0, 1)
 * takes it down to half), so that many windows that lost the service together do not come back together.
 */
export function backoffMs(attempt: number, random = 1): number {
	const base = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempt - 1));
	return Math.round(base * (0.5 + Math.min(1, Math.max(0, random)) / 2));
}

/** Who hears what the connection does (the panel). */
export interface ConnectionListener {
	state(state: ConnectionState): void;
	update(update: DeviceUpdate): void;
	/** A frame that was not read (too large, not JSON, an unknown type). */
	refused(reason: RefusedReason): void;
}

const NOBODY: ConnectionListener = { state: () => undefined, update: () => undefined, refused: () => undefined };

// Plain callbacks rather than the core's Emitter: this runs in the live-tracking bundle, which shares
// no class with extension.js.
export class LiveConnection {

	private current: ConnectionState = { kind: 'stopped', reason: 'disposed' };
	private socket: LiveSocket | undefined;
	/** Each socket's generation: handlers of an older socket are ignored. */
	private generation = 0;
	private sentToken: string | undefined;
	/** The token the last socket was opened with: only another one resumes a stopped connection. */
	private lastToken: string | undefined;
	private attempt = 0;
	/** When the current socket was first authenticated (undefined: not yet). */
	private liveSince: number | undefined;
	private retryTimer: unknown;
	/** The authenticate deadline, then the silence limit, of the current socket. */
	private watchTimer: unknown;
	/** Whether the current socket was answered `authenticated`: nothing is taken before. */
	// Stryker disable next-line BooleanLiteral: equivalent
	private authenticated = false;
	/** When each socket of the last hour was opened. */
	private readonly opened: number[] = [];
	private lastError: string | undefined;
	private disposed = false;
	/** When the last frame, and the last device update, came (epoch ms; undefined: none yet). */
	lastFrameAt: number | undefined;
	lastUpdateAt: number | undefined;

	constructor(private readonly deps: ConnectionDeps, private listener: ConnectionListener = NOBODY) { }

	/** Sets the one listener (the panel). */
	listen(listener: ConnectionListener): void {
		this.listener = listener;
	}

	get state(): ConnectionState {
		return this.current;
	}

	/** Connects now (also after a stop: a new login, or the person asks again). */
	start(): void {
		if (this.disposed) return;
		this.cancelRetry();
		this.attempt = 0;
		void this.connect();
	}

	/**
	 * The account's token changed (a refresh, another window's, a new login): on a live socket the new
	 * token is sent in a new `authenticate`; a connection stopped for want of a session starts again.
	 */
	tokenChanged(token: LiveToken | undefined): void {
		// Stryker disable next-line ConditionalExpression: redundant
		if (this.disposed) return;
		if (!token) {
			if (this.current.kind !== 'stopped') this.stop('needsLogin');
			return;
		}
		// A new token (a refresh, a login) resumes a connection that stopped for want of one, or gave up.
		if (this.current.kind === 'stopped') {
			if (this.current.reason !== 'disposed' && token.accessToken !== this.lastToken) this.start();
			return;
		}
		if (!this.socket || token.accessToken === this.sentToken) return;
		if (this.current.kind === 'live' || this.current.kind === 'authenticating' || this.current.kind === 'reauthenticating') {
			this.sentToken = token.accessToken;
			this.socket.send(authenticateMessage(token));
			this.setState({ kind: 'reauthenticating' });
		}
	}

	/**
	 * The network may have changed (other addresses, a wake from sleep: networkWatch.ts). A connection
	 * waiting to retry tries now; one that gave up starts again (the hourly limit still holds). A login
	 * it needs, or a panel closed, it does not change.
	 */
	networkChanged(): void {
		// Stryker disable next-line ConditionalExpression: redundant
		if (this.disposed) return;
		if (this.current.kind === 'waiting') {
			this.cancelRetry();
			void this.connect();
		} else if (this.current.kind === 'stopped' && this.current.reason === 'refused') {
			this.start();
		}
	}

	dispose(): void {
		// Stryker disable next-line ConditionalExpression: equivalent
		if (this.disposed) return;
		this.stop('disposed');
		this.disposed = true;
		this.listener = NOBODY;
	}

	private async connect(): Promise<void> {
		const generation = ++this.generation;
		this.cancelWatch();
		this.dropSocket();
		this.liveSince = undefined;
		this.setState({ kind: 'connecting', attempt: this.attempt });
		const token = await this.deps.token().catch(() => undefined);
		if (generation !== this.generation || this.disposed) return;
		if (!token) return this.stop('needsLogin');
		this.lastToken = token.accessToken;
		const now = this.deps.clock.now();
		while ((this.opened[0] ?? Infinity) <= now - HOUR_MS) this.opened.shift();
		if (this.opened.length >= MAX_CONNECTS_PER_HOUR) return this.stop('refused', `${this.opened.length} connections in the last hour`);
		this.opened.push(now);
		this.authenticated = false;
		const handlers: SocketHandlers = {
			open: () => {
				if (generation !== this.generation) return;
				this.sentToken = token.accessToken;
				// Stryker disable next-line OptionalChaining: unreachable
				this.socket?.send(authenticateMessage(token));
				this.setState({ kind: 'authenticating' });
				this.watch(AUTH_DEADLINE_MS, `no answer to authenticate within ${AUTH_DEADLINE_MS / 1000} s`);
			},
			message: (data) => {
				if (generation === this.generation) this.received(data);
			},
			closed: (code) => {
				if (generation !== this.generation) return;
				this.socket = undefined;
				this.failed(this.lastError ?? `closed (${code})`);
			},
		};
		try {
			const socket = await this.deps.openSocket(handlers);
			if (generation !== this.generation || this.disposed) return socket.close();
			this.socket = socket;
		} catch (error) {
			if (generation === this.generation) this.failed(error instanceof Error ? error.message : 'could not connect');
		}
	}

	private received(data: string | { byteLength: number }): void {
		const frame = parseFrame(data);
		const now = this.deps.clock.now();
		this.lastFrameAt = now;
		// Any frame of an authenticated socket says it is alive: the silence limit starts again.
		if (this.authenticated) this.watch(SILENCE_MS, `no frame for ${SILENCE_MS / 1000} s`);
		switch (frame.type) {
			case 'authenticated':
				this.authenticated = true;
				this.liveSince ??= now;
				this.lastError = undefined;
				this.watch(SILENCE_MS, `no frame for ${SILENCE_MS / 1000} s`);
				this.setState({ kind: 'live' });
				return;
			case 'ping':
				// Stryker disable next-line OptionalChaining: unreachable
				this.socket?.send(pongMessage(frame.timestamp, now));
				return;
			case 'device_update':
				if (!this.authenticated) return; // nothing is taken before the service said who we are
				this.lastUpdateAt = now;
				this.listener.update({ devices: frame.devices, dropped: frame.dropped });
				return;
			case 'error': {
				// The service's word on what went wrong. Before `authenticated`, the token (or the account's access)
				// was refused: stop and ask for a login, never retry it. After, a token that expired mid-connection:
				// the socket is closed, and the next attempt sends a fresh token.
				const text = [frame.code, frame.message].filter(Boolean).join(': ') || 'error';
				if (!this.authenticated) return this.stop('needsLogin', this.deps.masked(text));
				this.lastError = text;
				// Stryker disable next-line OptionalChaining: unreachable
				this.socket?.close();
				return;
			}
			case 'refused':
				this.listener.refused(frame.reason);
				return;
			// Stryker disable next-line ConditionalExpression: equivalent
			default:
				return; // welcome, subscribed: nothing to do
		}
	}

	/** After a close or an error: wait and connect again with a fresh token, or stop after too many. */
	private failed(raw: string): void {
		// Stryker disable next-line ConditionalExpression,StringLiteral,LogicalOperator: unreachable
		if (this.disposed || this.current.kind === 'stopped') return;
		// The service's words (or the socket's) may quote a token: masked before the page or the log sees them.
		const error = this.deps.masked(raw);
		this.generation++; // the closed socket's late handlers are ignored from here on
		this.cancelWatch();
		this.dropSocket();
		if (this.deps.clock.now() - (this.liveSince ?? Infinity) >= GOT_IN_AFTER_MS) this.attempt = 0;
		this.liveSince = undefined;
		this.attempt++;
		if (this.attempt > MAX_ATTEMPTS) return this.stop('refused', error);
		const retryInMs = backoffMs(this.attempt, (this.deps.random ?? Math.random)());
		this.setState({ kind: 'waiting', attempt: this.attempt, retryInMs, error });
		this.lastError = undefined;
		this.retryTimer = this.deps.clock.setTimeout(() => {
			this.retryTimer = undefined;
			void this.connect();
		}, retryInMs);
	}

	private stop(reason: StopReason, error?: string): void {
		this.generation++;
		this.cancelRetry();
		this.cancelWatch();
		this.dropSocket();
		this.setState({ kind: 'stopped', reason, ...(error !== undefined && { error }) });
	}

	private dropSocket(): void {
		const socket = this.socket;
		this.socket = undefined;
		this.sentToken = undefined;
		try {
			// Stryker disable next-line OptionalChaining: equivalent
			socket?.close();
		} catch {
			// already closed
		}
	}

	/** After `ms` with no frame (or no `authenticated`), the socket counts as failed and is replaced. */
	private watch(ms: number, why: string): void {
		this.cancelWatch();
		const generation = this.generation;
		this.watchTimer = this.deps.clock.setTimeout(() => {
			this.watchTimer = undefined;
			// Stryker disable next-line ConditionalExpression: redundant
			if (generation === this.generation) this.failed(why);
		}, ms);
	}

	private cancelWatch(): void {
		this.deps.clock.clearTimeout(this.watchTimer);
		this.watchTimer = undefined;
	}

	private cancelRetry(): void {
		this.deps.clock.clearTimeout(this.retryTimer);
		this.retryTimer = undefined;
	}

	private setState(state: ConnectionState): void {
		this.current = state;
		this.listener.state(state);
	}
}
