// A WebSocket to a platform host: `ws` over Node's http/https modules. In VS Code's extension host those
// modules are VS Code's network (it patches them for every extension): the proxy a PAC file or the system
// names, http.proxy, HTTPS_PROXY and no_proxy, proxy sign-in and Kerberos, http.proxyAuthorization, the OS
// certificates; http.proxySupport "off" goes direct, as VS Code does. So the socket goes the way every
// other request goes (routes.ts). Outside VS Code (tests) the modules are Node's own: direct.
// Certificate checks stay on. The trusted roots are every request's (routes.ts): VS Code's list (Node's and
// the OS store's), and where the person trusts more (NODE_EXTRA_CA_CERTS, telematicsAuth.extraCertificates),
// one list of ours with all of them, which VS Code's network then takes instead of its own.
import { WebSocket } from 'ws';
import { loadTrustedRoots, nodeTrustStoreDeps, trustsMoreThanVsCode, type TrustStoreDeps } from './trustStore';
import type { LiveSocket, SocketHandlers } from '../liveTracking/connection';

/** Largest message taken off the socket: a larger one closes it (1009) before it is held in memory. */
export const MAX_SOCKET_MESSAGE_BYTES = 1024 * 1024;

/** How long the opening handshake (proxy, TLS, upgrade) may take before the attempt fails. */
export const HANDSHAKE_TIMEOUT_MS = 15_000;

export interface WebSocketOptions {
	/** telematicsAuth.extraCertificates: files of more roots to trust. */
	extraCertificates?: readonly string[];
	env?: NodeJS.ProcessEnv;
	trustStore?: TrustStoreDeps;
}

/** Opens `url` (`ws:` or `wss:`) and reports to `handlers`; `closed` is called once, whatever ends it. */
export async function openWebSocket(url: string, handlers: SocketHandlers, options: WebSocketOptions = {}): Promise<LiveSocket> {
	const env = options.env ?? process.env;
	const secure = url.startsWith('wss:');
	const extra = options.extraCertificates ?? [];
	const roots = secure && trustsMoreThanVsCode(extra, env) ? await loadTrustedRoots(extra, { ...(options.trustStore ?? nodeTrustStoreDeps), env }) : undefined;
	const socket = new WebSocket(url, {
		// No agent of ours: VS Code's network chooses the proxy, and answers its sign-in.
		...(roots && { ca: roots.certificates }),
		maxPayload: MAX_SOCKET_MESSAGE_BYTES,
		handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
		followRedirects: false,
		perMessageDeflate: false,
	});
	let closed = false;
	const finish = (code: number): void => {
		if (closed) return;
		closed = true;
		handlers.closed(code);
	};
	socket.on('open', () => {
		if (!closed) handlers.open();
	});
	socket.on('message', (data, isBinary) => {
		if (closed) return;
		// A Buffer (ws's default binaryType), or its fragments: read where it is, not copied.
		const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
		handlers.message(isBinary ? { byteLength: bytes.byteLength } : bytes.toString('utf8'));
	});
	// ws follows every 'error' with 'close' (1006: the socket never opened, or broke). A message past
	// maxPayload is said as the code ws sent for it (1009), which the state line shows.
	let sent: number | undefined;
	socket.on('error', (error: Error & { code?: string }) => {
		if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') sent = 1009;
	});
	socket.on('close', (code) => finish(code === 1006 && sent !== undefined ? sent : code));
	return {
		send: (text) => {
			if (socket.readyState === WebSocket.OPEN) socket.send(text);
		},
		close: () => {
			if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
			else if (socket.readyState === WebSocket.OPEN) socket.close(1000);
			finish(1000);
		},
	};
}
