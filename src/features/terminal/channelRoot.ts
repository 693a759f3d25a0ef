// Where the windows' channels for `telematics-token` live: one folder of this user's that no other user
// can create, replace or enter (never the shared temp folder, where another user could re-create a
// closed window's folder and put a `git` of theirs on a terminal's PATH), and the clean-up of the
// folders of windows that died without closing theirs.
import { lstat, mkdir, readdir, realpath, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';

/** The root's name under its base. */
const ROOT_NAME = 'telematics-token';
/** A window's folder under the root: 16 hex digits. */
export const WINDOW_FOLDER = /^[0-9a-f]{16}$/;
/** The socket's name in a window's folder. */
export const SOCKET_NAME = 'sock';
/** A socket's path must fit sockaddr_un (108 bytes on Linux, 104 on macOS): the root's path leaves room for `/<16 hex>/sock`. */
export const MAX_ROOT_PATH = 100 - 1 - 16 - 1 - SOCKET_NAME.length;

export interface RootPlaces {
	/** `$XDG_RUNTIME_DIR`: the user's own runtime folder (Linux), if set. */
	runtimeDir?: string;
	/** The temp folder: per-user on macOS (and Windows), shared on Linux, where it is not used. */
	tmpDir: string;
	platform: NodeJS.Platform;
	/** The extension's global storage folder. */
	storageDir?: string;
	homeDir: string;
}

/** The bases to try, best first; each must hold the root privately and fit a socket path. */
export function rootBases(places: RootPlaces): string[] {
	const bases = [places.runtimeDir, places.platform === 'darwin' ? places.tmpDir : undefined, places.storageDir, places.homeDir];
	return bases.filter((b): b is string => b !== undefined && b.startsWith('/') && join(b, `.${ROOT_NAME}`).length <= MAX_ROOT_PATH);
}

/**
 * Whether nobody but `uid` and root can replace `path` or any folder above it: each is owned by one of
 * them and writable by no one else, except a sticky folder (such as /tmp), whose entries only their
 * owners can rename or remove, when the next one down is ours.
 */
export async function isPrivatePath(path: string, uid: number): Promise<boolean> {
	const chain: string[] = [];
	for (let p = path; ; p = dirname(p)) {
		chain.unshift(p);
		if (dirname(p) === p) break;
	}
	for (let i = 0; i < chain.length; i++) {
		const stat = await lstat(chain[i]!).catch(() => undefined);
		if (!stat?.isDirectory() || (stat.uid !== uid && stat.uid !== 0)) return false;
		const othersWrite = (stat.mode & 0o022) !== 0;
		const sticky = (stat.mode & 0o1000) !== 0;
		if (othersWrite && !(sticky && i < chain.length - 1)) return false;
	}
	return true;
}

/**
 * The channels' root, made owner-only under the first base that is private all the way up: the user's
 * runtime folder, a per-user temp folder, the extension's storage, the home folder. Undefined when none is.
 */
export async function privateChannelRoot(bases: readonly string[], uid: number): Promise<string | undefined> {
	for (const base of bases) {
		const real = await realpath(base).catch(() => undefined);
		if (!real) continue;
		const root = join(real, base === bases.at(-1) ? `.${ROOT_NAME}` : ROOT_NAME);
		if (root.length > MAX_ROOT_PATH) continue;
		// Made here, or there already: either way what stands there is checked next.
		await mkdir(root, { mode: 0o700 }).catch(() => undefined);
		const stat = await lstat(root).catch(() => undefined);
		if (!stat?.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) continue;
		if (await isPrivatePath(root, uid)) return root;
	}
	return undefined;
}

/** Whether something listens on the socket at `path` (a live window). */
function answers(path: string): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(path);
		// A Unix socket's connect succeeds or fails at once: the timeout only guards a hung system call.
		// Stryker disable BlockStatement,BooleanLiteral: hang
		socket.setTimeout(2_000, () => {
			socket.destroy();
			resolve(true); // slow is not dead
		});
		// Stryker restore BlockStatement,BooleanLiteral
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/**
 * Removes the folders of windows that died (a crash, a killed extension host): under `root`, folders of
 * ours by name and owner, not links, whose socket answers nobody; `keep` (this window's) stays. The names removed.
 */
export async function removeDeadWindows(root: string, keep: string, uid: number): Promise<string[]> {
	const removed: string[] = [];
	for (const name of await readdir(root).catch(() => [] as string[])) {
		if (!WINDOW_FOLDER.test(name) || name === keep) continue;
		const folder = join(root, name);
		const stat = await lstat(folder).catch(() => undefined);
		// Stryker disable next-line OptionalChaining: race
		if (!stat?.isDirectory() || stat.uid !== uid) continue;
		if (await answers(join(folder, SOCKET_NAME))) continue;
		// Stryker disable next-line BooleanLiteral: race
		await rm(folder, { recursive: true, force: true });
		removed.push(name);
	}
	return removed;
}
