// Starts and stops a real VS Code (code-server) on loopback with a fresh profile and workspace, and opens it
// in Debian's Chromium through playwright-core: for the integration runner, the e2e tests, `npm start`, the benches.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { ensureChromium, ensureCodeServer } from './install';
import { until } from '../support/until';

export interface CodeServerOptions {
	/** User settings merged over the test defaults (e.g. `telematicsAuth.baseUrl`). */
	settings?: Record<string, unknown>;
	/** Files to create in the workspace folder: relative path → content. */
	files?: Record<string, string>;
	/** Receives each line the server prints (default: kept, printed only on failure). */
	onOutput?: (line: string) => void;
	/** Extra environment for the server and its extension hosts. */
	env?: Record<string, string | undefined>;
	/** VSIX files installed into the fresh extensions folder before start, as a user installs them. */
	installExtensions?: readonly string[];
	/** Workspace trust on, the folder opened in Restricted Mode without a prompt (default: trust off). */
	restrictedMode?: boolean;
	/** Called with the workspace folder before start, after `files` (git repositories, symlinks). */
	prepareWorkspace?: (workspace: string) => void;
}

export interface WorkbenchPayload {
	/** Absolute path of the extension to load in development mode. */
	extensionDevelopmentPath?: string;
	/** Absolute path of the compiled tests module (without `.js`) whose `run()` to call. */
	extensionTestsPath?: string;
	/** The extension host waits on this inspector port before its first line (the start-up profile). */
	inspectBrkExtensions?: number;
}

export interface RunningCodeServer {
	/** e.g. http://127.0.0.1:41234 */
	readonly url: string;
	readonly port: number;
	readonly workspace: string;
	readonly userDataDir: string;
	readonly extensionsDir: string;
	/** The workbench URL with the workspace open and the payload (extension paths) set. */
	workbenchUrl(payload?: WorkbenchPayload): string;
	/** Everything the server printed so far. */
	output(): string;
	/** The processes of the server's group whose command line holds `text` (e.g. its extension hosts). */
	processesMatching(text: string): number[];
	stop(): Promise<void>;
}

export const DEFAULT_SETTINGS: Record<string, unknown> = {
	'workbench.startupEditor': 'none',
	'workbench.tips.enabled': false,
	'workbench.enableExperiments': false,
	'workbench.welcomePage.walkthroughs.openOnInstall': false,
	'telemetry.telemetryLevel': 'off',
	'security.workspace.trust.enabled': false,
	'extensions.autoCheckUpdates': false,
	'extensions.autoUpdate': false,
	'update.mode': 'none',
	'window.commandCenter': false,
	'chat.commandCenter.enabled': false,
	'workbench.secondarySideBar.defaultVisibility': 'hidden',
	// A window left idle between steps redraws nothing: no blinking cursor, no animations (a few per cent
	// of a core each, for every window of the run).
	'editor.cursorBlinking': 'solid',
	'workbench.reduceMotion': 'on',
};

const tempRoots: string[] = [];
const liveChildren = new Set<ChildProcess>();

/** A fresh temporary folder, removed when the process exits. */
export function makeTempDir(prefix: string): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), `telematics-${prefix}-`));
	tempRoots.push(dir);
	return dir;
}

/** A port nothing listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')));
		});
	});
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try { child.kill(signal); } catch { /* already gone */ }
	}
}

let cleanupInstalled = false;
function installCleanup(): void {
	if (cleanupInstalled) return;
	cleanupInstalled = true;
	process.on('exit', () => {
		for (const child of liveChildren) killGroup(child, 'SIGKILL');
		for (const dir of tempRoots) {
			try { fs.rmSync(dir, { recursive: true, force: true }); } catch { /* best effort */ }
		}
	});
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => {
			for (const child of liveChildren) killGroup(child, 'SIGTERM');
			// A caller with its own handler (npm start) finishes its cleanup and exits itself.
			if (process.listenerCount(signal) === 0) process.exit(signal === 'SIGINT' ? 130 : 143);
		});
	}
}

/** Writes `<userDataDir>/User/settings.json`. */
export function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
	const dir = path.join(userDataDir, 'User');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ ...DEFAULT_SETTINGS, ...settings }, null, '\t') + '\n');
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
	const state = await until(`code-server to answer ${url}`, async () => {
		if (child.exitCode !== null || child.signalCode !== null) return 'exited';
		const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
		await res.arrayBuffer();
		return res.status < 500 ? 'up' : 'starting';
	}, { accept: (s) => s !== 'starting', timeoutMs, everyMs: 150 }).catch((e: Error) => {
		throw new Error(`${e.message}:\n${output()}`);
	});
	if (state === 'exited') throw new Error(`code-server exited before it answered (${child.signalCode ?? child.exitCode}):\n${output()}`);
}

/** Starts code-server on 127.0.0.1 (installing it first if needed) and waits until it answers. */
export async function startCodeServer(options: CodeServerOptions = {}): Promise<RunningCodeServer> {
	installCleanup();
	const entry = await ensureCodeServer();
	const root = makeTempDir('vscode');
	const userDataDir = path.join(root, 'user-data');
	const extensionsDir = path.join(root, 'extensions');
	const workspace = path.join(root, 'workspace');
	for (const dir of [userDataDir, extensionsDir, workspace]) fs.mkdirSync(dir, { recursive: true });
	const trust = options.restrictedMode ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never' } : {};
	writeUserSettings(userDataDir, { ...trust, ...options.settings });
	for (const [name, content] of Object.entries(options.files ?? {})) {
		const file = path.join(workspace, name);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, content);
	}
	options.prepareWorkspace?.(workspace);
	for (const vsix of options.installExtensions ?? []) {
		execFileSync(process.execPath, [entry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix], { stdio: 'pipe', timeout: 120_000 });
	}
	const port = await freePort();
	const args = [
		entry,
		'--auth', 'none',
		'--bind-addr', `127.0.0.1:${port}`,
		'--disable-telemetry',
		'--disable-update-check',
		...(options.restrictedMode ? [] : ['--disable-workspace-trust']),
		'--disable-getting-started-override',
		'--config', path.join(root, 'config.yaml'), // not ~/.config/code-server
		'--user-data-dir', userDataDir,
		'--extensions-dir', extensionsDir,
		workspace,
	];
	const child = spawn(process.execPath, args, {
		detached: true, // its own process group, so stop() takes the extension hosts along
		stdio: ['ignore', 'pipe', 'pipe'],
		// A runtime folder of its own, as each login session of a person has: the windows' folders for
		// telematics-token live there, so another VS Code on this machine (another test run, another
		// checkout's tests) neither cleans this one's folders nor has its own cleaned by this one.
		env: { ...process.env, XDG_RUNTIME_DIR: makeTempDir('runtime'), ...options.env, PASSWORD: undefined, HASHED_PASSWORD: undefined },
	});
	liveChildren.add(child);
	let out = '';
	let partial = '';
	const onData = (chunk: Buffer) => {
		const text = chunk.toString('utf8');
		out += text;
		if (out.length > 2_000_000) out = out.slice(-1_000_000);
		if (options.onOutput) {
			partial += text;
			const lines = partial.split('\n');
			partial = lines.pop() ?? '';
			for (const line of lines) options.onOutput(line);
		}
	};
	child.stdout!.on('data', onData);
	child.stderr!.on('data', onData);
	const exited = new Promise<void>((resolve) => child.once('exit', () => { liveChildren.delete(child); resolve(); }));
	const url = `http://127.0.0.1:${port}`;
	try {
		await waitForHttp(`${url}/healthz`, child, () => out, 60_000);
	} catch (e) {
		killGroup(child, 'SIGKILL');
		throw e;
	}
	return {
		url,
		port,
		workspace,
		userDataDir,
		extensionsDir,
		workbenchUrl(payload: WorkbenchPayload = {}): string {
			const remote = (p: string) => `vscode-remote://127.0.0.1:${port}${p}`;
			const entries: [string, string][] = [];
			if (payload.extensionDevelopmentPath) entries.push(['extensionDevelopmentPath', remote(payload.extensionDevelopmentPath)]);
			if (payload.extensionTestsPath) entries.push(['extensionTestsPath', remote(payload.extensionTestsPath)]);
			if (payload.inspectBrkExtensions) entries.push(['inspect-brk-extensions', String(payload.inspectBrkExtensions)]);
			const query = new URLSearchParams({ folder: workspace });
			if (entries.length) query.set('payload', JSON.stringify(entries));
			return `${url}/?${query.toString()}`;
		},
		output: () => out,
		processesMatching(text: string): number[] {
			const group = String(child.pid);
			return fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
				try {
					// pgrp is the 5th field of stat, after the command name in parentheses.
					const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
					const pgrp = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2];
					return pgrp === group && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(text);
				} catch {
					return false;
				}
			}).map(Number);
		},
		async stop(): Promise<void> {
			killGroup(child, 'SIGTERM');
			const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
			await exited;
			clearTimeout(timer);
			// extension hosts live in the same group; make sure none linger
			try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* group gone */ }
		},
	};
}

export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
	'--disable-dev-shm-usage',
];

export interface BrowserOptions {
	/** A profile folder to keep the browser's storage (SecretStorage lives here) across reloads. */
	persistentProfile?: string;
	/** Origin to grant clipboard access to. */
	origin?: string;
	viewport?: { width: number; height: number };
	headless?: boolean;
}

/** Opens Debian's Chromium through playwright-core; returns a context ready for pages. */
export async function launchBrowser(options: BrowserOptions = {}): Promise<{ context: BrowserContext; browser?: Browser; close(): Promise<void> }> {
	installCleanup();
	const executablePath = await ensureChromium();
	const viewport = options.viewport ?? { width: 1280, height: 800 };
	const headless = options.headless ?? true;
	let context: BrowserContext;
	let browser: Browser | undefined;
	if (options.persistentProfile) {
		context = await chromium.launchPersistentContext(options.persistentProfile, { executablePath, args: CHROMIUM_ARGS, headless, viewport });
	} else {
		browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless });
		context = await browser.newContext({ viewport });
	}
	if (options.origin) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: options.origin });
	return {
		context,
		browser,
		async close(): Promise<void> {
			await context.close().catch(() => undefined);
			await browser?.close().catch(() => undefined);
		},
	};
}
