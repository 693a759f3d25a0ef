// git asked about a hostile repository: real git, real repositories whose config, hooks, `.git` pointers and PATH
// would each start a program (a POSIX script that leaves a marker) or lead git out of the folder; none may.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { askGit, findGit, findRepository, gitEnvironment } from '../../src/system/git';
import { syncEnvFile } from '../../src/features/exposure/envFileSync';

const GIT = findGit([]);

function sh(cwd: string, ...args: string[]): void {
	execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });
}

/** A temporary home for one test: `folder` (the workspace) inside `base`, and a marker path. */
function sandbox(): { base: string; folder: string; marker: string; dispose(): void } {
	const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-git-')));
	const folder = path.join(base, 'workspace');
	fs.mkdirSync(folder);
	return { base, folder, marker: path.join(base, 'PROGRAM-RAN'), dispose: () => fs.rmSync(base, { recursive: true, force: true }) };
}

/** Runs `body` in a fresh sandbox and removes it afterwards, whatever happens. */
async function inSandbox(body: (s: ReturnType<typeof sandbox>) => Promise<void> | void): Promise<void> {
	const s = sandbox();
	try {
		await body(s);
	} finally {
		s.dispose();
	}
}

/** A repository in `dir` with `tracked.http` committed and `.env` ignored. */
function repository(dir: string): void {
	sh(dir, 'init', '-q', '.');
	fs.writeFileSync(path.join(dir, '.gitignore'), '.env\n');
	fs.writeFileSync(path.join(dir, 'tracked.http'), 'GET https://x.example\n');
	sh(dir, 'add', '.gitignore', 'tracked.http');
	sh(dir, '-c', 'user.email=a@b.invalid', '-c', 'user.name=a', 'commit', '-qm', 'init');
}

/** A shell command that leaves `marker` behind when anything runs it. */
function program(marker: string): string {
	return `touch '${marker}'; false`;
}

function executable(file: string, marker: string): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
}

describe('git asked about a hostile folder', function () {
	this.timeout(20_000);
	before(function () {
		if (!GIT) assert.fail('git must be on the PATH for these tests');
	});

	it('answers tracked, ignored, not ignored and none for an honest repository', async () => {
		await inSandbox(async (s) => {
		repository(s.folder);
		fs.mkdirSync(path.join(s.folder, 'api'));
		assert.equal(await askGit(path.join(s.folder, 'tracked.http'), s.folder, GIT), 'tracked');
		assert.equal(await askGit(path.join(s.folder, '.env'), s.folder, GIT), 'ignored');
		assert.equal(await askGit(path.join(s.folder, 'api', 'new.http'), s.folder, GIT), 'notIgnored');
		assert.equal(await askGit(path.join(s.folder, '-n weird [*].http'), s.folder, GIT), 'notIgnored');
		const plain = path.join(s.base, 'plain');
		fs.mkdirSync(plain);
		assert.equal(await askGit(path.join(plain, 'a.http'), plain, GIT), 'none');
		});
	});

	const hostileConfigs: [string, (s: { folder: string; base: string; marker: string }) => void][] = [
		['core.fsmonitor names a program', (s) => sh(s.folder, 'config', 'core.fsmonitor', program(s.marker))],
		['an included config sets core.fsmonitor', (s) => {
			const included = path.join(s.folder, 'evil.config');
			fs.writeFileSync(included, `[core]\n\tfsmonitor = ${program(s.marker)}\n`);
			sh(s.folder, 'config', 'include.path', included);
		}],
		['core.hooksPath holds every hook', (s) => {
			const hooks = path.join(s.folder, 'hooks');
			for (const hook of ['post-index-change', 'pre-commit', 'post-checkout', 'reference-transaction', 'fsmonitor-watchman']) executable(path.join(hooks, hook), s.marker);
			sh(s.folder, 'config', 'core.hooksPath', hooks);
		}],
		['.git/hooks holds every hook', (s) => {
			for (const hook of ['post-index-change', 'fsmonitor-watchman', 'reference-transaction']) executable(path.join(s.folder, '.git', 'hooks', hook), s.marker);
		}],
		['core.pager and pager.ls-files name a program', (s) => {
			sh(s.folder, 'config', 'core.pager', program(s.marker));
			sh(s.folder, 'config', 'pager.ls-files', program(s.marker));
			sh(s.folder, 'config', 'pager.check-ignore', program(s.marker));
		}],
		['a clean filter applies to every file', (s) => {
			fs.writeFileSync(path.join(s.folder, '.gitattributes'), '* filter=evil\n');
			sh(s.folder, 'config', 'filter.evil.clean', program(s.marker));
			sh(s.folder, 'config', 'filter.evil.process', program(s.marker));
		}],
		['core.worktree points out of the folder', (s) => {
			const elsewhere = path.join(s.base, 'elsewhere');
			fs.mkdirSync(elsewhere);
			sh(s.folder, 'config', 'core.worktree', elsewhere);
			sh(s.folder, 'config', 'core.fsmonitor', program(s.marker));
		}],
		['core.sshCommand, credential.helper and core.askPass name programs', (s) => {
			sh(s.folder, 'config', 'core.sshCommand', program(s.marker));
			sh(s.folder, 'config', 'credential.helper', `!${program(s.marker)}`);
			sh(s.folder, 'config', 'core.askPass', program(s.marker));
		}],
	];

	for (const [name, plant] of hostileConfigs) {
		it(`runs no program and answers right when ${name}`, async () => {
			await inSandbox(async (s) => {
			repository(s.folder);
			plant(s);
			// The planted config does run a program for plain git: the test would catch it.
			assert.equal(await askGit(path.join(s.folder, 'tracked.http'), s.folder, GIT), 'tracked');
			assert.equal(await askGit(path.join(s.folder, '.env'), s.folder, GIT), 'ignored');
			assert.equal(await askGit(path.join(s.folder, 'new.http'), s.folder, GIT), 'notIgnored');
			assert.equal(fs.existsSync(s.marker), false, 'a program of the repository ran');
			});
		});
	}

	it('plain git does run the planted fsmonitor (the hardening is what stops it)', async () => {
		await inSandbox(async (s) => {
		repository(s.folder);
		sh(s.folder, 'config', 'core.fsmonitor', program(s.marker));
		try {
			execFileSync('git', ['ls-files', '--error-unmatch', '--', 'tracked.http'], { cwd: s.folder, stdio: 'ignore' });
		} catch {
			// its exit code does not matter here
		}
		assert.equal(fs.existsSync(s.marker), true);
		});
	});

	it('a .git file whose gitdir points out of the folder is not followed', async () => {
		await inSandbox(async (s) => {
		const outside = path.join(s.base, 'outside');
		fs.mkdirSync(outside);
		repository(outside);
		sh(outside, 'config', 'core.fsmonitor', program(s.marker));
		fs.writeFileSync(path.join(s.folder, '.git'), `gitdir: ${path.join(outside, '.git')}\n`);
		assert.equal(findRepository(path.join(s.folder, 'a.http'), s.folder), 'unsafe');
		assert.equal(await askGit(path.join(s.folder, 'a.http'), s.folder, GIT), 'unknown');
		fs.writeFileSync(path.join(s.folder, '.git'), 'gitdir: ../outside/.git\n');
		assert.equal(await askGit(path.join(s.folder, 'a.http'), s.folder, GIT), 'unknown');
		assert.equal(fs.existsSync(s.marker), false);
		});
	});

	it('a .git file whose gitdir stays inside the folder is used (a submodule-like layout)', async () => {
		await inSandbox(async (s) => {
		const inner = path.join(s.folder, 'inner');
		fs.mkdirSync(inner);
		repository(inner);
		fs.renameSync(path.join(inner, '.git'), path.join(s.folder, 'modules-inner'));
		fs.writeFileSync(path.join(inner, '.git'), 'gitdir: ../modules-inner\n');
		assert.equal(await askGit(path.join(inner, 'tracked.http'), s.folder, GIT), 'tracked');
		});
	});

	it('a .git that is a symlink is not followed', async () => {
		await inSandbox(async (s) => {
		const outside = path.join(s.base, 'outside');
		fs.mkdirSync(outside);
		repository(outside);
		sh(outside, 'config', 'core.fsmonitor', program(s.marker));
		fs.symlinkSync(path.join(outside, '.git'), path.join(s.folder, '.git'));
		assert.equal(await askGit(path.join(s.folder, 'tracked.http'), s.folder, GIT), 'unknown');
		assert.equal(fs.existsSync(s.marker), false);
		});
	});

	it('a repository above the folder is not asked: unknown', async () => {
		await inSandbox(async (s) => {
		repository(s.base);
		sh(s.base, 'config', 'core.fsmonitor', program(s.marker));
		assert.equal(await askGit(path.join(s.folder, 'a.http'), s.folder, GIT), 'unknown');
		assert.equal(fs.existsSync(s.marker), false);
		});
	});

	it('a bare repository planted at the folder root is never discovered', async () => {
		await inSandbox(async (s) => {
		sh(s.folder, 'init', '-q', '--bare', '.');
		sh(s.folder, 'config', 'core.fsmonitor', program(s.marker));
		assert.equal(await askGit(path.join(s.folder, 'a.http'), s.folder, GIT), 'none');
		assert.equal(fs.existsSync(s.marker), false);
		});
	});

	it('a file whose directory is a symlink out of the folder is not asked about', async () => {
		await inSandbox(async (s) => {
		repository(s.folder);
		const outside = path.join(s.base, 'outside');
		fs.mkdirSync(outside);
		fs.symlinkSync(outside, path.join(s.folder, 'link'));
		assert.equal(await askGit(path.join(s.folder, 'link', 'a.http'), s.folder, GIT), 'unknown');
		});
	});

	it('no git on the PATH: unknown inside a repository, none outside one', async () => {
		await inSandbox(async (s) => {
		repository(s.folder);
		assert.equal(await askGit(path.join(s.folder, 'tracked.http'), s.folder, undefined), 'unknown');
		const plain = path.join(s.base, 'plain');
		fs.mkdirSync(plain);
		assert.equal(await askGit(path.join(plain, 'a.http'), plain, undefined), 'none');
		});
	});

	it('findGit never picks a git inside the folder, nor a relative PATH entry', async () => {
		await inSandbox(async (s) => {
		executable(path.join(s.folder, 'bin', 'git'), s.marker);
		executable(path.join(s.folder, 'git'), s.marker);
		const real = findGit([]);
		const env = { PATH: ['.', '', path.join(s.folder, 'bin'), s.folder, path.dirname(real!)].join(':') };
		assert.equal(findGit([s.folder], env, 'linux'), real);
		assert.equal(findGit([s.folder], { PATH: `.:${path.join(s.folder, 'bin')}` }, 'linux'), undefined);
		});
	});

	it('the environment drops every GIT_* variable of the caller and names the repository', () => {
		const env = gitEnvironment({ gitDir: '/w/.git', workTree: '/w' }, { PATH: '/usr/bin', GIT_DIR: '/evil', GIT_CONFIG_PARAMETERS: "'core.fsmonitor=evil'", git_exec_path: '/evil', GIT_CONFIG_COUNT: '1' });
		assert.equal(env.GIT_DIR, '/w/.git');
		assert.equal(env.GIT_WORK_TREE, '/w');
		assert.equal(env.GIT_CONFIG_PARAMETERS, undefined);
		assert.equal(env.GIT_CONFIG_COUNT, undefined);
		assert.equal(env.git_exec_path, undefined);
		assert.equal(env.PATH, '/usr/bin');
	});
});

describe('an env file git may track, where git cannot be asked (issue 34)', function () {
	this.timeout(30_000);
	const EXPOSED = { token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1In0.sig', baseUrl: 'https://user.telematicssdk.com' };
	/** A repository in `dir` that tracks `sub/.env` although `sub/.gitignore` lists it (.gitignore never untracks a file). */
	function trackingDotenv(dir: string): string {
		sh(dir, 'init', '-q', '.');
		const sub = path.join(dir, 'sub');
		fs.mkdirSync(sub);
		fs.writeFileSync(path.join(sub, '.env'), 'OTHER=1\n');
		sh(dir, 'add', 'sub/.env');
		fs.writeFileSync(path.join(sub, '.gitignore'), '.env\n');
		sh(dir, '-c', 'user.email=a@b.invalid', '-c', 'user.name=a', 'commit', '-qm', 'init');
		return sub;
	}
	const sync = (folder: string) => syncEnvFile(folder, 'dotenv', EXPOSED, true, (f) => askGit(f, folder, GIT));
	const holdsToken = (folder: string) => fs.readFileSync(path.join(folder, '.env'), 'utf8').includes(EXPOSED.token);

	it('a subfolder of a clone: git above the folder is not asked, so no token, whatever .gitignore says', async () => {
		await inSandbox(async (s) => {
			const sub = trackingDotenv(s.folder);
			assert.deepEqual(await sync(sub), { result: 'cannotTell' });
			assert.equal(holdsToken(sub), false);
			// The same file asked from the clone's root: git answers, and it is tracked.
			assert.deepEqual(await syncEnvFile(s.folder, 'dotenv', EXPOSED, true, async () => askGit(path.join(sub, '.env'), s.folder, GIT)), { result: 'tracked' });
		});
	});

	it('a worktree: its .git points out of the folder, so no token', async () => {
		await inSandbox(async (s) => {
			trackingDotenv(s.folder);
			const tree = path.join(s.base, 'tree');
			sh(s.folder, 'worktree', 'add', '-q', tree);
			const sub = path.join(tree, 'sub');
			assert.ok(fs.existsSync(path.join(sub, '.env')), 'the worktree checked out the tracked .env');
			assert.deepEqual(await sync(tree), { result: 'cannotTell' });
			assert.equal(holdsToken(sub), false);
		});
	});

	it('a submodule opened on its own: its .git points out of the folder, so no token', async () => {
		await inSandbox(async (s) => {
			const origin = path.join(s.base, 'origin');
			fs.mkdirSync(origin);
			trackingDotenv(origin);
			sh(s.folder, 'init', '-q', '.');
			sh(s.folder, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'module');
			const sub = path.join(s.folder, 'module', 'sub');
			assert.ok(fs.existsSync(path.join(sub, '.env')));
			assert.deepEqual(await sync(path.join(s.folder, 'module')), { result: 'cannotTell' });
			assert.equal(holdsToken(sub), false);
		});
	});

	it('a link is asked about where it leads: a link in an ignored place to a tracked file is tracked', async () => {
		await inSandbox(async (s) => {
			repository(s.folder);
			fs.writeFileSync(path.join(s.folder, '.gitignore'), '.env\nlinks/\n');
			fs.mkdirSync(path.join(s.folder, 'links'));
			const link = path.join(s.folder, 'links', 'requests.http');
			fs.symlinkSync(path.join(s.folder, 'tracked.http'), link);
			assert.equal(await askGit(link, s.folder, GIT), 'tracked');
			// And one that leads out of the folder is not asked.
			const outside = path.join(s.base, 'elsewhere.http');
			fs.writeFileSync(outside, '');
			fs.symlinkSync(outside, path.join(s.folder, 'links', 'out.http'));
			assert.equal(await askGit(path.join(s.folder, 'links', 'out.http'), s.folder, GIT), 'unknown');
		});
	});
});
