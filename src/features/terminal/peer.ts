// The process at the other end of a request on the channel, as the kernel tells it (Linux): the client's
// socket inode through `ss` (iproute2 asks the kernel through sock_diag; Node has no SO_PEERCRED), then
// the one process of the user holding that socket in /proc. Undefined wherever the system does not say
// (no `ss`, another system, several holders): then any program of the user could be asking.
import { execFile } from 'node:child_process';
import { lstat, readdir, readlink } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { onlyHolder, peerInodeOf, socketInode } from '../../core/terminal/peer';

/** Where iproute2's `ss` lives; only a root-owned regular file no one else can write is run. */
const SS_PATHS = ['/usr/bin/ss', '/bin/ss', '/usr/sbin/ss', '/sbin/ss'];
/** At most this many processes are looked through for the peer's socket. */
const MAX_PROCESSES = 4096;

async function ssProgram(): Promise<string | undefined> {
	for (const path of SS_PATHS) {
		const stat = await lstat(path).catch(() => undefined);
		if (stat?.isFile() && stat.uid === 0 && (stat.mode & 0o022) === 0) return path;
	}
	return undefined;
}

/** `ss -x -n -H`: every Unix stream socket with its inode and its peer's, without a header or names resolved. */
function listUnixSockets(ss: string): Promise<string | undefined> {
	return new Promise((resolve) => {
		execFile(ss, ['-x', '-n', '-H'], { cwd: '/', env: {}, timeout: 3000, maxBuffer: 8 * 1024 * 1024, windowsHide: true }, (error, stdout) => resolve(error ? undefined : stdout));
	});
}

/** The processes (of those this user may look into) holding a descriptor of socket `inode`. */
async function holdersOf(inode: number): Promise<number[]> {
	const target = `socket:[${inode}]`;
	const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^[1-9]\d*$/.test(name)).slice(0, MAX_PROCESSES);
	const holders: number[] = [];
	for (const pid of pids) {
		const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
		for (const fd of fds) {
			if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === target) {
				holders.push(Number(pid));
				break;
			}
		}
	}
	return holders;
}

/** The process id at the other end of `socket`, accepted on the Unix socket at `path`; undefined where the system does not say. */
export async function peerProcessId(socket: Socket, path: string, platform: NodeJS.Platform = process.platform): Promise<number | undefined> {
	if (platform !== 'linux') return undefined;
	const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
	if (typeof fd !== 'number' || fd < 0) return undefined;
	const ours = socketInode(await readlink(`/proc/self/fd/${fd}`).catch(() => ''));
	const ss = await ssProgram();
	if (ours === undefined || ss === undefined) return undefined;
	const listing = await listUnixSockets(ss);
	const peer = listing === undefined ? undefined : peerInodeOf(listing, path, ours);
	return peer === undefined ? undefined : onlyHolder(await holdersOf(peer));
}
