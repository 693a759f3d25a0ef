// Installs the test host idempotently: Debian's Chromium, and code-server into .cache/code-server without its
// postinstall (it refuses root and downloads ripgrep); a marker file is written only when every step succeeded.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cacheDir, chromiumPath } from './paths';
import { errorMessage } from '../../src/core/util/errorMessage';

export const CODE_SERVER_VERSION = '4.100.3';

const installDir = path.join(cacheDir, 'code-server');
const marker = path.join(installDir, `.installed-${CODE_SERVER_VERSION}`);
const packageDir = path.join(installDir, 'node_modules', 'code-server');

/** The script to run with Node to start code-server. */
export const codeServerEntry = path.join(packageDir, 'out', 'node', 'entry.js');

function run(cmd: string, args: string[], cwd: string): Promise<void> {
	console.log(`[install] (${path.relative(process.cwd(), cwd) || '.'}) $ ${cmd} ${args.join(' ')}`);
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, npm_config_update_notifier: 'false' } });
		child.on('error', reject);
		child.on('exit', (code, signal) => code === 0
			? resolve()
			: reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit code ${code}`})`)));
	});
}

/** Installs Debian's Chromium with apt when it is missing (needs root). */
export async function ensureChromium(): Promise<string> {
	if (fs.existsSync(chromiumPath)) return chromiumPath;
	if (process.getuid?.() !== 0) {
		throw new Error(`Chromium is missing at ${chromiumPath}. Install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
	}
	console.log(`[install] ${chromiumPath} is missing: installing Debian's chromium with apt-get`);
	await run('apt-get', ['update'], process.cwd());
	await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], process.cwd());
	if (!fs.existsSync(chromiumPath)) throw new Error(`apt-get installed chromium but ${chromiumPath} is still missing`);
	return chromiumPath;
}

export function isCodeServerInstalled(): boolean {
	return fs.existsSync(marker) && fs.existsSync(codeServerEntry);
}

const vscodeDir = path.join(packageDir, 'lib', 'vscode');

/**
 * code-server's node-pty built from source (the install skipped its scripts), so integrated terminals
 * start a shell. The rebuild's own post-install step wants the network and fails, harmlessly; what
 * counts is that pty.node loads.
 */
async function ensurePty(): Promise<void> {
	const binary = path.join(vscodeDir, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node');
	if (!fs.existsSync(binary)) await run('npm', ['rebuild', 'node-pty'], vscodeDir).catch(() => undefined);
	await run(process.execPath, ['-e', `require(${JSON.stringify(binary)})`], vscodeDir);
}

/** Installs code-server into .cache/code-server unless the marker says it is complete. */
export async function ensureCodeServer(): Promise<string> {
	if (isCodeServerInstalled()) {
		await ensurePty();
		return codeServerEntry;
	}
	const started = Date.now();
	console.log(`[install] installing code-server ${CODE_SERVER_VERSION} into ${installDir} (one-time, a few minutes)`);
	fs.rmSync(marker, { force: true });
	fs.mkdirSync(installDir, { recursive: true });
	// Without its own package.json npm would walk up and install into the project.
	fs.writeFileSync(path.join(installDir, 'package.json'), JSON.stringify({ name: 'telematics-auth-test-host', private: true }, null, '\t') + '\n');
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', `code-server@${CODE_SERVER_VERSION}`], installDir);
	await run('npm', ['rebuild', 'argon2'], installDir);
	await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], vscodeDir);
	await run('npm', ['rebuild', '@vscode/spdlog', 'native-watchdog'], vscodeDir);
	await ensurePty();
	const asar = path.join(vscodeDir, 'node_modules.asar');
	fs.rmSync(asar, { force: true, recursive: true });
	fs.symlinkSync('node_modules', asar);
	await run(process.execPath, [codeServerEntry, '--config', path.join(installDir, 'config.yaml'), '--version'], installDir);
	fs.writeFileSync(marker, new Date().toISOString() + '\n');
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
		console.error(`[install] FAILED: ${errorMessage(e)}`);
		process.exit(1);
	});
}
