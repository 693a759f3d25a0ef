// The folder's environment files as the host check reads them (system/folderEnvironments.ts), on real folders:
// which names are environment files (as httpYac names its environments), what makes the folder "not say"
// (httpYac configurations, package.json settings and plugins, links out of the workspace folder, the bounds),
// and that a file is read again when it changes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as httpyac from 'httpyac';
import { readFolderEnvironments, type FolderEnvironments } from '../../src/system/folderEnvironments';

/** The names the readings give, each with its values. */
function values(read: FolderEnvironments): Record<string, string[]> {
	return Object.fromEntries([...read.environments].map(([name, vals]) => [name, [...vals.values()].map((v) => `${v.environment}=${v.value}`)]));
}

describe('the folder\'s environment files, as the host check reads them', () => {
	let base: string;
	let ws: string;
	beforeEach(() => {
		base = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-env-'));
		ws = path.join(base, 'ws');
		fs.mkdirSync(ws);
	});
	afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

	const write = (files: Record<string, string>, under = ws) => {
		for (const [name, text] of Object.entries(files)) {
			fs.mkdirSync(path.dirname(path.join(under, name)), { recursive: true });
			fs.writeFileSync(path.join(under, name), text);
		}
	};
	const read = (at = 'requests.http', root: string | undefined = ws) => readFolderEnvironments(path.join(ws, at), root);

	it('reads every file httpYac takes an environment from, and no other', async () => {
		write({
			'http-client.env.json': '{"dev": {"h1": "a"}}',
			'http-client.private.env.json': '{"dev": {"h2": "b"}}',
			'.httpyac.json': '{"environments": {"dev": {"h3": "c"}}}',
			'.env': 'h4=d',
			'.env.prod': 'h5=e',
			'prod.env': 'h6=f',
			'.prod.env': 'h7=g',
			'.envrc': 'n1=x',
			'a.env.local': 'n2=x',
			'prod.env.bak': 'n3=x',
			'notes.txt': 'n4=x',
			'xhttp-client.env.json': '{"dev": {"n5": "x"}}',
		});
		const got = await read();
		assert.equal(got.outside, undefined);
		for (const name of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7']) assert.ok(got.environments.has(name), `${name} is read`);
		for (const name of ['n1', 'n2', 'n3', 'n4', 'n5']) assert.ok(!got.environments.has(name), `${name} is not an environment's`);
		assert.deepEqual(values(got).h7, ['.prod.env=g']);
	});

	it('a `.prod.env` is an environment to httpYac (named `.prod`), so it is read (issue 50)', async () => {
		write({ '.prod.env': 'host=http://127.0.0.2', 'prod.env': 'host=http://127.0.0.1' });
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		const info = console.info;
		console.info = () => undefined;
		try {
			const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(path.join(ws, 'requests.http'), async () => 'GET {{host}}/p\n', 0, { workingDir: ws });
			assert.deepEqual(await httpyac.getEnvironments({ httpFile, config: {} } as never), ['.prod', 'prod'], 'httpYac offers both');
		} finally {
			console.info = info;
		}
		assert.deepEqual(values(await read()).host?.sort(), ['.prod.env=http://127.0.0.2', 'prod.env=http://127.0.0.1']);
	});

	for (const [name, outside] of [
		['.httpyac.js', true], ['.httpyac.config.cjs', true], ['httpyac.config.mjs', true], ['.httpyac.ts', true], ['httpyac.config.json', true],
		['notes.httpyac.js', false], ['my-httpyac.config.json', false], ['httpyac.config.json.bak', false], ['.httpyac.config.js.orig', false],
	] as const) {
		it(`${name} ${outside ? 'is' : 'is not'} an httpYac configuration`, async () => {
			write({ [name]: 'module.exports = {};' });
			const got = await read();
			assert.equal(got.outside, outside ? `an httpYac configuration (${name})` : undefined);
		});
	}

	for (const [text, outside] of [
		['{"environments": {"dev": {"h": "a"}}, "$schema": "x", "log": {"level": 10}}', undefined],
		['{"log": {"level": 10}}', undefined],
		['{"environments": {}, "proxy": "http://127.0.0.2:8080"}', 'settings in .httpyac.json'],
		['["environments"]', 'settings in .httpyac.json'],
		['{ not json', undefined],
	] as const) {
		it(`.httpyac.json ${text}: ${outside ?? 'read'}`, async () => {
			write({ '.httpyac.json': text });
			assert.equal((await read()).outside, outside);
		});
	}

	for (const [text, outside] of [
		['{"name": "app", "dependencies": {"express": "4"}, "devDependencies": {"mocha": "10"}}', undefined],
		['{"httpyac": {}}', 'an httpyac section in package.json'],
		['{"dependencies": {"httpyac-plugin-oauth": "1"}}', 'an httpYac plugin in package.json'],
		['{"devDependencies": {"@scope/httpyac-plugin-x": "1"}}', 'an httpYac plugin in package.json'],
		['{"devDependencies": {"@my.org/httpyac-plugin-x": "1"}}', 'an httpYac plugin in package.json'],
		['{"dependencies": {"my-httpyac-plugin-helper": "1", "@scope/not-httpyac-plugin-x": "1"}}', undefined],
		['{"dependencies": "httpyac-plugin-x"}', undefined],
		['null', undefined],
		['{ not json', undefined],
	] as const) {
		it(`package.json ${text}: ${outside ?? 'read'}`, async () => {
			write({ 'package.json': text });
			assert.equal((await read()).outside, outside);
		});
	}

	it('looks at most eight folders up from the file to its workspace folder', async () => {
		write({ 'a/b/c/d/e/f/g/.env': 'h=a' });
		assert.deepEqual(values(await read('a/b/c/d/e/f/g/requests.http')).h, ['.env=a'], 'eight folders: read');
		assert.deepEqual(await read('a/b/c/d/e/f/g/h/requests.http'), { environments: new Map(), outside: 'the file is deeper below its workspace folder than the check looks' });
	});

	it('a file outside the workspace folder given, or in none, is read from its own folder up', async () => {
		write({ '.env': 'h=a' });
		const deep = 'a/b/c/d/e/f/g/h/i/requests.http';
		assert.deepEqual(values(await read(deep, path.join(base, 'other'))).h, ['.env=a']);
		assert.deepEqual(values(await readFolderEnvironments(path.join(ws, deep), undefined)).h, ['.env=a']);
	});

	it('a folder, or an env/ folder, that is a link out of the workspace folder does not say', async () => {
		const outsideDir = path.join(base, 'elsewhere');
		write({ '.env': 'h=http://127.0.0.2' }, outsideDir);
		fs.symlinkSync(outsideDir, path.join(ws, 'linked'));
		assert.deepEqual(await read('linked/requests.http'), { environments: new Map(), outside: 'a folder that leads out of the workspace folder' });
		fs.symlinkSync(outsideDir, path.join(ws, 'env'));
		assert.equal((await read()).outside, 'a folder that leads out of the workspace folder');
		fs.rmSync(path.join(ws, 'env'));
		fs.mkdirSync(path.join(ws, 'inner'));
		fs.symlinkSync(path.join(ws, 'inner'), path.join(ws, 'alias'));
		assert.equal((await read('alias/requests.http')).outside, undefined, 'a link inside the workspace folder is read');
	});

	it('a workspace folder opened through a link (macOS\'s /tmp is one) is read as the folder it leads to', async () => {
		write({ '.env': 'h=a' });
		fs.symlinkSync(ws, path.join(base, 'opened'));
		const read = await readFolderEnvironments(path.join(base, 'opened', 'requests.http'), path.join(base, 'opened'));
		assert.deepEqual([read.outside, values(read).h], [undefined, ['.env=a']]);
	});

	it('an environment file that is a link does not say', async () => {
		write({ 'target.txt': 'h=http://127.0.0.2' }, base);
		fs.symlinkSync(path.join(base, 'target.txt'), path.join(ws, '.env'));
		assert.deepEqual(await read(), { environments: new Map(), outside: '.env, which the check does not read (a link, too large or not text)' });
	});

	it('reads at most 64 environment files', async () => {
		write(Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`e${String(i).padStart(2, '0')}.env`, `h${i}=a`])));
		assert.equal((await read()).outside, undefined, '64 files');
		write({ 'e64.env': 'h64=a' });
		assert.deepEqual(await read(), { environments: new Map(), outside: 'more environment files than the check reads' });
	});

	it('reads at most 4,096 values in all, whatever files they are spread over', async () => {
		const file = (i: number, count: number) => Array.from({ length: count }, (_, j) => `v${i}_${j}=x`).join('\n');
		write(Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`e${String(i).padStart(2, '0')}.env`, file(i, 64)])));
		assert.equal((await read()).outside, undefined, '64 files of 64: 4,096 values');
		write({ 'e00.env': file(0, 65) });
		assert.deepEqual(await read(), { environments: new Map(), outside: 'the environments hold more values than the check reads' });
	});

	it('reads the files of a folder in the order of their names, whatever order the folder lists them in', async () => {
		for (const name of ['e.env', 'd.env', 'c.env', 'b.env', 'a.env']) write({ [name]: 'h=x' });
		assert.deepEqual(values(await read()).h, ['a.env=x', 'b.env=x', 'c.env=x', 'd.env=x', 'e.env=x']);
	});

	it('keeps the readings of the last 256 files read, no more: the oldest goes first', async () => {
		let made = 0;
		/** Reads `count` files never read before, from folders of at most 64. */
		const readNew = async (count: number) => {
			for (let left = count; left > 0; left -= 64) {
				const folder = `f${made}`;
				write(Object.fromEntries(Array.from({ length: Math.min(64, left) }, (_, i) => [`${folder}/e${i}.env`, `v${made}_${i}=x`])));
				made++;
				assert.equal((await read(`${folder}/requests.http`)).outside, undefined);
			}
		};
		const target = path.join(ws, 't', '.env');
		const swap = (text: string) => {
			fs.mkdirSync(path.dirname(target), { recursive: true });
			fs.writeFileSync(target, text);
			fs.utimesSync(target, 1_000_000, 1_000_000);
		};
		await readNew(256); // whatever was kept before is gone
		swap('h=aaaa');
		assert.deepEqual(values(await read('t/requests.http')).h, ['.env=aaaa']);
		await readNew(255);
		swap('h=bbbb');
		assert.deepEqual(values(await read('t/requests.http')).h, ['.env=aaaa'], 'the 256th newest is kept');
		await readNew(1);
		assert.deepEqual(values(await read('t/requests.http')).h, ['.env=bbbb'], 'the 257th newest is read again');
	});

	it('reads a file again when it changes, and keeps the reading of one that did not', async () => {
		write({ '.env': 'h=aaa' });
		assert.deepEqual(values(await read()).h, ['.env=aaa']);
		const file = path.join(ws, '.env');
		write({ '.env': 'h=bbbb' });
		fs.utimesSync(file, 1_000_000, 1_000_000);
		assert.deepEqual(values(await read()).h, ['.env=bbbb'], 'changed: read again');
		// The same size, time, inode and links: the reading kept is used (a pass over an unchanged folder reads nothing again).
		fs.writeFileSync(file, 'h=cccc');
		fs.utimesSync(file, 1_000_000, 1_000_000);
		assert.deepEqual(values(await read()).h, ['.env=bbbb'], 'unchanged to the stamp: kept');
	});
});
