// A loopback HTTP server that answers 204 (or what `answer` says) and counts the requests it got (a proxy
// request too): the host check's and the door's tests send files with a real client to one standing for
// the service and one for another site.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingServer {
	server: Server;
	port: number;
	/** How many requests it got so far. */
	hits: () => number;
	/** What each request carried: its Authorization header and its body, its method, target and every header. */
	received: Array<{ authorization: string; body: string; method: string; url: string; headers: IncomingHttpHeaders }>;
	/** Stops listening. */
	close: () => Promise<void>;
}

/** An answer other than 204: its status, headers and body. */
export interface Answer {
	status: number;
	headers?: Record<string, string>;
	body?: string;
}

/** A server on `address` (port 0: any free one); `answer` may answer a request otherwise than 204. */
export async function countingServer(address: string, port = 0, answer?: (request: { method: string; url: string; body: string }) => Answer | undefined): Promise<CountingServer> {
	let hits = 0;
	const received: CountingServer['received'] = [];
	const server = createServer((req, res) => {
		hits++;
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			received.push({ authorization: req.headers.authorization ?? '', body, method: req.method ?? '', url: req.url ?? '', headers: req.headers });
			const answered = answer?.({ method: req.method ?? '', url: req.url ?? '', body });
			if (answered) res.writeHead(answered.status, answered.headers).end(answered.body);
			else res.writeHead(204).end();
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, address, () => resolve());
	});
	return {
		server,
		port: (server.address() as AddressInfo).port,
		hits: () => hits,
		received,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
