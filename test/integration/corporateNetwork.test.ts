// A company network in the real host: every request through VS Code's fetch (a CA only its OS list holds,
// http.proxy, HTTPS_PROXY, a 407, proxySupport off), our own client where it cannot serve, an untrusted CA named.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AccountKind } from '../../src/core/api/types';
import type { RiggedEmulator } from '../emulator/rig';
import type { Session } from '../../src/core/sessions/types';
import type { TestApi } from './testApi';
import { ENV_PROXY_ENV, startConnectProxy, type ConnectProxy } from '../support/connectProxy';
import { startCompanyNetwork, type CompanyNetwork } from '../support/companyNetwork';
import type { HttpsFront } from '../support/testCa';
import { until } from '../support/until';
import { commandSession, adminCredentials, lastError, ScriptedPrompter, storedSecret, useEmulatorSuite, userCredentials } from './loginHelpers';

const HTTP_KEYS = ['proxy', 'proxySupport', 'proxyAuthorization', 'fetchAdditionalSupport'];

describe('Corporate network: HTTPS signed by a CA only the OS store holds (real VS Code)', function () {
	this.timeout(30_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	let network: CompanyNetwork;
	let front: HttpsFront;
	let untrusted: HttpsFront;
	let proxy: ConnectProxy;
	/** Every URL given to the host's global fetch, as an extension that wraps it would see them. */
	const fetched: string[] = [];
	let unwrap: (() => void) | undefined;
	const http = () => vscode.workspace.getConfiguration('http');

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, anyHost: true }, (started) => ({ api, emu } = started));

	before(async () => {
		const dir = process.env.TELEMATICS_TEST_CA_DIR;
		assert.ok(dir, 'the host was started with a test CA (runIntegration)');
		network = await startCompanyNetwork(emu.port, dir);
		({ front, untrusted, proxy } = network);
		const original = globalThis.fetch;
		globalThis.fetch = (input, init) => {
			fetched.push(input instanceof Request ? input.url : String(input));
			return original(input, init);
		};
		unwrap = () => (globalThis.fetch = original);
	});

	async function resetHttp(): Promise<void> {
		for (const key of HTTP_KEYS) await http().update(key, undefined, vscode.ConfigurationTarget.Global);
		await vscode.workspace.getConfiguration('telematicsAuth').update('extraCertificates', undefined, vscode.ConfigurationTarget.Global);
	}

	after(async () => {
		unwrap?.();
		await resetHttp();
		await network?.close();
	});

	afterEach(resetHttp);

	async function logInAt(serviceUrl: string, kind: AccountKind = 'user'): Promise<Session | undefined> {
		const credentials = kind === 'admin' ? adminCredentials(emu) : userCredentials(emu);
		api.setPrompter(ScriptedPrompter.answering({ ...credentials, serviceUrl }, kind));
		return commandSession(api, kind === 'admin' ? 'telematicsAuth.loginAdmin' : 'telematicsAuth.loginUser');
	}

	/** The paths the host's fetch was asked for while `body` ran. */
	async function fetchedDuring(body: () => Promise<void>): Promise<string[]> {
		const before = fetched.length;
		await body();
		return fetched.slice(before).map((url) => new URL(url).pathname);
	}

	/** A proxy of this test's own (a tunnel to a shared one may still be open from the test before), closed after. */
	async function withOwnProxy(use: (own: ConnectProxy) => Promise<void>, port = 0): Promise<void> {
		const own = await startConnectProxy(() => front.port, port);
		try {
			await use(own);
		} finally {
			await own.close();
		}
	}

	it('the host trusts the test root only as the OS store: no NODE_EXTRA_CA_CERTS, strict SSL on', () => {
		assert.equal(process.env.NODE_EXTRA_CA_CERTS, undefined);
		assert.match(process.env.SSL_CERT_FILE ?? '', /bundle\.pem$/);
		assert.equal(http().get('proxyStrictSSL'), true);
		assert.equal(typeof (globalThis as { __vscodeOriginalFetch?: unknown }).__vscodeOriginalFetch, 'function', 'this host patches fetch');
	});

	it('user and admin log in directly and refresh, every request through the host\'s fetch', async () => {
		const url = `https://localhost:${front.port}`;
		let user: Session | undefined;
		const paths = await fetchedDuring(async () => {
			user = await logInAt(url, 'user');
			assert.ok(user?.tokens, lastError(api));
			assert.ok((await logInAt(url, 'admin'))?.tokens, lastError(api));
			const refreshed = await commandSession(api, 'telematicsAuth.refresh', { accountId: user.account.id });
			assert.ok(refreshed?.tokens && refreshed.tokens.refreshToken !== user.tokens.refreshToken, lastError(api));
		});
		assert.deepEqual(paths, ['/v1/Auth/Login', '/v1/Auth/Login', '/v1/Auth/RefreshToken']);
		assert.ok(api.logLines().some((l) => l.includes('Requests go through VS Code\'s network stack')), 'the log says which road');
		assert.ok(!api.logLines().some((l) => /Trusted roots:/.test(l)), 'no roots of our own were loaded');
	});

	it('logs in through a CONNECT proxy named by http.proxy', async () => {
		await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
		const before = proxy.targets.length;
		const paths = await fetchedDuring(async () => assert.ok((await logInAt('https://telematics.test', 'admin'))?.tokens, lastError(api)));
		assert.deepEqual(paths, ['/v1/Auth/Login']);
		assert.deepEqual(proxy.targets.slice(before), ['telematics.test:443']);
	});

	it('Live Tracking\'s socket goes through the proxy http.proxy names, chosen by VS Code\'s network, and trusts the OS store\'s root (issue 66)', async () => {
		await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
		const session = await logInAt('https://telematics.test', 'admin');
		assert.ok(session?.tokens, lastError(api));
		const before = proxy.targets.length;
		const sockets = emu.realtime.authenticateTokens.length;
		try {
			await vscode.commands.executeCommand('telematicsAuth.openLiveTracking', { accountId: session.account.id });
			await until('the panel live', () => api.livePanels().find((p) => p.accountId === session.account.id)?.state === 'live', 20_000);
			assert.ok(proxy.targets.slice(before).includes('telematics.test:443'), `the socket's tunnel: ${proxy.targets.slice(before).join(', ')}`);
			assert.equal(emu.realtime.authenticateTokens.at(-1), api.services.store.get(session.account.id)?.tokens?.accessToken);
			assert.ok(emu.realtime.authenticateTokens.length > sockets);
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
	});

	it('a login to a company host (neither the vendor\'s nor this machine) asks, lightly, whether the account is production', async () => {
		await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
		const session = await logInAt('https://telematics.test', 'admin');
		assert.ok(session?.tokens, lastError(api));
		assert.equal(session.account.production, undefined, 'not production until the person says');
		const asked = api.messages().at(-1);
		assert.match(asked?.text ?? '', /^Logged in as .*\. Is it a production account\?/);
		assert.deepEqual(asked?.actions, ['Mark as Production', 'Not Production']);
		assert.equal(api.statusBar().backgroundColor, undefined);
	});

	it('logs in through the proxy HTTPS_PROXY named when VS Code started, and refreshes through it', () => withOwnProxy(async (envProxy) => {
		const paths = await fetchedDuring(async () => {
			const session = await logInAt('https://telematics.test', 'user');
			assert.ok(session?.tokens, lastError(api));
			const refreshed = await commandSession(api, 'telematicsAuth.refresh', { accountId: session.account.id });
			assert.ok(refreshed?.tokens, lastError(api));
		});
		assert.deepEqual(paths, ['/v1/Auth/Login', '/v1/Auth/RefreshToken']);
		assert.equal(envProxy.targets[0], 'telematics.test:443', 'the proxy carried the requests');
	}, Number(new URL(process.env[ENV_PROXY_ENV] ?? 'http://x:1').port)));

	it('a proxy that asks for Basic credentials VS Code cannot ask for here: says where they go; the http.proxy URL\'s then get through', () => withOwnProxy(async (guarded) => {
		guarded.requireAuthorization = `Basic ${Buffer.from('corp:proxy-secret').toString('base64')}`;
		guarded.challenge = 'Basic realm="corp"';
		await http().update('proxy', guarded.url, vscode.ConfigurationTarget.Global);
		assert.equal(await logInAt('https://telematics.test', 'user'), undefined);
		assert.match(lastError(api) ?? '', /asked for authentication.*user:password@ in http\.proxy/);
		await http().update('proxy', guarded.url.replace('http://', 'http://corp:proxy-secret@'), vscode.ConfigurationTarget.Global);
		assert.ok((await logInAt('https://telematics.test', 'user'))?.tokens, lastError(api));
		assert.equal(guarded.authorizations.at(-1), guarded.requireAuthorization);
		assert.ok(!api.logLines().some((l) => l.includes('proxy-secret') || l.includes(guarded.requireAuthorization!)), 'the credentials are in no log line');
	}));

	it('http.proxyAuthorization, which the host\'s fetch does not send: our own client sends it, with the OS store\'s roots', () => withOwnProxy(async (guarded) => {
		guarded.requireAuthorization = `Basic ${Buffer.from('corp:proxy-secret').toString('base64')}`;
		await http().update('proxy', guarded.url, vscode.ConfigurationTarget.Global);
		await http().update('proxyAuthorization', guarded.requireAuthorization, vscode.ConfigurationTarget.Global);
		const paths = await fetchedDuring(async () => assert.ok((await logInAt('https://telematics.test', 'user'))?.tokens, lastError(api)));
		assert.deepEqual(paths, [], 'not through the host\'s fetch');
		assert.equal(guarded.authorizations.at(-1), guarded.requireAuthorization);
		assert.ok(api.logLines().some((l) => l.includes('own HTTP client: http.proxyAuthorization is set')), 'the log says why');
		assert.ok(!api.logLines().some((l) => l.includes(Buffer.from('corp:proxy-secret').toString('base64'))), 'the credentials are in no log line');
	}));

	it('http.fetchAdditionalSupport off: our own client, still trusting the OS store\'s root', async () => {
		await http().update('fetchAdditionalSupport', false, vscode.ConfigurationTarget.Global);
		const paths = await fetchedDuring(async () => assert.ok((await logInAt(`https://localhost:${front.port}`, 'admin'))?.tokens, lastError(api)));
		assert.deepEqual(paths, []);
		assert.ok(api.logLines().some((l) => /Trusted roots: \d+ from Node, \d+ from .*bundle\.pem.*loaded in \d+ ms/.test(l)), 'the log says what was trusted and how long it took');
	});

	it('http.proxySupport "off" ignores http.proxy and HTTPS_PROXY', () => withOwnProxy(async (unused) => {
		await http().update('proxy', unused.url, vscode.ConfigurationTarget.Global);
		await http().update('proxySupport', 'off', vscode.ConfigurationTarget.Global);
		// Only the proxy knows telematics.test: going direct, the name does not resolve.
		assert.equal(await logInAt('https://telematics.test', 'user'), undefined);
		assert.match(lastError(api) ?? '', /Could not reach telematics\.test \(host name not found\)/);
		assert.deepEqual(unused.targets, [], 'nothing went through the proxy');
		// And with proxySupport back on, the same login goes through it.
		await http().update('proxySupport', undefined, vscode.ConfigurationTarget.Global);
		assert.ok((await logInAt('https://telematics.test', 'user'))?.tokens, lastError(api));
		assert.deepEqual(unused.targets, ['telematics.test:443']);
	}));

	it('a CA in no store: a message naming it and the fix, and the earlier session stays', async () => {
		const earlier = await logInAt(`https://localhost:${front.port}`, 'admin');
		assert.ok(earlier?.tokens);
		const secretBefore = await storedSecret(api, earlier.account.id);
		const result = await logInAt(`https://localhost:${untrusted.port}`, 'user');
		assert.equal(result, undefined);
		const message = lastError(api) ?? '';
		assert.match(message, /issued by "Unknown Interceptor CA, Fleet Corp", which this computer does not trust/);
		assert.match(message, /telematicsAuth\.extraCertificates/);
		assert.doesNotMatch(message, /strictSSL|turn (certificate )?checks off/i);
		assert.equal(await storedSecret(api, earlier.account.id), secretBefore);
		assert.deepEqual(api.services.store.list().map((s) => s.account.id), [earlier.account.id]);
	});

	it('the same CA in telematicsAuth.extraCertificates: trusted through the host\'s fetch, with the OS store\'s roots kept', async () => {
		await vscode.workspace.getConfiguration('telematicsAuth').update('extraCertificates', [network.other.caFile], vscode.ConfigurationTarget.Global);
		const paths = await fetchedDuring(async () => {
			assert.ok((await logInAt(`https://localhost:${untrusted.port}`, 'user'))?.tokens, lastError(api));
			assert.ok((await logInAt(`https://localhost:${front.port}`, 'admin'))?.tokens, lastError(api));
		});
		assert.deepEqual(paths, ['/v1/Auth/Login', '/v1/Auth/Login']);
	});
});
