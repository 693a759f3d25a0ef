// `npm run emulator`: the service emulator until Ctrl+C. `--json` prints one line with its URL and demo
// accounts for scripts; otherwise a banner with the demo credentials (emulator-only values).
import { readFileSync } from 'node:fs';
import { parseArgs as parseFlags } from 'node:util';
import { FAULT_MODES, startEmulator, type EmulatorFaults, type FaultMode, type RigConfig, type RiggedEmulator } from './rig';
import { caughtText } from '../../src/core/util/caughtText';

export const DEFAULT_CLI_PORT = 8787;

export interface CliOptions {
	/** From the flags only; `--config` is read by `loadConfig`. */
	config: Partial<RigConfig>;
	configFile?: string;
	json: boolean;
	help: boolean;
	/** False when the port is the default, so a busy default may fall back to any free port. */
	portGiven: boolean;
}

export class CliError extends Error { }

export const USAGE = `Usage: npm run emulator -- [options]

Runs a local emulator of the telematics user service (Login, RefreshToken).

Options:
  --port N                 port to listen on (default ${DEFAULT_CLI_PORT}; 0 = any free port)
  --host HOST              address to listen on (default 127.0.0.1)
  --token-lifetime S       access token lifetime in seconds (default 7200)
  --refresh-lifetime S     refresh token lifetime in seconds (default 90 days)
  --rate-limit M/W/B       login rate limit: M logins per W seconds, then blocked B seconds (default 5/60/3600)
  --fault ENDPOINT=MODE    login|refresh = ${FAULT_MODES.join('|')} (repeatable)
  --fault-count N          apply the faults to the next N requests only
  --slow-ms N              delay for the 'slow' fault (default 2000)
  --require-admin-instance admin logins must send the InstanceId header
  --realtime-ping S        Live Tracking: a ping every S seconds (default 30)
  --realtime-update-ms N   Live Tracking: each drive's position every N ms (default 1000)
  --realtime-hostile       Live Tracking: hostile frames after each update (markup, bad coordinates, oversized, not JSON)
  --realtime-fleet N       Live Tracking: N more drives beside the demo users' (a large fleet; default 0)
  --realtime-failure MODE  Live Tracking after authenticated: silent (no frame more) or closeAfterOneUpdate
  --config FILE.json       a partial emulator configuration (users, admins, …); flags win
  --json                   print one JSON line with the URL and accounts once listening
  -h, --help               show this help
`;

const FLAGS = {
	port: { type: 'string' }, host: { type: 'string' }, 'token-lifetime': { type: 'string' }, 'refresh-lifetime': { type: 'string' },
	'rate-limit': { type: 'string' }, fault: { type: 'string', multiple: true }, 'fault-count': { type: 'string' }, 'slow-ms': { type: 'string' },
	'require-admin-instance': { type: 'boolean' }, 'realtime-ping': { type: 'string' }, 'realtime-update-ms': { type: 'string' }, 'realtime-hostile': { type: 'boolean' }, 'realtime-fleet': { type: 'string' }, 'realtime-failure': { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} as const;

export function parseArgs(argv: readonly string[]): CliOptions {
	let values: ReturnType<typeof parseFlags<{ args: string[]; options: typeof FLAGS }>>['values'];
	try {
		({ values } = parseFlags({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }));
	} catch (e) {
		// Node's own wording (e.g. "Unknown option '--bogus'"), without its hint about positionals.
		const message = caughtText(e).replace(/\. To specify a positional[\s\S]*$/, '');
		throw new CliError(`${message}. See --help.`);
	}
	const config: Partial<RigConfig> = {};
	const faults: EmulatorFaults = {};
	if (values.port !== undefined) config.port = integer('--port', values.port, 0, 65535);
	if (values.host !== undefined) config.host = values.host;
	if (values['token-lifetime'] !== undefined) config.accessTokenLifetimeSeconds = integer('--token-lifetime', values['token-lifetime'], 1);
	if (values['refresh-lifetime'] !== undefined) config.refreshTokenLifetimeSeconds = integer('--refresh-lifetime', values['refresh-lifetime'], 1);
	if (values['rate-limit'] !== undefined) config.loginRateLimit = rateLimit(values['rate-limit']);
	for (const fault of values.fault ?? []) {
		const [endpoint, mode] = fault.split('=');
		if (endpoint !== 'login' && endpoint !== 'refresh') throw new CliError('--fault takes login=MODE or refresh=MODE.');
		if (!FAULT_MODES.includes(mode as FaultMode)) throw new CliError(`--fault mode must be one of ${FAULT_MODES.join(', ')}.`);
		faults[endpoint] = mode as FaultMode;
	}
	if (values['fault-count'] !== undefined) faults.count = integer('--fault-count', values['fault-count'], 0);
	if (values['slow-ms'] !== undefined) faults.slowMs = integer('--slow-ms', values['slow-ms'], 0);
	if (values['require-admin-instance']) config.requireInstanceHeaderForAdmin = true;
	if (values['realtime-ping'] !== undefined) config.realtimePingSeconds = integer('--realtime-ping', values['realtime-ping'], 1);
	if (values['realtime-update-ms'] !== undefined) config.realtimeUpdateMs = integer('--realtime-update-ms', values['realtime-update-ms'], 10);
	if (values['realtime-hostile']) config.realtimeHostileFrames = true;
	const failure = values['realtime-failure'];
	if (failure !== undefined) {
		if (failure !== 'silent' && failure !== 'closeAfterOneUpdate' && failure !== 'none') throw new CliError(`--realtime-failure is silent, closeAfterOneUpdate or none, not "${failure}".`);
		config.realtimeFailure = failure;
	}
	if (values['realtime-fleet'] !== undefined) config.realtimeFleetDevices = integer('--realtime-fleet', values['realtime-fleet'], 0, 100_000);
	if (Object.keys(faults).length > 0) config.faults = faults;
	return { config, configFile: values.config, json: values.json === true, help: values.help === true, portGiven: values.port !== undefined };
}

/** The configuration to start with: the file's (if any), then the flags over it, then the CLI's default port. */
export function mergeConfig(fromFile: Partial<RigConfig>, options: CliOptions): Partial<RigConfig> {
	const merged: Partial<RigConfig> = { ...fromFile, ...options.config };
	if (fromFile.faults && options.config.faults) merged.faults = { ...fromFile.faults, ...options.config.faults };
	merged.port ??= DEFAULT_CLI_PORT;
	return merged;
}

export function readConfigFile(path: string): Partial<RigConfig> {
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (e) {
		throw new CliError(`Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}.`);
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new CliError(`${path} is not valid JSON.`);
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CliError(`${path} must hold a JSON object.`);
	return value as Partial<RigConfig>;
}

export function banner(emulator: RiggedEmulator): string {
	const { config, url } = emulator;
	const lines = [`Telematics service emulator listening on ${url}`, `  Swagger: ${url}/swagger/index.html`, `  OpenAPI: ${url}/swagger/v1/swagger.json (every host of the platform, on this one address)`, ''];
	lines.push(`  Set telematicsAuth.baseUrl to ${url}, then log in with:`);
	for (const user of config.users) {
		lines.push(`  User${user.name ? ` (${user.name})` : ''}`);
		lines.push(`    InstanceID:  ${user.instanceId}`, `    DeviceToken: ${user.deviceToken}`, `    InstanceKey: ${user.instanceKey}`);
	}
	for (const admin of config.admins) {
		lines.push('  Admin');
		lines.push(`    API InstanceID: ${admin.instanceId}`, `    API Login:      ${admin.email}`, `    API Password:   ${admin.password}`);
	}
	const { max, windowSeconds, blockSeconds } = config.loginRateLimit;
	const faults = config.faults;
	const active = (['login', 'refresh'] as const).filter((e) => faults[e] && faults[e] !== 'none').map((e) => `${e}=${faults[e]}`);
	lines.push('', `  Access tokens live ${config.accessTokenLifetimeSeconds} s. Login limit: ${max} per ${windowSeconds} s, then ${blockSeconds} s blocked.`);
	lines.push(`  Faults: ${active.length > 0 ? active.join(', ') : 'none'}.`);
	lines.push('  Press Ctrl+C to stop.', '');
	return lines.join('\n');
}

export interface CliIo {
	stdout: { write(text: string): unknown };
	stderr: { write(text: string): unknown };
	/** Stop on SIGINT/SIGTERM (the default); tests pass false and close the emulator themselves. */
	handleSignals?: boolean;
}

/** Starts the emulator as the flags say. Resolves to it once listening, or undefined after --help or an error (exit code set). */
export async function main(argv: readonly string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<RiggedEmulator | undefined> {
	let emulator: RiggedEmulator;
	try {
		const options = parseArgs(argv);
		if (options.help) {
			io.stdout.write(USAGE);
			return undefined;
		}
		const config = mergeConfig(options.configFile ? readConfigFile(options.configFile) : {}, options);
		emulator = await listen(config, !options.portGiven && config.port === DEFAULT_CLI_PORT, io);
		io.stdout.write(options.json
			? `${JSON.stringify({ url: emulator.url, swaggerUrl: `${emulator.url}/swagger/index.html`, users: emulator.config.users, admins: emulator.config.admins })}\n`
			: banner(emulator));
	} catch (e) {
		io.stderr.write(`emulator: ${caughtText(e)}\n`);
		process.exitCode = 1;
		return undefined;
	}
	if (io.handleSignals ?? true) {
		const stop = () => {
			process.off('SIGINT', stop);
			process.off('SIGTERM', stop);
			void emulator.close().then(() => io.stderr.write('Emulator stopped.\n'));
		};
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	}
	return emulator;
}

async function listen(config: Partial<RigConfig>, mayFallBack: boolean, io: CliIo): Promise<RiggedEmulator> {
	try {
		return await startEmulator(config);
	} catch (e) {
		const code = (e as NodeJS.ErrnoException).code;
		if (code === 'EADDRINUSE' && mayFallBack) {
			io.stderr.write(`Port ${config.port} is busy; using a free port instead.\n`);
			return startEmulator({ ...config, port: 0 });
		}
		if (code === 'EADDRINUSE') throw new CliError(`Port ${config.port} is busy. Choose another with --port N (0 = any free port).`);
		throw e;
	}
}

function integer(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
	const n = Number(text);
	if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
		throw new CliError(`${flag} needs a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}, not "${text}".`);
	}
	return n;
}

function rateLimit(text: string): RigConfig['loginRateLimit'] {
	const parts = text.split('/');
	if (parts.length !== 3) throw new CliError('--rate-limit takes MAX/WINDOW/BLOCK, e.g. 5/60/3600.');
	const [max, windowSeconds, blockSeconds] = parts.map((p) => integer('--rate-limit', p, 0)) as [number, number, number];
	return { max, windowSeconds, blockSeconds };
}

if (require.main === module) {
	void main(process.argv.slice(2));
}
