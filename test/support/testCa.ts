// A test root CA and a server certificate it signs (made with openssl), and an HTTPS front to the emulator:
// a company CA that only the OS store holds, with tests pointing SSL_CERT_FILE at a bundle of their own.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import * as path from 'node:path';

export interface TestCa {
	dir: string;
	/** The root's PEM file. */
	caFile: string;
	/** The OS bundle of this machine plus the test root: what SSL_CERT_FILE points at. */
	bundleFile: string;
	/** The root's subject CN, which error messages should name. */
	caName: string;
	key: string;
	cert: string;
}

function openssl(dir: string, ...args: string[]): void {
	execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

/** Makes (or reuses) a CA named `caName` in `dir`. */
export function makeTestCa(dir: string, caName = 'Fleet Corp Inspection Root CA'): TestCa {
	fs.mkdirSync(dir, { recursive: true });
	const file = (name: string) => path.join(dir, name);
	if (!fs.existsSync(file('server.pem'))) {
		openssl(dir, 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '3650', '-subj', `/CN=${caName}/O=Fleet Corp`);
		openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
		fs.writeFileSync(file('ext.cnf'), 'subjectAltName=DNS:localhost,DNS:telematics.test,IP:127.0.0.1\n');
		openssl(dir, 'x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '3650', '-extfile', 'ext.cnf');
		const system = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'].find((f) => fs.existsSync(f));
		fs.writeFileSync(file('bundle.pem'), `${system ? fs.readFileSync(system, 'utf8') : ''}\n${fs.readFileSync(file('ca.pem'), 'utf8')}`);
	}
	return {
		dir,
		caFile: file('ca.pem'),
		bundleFile: file('bundle.pem'),
		caName,
		key: fs.readFileSync(file('server.key'), 'utf8'),
		cert: fs.readFileSync(file('server.pem'), 'utf8'),
	};
}

/** An HTTPS server with `ca`'s server certificate that forwards every request and WebSocket to `targetPort` on loopback. */
export interface HttpsFront {
	server: https.Server;
	port: number;
	close(): Promise<void>;
}

export async function startHttpsFront(ca: Pick<TestCa, 'key' | 'cert'>, targetPort: number): Promise<HttpsFront> {
	const server = https.createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
		const upstream = httpRequest({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	// A WebSocket upgrade goes through as it came: the request head, then both ways byte for byte.
	const upgraded = new Set<Duplex>();
	server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
		upgraded.add(socket);
		socket.on('close', () => upgraded.delete(socket));
		const upstream = connect(targetPort, '127.0.0.1', () => {
			const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1`];
			for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
			upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
			if (head.length) upstream.write(head);
			upstream.pipe(socket);
			socket.pipe(upstream);
		});
		upstream.on('error', () => socket.destroy());
		socket.on('error', () => upstream.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		server,
		port: (server.address() as AddressInfo).port,
		close: () => new Promise<void>((resolve) => {
			for (const socket of upgraded) socket.destroy();
			server.closeAllConnections();
			server.close(() => resolve());
		}),
	};
}

/**
 * Inside a VS Code extension host run with an extensionTestsPath: the test root in the list VS
 * Code's fetch loads with the OS store (its host adds `https.globalAgent.testCertificates` to it).
 * The list loads once, on the first request, so this goes before any.
 */
export function trustTestRootLikeTheOsStore(caDir: string): void {
	const agent = https.globalAgent as https.Agent & { testCertificates?: string[] };
	agent.testCertificates = [...(agent.testCertificates ?? []), fs.readFileSync(path.join(caDir, 'ca.pem'), 'utf8')];
}
