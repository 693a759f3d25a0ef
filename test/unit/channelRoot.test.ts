// Where the terminals' channels live: a folder no other user can create, replace or enter, and the
// clean-up of the folders of windows that died. Real folders, modes and sockets; a second user by setpriv.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { isPrivatePath, MAX_ROOT_PATH, privateChannelRoot, removeDeadWindows, rootBases, SOCKET_NAME } from '../../src/features/terminal/channelRoot';
import { openTokenChannel } from '../../src/features/terminal/tokenChannel';

const uid = process.getuid?.() ?? 0;
/** Another local user, for the tests that need one (root runs them; CI is root). */
const OTHER = 65534;
const canSwitchUser = uid === 0 && fs.existsSync('/usr/bin/setpriv');

/** Runs `sh -c script` as the other user; its exit code. */
function asOtherUser(script: string): number {
	return spawnSync('/usr/bin/setpriv', [`--reuid=${OTHER}`, `--regid=${OTHER}`, '--clear-groups', '/bin/sh', '-c', script], { stdio: 'ignore' }).status ?? -1;
}

describe('the channels\' root', () => {
	let scratch: string;
	beforeEach(() => {
		scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'root-')); // 0700, ours
	});
	afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

	const base = (name: string, mode: number): string => {
		const dir = path.join(scratch, name);
		fs.mkdirSync(dir);
		fs.chmodSync(dir, mode);
		return dir;
	};

	it('is looked for in $XDG_RUNTIME_DIR, the temp folder on macOS only, the extension\'s storage, then the home folder', () => {
		const places = { runtimeDir: '/run/user/1000', tmpDir: '/tmp', storageDir: '/home/u/.config/Code/User/globalStorage/x', homeDir: '/home/u' };
		assert.deepEqual(rootBases({ ...places, platform: 'linux' }), ['/run/user/1000', places.storageDir, '/home/u']);
		assert.deepEqual(rootBases({ ...places, platform: 'darwin' }), ['/run/user/1000', '/tmp', places.storageDir, '/home/u']);
		assert.deepEqual(rootBases({ ...places, runtimeDir: undefined, platform: 'linux' }), [places.storageDir, '/home/u']);
		// A base too long for a socket path below it, or not absolute, is not tried.
		assert.deepEqual(rootBases({ ...places, storageDir: `/${'x'.repeat(MAX_ROOT_PATH)}`, runtimeDir: 'relative', platform: 'linux' }), ['/home/u']);
	});

	it('is private only when no folder above it can be written by another user (a sticky one aside)', async () => {
		assert.equal(await isPrivatePath(scratch, uid), true, 'a 0700 folder under the sticky /tmp');
		const open = base('open', 0o777);
		fs.mkdirSync(path.join(open, 'inner'), { mode: 0o700 });
		assert.equal(await isPrivatePath(path.join(open, 'inner'), uid), false, 'under a folder anyone can write');
		const sticky = base('sticky', 0o1777);
		fs.mkdirSync(path.join(sticky, 'mine'), { mode: 0o700 });
		assert.equal(await isPrivatePath(path.join(sticky, 'mine'), uid), true, 'under a sticky folder, ours');
		assert.equal(await isPrivatePath(sticky, uid), false, 'the sticky folder itself is not private');
		fs.symlinkSync(path.join(sticky, 'mine'), path.join(scratch, 'link'));
		assert.equal(await isPrivatePath(path.join(scratch, 'link'), uid), false, 'a link is not a folder');
		assert.equal(await isPrivatePath(path.join(scratch, 'missing'), uid), false);
	});

	it('is made owner-only under the first private base; a writable base, a link or a loose folder is passed over', async () => {
		const open = base('open', 0o777);
		const good = base('good', 0o700);
		const root = await privateChannelRoot([open, good], uid);
		assert.equal(root, path.join(good, '.telematics-token'), 'the last base (home) gets a dot folder');
		assert.equal(fs.statSync(root).mode & 0o777, 0o700);

		const linked = base('linked', 0o700);
		fs.symlinkSync(good, path.join(linked, 'telematics-token'));
		const loose = base('loose', 0o700);
		fs.mkdirSync(path.join(loose, 'telematics-token'), { mode: 0o755 });
		fs.chmodSync(path.join(loose, 'telematics-token'), 0o755);
		assert.equal(await privateChannelRoot([linked, loose, good], uid), path.join(good, '.telematics-token'));
		assert.equal(await privateChannelRoot([open], uid), undefined, 'none private: no root, no command');
	});

	it('made by another user first, is not ours: passed over', async function () {
		if (!canSwitchUser) this.skip(); // needs root and setpriv: CI has both
		const theirs = base('theirs', 0o755);
		fs.mkdirSync(path.join(theirs, 'telematics-token'), { mode: 0o700 });
		fs.chownSync(path.join(theirs, 'telematics-token'), OTHER, OTHER);
		const good = base('good', 0o700);
		assert.equal(await privateChannelRoot([theirs, good], uid), path.join(good, '.telematics-token'));
	});

	it('keeps another user from putting a program of theirs on a closed window\'s PATH, where /tmp let them', async function () {
		if (!canSwitchUser) this.skip(); // needs root and setpriv: CI has both
		const home = base('home', 0o755); // a home folder others may list, as on many systems
		const root = (await privateChannelRoot([home], uid))!;
		const channel = await openTokenChannel(async () => ({ ok: false, error: 'none' }), root);
		await channel.listen();
		const bin = path.join(channel.privateDir, 'bin');
		await channel.close();
		const plant = (dir: string) => asOtherUser(`mkdir -p '${dir}' && printf '#!/bin/sh\\necho planted\\n' > '${dir}/git' && chmod 755 '${dir}/git'`);
		assert.notEqual(plant(bin), 0, 'the other user cannot re-create the closed window\'s folder');
		assert.equal(fs.existsSync(bin), false);
		// The place it used to be: a folder of that name in the shared temp folder, which anyone may make.
		const shared = path.join(os.tmpdir(), `telematics-token-${path.basename(channel.privateDir)}`, 'bin');
		try {
			assert.equal(plant(shared), 0, 'in /tmp the other user could');
		} finally {
			execFileSync('/bin/rm', ['-rf', path.dirname(shared)]);
		}
	});
});

describe('the folders of windows that died', () => {
	let root: string;
	const servers: net.Server[] = [];
	beforeEach(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'channels-'));
	});
	afterEach(async () => {
		for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
		fs.rmSync(root, { recursive: true, force: true });
	});

	const windowFolder = (name: string): string => {
		const dir = path.join(root, name);
		fs.mkdirSync(dir, { mode: 0o700 });
		fs.mkdirSync(path.join(dir, 'bin'));
		return dir;
	};
	const listen = async (dir: string): Promise<void> => {
		const server = net.createServer((s) => s.end());
		servers.push(server);
		await new Promise<void>((resolve) => server.listen(path.join(dir, SOCKET_NAME), resolve));
	};

	it('go: a dead socket or none; the live window, this window and whatever is not ours stay', async () => {
		const dead = windowFolder('0123456789abcdef');
		const crashed = windowFolder('fedcba9876543210');
		const stale = net.createServer();
		await new Promise<void>((resolve) => stale.listen(path.join(crashed, SOCKET_NAME), resolve));
		// A killed host leaves its socket file: close without unlinking it.
		await new Promise((r) => stale.close(r));
		fs.writeFileSync(path.join(crashed, SOCKET_NAME), '');
		const live = windowFolder('aaaaaaaaaaaaaaaa');
		await listen(live);
		const mine = windowFolder('bbbbbbbbbbbbbbbb');
		const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'elsewhere-'));
		fs.symlinkSync(elsewhere, path.join(root, 'cccccccccccccccc'));
		fs.mkdirSync(path.join(root, 'not-a-window'));
		try {
			const removed = await removeDeadWindows(root, path.basename(mine), process.getuid?.() ?? 0);
			assert.deepEqual(removed.sort(), [path.basename(dead), path.basename(crashed)].sort());
			assert.deepEqual(fs.readdirSync(root).sort(), ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'cccccccccccccccc', 'not-a-window']);
			assert.ok(fs.existsSync(elsewhere), 'a link is not followed');
		} finally {
			fs.rmSync(elsewhere, { recursive: true, force: true });
		}
	});
});
