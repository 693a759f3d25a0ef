// `npm start`: the emulator on loopback and a VS Code with the extension pointed at it (desktop `code` if on
// PATH, else code-server at a printed URL) until Ctrl+C. Flags: --exit-when-ready, --no-open, --port N.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_ADMINS, DEMO_USERS, startEmulator } from '../../src/emulator/server';
import { makeTempDir, startCodeServer, writeUserSettings } from './codeServer';
import { projectRoot } from './paths';
import { caughtText } from '../../src/core/util/caughtText';

interface StartOptions {
	exitWhenReady: boolean;
	noOpen: boolean;
	port: number;
}

function parseArgs(argv: readonly string[]): StartOptions {
	const options: StartOptions = { exitWhenReady: false, noOpen: false, port: 0 };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--exit-when-ready') options.exitWhenReady = true;
		else if (arg === '--no-open') options.noOpen = true;
		else if (arg === '--port') options.port = Number(argv[++i]);
		else if (arg === '-h' || arg === '--help') {
			console.log('Usage: npm start -- [--no-open] [--exit-when-ready] [--port N]');
			process.exit(0);
		} else {
			console.error(`Unknown option ${arg}. Try --help.`);
			process.exit(2);
		}
	}
	return options;
}

function which(command: string): string | undefined {
	const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
	const out = found.stdout.trim();
	return found.status === 0 && out ? out : undefined;
}

function banner(emulatorUrl: string): string {
	const user = DEMO_USERS[0]!;
	const admin = DEMO_ADMINS[0]!;
	return [
		'',
		`Telematics service emulator: ${emulatorUrl}  (Swagger: ${emulatorUrl}/swagger/index.html)`,
		`  It plays every host of the platform (trips, statistics, users, applications) with demo data; OpenAPI: ${emulatorUrl}/swagger/v1/swagger.json`,
		'Demo credentials (emulator only):',
		`  User  — Telematics: Log In as User…   InstanceID: ${user.instanceId}   Device token: ${user.deviceToken}   InstanceKey: ${user.instanceKey}`,
		`  Admin — Telematics: Log In as Admin…  InstanceID: ${admin.instanceId}   API login: ${admin.email}   API password: ${admin.password}`,
		'The service URL step is prefilled with the emulator: press Enter.',
		'',
	].join('\n');
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	if (!fs.existsSync(path.join(projectRoot, 'dist', 'extension.js'))) {
		throw new Error('dist/extension.js is missing: run `npm run build` (npm start does it).');
	}
	const emulator = await startEmulator({ port: options.port });
	const cleanups: (() => Promise<void> | void)[] = [() => emulator.close()];
	let stopping = false;
	const stop = async (code: number): Promise<never> => {
		if (!stopping) {
			stopping = true;
			for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
		}
		process.exit(code);
	};
	process.on('SIGINT', () => { console.log('\nStopping…'); void stop(0); });
	process.on('SIGTERM', () => void stop(0));
	console.log(banner(emulator.url));
	const settings = { 'telematicsAuth.baseUrl': emulator.url };

	const desktop = options.noOpen ? undefined : which('code');
	if (desktop) {
		const userDataDir = makeTempDir('start-user');
		const workspace = makeTempDir('start-workspace');
		fs.writeFileSync(path.join(workspace, 'requests.http'), '### Try it: put the cursor here and run "Telematics: Insert Authorization Header"\nGET https://api.telematicssdk.com/trips/get/v1/\n');
		writeUserSettings(userDataDir, settings);
		const args = [`--extensionDevelopmentPath=${projectRoot}`, `--user-data-dir=${userDataDir}`, '--new-window', workspace];
		console.log(`Opening VS Code: ${desktop} ${args.join(' ')}`);
		if (!options.exitWhenReady) spawn(desktop, args, { stdio: 'ignore', detached: true }).unref();
		console.log('Ready. The emulator keeps running until Ctrl+C.');
	} else {
		console.log(options.noOpen ? 'Starting code-server (VS Code in the browser)…' : 'No desktop `code` on PATH: starting code-server (VS Code in the browser)…');
		const server = await startCodeServer({
			settings,
			files: { 'requests.http': '### Try it: put the cursor here and run "Telematics: Insert Authorization Header"\nGET https://api.telematicssdk.com/trips/get/v1/\n' },
		});
		cleanups.push(() => server.stop());
		const url = server.workbenchUrl({ extensionDevelopmentPath: projectRoot });
		console.log(`\nOpen VS Code with the extension loaded:\n\n  ${url}\n`);
		if (!options.noOpen && !options.exitWhenReady && process.env.DISPLAY && which('xdg-open')) {
			spawn('xdg-open', [url], { stdio: 'ignore', detached: true }).unref();
		}
		console.log('Ready. Press Ctrl+C to stop code-server and the emulator.');
	}
	if (options.exitWhenReady) await stop(0);
}

main().catch((e: unknown) => {
	console.error(`npm start failed: ${caughtText(e)}`);
	process.exit(1);
});
