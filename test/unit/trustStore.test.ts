// What HTTPS trusts: the OS store loader on each platform's code path (Linux for real, macOS and Windows on
// their programs' output), and the real client to a server signed by a CA only a test bundle holds.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import * as fc from 'fast-check';
import { ApiError } from '../../src/core/api/errors';
import type { LoginRequest, ProxySettings } from '../../src/core/api/types';
import { derBase64ToPem, windowsPowerShell, loadSystemCertificates, loadTrustedRoots, nodeTrustStoreDeps, pemBlocks, type TrustStoreDeps } from '../../src/core/api/trustStore';
import { createServiceClient } from '../../src/core/api/serviceClient';
import { DEMO_USERS, LIFTED_RATE_LIMIT, type RiggedEmulator, startEmulator } from '../emulator/rig';
import { startConnectProxy, type ConnectProxy } from '../support/connectProxy';
import { startCompanyNetwork, type CompanyNetwork } from '../support/companyNetwork';
import { makeTestCa, type HttpsFront, type TestCa } from '../support/testCa';
import { RecordingLog } from '../support/doubles/recordingLog';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'trust-'));
const CA = makeTestCa(path.join(TMP, 'company'));
/** The root in no store, where the company network (support/companyNetwork.ts) makes it beside CA. */
const OTHER = makeTestCa(path.join(TMP, 'company-untrusted'), 'Unknown Interceptor CA');
const PEM_A = fs.readFileSync(CA.caFile, 'utf8').trim();

/** Deps for a Linux machine with nothing in its store but what `env` names. */
function linux(env: NodeJS.ProcessEnv, extra: Partial<TrustStoreDeps> = {}): TrustStoreDeps {
	return { ...nodeTrustStoreDeps, platform: 'linux', env, systemCertificates: undefined, ...extra };
}

describe('the OS certificate store loader', () => {
	it('Linux: reads the bundle SSL_CERT_FILE names', async () => {
		const result = await loadSystemCertificates(linux({ SSL_CERT_FILE: CA.bundleFile }));
		assert.ok(result.certificates.includes(PEM_A), 'the test root is read');
		assert.equal(result.source, CA.bundleFile);
	});

	it('Linux: without SSL_CERT_FILE, the first distribution bundle that exists, plus SSL_CERT_DIR', async () => {
		const read: string[] = [];
		const deps = linux({ SSL_CERT_DIR: CA.dir }, {
			readFile: async (file) => {
				read.push(file);
				if (file === '/etc/pki/tls/certs/ca-bundle.crt') return `junk\n${PEM_A}\n`;
				if (file.startsWith(CA.dir)) return fs.readFileSync(file, 'utf8');
				throw Object.assign(new Error('missing'), { code: 'ENOENT' });
			},
		});
		const result = await loadSystemCertificates(deps);
		assert.deepEqual(read.slice(0, 2), ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt']);
		assert.ok(result.certificates.filter((c) => c === PEM_A).length >= 2, 'from the bundle and from the directory');
		assert.match(result.source, /ca-bundle\.crt and /);
	});

	it('macOS: asks `security` for each keychain and keeps what the others give when one fails', async () => {
		const asked: string[][] = [];
		const result = await loadSystemCertificates({
			...linux({}), platform: 'darwin',
			run: async (file, args) => {
				asked.push([file, ...args]);
				if (args.at(-1)!.startsWith('/Library')) throw new Error('locked');
				return `${PEM_A}\n${PEM_A}\n`;
			},
		});
		assert.equal(asked.length, 2);
		assert.deepEqual(asked[0]!.slice(0, 4), ['/usr/bin/security', 'find-certificate', '-a', '-p']);
		assert.equal(result.certificates.length, 2);
	});

	it('Windows: turns PowerShell\'s base64 DER lines into PEM blocks that Node reads', async () => {
		const der = PEM_A.replace(/-----[A-Z ]+-----|\s/g, '');
		const result = await loadSystemCertificates({ ...linux({}), platform: 'win32', run: async () => `${der}\r\nWARNING: noise\r\n${der}\r\n` });
		assert.equal(result.certificates.length, 2);
		assert.equal(result.certificates[0], derBase64ToPem(der));
		assert.doesNotThrow(() => tls.createSecureContext({ ca: result.certificates }));
	});

	it('Windows: runs PowerShell by its full path under SystemRoot, never a bare name a cloned folder could answer', async () => {
		const asked: string[] = [];
		await loadSystemCertificates({ ...linux({ SystemRoot: 'D:\\WINNT' }), platform: 'win32', run: async (file) => { asked.push(file); return ''; } });
		assert.deepEqual(asked, ['D:\\WINNT\\System32\\WindowsPowerShell\\v1.0\\powershell.exe']);
		const fallback = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
		for (const root of [undefined, '', '.', 'Windows', '.\\evil', '\\\\server\\share', 'C:relative', 'C:\\Win;dows', '%WINDIR%']) {
			assert.equal(windowsPowerShell(root === undefined ? {} : { SYSTEMROOT: root }), fallback, `SystemRoot ${JSON.stringify(root)}`);
		}
	});

	it('Windows: whatever SystemRoot holds, the program is an absolute drive path to powershell.exe (generated)', () => {
		fc.assert(fc.property(fc.oneof(fc.string(), fc.string().map((s) => `C:\\${s}`), fc.constantFrom('\\\\?\\UNC\\x', '..\\..', 'C:\\a"b')), (root) => {
			const program = windowsPowerShell({ SystemRoot: root });
			assert.match(program, /^[A-Za-z]:\\(?:[^"*?<>|;%]*\\)?System32\\WindowsPowerShell\\v1\.0\\powershell\.exe$/);
			assert.ok(path.win32.isAbsolute(program));
		}), { numRuns: 500 });
	});

	it('runs a store program in that program\'s own folder, not the host\'s working folder', async () => {
		const out = await nodeTrustStoreDeps.run(process.execPath, ['-e', 'process.stdout.write(process.cwd())']);
		assert.equal(fs.realpathSync(out), fs.realpathSync(path.dirname(process.execPath)));
	});

	it('Node 22.15+: uses tls.getCACertificates(\'system\') on every platform', async () => {
		const result = await loadSystemCertificates({ ...linux({}), platform: 'win32', systemCertificates: () => [PEM_A] });
		assert.deepEqual(result.certificates, [PEM_A]);
	});

	it('a store that cannot be read gives nothing and says why, never an exception', async () => {
		const result = await loadSystemCertificates({ ...linux({}), platform: 'win32', run: async () => { throw new Error('powershell not found'); } });
		assert.deepEqual(result.certificates, []);
		assert.match(result.problem ?? '', /powershell not found/);
	});

	it('trusted roots are Node\'s roots plus the store, NODE_EXTRA_CA_CERTS and the extra files; bad files are named', async () => {
		const roots = await loadTrustedRoots([OTHER.caFile, path.join(TMP, 'missing.pem')], linux({ SSL_CERT_FILE: path.join(TMP, 'none.pem'), NODE_EXTRA_CA_CERTS: CA.caFile }));
		for (const root of tls.rootCertificates) assert.ok(roots.certificates.includes(root.replace(/\r\n?/g, '\n')), 'never less than Node trusts');
		assert.ok(roots.certificates.includes(PEM_A));
		assert.ok(roots.certificates.includes(fs.readFileSync(OTHER.caFile, 'utf8').trim()));
		assert.deepEqual(roots.problems, [`${path.join(TMP, 'missing.pem')} could not be read (ENOENT)`]);
		assert.match(roots.summary, /^Trusted roots: \d+ from Node, 0 from .*, 2 from extra files; \d+ in all, loaded in \d+ ms\.$/);
	});

	it('pemBlocks finds every certificate and ignores the rest', () => {
		assert.equal(pemBlocks(`x\r\n${PEM_A.replace(/\n/g, '\r\n')}\r\ny\n${PEM_A}`).length, 2);
		assert.deepEqual(pemBlocks('no certificates here'), []);
	});
});

describe('the client over HTTPS, with certificate checks on', function () {
	this.timeout(20_000);
	let emulator: RiggedEmulator;
	let network: CompanyNetwork;
	let front: HttpsFront;
	let untrusted: HttpsFront;
	let proxy: ConnectProxy;

	before(async () => {
		emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT, loopbackHostOnly: false });
		network = await startCompanyNetwork(emulator.port, path.join(TMP, 'company'));
		({ front, untrusted, proxy } = network);
	});
	after(async () => {
		await network.close();
		await emulator.close();
	});

	const user = DEMO_USERS[0]!;
	const login = (baseUrl: string): LoginRequest => ({ kind: 'user', baseUrl, instanceId: user.instanceId, login: user.deviceToken, password: user.instanceKey, loginFieldsFormat: 'object' });
	/** A client whose OS store is `bundle` (as SSL_CERT_FILE), with no NODE_EXTRA_CA_CERTS. */
	function client(bundle: TestCa['bundleFile'], env: NodeJS.ProcessEnv = {}, log = new RecordingLog()) {
		return { log, client: createServiceClient(log, undefined, { env: { SSL_CERT_FILE: bundle, ...env }, trustStore: linux({}) }) };
	}
	const settings = (extra: Partial<ProxySettings> = {}): ProxySettings => ({ strictSSL: true, noProxy: [], ...extra });

	it('logs in directly when the CA is in the OS store (and only there), and logs how long the store took', async () => {
		const { client: c, log } = client(CA.bundleFile);
		const tokens = await c.login(login(`https://localhost:${front.port}`), { timeoutMs: 5000, proxy: settings() });
		assert.ok(tokens.accessToken);
		assert.ok(log.lines.some((l) => /^info Trusted roots: .* loaded in \d+ ms\. Ready for TLS in \d+ ms\.$/.test(l)), log.lines.join('\n'));
		const refreshed = await c.refresh({ baseUrl: `https://localhost:${front.port}`, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }, { timeoutMs: 5000, proxy: settings() });
		assert.notEqual(refreshed.refreshToken, tokens.refreshToken);
	});

	it('logs in through a CONNECT proxy from http.proxy, and from HTTPS_PROXY', async () => {
		const { client: c } = client(CA.bundleFile, { HTTPS_PROXY: proxy.url });
		const before = proxy.targets.length;
		await c.login(login('https://telematics.test'), { timeoutMs: 5000, proxy: settings({ proxyUrl: proxy.url }) });
		await c.login(login('https://telematics.test'), { timeoutMs: 5000, proxy: settings() });
		assert.deepEqual(proxy.targets.slice(before), ['telematics.test:443', 'telematics.test:443']);
	});

	it('http.proxySupport off ignores http.proxy and HTTPS_PROXY', async () => {
		const { client: c } = client(CA.bundleFile, { HTTPS_PROXY: proxy.url });
		const before = proxy.targets.length;
		await c.login(login(`https://localhost:${front.port}`), { timeoutMs: 5000, proxy: settings({ proxyUrl: proxy.url, proxySupport: 'off' }) });
		assert.equal(proxy.targets.length, before);
	});

	it('a CA in no store: refused, with a message that names the issuer and the fix, never "turn checks off"', async () => {
		const { client: c } = client(CA.bundleFile);
		const error = await c.login(login(`https://localhost:${untrusted.port}`), { timeoutMs: 5000, proxy: settings() }).then(() => undefined, (e: unknown) => e);
		assert.ok(error instanceof ApiError, String(error));
		assert.equal(error.kind, 'network');
		assert.match(error.message, /issued by "Unknown Interceptor CA, Fleet Corp", which this computer does not trust/);
		assert.match(error.message, /telematicsAuth\.extraCertificates/);
		assert.doesNotMatch(error.message, /strictSSL|rejectUnauthorized|turn/i);
	});

	it('the same CA listed in telematicsAuth.extraCertificates is trusted', async () => {
		const { client: c } = client(CA.bundleFile);
		const tokens = await c.login(login(`https://localhost:${untrusted.port}`), { timeoutMs: 5000, proxy: settings({ extraCertificates: [OTHER.caFile] }) });
		assert.ok(tokens.accessToken);
	});

	it('through a proxy whose tunnel ends at an untrusted certificate: names the proxy', async () => {
		const other = await startConnectProxy(() => untrusted.port);
		try {
			const { client: c } = client(CA.bundleFile);
			const error = await c.login(login('https://telematics.test'), { timeoutMs: 5000, proxy: settings({ proxyUrl: other.url }) }).then(() => undefined, (e: unknown) => e);
			assert.ok(error instanceof ApiError);
			assert.match(error.message, new RegExp(`through the proxy ${new URL(other.url).host}`));
		} finally {
			await other.close();
		}
	});
});
