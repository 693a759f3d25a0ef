// A company network in the real host: HTTPS signed by a CA only the OS store holds, logged in directly,
// through CONNECT proxies (http.proxy, HTTPS_PROXY, proxyAuthorization, proxySupport off), an untrusted CA named.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AccountKind } from '../../src/core/api/types';
import type { RiggedEmulator } from '../emulator/rig';
import type { Session } from '../../src/core/sessions/types';
import type { TestApi } from './testApi';
import { startConnectProxy, type ConnectProxy } from '../support/connectProxy';
import { makeTestCa, startHttpsFront } from '../support/testCa';
import { adminCredentials, lastError, ScriptedPrompter, storedSecret, useEmulatorSuite, userCredentials } from './loginHelpers';

describe('Corporate network: HTTPS signed by a CA only the OS store holds (real VS Code)', function () {
	this.timeout(30_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	let front: Awaited<ReturnType<typeof startHttpsFront>>;
	let untrusted: Awaited<ReturnType<typeof startHttpsFront>>;
	let proxy: ConnectProxy;
	const http = () => vscode.workspace.getConfiguration('http');

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, anyHost: true }, (started) => ({ api, emu } = started));

	before(async function () {
		const dir = process.env.TELEMATICS_TEST_CA_DIR;
		assert.ok(dir, 'the host was started with a test CA (runIntegration)');
		const ca = makeTestCa(dir);
		const other = makeTestCa(path.join(path.dirname(dir), 'test-ca-untrusted'), 'Unknown Interceptor CA');
		front = await startHttpsFront(ca, emu.port);
		untrusted = await startHttpsFront(other, emu.port);
		proxy = await startConnectProxy(() => front.port);
	});

	after(async () => {
		delete process.env.HTTPS_PROXY;
		for (const key of ['proxy', 'proxySupport', 'proxyAuthorization']) await http().update(key, undefined, vscode.ConfigurationTarget.Global);
		await proxy?.close();
		await front?.close();
		await untrusted?.close();
	});

	afterEach(async () => {
		delete process.env.HTTPS_PROXY;
		for (const key of ['proxy', 'proxySupport', 'proxyAuthorization']) await http().update(key, undefined, vscode.ConfigurationTarget.Global);
	});

	async function logInAt(serviceUrl: string, kind: AccountKind = 'user'): Promise<Session | undefined> {
		const credentials = kind === 'admin' ? adminCredentials(emu) : userCredentials(emu);
		api.setPrompter(ScriptedPrompter.answering({ ...credentials, serviceUrl }, kind));
		return vscode.commands.executeCommand<Session | undefined>(kind === 'admin' ? 'telematicsAuth.loginAdmin' : 'telematicsAuth.loginUser');
	}

	/** A proxy of this test's own (a tunnel to a shared one may still be open from the test before), closed after. */
	async function withOwnProxy(use: (own: ConnectProxy) => Promise<void>): Promise<void> {
		const own = await startConnectProxy(() => front.port);
		try {
			await use(own);
		} finally {
			await own.close();
		}
	}

	it('the host trusts the test root only through the OS store: no NODE_EXTRA_CA_CERTS, strict SSL on', () => {
		assert.equal(process.env.NODE_EXTRA_CA_CERTS, undefined);
		assert.match(process.env.SSL_CERT_FILE ?? '', /bundle\.pem$/);
		assert.equal(http().get('proxyStrictSSL'), true);
	});

	it('user and admin log in directly, and the token refreshes', async () => {
		const url = `https://localhost:${front.port}`;
		const user = await logInAt(url, 'user');
		assert.ok(user?.tokens, lastError(api));
		const admin = await logInAt(url, 'admin');
		assert.ok(admin?.tokens, lastError(api));
		const refreshed = await vscode.commands.executeCommand<Session | undefined>('telematicsAuth.refresh', { accountId: user.account.id });
		assert.ok(refreshed?.tokens && refreshed.tokens.refreshToken !== user.tokens.refreshToken, lastError(api));
		assert.ok(api.logLines().some((l) => /Trusted roots: \d+ from Node, \d+ from .*bundle\.pem.*loaded in \d+ ms/.test(l)), 'the log says what was trusted and how long it took');
	});

	it('logs in through a CONNECT proxy named by http.proxy', async () => {
		await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
		const before = proxy.targets.length;
		const session = await logInAt('https://telematics.test', 'admin');
		assert.ok(session?.tokens, lastError(api));
		assert.deepEqual(proxy.targets.slice(before), ['telematics.test:443']);
	});

	it('a proxy that wants credentials: says where they go, then gets http.proxyAuthorization', () => withOwnProxy(async (guarded) => {
		guarded.requireAuthorization = `Basic ${Buffer.from('corp:proxy-secret').toString('base64')}`;
		await http().update('proxy', guarded.url, vscode.ConfigurationTarget.Global);
		assert.equal(await logInAt('https://telematics.test', 'user'), undefined);
		assert.match(lastError(api) ?? '', /asked for authentication.*http\.proxyAuthorization/);
		await http().update('proxyAuthorization', guarded.requireAuthorization, vscode.ConfigurationTarget.Global);
		assert.ok((await logInAt('https://telematics.test', 'user'))?.tokens, lastError(api));
		assert.equal(guarded.authorizations.at(-1), guarded.requireAuthorization);
		assert.ok(!api.logLines().some((l) => l.includes(Buffer.from('corp:proxy-secret').toString('base64'))), 'the credentials are in no log line');
	}));

	it('logs in through a CONNECT proxy named by HTTPS_PROXY, and refreshes through it', () => withOwnProxy(async (envProxy) => {
		process.env.HTTPS_PROXY = envProxy.url;
		const session = await logInAt('https://telematics.test', 'user');
		assert.ok(session?.tokens, lastError(api));
		const refreshed = await vscode.commands.executeCommand<Session | undefined>('telematicsAuth.refresh', { accountId: session.account.id });
		assert.ok(refreshed?.tokens, lastError(api));
		assert.deepEqual(envProxy.targets.slice(0, 1), ['telematics.test:443'], 'the proxy carried the requests');
	}));

	it('http.proxySupport "off" ignores http.proxy and HTTPS_PROXY', () => withOwnProxy(async (unused) => {
		process.env.HTTPS_PROXY = unused.url;
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
});
