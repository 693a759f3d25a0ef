// The window's private channel for `telematics-token` and `telematics-mcp`: a Unix socket in a folder of this
// window's under the user's private root (channelRoot.ts; a named pipe with an unguessable name on Windows),
// answering requests that carry the nonce: a token, or a tool call.
import { timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { MAX_TOOL_LINE_BYTES, parseRequest, replyLine, type Reply, type TokenRequest, type ToolReply } from '../../core/terminal/protocol';
import { SOCKET_NAME } from './channelRoot';
import { peerProcessId } from './peer';

/**
 * `uuids` random UUIDs as hex (122 random bits each), from the runtime's `crypto.randomUUID`, which VS Code
 * itself makes its ids with: in the extension host it is compiled and its generator seeded before we start.
 * `randomBytes`' first call took 0.4 ms of the host's thread at start-up (its code compiled on first use),
 * and a first synchronous one seeds OpenSSL's generator there (up to 4 ms).
 */
const randomHex = (uuids: number): string =>
	Array.from({ length: uuids }, () => globalThis.crypto.randomUUID().replace(/-/g, '')).join('');

/** A client that has not sent its line by then is dropped. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Once it has, the answer may wait for a refresh and for the person's answer (the command waits as long). */
const ANSWER_TIMEOUT_MS = 120_000;

export interface TokenChannel {
	/** The socket path or pipe name the command connects to. */
	readonly address: string;
	/** The random per-window secret every request must carry. */
	readonly nonce: string;
	/** This window's folder under the private root (the socket and the command's script), made by `listen()`. */
	readonly privateDir: string;
	/**
	 * Makes the private folder and starts answering (the first call; later ones wait for it): the window
	 * listens once it has a terminal, before it writes the command's script.
	 */
	listen(): Promise<void>;
	close(): Promise<void>;
}

/** Who asks, as the kernel tells it (peer.ts): the process id at the other end, or undefined where the system does not say. */
export type PeerProcess = () => Promise<number | undefined>;

/**
 * Picks the channel's folder under `root` (a folder no other user can write: channelRoot.ts), its address
 * and nonce (nothing on disk until `listen()`); `answer` is asked for each request that carries the nonce,
 * with a way to learn which process sent it.
 */
export async function openTokenChannel(answer: (request: TokenRequest, peer: PeerProcess) => Promise<Reply | ToolReply>, root: string, platform: NodeJS.Platform = process.platform): Promise<TokenChannel> {
	// Four UUIDs of 32 hex digits: the nonce (two: 244 random bits), the folder's name (16), the pipe's name.
	const random = randomHex(4);
	const nonce = random.slice(0, 64);
	const expected = Buffer.from(nonce);
	const matchesNonce = (given: string): boolean => {
		const buffer = Buffer.from(given);
		return buffer.length === expected.length && timingSafeEqual(buffer, expected);
	};
	// Made by listen() alone (mkdir fails if anything, a link included, is there).
	const privateDir = join(root, random.slice(64, 80));
	const address = platform === 'win32'
		? `\\\\.\\pipe\\telematics-token-${random.slice(96)}`
		: join(privateDir, SOCKET_NAME);
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
		let received = '';
		let answered = false;
		const reply = (value: Reply | ToolReply): void => {
			if (socket.destroyed) return;
			socket.end(replyLine(value));
		};
		socket.on('error', () => socket.destroy());
		socket.on('data', (chunk: Buffer) => {
			if (answered) return;
			received += chunk.toString('utf8');
			if (Buffer.byteLength(received) > MAX_TOOL_LINE_BYTES) {
				answered = true;
				return reply({ ok: false, error: 'request too long' });
			}
			const end = received.indexOf('\n');
			if (end < 0) return;
			answered = true;
			const parsed = parseRequest(received.slice(0, end), matchesNonce);
			if (!parsed.ok) return reply({ ok: false, error: parsed.error === 'refused' ? 'This terminal does not belong to this VS Code window.' : 'Not a request.' });
			socket.setTimeout(ANSWER_TIMEOUT_MS);
			answer(parsed.request, () => peerProcessId(socket, address, platform)).then(reply, () => reply({ ok: false, error: 'The window could not answer.' }));
		});
	});
	let listening: Promise<void> | undefined;
	let closing: Promise<void> | undefined;
	/** Whether listen() made the folder: close() removes only what this window made. */
	let made = false;
	return {
		address,
		nonce,
		privateDir,
		listen(): Promise<void> {
			listening ??= closing ? Promise.resolve() : (async () => {
				// 0700 whatever the umask: nobody else can reach the socket inside it.
				await mkdir(privateDir, { mode: 0o700 });
				made = true;
				await chmod(privateDir, 0o700);
				await new Promise<void>((resolve, reject) => {
					server.once('error', reject);
					server.listen(address, () => {
						server.off('error', reject);
						resolve();
					});
				});
			})();
			return listening;
		},
		close(): Promise<void> {
			closing ??= (async () => {
				await listening?.catch(() => undefined);
				await new Promise<void>((resolve) => {
					server.close(() => resolve());
					for (const socket of sockets) socket.destroy();
				});
				if (made) await rm(privateDir, { recursive: true, force: true });
			})();
			return closing;
		},
	};
}
