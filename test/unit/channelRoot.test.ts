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
		// The bound itself: a base whose root is exactly as long as allowed is tried, one character more is not.
		const fits = `/${'x'.repeat(MAX_ROOT_PATH - '/.telematics-token'.length - 1)}`;
		assert.deepEqual(rootBases({ ...places, runtimeDir: undefined, storageDir: fits, homeDir: `${fits}y`, platform: 'linux' }), [fits]);
	});

	it('leaves room for a window\'s socket under the longest root: within the 104 bytes macOS allows, with the NUL', () => {
		assert.equal(MAX_ROOT_PATH, 100 - 1 - 16 - 1 - SOCKET_NAME.length);
		assert.equal(`${'r'.repeat(MAX_ROOT_PATH)}/${'0'.repeat(16)}/${SOCKET_NAME}`.length, 100);
	});

	it('is owned by the user or root all the way up, or it is not private', async function () {
		if (uid !== 0) this.skip(); // changing owners needs root: CI is root
		const theirs = base('theirs', 0o700);
		fs.chownSync(theirs, OTHER, OTHER);
		assert.equal(await isPrivatePath(theirs, uid), false, 'another user\'s folder');
		const mine = base('mine', 0o700);
		fs.chownSync(mine, 1000, 1000);
		fs.chownSync(scratch, 1000, 1000);
		assert.equal(await isPrivatePath(mine, 1000), true, 'the user\'s own folder under root\'s');
		assert.equal(await isPrivatePath(mine, 1001), false, 'not another user\'s');
		fs.chownSync(mine, 0, 0);
		assert.equal(await isPrivatePath(mine, 1000), true, 'a folder of root\'s is as safe from others as the user\'s own');
		fs.chownSync(scratch, 0, 0);
		// But a root that root made is not the user's: the window could not listen there.
		assert.equal(await privateChannelRoot([mine], 1000), undefined);
	});

	it('takes a base whose root is exactly the longest path that leaves room for a socket', async () => {
		const exact = path.join(scratch, 'e'.repeat(MAX_ROOT_PATH - scratch.length - 1 - '/telematics-token'.length));
		fs.mkdirSync(exact, { mode: 0o700 });
		assert.equal(path.join(exact, 'telematics-token').length, MAX_ROOT_PATH);
		assert.equal(await privateChannelRoot([exact, base('last', 0o700)], uid), path.join(exact, 'telematics-token'));
	});

	it('passes over a base that is missing, a file, or whose real path is too long for a socket below it', async () => {
		const good = base('good', 0o700);
		const file = path.join(scratch, 'file');
		fs.writeFileSync(file, '');
		const long = path.join(scratch, 'l'.repeat(Math.max(1, MAX_ROOT_PATH - scratch.length)));
		fs.mkdirSync(long, { mode: 0o700 });
		fs.symlinkSync(long, path.join(scratch, 's'));
		assert.equal(await privateChannelRoot([path.join(scratch, 'missing'), file, path.join(scratch, 's'), good], uid), path.join(good, '.telematics-token'));
		assert.equal(fs.existsSync(path.join(long, 'telematics-token')), false, 'nothing made under the long one');
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
		// Names almost a window's, and a window's name on a file: not ours to remove.
		for (const name of ['x0123456789abcdef', '0123456789abcdef0', '0123456789ABCDEF']) windowFolder(name);
		fs.writeFileSync(path.join(root, 'dddddddddddddddd'), '');
		if (uid === 0) fs.chownSync(windowFolder('eeeeeeeeeeeeeeee'), OTHER, OTHER); // another user's: changing owners needs root
		try {
			const removed = await removeDeadWindows(root, path.basename(mine), process.getuid?.() ?? 0);
			assert.deepEqual(removed.sort(), [path.basename(dead), path.basename(crashed)].sort());
			assert.deepEqual(fs.readdirSync(root).sort(), ['0123456789ABCDEF', '0123456789abcdef0', 'aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'cccccccccccccccc', 'dddddddddddddddd', ...(uid === 0 ? ['eeeeeeeeeeeeeeee'] : []), 'not-a-window', 'x0123456789abcdef']);
			assert.ok(fs.existsSync(elsewhere), 'a link is not followed');
		} finally {
			fs.rmSync(elsewhere, { recursive: true, force: true });
		}
	});

	it('a root that is gone leaves nothing to do', async () => {
		assert.deepEqual(await removeDeadWindows(path.join(root, 'gone'), 'bbbbbbbbbbbbbbbb', uid), []);
	});
});
