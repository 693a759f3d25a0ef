// Files of the opened folder read and replaced as attacker input: a symlink, a hard link, a FIFO or
// bytes that are not UTF-8 are refused on the open handle; a replacement never writes through a link.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRegularFile, removeRegularFile, replaceRegularFile } from '../../src/system/regularFile';

describe('regular files of the folder', () => {
	let dir: string;
	let outside: string;
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'regular-'));
		outside = path.join(dir, 'outside-secret');
		fs.writeFileSync(outside, 'AWS_SECRET=do-not-copy\n');
		fs.mkdirSync(path.join(dir, 'folder'));
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
	const inFolder = (name: string) => path.join(dir, 'folder', name);

	it('reads a regular UTF-8 file with its mode, BOM kept; a missing one is missing', async () => {
		fs.writeFileSync(inFolder('.env'), '\ufeffA=1\n', { mode: 0o640 });
		fs.chmodSync(inFolder('.env'), 0o640);
		assert.deepEqual(await readRegularFile(inFolder('.env')), { kind: 'text', text: '\ufeffA=1\n', mode: 0o640 });
		assert.deepEqual(await readRegularFile(inFolder('none')), { kind: 'missing' });
	});

	it('refuses a symlink, even one to a regular file', async () => {
		fs.symlinkSync(outside, inFolder('.env'));
		assert.deepEqual(await readRegularFile(inFolder('.env')), { kind: 'refused', reason: 'symlink' });
	});

	it('refuses a hard link to a file elsewhere', async () => {
		fs.linkSync(outside, inFolder('.env'));
		assert.deepEqual(await readRegularFile(inFolder('.env')), { kind: 'refused', reason: 'hardLink' });
	});

	it('refuses a directory and a FIFO without blocking', async () => {
		fs.mkdirSync(inFolder('.env'));
		assert.deepEqual(await readRegularFile(inFolder('.env')), { kind: 'refused', reason: 'notRegular' });
		execFileSync('mkfifo', [inFolder('.gitignore')]);
		assert.deepEqual(await readRegularFile(inFolder('.gitignore')), { kind: 'refused', reason: 'notRegular' });
	});

	it('refuses a file past the size bound unread: 1 MiB unless the caller names a smaller one', async () => {
		const file = path.join(dir, 'sized');
		fs.writeFileSync(file, 'x'.repeat(10));
		assert.deepEqual(await readRegularFile(file, 9), { kind: 'refused', reason: 'tooLarge' });
		assert.equal((await readRegularFile(file, 10)).kind, 'text');
		fs.writeFileSync(file, 'x'.repeat(1024 * 1024 + 1));
		assert.deepEqual(await readRegularFile(file), { kind: 'refused', reason: 'tooLarge' });
		fs.writeFileSync(file, 'x'.repeat(1024 * 1024));
		assert.equal((await readRegularFile(file)).kind, 'text');
	});

	it('refuses bytes that are not UTF-8 instead of turning them into U+FFFD', async () => {
		fs.writeFileSync(inFolder('.env'), Buffer.from([0x41, 0x3d, 0xff, 0xfe, 0x0a]));
		assert.deepEqual(await readRegularFile(inFolder('.env')), { kind: 'refused', reason: 'notUtf8' });
	});

	it('replacing a symlink or a hard link replaces the entry; the file it pointed at stays as it was', async () => {
		fs.symlinkSync(outside, inFolder('.env'));
		fs.linkSync(outside, inFolder('.gitignore'));
		await replaceRegularFile(inFolder('.env'), 'TELEMATICS_TOKEN=x\n', 0o600);
		await replaceRegularFile(inFolder('.gitignore'), '.env\n', 0o644);
		assert.equal(fs.readFileSync(outside, 'utf8'), 'AWS_SECRET=do-not-copy\n');
		assert.equal(fs.lstatSync(inFolder('.env')).isSymbolicLink(), false);
		assert.equal(fs.statSync(inFolder('.env')).mode & 0o777, 0o600);
		assert.equal(fs.readFileSync(inFolder('.gitignore'), 'utf8'), '.env\n');
		assert.deepEqual(fs.readdirSync(path.join(dir, 'folder')).sort(), ['.env', '.gitignore'], 'no temporary file is left');
	});

	it('removes a regular file, never a symlink\'s target', async () => {
		fs.symlinkSync(outside, inFolder('.env'));
		await removeRegularFile(inFolder('.env'));
		assert.equal(fs.existsSync(outside), true);
		fs.writeFileSync(inFolder('plain'), 'x');
		await removeRegularFile(inFolder('plain'));
		assert.equal(fs.existsSync(inFolder('plain')), false);
	});
});
