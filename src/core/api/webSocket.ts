// A WebSocket to a platform host through undici (dist/undici.js), with the same proxy choice and trusted
// roots as every request undici sends (routes.ts): the person's proxy settings and no_proxy, the OS store,
// NODE_EXTRA_CA_CERTS and telematicsAuth.extraCertificates. Certificate checks stay on. VS Code's own
// fetch has no WebSocket, so this is always undici.
import { createSecureContext } from 'node:tls';
import { decideProxy, isSafeHeaderValue } from './proxy';
import { loadTrustedRoots, nodeTrustStoreDeps, type TrustStoreDeps } from './trustStore';
import type { ProxySettings } from './types';
import type { LiveSocket, SocketHandlers } from '../liveTracking/connection';

/** Largest message undici takes off a direct socket before it closes it. */
export const MAX_SOCKET_MESSAGE_BYTES = 1024 * 1024;

export interface WebSocketOptions {
	settings: ProxySettings;
	env?: NodeJS.ProcessEnv;
	trustStore?: TrustStoreDeps;
}

/** Opens `url` (`ws:` or `wss:`) and reports to `handlers`; `closed` is called once, whatever ends it. */
export async function openWebSocket(url: string, handlers: SocketHandlers, options: WebSocketOptions): Promise<LiveSocket> {
	const env = options.env ?? process.env;
	const { settings } = options;
	const undici = await import('./undici');
	const secure = url.startsWith('wss:');
	const roots = secure ? await loadTrustedRoots(settings.extraCertificates ?? [], { ...(options.trustStore ?? nodeTrustStoreDeps), env }) : undefined;
	const context = roots ? createSecureContext({ ca: roots.certificates }) : undefined;
	const decision = decideProxy(url.replace(/^ws/i, 'http'), settings, env);
	const token = settings.proxyAuthorization;
	if (token !== undefined && !isSafeHeaderValue(token)) throw new Error('http.proxyAuthorization is not a value a header can carry.');
	const dispatcher = decision.kind === 'direct'
		// A message past 1 MiB closes the socket (1009) before it is held in memory; one past the
		// protocol's 64 KiB is read, then refused by parseFrame, and the socket stays.
		? new undici.Agent({ connect: { ...(context && { secureContext: context }) }, webSocket: { maxPayloadSize: MAX_SOCKET_MESSAGE_BYTES } })
		: new undici.ProxyAgent({
			uri: decision.proxyUrl,
			requestTls: { ...(context && { secureContext: context }) },
			// As routes.ts and VS Code: http.proxyStrictSSL: false reaches only the connection to an https:// proxy.
			proxyTls: { rejectUnauthorized: decision.strictSSL, ...(context && { secureContext: context }) },
			...(token && { token }),
		});
	const socket = new undici.WebSocket(url, { dispatcher });
	socket.binaryType = 'arraybuffer';
	let closed = false;
	const finish = (code: number): void => {
		if (closed) return;
		closed = true;
		handlers.closed(code);
		void dispatcher.close().catch(() => undefined);
	};
	socket.addEventListener('open', () => handlers.open());
	socket.addEventListener('message', (event) => {
		const data: unknown = event.data;
		handlers.message(typeof data === 'string' ? data : { byteLength: data instanceof ArrayBuffer ? data.byteLength : 0 });
	});
	socket.addEventListener('close', (event) => finish(event.code));
	socket.addEventListener('error', () => finish(1006));
	return {
		send: (text) => {
			if (socket.readyState === socket.OPEN) socket.send(text);
		},
		close: () => {
			if (socket.readyState === socket.CONNECTING || socket.readyState === socket.OPEN) socket.close(1000);
			finish(1000);
		},
	};
}
