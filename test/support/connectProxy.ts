// An HTTP CONNECT proxy on loopback, as a company proxy is to the client: it resolves every
// host name itself (to a port on loopback), and records what it was asked to tunnel.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** The proxy address the integration host's HTTPS_PROXY names (runIntegration.ts), for the test that listens there. */
export const ENV_PROXY_ENV = 'TELEMATICS_TEST_ENV_PROXY';

export interface ConnectProxy {
	url: string;
	/** `host:port` of every CONNECT, in order. */
	readonly targets: string[];
	/** `tunnel` passes through; `407` asks for authentication. */
	answer: 'tunnel' | '407';
	/** When set, a CONNECT without exactly this Proxy-Authorization gets 407. */
	requireAuthorization?: string;
	/** The Proxy-Authenticate a 407 carries (none when unset), e.g. `Basic realm="corp"`. */
	challenge?: string;
	/** The Proxy-Authorization of every CONNECT (empty when none), in order. */
	readonly authorizations: string[];
	/** The header names of every CONNECT, in order. */
	readonly headerNames: string[][];
	close(): Promise<void>;
}

/**
 * A proxy that tunnels every CONNECT to `targetPort()` on 127.0.0.1, whatever host was asked for;
 * on `port` when given (a host started with HTTPS_PROXY naming it), else on a free one.
 */
export async function startConnectProxy(targetPort: () => number, port = 0): Promise<ConnectProxy> {
	const server: Server = createServer();
	const sockets: Socket[] = [];
	const proxy: ConnectProxy = {
		url: '',
		targets: [],
		authorizations: [],
		headerNames: [],
		answer: 'tunnel',
		close: () => new Promise<void>((resolve) => {
			for (const s of sockets) s.destroy();
			server.closeAllConnections();
			server.close(() => resolve());
		}),
	};
	server.on('connect', (req: IncomingMessage, socket: Socket) => {
		proxy.targets.push(req.url ?? '');
		const authorization = req.headers['proxy-authorization'] ?? '';
		proxy.authorizations.push(authorization);
		proxy.headerNames.push(Object.keys(req.headers));
		if (proxy.answer === '407' || (proxy.requireAuthorization !== undefined && authorization !== proxy.requireAuthorization)) {
			const challenge = proxy.challenge ? `Proxy-Authenticate: ${proxy.challenge}\r\n` : '';
			socket.end(`HTTP/1.1 407 Proxy Authentication Required\r\n${challenge}Content-Length: 0\r\n\r\n`);
			return;
		}
		const upstream = connect(targetPort(), '127.0.0.1', () => {
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			upstream.pipe(socket);
			socket.pipe(upstream);
		});
		upstream.on('error', () => socket.destroy());
		socket.on('error', () => upstream.destroy());
		sockets.push(socket, upstream);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return proxy;
}
