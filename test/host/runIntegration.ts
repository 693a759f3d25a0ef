// `npm run test:integration`: the integration suite inside a real extension host (code-server in Chromium,
// the `payload` naming extension and tests); streams mocha's output and exits with its result.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, launchBrowser, makeTempDir, startCodeServer } from './codeServer';
import { ensureTestHost } from './install';
import { projectRoot } from './paths';
import { ENV_PROXY_ENV } from '../support/connectProxy';
import { makeTestCa } from '../support/testCa';
import { HOSTILE_ENV, plantHostileFolder, SUITE_ENV, type IntegrationSuite } from '../support/hostileFolder';

const OVERALL_TIMEOUT_MS = Number(process.env.TELEMATICS_INTEGRATION_TIMEOUT_MS ?? 30 * 60_000);
const verbose = process.argv.includes('--verbose') || process.env.TELEMATICS_TEST_VERBOSE === '1';

/** Follows a file that the extension host appends to and prints new lines. */
function follow(file: string, print: (line: string) => void): { flush(): void } {
	let offset = 0;
	let partial = '';
	const flush = () => {
		let size: number;
		try { size = fs.statSync(file).size; } catch { return; }
		if (size <= offset) return;
		const fd = fs.openSync(file, 'r');
		const buf = Buffer.alloc(size - offset);
		fs.readSync(fd, buf, 0, buf.length, offset);
		fs.closeSync(fd);
		offset = size;
		partial += buf.toString('utf8');
		const lines = partial.split('\n');
		partial = lines.pop() ?? '';
		for (const line of lines) print(line);
	};
	return { flush };
}

// TELEMATICS_EXTENSION_PATH: try the runner on another extension folder (debugging only)
const extensionPath = process.env.TELEMATICS_EXTENSION_PATH ?? projectRoot;

async function main(): Promise<number> {
	for (const required of [path.join(extensionPath, 'dist', 'extension.js'), path.join(projectRoot, 'out', 'test', 'integration', 'index.js')]) {
		if (!fs.existsSync(required)) {
			console.error(`[integration] ${required} is missing: run \`npm run build && npm run compile-tests\` first (npm test does).`);
			return 1;
		}
	}
	await ensureTestHost();
	const codes = [
		await runPass('trusted'),
		// httpYac for VS Code beside us (test/integration/httpyac/): in the trusted pass it would read every REST
		// file the other suites open, about 40 s of the two cores.
		await runPass('httpyac'),
		// The same host with workspace trust on and a hostile folder opened in Restricted Mode
		// (test/integration/restricted/): its git config would start a program, its .env and
		// .gitignore are symlinks out of the folder.
		await runPass('restricted'),
	];
	return codes.find((code) => code !== 0) ?? 0;
}

/** Runs one pass of the suite in a fresh code-server; its exit code. */
async function runPass(suite: IntegrationSuite): Promise<number> {
	const started = Date.now();
	const serverStarted = Date.now();
	const hostile = suite === 'restricted' ? path.join(makeTempDir('hostile'), 'outside') : undefined;
	// REST Client itself (built from its MIT source, ../shared/tools), with a home of its own: it writes
	// every request it sends, headers included, to ~/.rest-client/history.json.
	const restClient = path.resolve(projectRoot, '..', 'shared', 'tools', 'rest-client-0.25.0.vsix');
	if (!fs.existsSync(restClient)) throw new Error(`${restClient} is missing: the REST Client tests send requests with it.`);
	// httpYac for VS Code (built from its MIT source, ../shared/tools): our plugin goes into it, and its
	// tests send with httpYac itself (test/integration/httpyac/); the restricted pass has both clients.
	const httpyac = path.resolve(projectRoot, '..', 'shared', 'tools', 'vscode-httpyac-6.16.7.vsix');
	if (!fs.existsSync(httpyac)) throw new Error(`${httpyac} is missing: the httpYac tests send requests with it.`);
	const outputFile = path.join(makeTempDir('itest'), 'mocha.log');
	fs.writeFileSync(outputFile, '');
	const mochaOutput = follow(outputFile, (line) => console.log(line));
	// A company root CA that only "the OS store" holds: for VS Code's fetch, the certificate list
	// it loads with the OS store (index.ts adds the root there); for our own client, SSL_CERT_FILE
	// names a bundle of this machine's roots plus the test root. NODE_EXTRA_CA_CERTS (preset on
	// this machine, not on users') is removed, so nothing else makes Node trust the test root.
	const ca = makeTestCa(path.join(projectRoot, '.cache', 'test-ca'));
	// VS Code reads HTTPS_PROXY once, when its extension host starts: the host gets a proxy
	// address that the corporate-network test listens on while it runs (loopback goes direct).
	const envProxy = `http://127.0.0.1:${await freePort()}`;
	const server = await startCodeServer({
		env: {
			TELEMATICS_TEST_OUTPUT: outputFile,
			TELEMATICS_TEST_CA_DIR: ca.dir,
			SSL_CERT_FILE: ca.bundleFile,
			NODE_EXTRA_CA_CERTS: undefined,
			HTTPS_PROXY: envProxy, https_proxy: undefined, HTTP_PROXY: undefined, http_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined,
			[ENV_PROXY_ENV]: envProxy,
			...(process.env.TELEMATICS_TEST_GREP ? { TELEMATICS_TEST_GREP: process.env.TELEMATICS_TEST_GREP } : {}),
			[SUITE_ENV]: suite,
			HOME: makeTempDir('home'),
			...(hostile ? { [HOSTILE_ENV]: hostile } : {}),
		},
		installExtensions: { trusted: [restClient], httpyac: [restClient, httpyac], restricted: [restClient, httpyac] }[suite],
		// In Restricted Mode REST Client (which declares no untrustedWorkspaces support) runs only where the
		// person allows it, as this setting does: the restricted pass sends with it from the untrusted folder.
		...(hostile ? { restrictedMode: true, settings: { 'extensions.supportUntrustedWorkspaces': { 'humao.rest-client': { supported: true } } }, prepareWorkspace: (workspace: string) => plantHostileFolder(workspace, hostile) } : {}),
		onOutput: verbose ? (line) => console.log(`[server] ${line}`) : undefined,
	});
	console.log(`[integration] ${suite} pass: code-server ${server.url} up in ${((Date.now() - serverStarted) / 1000).toFixed(1)} s`);
	const browser = await launchBrowser({ origin: server.url });
	const poll = setInterval(() => mochaOutput.flush(), 200);
	let timer: NodeJS.Timeout | undefined;
	try {
		const page = await browser.context.newPage();
		const exitCode = new Promise<number>((resolve) => {
			void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
		});
		await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
			if (verbose) console.log(`[workbench:${type}] ${Array.isArray(args) ? args.map(String).join(' ') : String(args)}`);
		});
		if (verbose) page.on('console', (msg) => console.log(`[console:${msg.type()}] ${msg.text()}`));
		page.on('pageerror', (err) => console.error(`[integration] page error: ${err.message}`));
		const timeout = new Promise<number>((resolve) => {
			timer = setTimeout(() => {
				console.error(`[integration] TIMEOUT: the suite did not finish within ${OVERALL_TIMEOUT_MS / 1000} s`);
				resolve(124);
			}, OVERALL_TIMEOUT_MS);
		});
		if (suite === 'restricted') void clickTrustWhenShown(page);
		await page.goto(server.workbenchUrl({
			extensionDevelopmentPath: extensionPath,
			extensionTestsPath: path.join(projectRoot, 'out', 'test', 'integration', 'index'),
		}));
		const code = await Promise.race([exitCode, timeout]);
		mochaOutput.flush();
		if (code !== 0) {
			const content = fs.readFileSync(outputFile, 'utf8');
			if (!/\d+ passed, \d+ failed/.test(content)) {
				// the suite never reported: show the server's log so the cause is visible
				console.error('[integration] the suite did not report results; code-server output follows');
				console.error(server.output().split('\n').slice(-80).join('\n'));
				console.log('0 passed, 1 failed');
			}
		}
		console.log(`[integration] ${suite} pass finished with exit code ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		return code;
	} finally {
		clearTimeout(timer);
		clearInterval(poll);
		mochaOutput.flush();
		await browser.close();
		await server.stop();
	}
}

/**
 * The restricted pass's last test opens the Workspace Trust editor (`workbench.trust.manage`) and waits for
 * trust: this is the person's click on its Trust button.
 */
async function clickTrustWhenShown(page: Page): Promise<void> {
	try {
		await page.locator('.workspace-trust-editor').getByText('Trust', { exact: true }).click({ timeout: 0 });
	} catch {
		// the page closed first: no test asked for trust
	}
}

main().then((code) => process.exit(code), (e: unknown) => {
	console.error(`[integration] FAILED: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
