// Asks git whether a file would be committed as if the repository were an attacker: nothing it names runs, its
// `.git` is not followed out of the folder, and no git of the folder is used. Node only; callers keep Restricted Mode.
import { execFile } from 'node:child_process';
import { accessSync, closeSync, constants, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { devNull } from 'node:os';
import { basename, dirname, isAbsolute, join, relative as relativePath, resolve as resolvePath } from 'node:path';

/**
 * `tracked`/`ignored`/`notIgnored`: git's answer. `none`: no repository holds the file.
 * `unknown`: a repository may hold it, but git could not be asked safely (a `.git` that is a
 * symlink or points out of the folder, a repository above the folder, no git found).
 */
export type GitAnswer = 'tracked' | 'ignored' | 'notIgnored' | 'none' | 'unknown';

/** Where git may look: the repository found inside `folder`, or why none may be used. */
export type Repository = { gitDir: string; workTree: string } | 'none' | 'unsafe';

/** Whether `child` is `parent` or inside it (both already real, absolute paths). */
export function isInside(child: string, parent: string): boolean {
	const relative = relativePath(parent, child);
	return relative === '' || (!relative.startsWith('..') && !isAbsolute(relative));
}

function lstat(file: string): Stats | undefined {
	try {
		return lstatSync(file);
	} catch {
		return undefined;
	}
}

function realpath(file: string): string | undefined {
	try {
		return realpathSync(file);
	} catch {
		return undefined;
	}
}

/** Reads a small pointer file (`.git`, `commondir`): the path it names, resolved from `base`. */
function pointer(file: string, base: string, prefix: string): string | undefined {
	let text: string;
	try {
		const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
		try {
			const buffer = Buffer.alloc(4096);
			text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
		} finally {
			closeSync(fd);
		}
	} catch {
		return undefined;
	}
	const line = text.split(/\r?\n/)[0] ?? '';
	if (!line.startsWith(prefix)) return undefined;
	const named = line.slice(prefix.length).trim();
	return named === '' ? undefined : resolvePath(base, named);
}

/** A git directory that lies inside `folder`, following a worktree's `commondir`; else undefined. */
function gitDirInside(candidate: string, folder: string): string | undefined {
	const real = realpath(candidate);
	if (!real || !isInside(real, folder) || !lstat(real)?.isDirectory()) return undefined;
	const commonFile = join(real, 'commondir');
	if (lstat(commonFile)) {
		const common = pointer(commonFile, real, '');
		const commonReal = common && realpath(common);
		if (!commonReal || !isInside(commonReal, folder)) return undefined;
	}
	return real;
}

/**
 * The repository that holds `file`, found without running git and only inside `folder` (the
 * workspace folder, the attacker's reach): a `.git` directory, or a `.git` file whose `gitdir:`
 * stays inside the folder. `unsafe` when a `.git` on the way is a symlink, points out of the
 * folder, or a folder above the workspace folder is a repository (its config is no more ours).
 */
export function findRepository(file: string, folder: string): Repository {
	const root = realpath(folder);
	const start = realpath(dirname(file));
	if (!root || !start || !isInside(start, root)) return 'unsafe';
	for (let dir = start; ; dir = dirname(dir)) {
		const dotGit = join(dir, '.git');
		const stat = lstat(dotGit);
		if (stat) {
			if (stat.isDirectory()) return { gitDir: dotGit, workTree: dir };
			if (!stat.isFile()) return 'unsafe';
			const named = pointer(dotGit, dir, 'gitdir:');
			const gitDir = named && gitDirInside(named, root);
			return gitDir ? { gitDir, workTree: dir } : 'unsafe';
		}
		if (dir === root) break;
	}
	// Nothing inside the folder: a repository above it would be read with its own config.
	for (let dir = dirname(root); ; dir = dirname(dir)) {
		if (lstat(join(dir, '.git'))) return 'unsafe';
		if (dirname(dir) === dir) return 'none';
	}
}

/**
 * An absolute git from the PATH, never one inside `untrusted` folders (nor a relative PATH entry,
 * which Windows would resolve against the workspace), or undefined.
 */
export function findGit(untrusted: readonly string[], env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
	const pathValue = Object.entries(env).find(([key]) => (platform === 'win32' ? key.toUpperCase() === 'PATH' : key === 'PATH'))?.[1] ?? '';
	const roots = untrusted.map((f) => realpath(f) ?? f);
	const name = platform === 'win32' ? 'git.exe' : 'git';
	for (const entry of pathValue.split(platform === 'win32' ? ';' : ':')) {
		if (!entry || !isAbsolute(entry)) continue;
		const real = realpath(join(entry, name));
		const dir = realpath(entry) ?? entry;
		if (!real || roots.some((root) => isInside(real, root) || isInside(dir, root))) continue;
		try {
			if (!statSync(real).isFile()) continue;
			if (platform !== 'win32') accessSync(real, constants.X_OK);
			return real;
		} catch {
			continue;
		}
	}
	return undefined;
}

/**
 * Options before the subcommand that switch off what can start a program or write: command-line
 * config outranks every file the repository brings (including its `include.path`s).
 */
export const HARDENING_CONFIG: readonly string[] = [
	'core.fsmonitor=false',
	`core.hooksPath=${devNull}`,
	'core.pager=cat',
	'safe.bareRepository=explicit',
	'core.untrackedCache=false',
];

/** The environment git runs in: none of the caller's GIT_* variables, the repository named outright. */
export function gitEnvironment(repository: { gitDir: string; workTree: string }, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	const clean: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(env)) {
		if (!/^GIT_/i.test(key)) clean[key] = value;
	}
	return {
		...clean,
		GIT_DIR: repository.gitDir,
		GIT_WORK_TREE: repository.workTree,
		GIT_CEILING_DIRECTORIES: dirname(repository.workTree),
		GIT_NO_REPLACE_OBJECTS: '1',
		GIT_OPTIONAL_LOCKS: '0',
		GIT_TERMINAL_PROMPT: '0',
		GIT_PAGER: 'cat',
		PAGER: 'cat',
	};
}

/** The full argument list for `git <args>` with the hardening in front. */
export function gitArguments(args: readonly string[]): string[] {
	return ['--no-pager', ...HARDENING_CONFIG.flatMap((setting) => ['-c', setting]), ...args];
}

function run(git: string, repository: { gitDir: string; workTree: string }, args: readonly string[]): Promise<number | undefined> {
	return new Promise((resolve) => {
		execFile(git, gitArguments(args), { cwd: repository.workTree, env: gitEnvironment(repository), timeout: 5000, windowsHide: true, maxBuffer: 64 * 1024 }, (error) => {
			if (!error) resolve(0);
			else resolve(typeof error.code === 'number' ? error.code : undefined);
		});
	});
}

/**
 * Whether git would commit `file`, asked of the repository inside `folder` with everything that
 * could start a program switched off. `git`: the executable (see findGit); undefined: `unknown`
 * if a repository is there.
 */
export async function askGit(file: string, folder: string, git: string | undefined): Promise<GitAnswer> {
	// A link is asked about where it leads: that file gets the token (and a target outside the folder is not asked: unknown).
	const dir = realpath(dirname(file));
	const target = realpath(file) ?? (dir && join(dir, basename(file)));
	if (!target) return 'unknown';
	const repository = findRepository(target, folder);
	if (repository === 'none') return 'none';
	if (repository === 'unsafe' || !git) return 'unknown';
	const name = relativePath(repository.workTree, target) || basename(target);
	if (await run(git, repository, ['ls-files', '--error-unmatch', '--', `:(literal)${name}`]) === 0) return 'tracked';
	switch (await run(git, repository, ['check-ignore', '-q', '--', name])) {
		case 0: return 'ignored';
		case 1: return 'notIgnored';
		default: return 'unknown';
	}
}
