// `npm run emulator`: its flags, its configuration file, its banner and its exit codes.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { banner, CliError, DEFAULT_CLI_PORT, main, mergeConfig, parseArgs, readConfigFile } from '../emulator/cli';
import { DEMO_ADMINS, DEMO_USERS, startEmulator, type RigConfig } from '../emulator/rig';
import { ADMIN, post, USER } from './emulatorHttp';

describe('emulator: CLI', () => {
	describe('parseArgs', () => {
		const cases: { argv: string[]; config: Partial<RigConfig>; json?: boolean; configFile?: string }[] = [
			{ argv: [], config: {} },
			{ argv: ['--port', '9000', '--host', '0.0.0.0'], config: { port: 9000, host: '0.0.0.0' } },
			{ argv: ['--port=0', '--json'], config: { port: 0 }, json: true },
			{ argv: ['--token-lifetime', '60', '--refresh-lifetime', '600'], config: { accessTokenLifetimeSeconds: 60, refreshTokenLifetimeSeconds: 600 } },
			{ argv: ['--fault', 'login=html502', '--fault=refresh=hang', '--fault-count', '2', '--slow-ms', '10'], config: { faults: { login: 'html502', refresh: 'hang', count: 2, slowMs: 10 } } },
			{ argv: ['--fault', 'refresh=rateLimited'], config: { faults: { refresh: 'rateLimited' } } },
			{ argv: ['--rate-limit', '3/10/30', '--require-admin-instance'], config: { loginRateLimit: { max: 3, windowSeconds: 10, blockSeconds: 30 }, requireInstanceHeaderForAdmin: true } },
			{ argv: ['--realtime-ping', '2', '--realtime-update-ms', '250', '--realtime-hostile'], config: { realtimePingSeconds: 2, realtimeUpdateMs: 250, realtimeHostileFrames: true } },
			{ argv: ['--realtime-fleet', '998'], config: { realtimeFleetDevices: 998 } },
			{ argv: ['--realtime-failure', 'silent'], config: { realtimeFailure: 'silent' } },
			{ argv: ['--config', 'e.json'], config: {}, configFile: 'e.json' },
		];
		for (const c of cases) {
			it(`reads ${c.argv.join(' ') || '(nothing)'}`, () => {
				const options = parseArgs(c.argv);
				assert.deepEqual(options.config, c.config);
				assert.equal(options.json, c.json ?? false);
				assert.equal(options.configFile, c.configFile);
			});
		}

		for (const argv of [['--port'], ['--port', 'x'], ['--port', '70000'], ['--fault', 'login=explode'], ['--fault', 'other=hang'], ['--rate-limit', '5'], ['--bogus'], ['--realtime-failure', 'explode'], ['--realtime-fleet', '-1']]) {
			it(`refuses ${argv.join(' ')}`, () => {
				assert.throws(() => parseArgs(argv), CliError);
			});
		}
	});

	it('mergeConfig lets flags win over the file and defaults the port', () => {
		const options = parseArgs(['--token-lifetime', '5', '--fault', 'login=slow']);
		const merged = mergeConfig({ accessTokenLifetimeSeconds: 100, faults: { slowMs: 7 }, users: [] }, options);
		assert.deepEqual(merged, { accessTokenLifetimeSeconds: 5, faults: { slowMs: 7, login: 'slow' }, users: [], port: DEFAULT_CLI_PORT });
	});

	it('readConfigFile reads a JSON object and refuses anything else', () => {
		const dir = mkdtempSync(join(tmpdir(), 'emulator-'));
		try {
			writeFileSync(join(dir, 'ok.json'), '{"port": 1}');
			writeFileSync(join(dir, 'bad.json'), '{"password": "secret-in-file"');
			assert.deepEqual(readConfigFile(join(dir, 'ok.json')), { port: 1 });
			assert.throws(() => readConfigFile(join(dir, 'bad.json')), (e: Error) => e instanceof CliError && !e.message.includes('secret-in-file'));
			assert.throws(() => readConfigFile(join(dir, 'missing.json')), CliError);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	function capture() {
		const out = { stdout: '', stderr: '' };
		return {
			out,
			io: {
				stdout: { write: (t: string) => (out.stdout += t) },
				stderr: { write: (t: string) => (out.stderr += t) },
				handleSignals: false,
			},
		};
	}

	it('main --json prints one JSON line with the URL and accounts, and the server works', async () => {
		const { out, io } = capture();
		const em = await main(['--port', '0', '--json'], io);
		assert.ok(em);
		try {
			const lines = out.stdout.trim().split('\n');
			assert.equal(lines.length, 1);
			const info = JSON.parse(lines[0]!);
			assert.equal(info.url, em.url);
			assert.deepEqual(info.users, DEMO_USERS);
			assert.deepEqual(info.admins, DEMO_ADMINS);
			const r = await post(`${info.url}/v1/Auth/Login`, { LoginFields: { deviceToken: USER.deviceToken }, Password: USER.instanceKey }, { InstanceId: USER.instanceId });
			assert.equal(r.status, 200);
		} finally {
			await em.close();
		}
	});

	it('main prints usage for --help and an error for a bad flag', async () => {
		const help = capture();
		assert.equal(await main(['--help'], help.io), undefined);
		assert.match(help.out.stdout, /Usage:/);

		const bad = capture();
		const previous = process.exitCode;
		try {
			assert.equal(await main(['--bogus'], bad.io), undefined);
			assert.equal(process.exitCode, 1);
			assert.match(bad.out.stderr, /Unknown option '--bogus'\. See --help/);
		} finally {
			process.exitCode = previous;
		}
	});

	it('the banner shows the URL, swagger, the demo credentials and how to stop', async () => {
		const em = await startEmulator();
		try {
			const text = banner(em);
			for (const part of [em.url, `${em.url}/swagger/index.html`, USER.instanceId, USER.deviceToken, USER.instanceKey, ADMIN.instanceId, ADMIN.email, ADMIN.password, 'Ctrl+C']) {
				assert.ok(text.includes(part), part);
			}
		} finally {
			await em.close();
		}
	});
});
