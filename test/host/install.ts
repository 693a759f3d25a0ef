// Installs the test host idempotently: Debian's Chromium, and code-server into the user's cache without its
// postinstall (it refuses root and downloads ripgrep). It is built in a folder of its own and renamed into
// place only when every step succeeded, so two checkouts installing at once never share a half-built one.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromiumPath, userCacheDir } from './paths';
import { caughtText } from '../../src/core/util/caughtText';

export const CODE_SERVER_VERSION = '4.100.3';

const installDir = path.join(userCacheDir, `code-server-${CODE_SERVER_VERSION}`);
/** Written last, into a complete install only. */
const MARKER = '.installed';

/** Where code-server's start script and VS Code's own folder are, in an install at `root`. */
function layout(root: string): { entry: string; vscodeDir: string } {
	const packageDir = path.join(root, 'node_modules', 'code-server');
	return { entry: path.join(packageDir, 'out', 'node', 'entry.js'), vscodeDir: path.join(packageDir, 'lib', 'vscode') };
}

/** The script to run with Node to start code-server. */
export const codeServerEntry = layout(installDir).entry;

/**
 * Runs one step, quietly (native modules are compiled on every core: node-gyp reads JOBS): its output is shown only when it fails, then whole, with what to do. `what`
 * names the step in the one line printed before it.
 */
function run(what: string, cmd: string, args: string[], cwd: string): Promise<void> {
	console.log(`[install] ${what}`);
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false', JOBS: process.env.JOBS ?? 'max' } });
		const output: Buffer[] = [];
		child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
		child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (code === 0) return resolve();
			process.stderr.write(Buffer.concat(output));
			reject(new Error(`${what} failed: ${cmd} ${args.join(' ')} in ${path.relative(process.cwd(), cwd) || '.'} (${signal ?? `exit code ${code}`}). Its output is above; run it there yourself to see more. The next run installs again in a new folder (remove this one when done).`));
		});
	});
}

/** Installs Debian's Chromium with apt when it is missing (needs root). */
export async function ensureChromium(): Promise<string> {
	if (fs.existsSync(chromiumPath)) return chromiumPath;
	if (process.getuid?.() !== 0) {
		throw new Error(`Chromium is missing at ${chromiumPath}. Install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
	}
	console.log(`[install] ${chromiumPath} is missing: installing Debian's chromium with apt-get (once)`);
	await run('apt-get update', 'apt-get', ['update'], process.cwd());
	await run('apt-get install chromium', 'apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], process.cwd());
	if (!fs.existsSync(chromiumPath)) throw new Error(`apt-get installed chromium but ${chromiumPath} is still missing`);
	return chromiumPath;
}

export function isCodeServerInstalled(): boolean {
	return fs.existsSync(path.join(installDir, MARKER)) && fs.existsSync(codeServerEntry);
}

/**
 * code-server's node-pty built from source (the install skipped its scripts), so integrated terminals
 * start a shell: node-gyp (the project's own dev dependency) builds it against this Node's headers.
 * Not `npm rebuild node-pty`, whose post-install step runs `npx node-gyp configure` for an editor's
 * compile_commands.json, which wants the network and is not needed.
 */
async function ensurePty(vscodeDir: string): Promise<void> {
	const ptyDir = path.join(vscodeDir, 'node_modules', 'node-pty');
	const binary = path.join(ptyDir, 'build', 'Release', 'pty.node');
	if (!fs.existsSync(binary)) {
		// Node's own headers where this Node has them (Debian's: /usr/include/node), else node-gyp's default.
		const nodeDir = path.dirname(path.dirname(process.execPath));
		const headers = fs.existsSync(path.join(nodeDir, 'include', 'node', 'node.h')) ? [`--nodedir=${nodeDir}`] : [];
		await run('building code-server\'s terminals (node-pty)', process.execPath, [require.resolve('node-gyp/bin/node-gyp.js'), 'rebuild', ...headers], ptyDir);
	}
	await run('checking that code-server\'s terminals load', process.execPath, ['-e', `require(${JSON.stringify(binary)})`], vscodeDir);
}

/**
 * Makes `dir` (the user's cache folder) if missing and checks that only this user can write into it: a folder
 * another user made or can write to (a shared or world-writable XDG_CACHE_HOME) could hold a code-server of
 * theirs, which the tests would run. Not checked where there are no user ids (Windows).
 */
export function ensurePrivateFolder(dir: string): void {
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	const uid = process.getuid?.();
	if (uid === undefined) return;
	const stat = fs.lstatSync(dir);
	const problem = !stat.isDirectory() ? 'it is not a folder (a symbolic link?)'
		: stat.uid !== uid ? `it belongs to user ${stat.uid}, not to you (${uid})`
			: (stat.mode & 0o022) !== 0 ? `others can write to it (mode ${(stat.mode & 0o777).toString(8)})`
				: undefined;
	if (problem) throw new Error(`The test host's cache ${dir} is not yours alone: ${problem}. Remove it, or set XDG_CACHE_HOME to a folder only you can write to, and run again.`);
}

/** Installs code-server into the user's cache unless it is there, complete. */
export async function ensureCodeServer(): Promise<string> {
	ensurePrivateFolder(userCacheDir);
	if (isCodeServerInstalled()) {
		await ensurePty(layout(installDir).vscodeDir);
		return codeServerEntry;
	}
	const started = Date.now();
	console.log(`[install] installing code-server ${CODE_SERVER_VERSION} into ${installDir} (once for every checkout on this machine, a few minutes)`);
	// A failed step leaves this folder as it was, to look into (its name is in the message).
	const building = fs.mkdtempSync(`${installDir}.building-`);
	const { entry, vscodeDir } = layout(building);
	// Without its own package.json npm would walk up and install into a folder above.
	fs.writeFileSync(path.join(building, 'package.json'), JSON.stringify({ name: 'telematics-auth-test-host', private: true }, null, '\t') + '\n');
	await run(`npm install code-server@${CODE_SERVER_VERSION}`, 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', `code-server@${CODE_SERVER_VERSION}`], building);
	await run('building argon2', 'npm', ['rebuild', 'argon2'], building);
	await run('installing VS Code\'s own modules', 'npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], vscodeDir);
	await run('building VS Code\'s native modules', 'npm', ['rebuild', '@vscode/spdlog', 'native-watchdog'], vscodeDir);
	await ensurePty(vscodeDir);
	const asar = path.join(vscodeDir, 'node_modules.asar');
	fs.rmSync(asar, { force: true, recursive: true });
	fs.symlinkSync('node_modules', asar);
	await run('checking that code-server starts', process.execPath, [entry, '--config', path.join(building, 'config.yaml'), '--version'], building);
	fs.writeFileSync(path.join(building, MARKER), new Date().toISOString() + '\n');
	try {
		fs.renameSync(building, installDir);
	} catch (e) {
		if (!isCodeServerInstalled()) throw new Error(`could not move ${building} to ${installDir}: ${caughtText(e)}. Remove ${installDir} and run again.`);
		fs.rmSync(building, { recursive: true, force: true }); // another checkout's install finished first
	}
	console.log(`[install] code-server ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
	return codeServerEntry;
}

/** Everything the integration and e2e runs need. */
export async function ensureTestHost(): Promise<{ chromium: string; codeServer: string }> {
	const chromium = await ensureChromium();
	const codeServer = await ensureCodeServer();
	return { chromium, codeServer };
}

if (require.main === module) {
	const started = Date.now();
	ensureTestHost().then((r) => {
		console.log(`[install] chromium: ${r.chromium}`);
		console.log(`[install] code-server: ${r.codeServer}`);
		console.log(`[install] done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	}, (e: unknown) => {
		console.error(`[install] FAILED: ${caughtText(e)}`);
		process.exit(1);
	});
}
