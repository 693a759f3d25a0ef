// A loopback HTTP server that answers 204 and counts the requests it got (a proxy request too): the host
// check's tests send files with a real client to one standing for the service and one for another site.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingServer {
	server: Server;
	port: number;
	/** How many requests it got so far. */
	hits: () => number;
	/** What each request carried: its Authorization header and its body. */
	received: Array<{ authorization: string; body: string }>;
	/** Stops listening. */
	close: () => Promise<void>;
}

/** A server on `address` (port 0: any free one). */
export async function countingServer(address: string, port = 0): Promise<CountingServer> {
	let hits = 0;
	const received: CountingServer['received'] = [];
	const server = createServer((req, res) => {
		hits++;
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({ authorization: req.headers.authorization ?? '', body: Buffer.concat(chunks).toString('utf8') });
			res.writeHead(204).end();
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
