// The test host runs the code-server it finds in the user's cache: the cache must be this user's alone, or
// another user of the machine could put a program of theirs there (test/host/install.ts).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensurePrivateFolder } from '../host/install';

describe('the test host\'s cache folder', () => {
	let root: string;
	beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'host-cache-')); });
	afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

	it('is made for this user only, and a folder of this user\'s that others cannot write to is used as it is', () => {
		const made = path.join(root, 'made', 'telematics-auth-test-host');
		ensurePrivateFolder(made);
		assert.equal(fs.statSync(made).mode & 0o777, 0o700);
		const existing = path.join(root, 'existing');
		fs.mkdirSync(existing, { mode: 0o755 });
		fs.chmodSync(existing, 0o755);
		assert.doesNotThrow(() => ensurePrivateFolder(existing));
	});

	it('refuses a folder others can write to, and a symbolic link to a folder, saying what to do', () => {
		const shared = path.join(root, 'shared');
		fs.mkdirSync(shared);
		fs.chmodSync(shared, 0o777);
		assert.throws(() => ensurePrivateFolder(shared), /others can write to it \(mode 777\).*XDG_CACHE_HOME/);
		fs.chmodSync(shared, 0o775);
		assert.throws(() => ensurePrivateFolder(shared), /others can write to it \(mode 775\)/);
		const link = path.join(root, 'link');
		fs.mkdirSync(path.join(root, 'target'), { mode: 0o700 });
		fs.symlinkSync(path.join(root, 'target'), link);
		assert.throws(() => ensurePrivateFolder(link), /not a folder/);
	});

	it('refuses a folder another user made first, as a second user of the machine would in a shared cache', function () {
		if (process.getuid?.() !== 0) this.skip(); // only root can make a folder belong to another user
		const theirs = path.join(root, 'theirs');
		// A second user (nobody) makes the folder, in a world-writable parent as /tmp is.
		fs.chmodSync(root, 0o1777);
		const nobody = 65534;
		const made = spawnSync('/usr/bin/setpriv', ['--reuid', String(nobody), '--regid', String(nobody), '--clear-groups', '/bin/mkdir', '-m', '755', theirs]);
		assert.equal(made.status, 0, `setpriv mkdir as nobody: ${String(made.stderr)}`);
		assert.equal(fs.statSync(theirs).uid, nobody);
		assert.throws(() => ensurePrivateFolder(theirs), /belongs to user 65534, not to you \(0\)/);
	});
});
