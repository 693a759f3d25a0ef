// One live-tracking connection and its reconnect plan: authenticate in the first frame, pong every ping,
// authenticate again on the open socket when the token rotates, reconnect with backoff and a fresh token
// after an error or a close, and stop (no loop) when the account has no session or the service keeps
// refusing. The socket and the timers are handed in, so the whole plan runs on a fake clock. Pure: no
// I/O of its own, no `vscode`.
import type { Clock } from '../util/clock';
import { authenticateMessage, parseFrame, pongMessage, type DevicePosition, type RefusedReason } from './protocol';

/** What the connection needs of a socket: undici's WebSocket in the extension host, a fake in tests. */
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
 * A connection got in when it received a `device_update` or stayed live this long: only then does the next
 * failure start the backoff over. `authenticated` alone does not count, so a service that authenticates and
 * then closes is not asked again every second, with the token, forever.
 */
export const GOT_IN_AFTER_MS = 60_000;

/** The wait before attempt `attempt` (1-based): 1 s, 2 s, 4 s … 30 s. */
export function backoffMs(attempt: number): number {
	return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempt - 1));
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
	private attempt = 0;
	/** When the current socket was first authenticated (undefined: not yet). */
	private liveSince: number | undefined;
	private retryTimer: unknown;
	private lastError: string | undefined;
	private disposed = false;

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
		if (this.disposed) return;
		if (!token) {
			if (this.current.kind !== 'stopped') this.stop('needsLogin');
			return;
		}
		if (this.current.kind === 'stopped' && this.current.reason === 'needsLogin') return this.start();
		if (!this.socket || token.accessToken === this.sentToken) return;
		if (this.current.kind === 'live' || this.current.kind === 'authenticating' || this.current.kind === 'reauthenticating') {
			this.sentToken = token.accessToken;
			this.socket.send(authenticateMessage(token));
			this.setState({ kind: 'reauthenticating' });
		}
	}

	dispose(): void {
		if (this.disposed) return;
		this.stop('disposed');
		this.disposed = true;
		this.listener = NOBODY;
	}

	private async connect(): Promise<void> {
		const generation = ++this.generation;
		this.dropSocket();
		this.liveSince = undefined;
		this.setState({ kind: 'connecting', attempt: this.attempt });
		const token = await this.deps.token().catch(() => undefined);
		if (generation !== this.generation || this.disposed) return;
		if (!token) return this.stop('needsLogin');
		const handlers: SocketHandlers = {
			open: () => {
				if (generation !== this.generation) return;
				this.sentToken = token.accessToken;
				this.socket?.send(authenticateMessage(token));
				this.setState({ kind: 'authenticating' });
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
		switch (frame.type) {
			case 'authenticated':
				this.liveSince ??= this.deps.clock.now();
				this.lastError = undefined;
				this.setState({ kind: 'live' });
				return;
			case 'ping':
				this.socket?.send(pongMessage(frame.timestamp, this.deps.clock.now()));
				return;
			case 'device_update':
				this.attempt = 0; // it got in: the next failure starts the backoff over
				this.listener.update({ devices: frame.devices, dropped: frame.dropped });
				return;
			case 'error':
				// The service's word on what went wrong (a token refused or expired); the socket is
				// closed on our side too, and the next attempt sends a fresh token.
				this.lastError = [frame.code, frame.message].filter(Boolean).join(': ') || 'error';
				this.socket?.close();
				return;
			case 'refused':
				this.listener.refused(frame.reason);
				return;
			default:
				return; // welcome, subscribed: nothing to do
		}
	}

	/** After a close or an error: wait and connect again with a fresh token, or stop after too many. */
	private failed(raw: string): void {
		if (this.disposed || this.current.kind === 'stopped') return;
		// The service's words (or the socket's) may quote a token: masked before the page or the log sees them.
		const error = this.deps.masked(raw);
		this.generation++; // the closed socket's late handlers are ignored from here on
		this.dropSocket();
		if (this.liveSince !== undefined && this.deps.clock.now() - this.liveSince >= GOT_IN_AFTER_MS) this.attempt = 0;
		this.liveSince = undefined;
		this.attempt++;
		if (this.attempt > MAX_ATTEMPTS) return this.stop('refused', error);
		const retryInMs = backoffMs(this.attempt);
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
		this.dropSocket();
		this.setState({ kind: 'stopped', reason, ...(error !== undefined && { error }) });
	}

	private dropSocket(): void {
		const socket = this.socket;
		this.socket = undefined;
		this.sentToken = undefined;
		try {
			socket?.close();
		} catch {
			// already closed
		}
	}

	private cancelRetry(): void {
		if (this.retryTimer !== undefined) this.deps.clock.clearTimeout(this.retryTimer);
		this.retryTimer = undefined;
	}

	private setState(state: ConnectionState): void {
		this.current = state;
		this.listener.state(state);
	}
}
