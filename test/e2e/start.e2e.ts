// `npm start` as a person uses it: it prints the demo credentials and a loopback URL, the URL
// serves VS Code with the extension loaded and pointed at the emulator, and Ctrl+C stops it.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { DEMO_ADMINS, DEMO_USERS } from '../emulator/rig';
import { launchBrowser } from '../host/codeServer';
import { projectRoot } from '../host/paths';
import { waitFor, Workbench } from './workbench';

const START_SCRIPT = path.join(projectRoot, 'out', 'test', 'host', 'start.js');

function startNpmStart(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
	const child = spawn(process.execPath, [START_SCRIPT, ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
	child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, output: () => out, exited };
}

function assertCredentialsPrinted(out: string): void {
	const user = DEMO_USERS[0]!;
	const admin = DEMO_ADMINS[0]!;
	for (const value of [user.instanceId, user.deviceToken, user.instanceKey, admin.instanceId, admin.email, admin.password]) {
		assert.ok(out.includes(value), `npm start prints the demo credential ${value}`);
	}
}

describe('npm start', function () {
	it('prints the demo credentials and a URL that opens VS Code with the extension, and stops on Ctrl+C', async function () {
		const run = startNpmStart(['--no-open']);
		try {
			const out = await waitFor('npm start to be ready', async () => run.output(), (o) => /Ready\./.test(o) || run.child.exitCode !== null, 120_000);
			assert.equal(run.child.exitCode, null, `npm start exited early:\n${out}`);
			assertCredentialsPrinted(out);
			const emulatorUrl = /Telematics service emulator: (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
			assert.ok(emulatorUrl, 'the emulator URL is printed');
			const url = /(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/.exec(out)?.[1];
			assert.ok(url, `a loopback workbench URL is printed:\n${out}`);
			assert.match(decodeURIComponent(url), /extensionDevelopmentPath/);

			const html = await (await fetch(url)).text();
			assert.match(html, /workbench/i, 'the URL serves the VS Code workbench');

			const browser = await launchBrowser();
			try {
				const page = await browser.context.newPage();
				const wb = new Workbench(page);
				await wb.open(url);
				const status = await wb.waitForStatus(/Log In/);
				assert.ok(status.text.length > 0);
			} finally {
				await browser.close();
			}
			const emulatorAnswers = await fetch(`${emulatorUrl}/swagger/index.html`);
			assert.equal(emulatorAnswers.status, 200);

			run.child.kill('SIGINT');
			const code = await Promise.race([run.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 90_000))]);
			assert.notEqual(code, 'timeout', 'npm start stops on Ctrl+C');
			await assert.rejects(fetch(url, { signal: AbortSignal.timeout(3000) }), 'code-server is gone after Ctrl+C');
			await assert.rejects(fetch(`${emulatorUrl}/swagger/index.html`, { signal: AbortSignal.timeout(3000) }), 'the emulator is gone after Ctrl+C');
		} finally {
			if (run.child.exitCode === null) run.child.kill('SIGKILL');
		}
	});

	it('exits by itself after printing when given --exit-when-ready', async function () {
		const run = startNpmStart(['--no-open', '--exit-when-ready']);
		const code = await Promise.race([run.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 120_000))]);
		assert.equal(code, 0, run.output());
		assertCredentialsPrinted(run.output());
		assert.match(run.output(), /http:\/\/127\.0\.0\.1:\d+\/\?folder=/);
	});
});
