// The real client with the real undici transport, against the real emulator over loopback,
// plus tiny node:http servers for answers the emulator does not give.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../../src/core/api/errors';
import type { ApiErrorKind } from '../../src/core/api/types';
import { createServiceClient } from '../../src/core/api/serviceClient';
import type { ApiClient, LoginFieldsFormat, LoginRequest, RequestOptions, TokenResponse } from '../../src/core/api/types';
import { errorCode, networkReason } from '../../src/core/api/networkErrors';
import { DEMO_ADMINS, DEMO_USERS, LIFTED_RATE_LIMIT, type RiggedEmulator, startEmulator } from '../emulator/rig';
import { startConnectProxy, type ConnectProxy } from '../support/connectProxy';
import { RecordingLog } from '../support/doubles/recordingLog';

const USER = DEMO_USERS[0]!;
const ADMIN = DEMO_ADMINS[0]!;
const OPTIONS: RequestOptions = { timeoutMs: 5000 };

/** Every secret the tests send or receive; none may appear in a message or a log line. */
const secrets = new Set<string>([USER.deviceToken, USER.instanceKey, ADMIN.password, 'echoed-secret-pw']);

function remember(tokens: TokenResponse): TokenResponse {
	for (const value of [tokens.accessToken, tokens.refreshToken, tokens.deviceToken]) if (value) secrets.add(value);
	return tokens;
}

function assertNoSecrets(text: string, where: string): void {
	for (const secret of secrets) assert.ok(!text.includes(secret), `${where} contains a secret: ${text}`);
}

async function expectFailure(promise: Promise<unknown>, kind: ApiErrorKind): Promise<ApiError> {
	try {
		await promise;
	} catch (e) {
		assert.ok(e instanceof ApiError, `not an ApiError: ${String(e)}`);
		assert.equal(e.kind, kind, `kind ${e.kind}, message: ${e.message}`);
		assertNoSecrets(e.message, 'error message');
		for (const d of e.details) assertNoSecrets(`${d.key} ${d.message}`, 'error detail');
		return e;
	}
	assert.fail(`expected a ${kind} failure, but the call succeeded`);
}

function userLogin(baseUrl: string, format: LoginFieldsFormat = 'object', overrides: Partial<LoginRequest> = {}): LoginRequest {
	return { kind: 'user', baseUrl, instanceId: USER.instanceId, login: USER.deviceToken, password: USER.instanceKey, loginFieldsFormat: format, ...overrides };
}

function adminLogin(baseUrl: string, format: LoginFieldsFormat = 'object', overrides: Partial<LoginRequest> = {}): LoginRequest {
	return { kind: 'admin', baseUrl, instanceId: ADMIN.instanceId, login: ADMIN.email, password: ADMIN.password, loginFieldsFormat: format, ...overrides };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('API client against the emulator', function () {
	this.timeout(10000);
	let emulator: RiggedEmulator;
	let log: RecordingLog;
	let client: ApiClient;

	before(async () => {
		emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT });
	});
	after(async () => emulator.close());
	beforeEach(() => {
		emulator.setFaults({});
		emulator.resetRateLimit();
		log = new RecordingLog();
		client = createServiceClient(log);
	});
	afterEach(() => {
		for (const line of log.lines) assertNoSecrets(line, 'log line');
	});

	it('logs a user in with LoginFields as an object, sending InstanceId and InstanceKey', async () => {
		const tokens = remember(await client.login(userLogin(emulator.url), OPTIONS));
		assert.deepEqual(emulator.stats.lastLoginBody, { LoginFields: { deviceToken: USER.deviceToken }, Password: USER.instanceKey });
		assert.deepEqual(emulator.stats.lastLoginHeaders, { 'InstanceId': USER.instanceId, 'InstanceKey': USER.instanceKey, 'Content-Type': 'application/json-patch+json' });
		assert.equal(tokens.deviceToken, USER.deviceToken);
		assert.match(tokens.accessToken, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
		assert.equal(tokens.expiresIn, 7200);
		assert.ok(tokens.refreshToken.length > 10);
		assert.ok(log.lines.some((l) => /^info POST http:\/\/127\.0\.0\.1:\d+\/v1\/Auth\/Login → 200 \(\d+ ms\)$/.test(l)), log.lines.join('\n'));
	});

	it('logs a user in with LoginFields as a JSON-encoded string', async () => {
		remember(await client.login(userLogin(emulator.url, 'string'), OPTIONS));
		assert.deepEqual(emulator.stats.lastLoginBody, { LoginFields: JSON.stringify({ Devicetoken: USER.deviceToken }), Password: USER.instanceKey });
	});

	it('logs an admin in with Email as an object, without InstanceKey', async () => {
		const tokens = remember(await client.login(adminLogin(emulator.url), OPTIONS));
		assert.deepEqual(emulator.stats.lastLoginBody, { LoginFields: { Email: ADMIN.email }, Password: ADMIN.password });
		assert.deepEqual(emulator.stats.lastLoginHeaders, { 'InstanceId': ADMIN.instanceId, 'Content-Type': 'application/json-patch+json' });
		assert.equal(tokens.deviceToken, undefined);
	});

	it('logs an admin in without an API InstanceID: no InstanceId header at all, as the vendor\'s current samples', async () => {
		const { instanceId: _none, ...withoutInstance } = adminLogin(emulator.url, 'string');
		const tokens = remember(await client.login(withoutInstance, OPTIONS));
		assert.deepEqual(emulator.stats.lastLoginHeaders, { 'Content-Type': 'application/json-patch+json' });
		assert.match(tokens.accessToken, /^eyJ/);
	});

	it('logs an admin in with LoginFields as a JSON-encoded string', async () => {
		remember(await client.login(adminLogin(emulator.url, 'string'), OPTIONS));
		assert.deepEqual(emulator.stats.lastLoginBody, { LoginFields: JSON.stringify({ email: ADMIN.email }), Password: ADMIN.password });
	});

	it('copes with trailing slashes in the service URL', async () => {
		remember(await client.login(userLogin(`${emulator.url}//`), OPTIONS));
		assert.equal(emulator.stats.requests.at(-1)?.path, '/v1/Auth/Login');
	});

	it('refreshes with rotation, and a spent refresh token is refused', async () => {
		const first = remember(await client.login(userLogin(emulator.url), OPTIONS));
		const request = { baseUrl: emulator.url, instanceId: USER.instanceId, accessToken: first.accessToken, refreshToken: first.refreshToken };
		const second = remember(await client.refresh(request, OPTIONS));
		assert.deepEqual(emulator.stats.lastRefreshBody, { AccessToken: first.accessToken, RefreshToken: first.refreshToken });
		assert.equal(emulator.stats.lastRefreshHeaders?.['InstanceId'], USER.instanceId);
		assert.notEqual(second.refreshToken, first.refreshToken);
		assert.notEqual(second.accessToken, first.accessToken);
		const error = await expectFailure(client.refresh(request, OPTIONS), 'badCredentials');
		assert.equal(error.message, 'The refresh token was refused (it may have expired or been used already). Log in again.');
		assert.ok(log.lines.some((l) => /^warn POST http:\/\/127\.0\.0\.1:\d+\/v1\/Auth\/RefreshToken → 401 badCredentials \(\d+ ms\)$/.test(l)), log.lines.join('\n'));
	});

	it('refresh without an instance id sends no InstanceId header', async () => {
		const first = remember(await client.login(adminLogin(emulator.url), OPTIONS));
		remember(await client.refresh({ baseUrl: emulator.url, accessToken: first.accessToken, refreshToken: first.refreshToken }, OPTIONS));
		assert.equal(emulator.stats.lastRefreshHeaders?.['InstanceId'], undefined);
	});

	it('wrong InstanceKey → badCredentials telling the user what to check', async () => {
		const error = await expectFailure(client.login(userLogin(emulator.url, 'object', { password: 'wrong-instance-key' }), OPTIONS), 'badCredentials');
		assert.equal(error.status, 401);
		assert.match(error.message, /^The service refused these credentials\. Check the User Group InstanceID, the device token and the User Group InstanceKey, then log in again\./);
		assert.ok(!error.message.includes('wrong-instance-key'));
	});

	it('wrong admin password → badCredentials naming the admin fields', async () => {
		const error = await expectFailure(client.login(adminLogin(emulator.url, 'object', { password: 'wrong-password' }), OPTIONS), 'badCredentials');
		assert.match(error.message, /API InstanceID, the API Login and the API Password/);
	});

	it('admin credentials at a user instance → forbidden', async () => {
		const error = await expectFailure(client.login(adminLogin(emulator.url, 'object', { instanceId: USER.instanceId }), OPTIONS), 'forbidden');
		assert.equal(error.status, 403);
		assert.match(error.message, /different kind of account/);
	});

	it('a missing InstanceId → validation listing Key: Message', async () => {
		const error = await expectFailure(client.login(userLogin(emulator.url, 'object', { instanceId: '' }), OPTIONS), 'validation');
		assert.equal(error.status, 422);
		assert.deepEqual(error.details, [{ key: 'InstanceId', message: 'The InstanceId header is required.' }]);
		assert.equal(error.message, 'The service rejected the login request: InstanceId: The InstanceId header is required.');
	});

	it('too many logins → rateLimited with the wait, and no retry', async () => {
		const limit = emulator.config.loginRateLimit;
		emulator.config.loginRateLimit = { max: 1, windowSeconds: 60, blockSeconds: 180 };
		try {
			remember(await client.login(userLogin(emulator.url), OPTIONS));
			const callsBefore = emulator.stats.loginCalls;
			const error = await expectFailure(client.login(userLogin(emulator.url), OPTIONS), 'rateLimited');
			assert.equal(emulator.stats.loginCalls, callsBefore + 1, 'the client must not retry a login by itself');
			assert.equal(error.retryAfterSeconds, 180);
			assert.match(error.message, /Logins are rate-limited by the service/);
			assert.match(error.message, /Wait about 3 minutes/);
			assert.match(error.message, /will not retry the login by itself/);
		} finally {
			emulator.config.loginRateLimit = limit;
		}
	});

	it('HTTP 500 → serverUnavailable with the status and "try again later"', async () => {
		emulator.setFaults({ login: 'error500' });
		const error = await expectFailure(client.login(userLogin(emulator.url), OPTIONS), 'serverUnavailable');
		assert.equal(error.message, 'The service is unavailable (HTTP 500). Try again later.');
		assert.ok(error.isTransient);
	});

	it('an HTML 502 page → serverUnavailable, and no HTML reaches the message or the log', async () => {
		emulator.setFaults({ refresh: 'html502' });
		const error = await expectFailure(client.refresh({ baseUrl: emulator.url, accessToken: 'a.b.c', refreshToken: 'rt-html' }, OPTIONS), 'serverUnavailable');
		assert.equal(error.status, 502);
		assert.match(error.message, /HTTP 502/);
		for (const text of [error.message, ...log.lines]) assert.doesNotMatch(text, /<|nginx|Bad Gateway/);
	});

	it('body Status 401 under HTTP 200 → badCredentials', async () => {
		emulator.setFaults({ refresh: 'bodyStatusMismatch' });
		const error = await expectFailure(client.refresh({ baseUrl: emulator.url, accessToken: 'a.b.c', refreshToken: 'rt-mismatch' }, OPTIONS), 'badCredentials');
		assert.equal(error.status, 401);
	});

	it('no answer within the timeout → timeout naming the setting', async () => {
		emulator.setFaults({ login: 'hang' });
		const error = await expectFailure(client.login(userLogin(emulator.url), { timeoutMs: 300 }), 'timeout');
		assert.match(error.message, /^127\.0\.0\.1:\d+ did not answer within 0\.3 seconds\./);
		assert.match(error.message, /telematicsAuth\.requestTimeoutSeconds/);
		assert.ok(log.lines.some((l) => /^warn POST .*\/v1\/Auth\/Login → timeout/.test(l)), log.lines.join('\n'));
	});

	it('takes its timeout from the settings it was made with, read at each request; a request\'s own timeout wins', async () => {
		emulator.setFaults({ refresh: 'hang' });
		let timeoutMs = 300;
		const read: string[] = [];
		const settings = {
			requestTimeoutMs: () => (read.push('timeout'), timeoutMs),
			proxy: () => (read.push('proxy'), { strictSSL: true, noProxy: [] }),
		};
		const configured = createServiceClient(log, undefined, { settings });
		const refresh = { baseUrl: emulator.url, accessToken: 'a.b.c', refreshToken: 'rt-hang' };
		const first = await expectFailure(configured.refresh(refresh), 'timeout');
		assert.match(first.message, /did not answer within 0\.3 seconds\./);
		assert.deepEqual(read, ['timeout', 'proxy']);
		timeoutMs = 200;
		const second = await expectFailure(configured.refresh(refresh), 'timeout');
		assert.match(second.message, /did not answer within 0\.2 seconds\./);
		const own = await expectFailure(configured.refresh(refresh, { timeoutMs: 100 }), 'timeout');
		assert.match(own.message, /did not answer within 0\.1 seconds\./);
	});

	it('the caller cancelling → cancelled', async () => {
		emulator.setFaults({ login: 'hang' });
		const controller = new AbortController();
		const pending = client.login(userLogin(emulator.url), { timeoutMs: 5000, signal: controller.signal });
		setTimeout(() => controller.abort(), 50);
		await expectFailure(pending, 'cancelled');
	});

	it('a reset connection → network', async () => {
		emulator.setFaults({ login: 'reset' });
		const error = await expectFailure(client.login(userLogin(emulator.url), OPTIONS), 'network');
		assert.match(error.message, /^Could not reach 127\.0\.0\.1:\d+ \(the connection was closed unexpectedly\)\. Check the service URL/);
		assert.match(error.message, /network\/proxy settings/);
	});

	describe('a hostile service: tokens outside the token grammar are refused, nothing is returned', () => {
		for (const fault of ['injectedToken', 'shellToken'] as const) {
			it(`${fault} on login → badResponse that says so`, async () => {
				emulator.setFaults({ login: fault });
				const error = await expectFailure(client.login(userLogin(emulator.url), OPTIONS), 'badResponse');
				assert.match(error.message, /sent a token this extension will not use/);
				assert.match(error.message, /Nothing was stored/);
				assert.doesNotMatch(error.message, /collector|INJECTED|\r|\n/);
				assert.ok(log.lines.some((l) => /refused the answer, its access token does not fit the token grammar/.test(l)), log.lines.join('\n'));
			});
			it(`${fault} on refresh → badResponse`, async () => {
				const tokens = remember(await client.login(userLogin(emulator.url), OPTIONS));
				emulator.setFaults({ refresh: fault });
				await expectFailure(client.refresh({ baseUrl: emulator.url, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }, OPTIONS), 'badResponse');
			});
		}
	});

	it('a closed port → network "connection refused" with the host, not the URL', async () => {
		const server = createServer();
		const url = await listen(server);
		await close(server);
		const error = await expectFailure(client.login(userLogin(`${url}/?q=secret-query`), OPTIONS), 'network');
		assert.equal(error.message, `Could not reach ${new URL(url).host} (connection refused). Check the service URL (telematicsAuth.baseUrl) and your network/proxy settings (http.proxy).`);
		assert.ok(!log.lines.some((l) => l.includes('secret-query')));
	});
});

describe('API client against odd answers', function () {
	this.timeout(10000);
	let server: Server;
	let baseUrl: string;
	let handler: Handler;
	let log: RecordingLog;
	let client: ApiClient;
	const refresh = { baseUrl: '', accessToken: 'old-access-token', refreshToken: 'old-refresh-token' };

	before(async () => {
		server = createServer((req, res) => {
			req.resume();
			req.on('end', () => handler(req, res));
		});
		baseUrl = await listen(server);
		refresh.baseUrl = baseUrl;
		secrets.add(refresh.accessToken).add(refresh.refreshToken);
	});
	after(async () => close(server));
	beforeEach(() => {
		log = new RecordingLog();
		client = createServiceClient(log);
	});
	afterEach(() => {
		for (const line of log.lines) assertNoSecrets(line, 'log line');
	});

	const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Handler => (_req, res) => {
		res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
		res.end(typeof body === 'string' ? body : JSON.stringify(body));
	};

	it('reads camelCase envelopes', async () => {
		handler = answer(200, { result: { accessToken: { token: 'new-at', expiresIn: 60 }, refreshToken: 'new-rt' }, status: 200, errors: [] });
		assert.deepEqual(await client.refresh(refresh, OPTIONS), { accessToken: 'new-at', expiresIn: 60, refreshToken: 'new-rt' });
	});

	it('keeps the current refresh token when a refresh answer has none', async () => {
		handler = answer(200, { Result: { AccessToken: 'new-at' }, Status: 200, Errors: [] });
		assert.deepEqual(await client.refresh(refresh, OPTIONS), { accessToken: 'new-at', refreshToken: refresh.refreshToken });
	});

	it('a login answer without a refresh token → badResponse', async () => {
		handler = answer(200, { Result: { AccessToken: { Token: 'new-at' } }, Status: 200, Errors: [] });
		const error = await expectFailure(client.login(userLogin(baseUrl), OPTIONS), 'badResponse');
		assert.match(error.message, /^The service answered in a form this extension does not understand/);
	});

	it('masks the account\'s device token in a refresh error that quotes it, though the refresh never sends it', async () => {
		const deviceToken = 'device-token-3f9a1c7e';
		secrets.add(deviceToken);
		handler = answer(400, { Status: 400, Errors: [{ Key: 'DeviceToken', Message: `unknown device ${deviceToken}` }], Title: `bad device ${deviceToken}` });
		const error = await expectFailure(client.refresh({ ...refresh, deviceToken }, OPTIONS), 'validation');
		assertNoSecrets(error.message, 'the message');
		for (const d of error.details) assertNoSecrets(`${d.key} ${d.message}`, 'a detail');
		assert.match(error.message, /unknown device/, 'the rest of the service\'s words stay');
	});

	it('redacts an echoed secret before cutting a long error text, so no part of it survives the cut', async () => {
		const secret = 'echoed-secret-pw';
		// The secret straddles the 300-character cut: cutting first would leave `echoed-sec`.
		handler = answer(422, { Status: 422, Errors: [{ Key: 'Password', Message: `${'x'.repeat(290)}${secret} rest` }] });
		const error = await expectFailure(client.login(userLogin(baseUrl, 'object', { password: secret }), OPTIONS), 'validation');
		assert.ok(!error.message.includes('echoed-sec'), error.message);
		assert.ok(error.message.includes('***'), error.message);
	});

	it('masks the URL-encoded and base64 forms of a secret in error texts', async () => {
		const secret = 'p@ss word/+=&secret';
		secrets.add(secret);
		const encoded = encodeURIComponent(secret);
		const base64 = Buffer.from(secret).toString('base64');
		handler = answer(422, { Status: 422, Errors: [{ Key: 'Password', Message: `got ${encoded} and ${base64}` }] });
		const error = await expectFailure(client.login(userLogin(baseUrl, 'object', { password: secret }), OPTIONS), 'validation');
		assert.ok(!error.message.includes(encoded) && !error.message.includes(base64), error.message);
		secrets.delete(secret);
	});

	it('a token of 8 KB + 1 is refused; one of 8 KB is taken', async () => {
		handler = answer(200, { Result: { AccessToken: { Token: 'a'.repeat(8193) }, RefreshToken: 'rt' }, Status: 200, Errors: [] });
		await expectFailure(client.login(userLogin(baseUrl), OPTIONS), 'badResponse');
		handler = answer(200, { Result: { AccessToken: { Token: 'a'.repeat(8192) }, RefreshToken: 'rt' }, Status: 200, Errors: [] });
		assert.equal((await client.login(userLogin(baseUrl), OPTIONS)).accessToken.length, 8192);
	});

	it('a refresh token or device token with a quote, brace or space is refused', async () => {
		for (const result of [
			{ AccessToken: { Token: 'ok' }, RefreshToken: 'r"t' },
			{ AccessToken: { Token: 'ok' }, RefreshToken: 'rt', DeviceToken: '{{x}}' },
			{ AccessToken: { Token: 'o k' }, RefreshToken: 'rt' },
		]) {
			handler = answer(200, { Result: result, Status: 200, Errors: [] });
			await expectFailure(client.login(userLogin(baseUrl), OPTIONS), 'badResponse');
		}
	});

	it('ASP.NET validation errors → validation with each Key: Message', async () => {
		handler = answer(400, { title: 'One or more validation errors occurred.', status: 400, errors: { Password: ['The Password field is required.'], LoginFields: ['Bad.'] } });
		const error = await expectFailure(client.login(userLogin(baseUrl), OPTIONS), 'validation');
		assert.equal(error.message, 'The service rejected the login request: Password: The Password field is required.; LoginFields: Bad.');
	});

	it('Errors under Status 200 → a failure, not tokens', async () => {
		handler = answer(200, { Result: { AccessToken: { Token: 'x-at' }, RefreshToken: 'x-rt' }, Status: 200, Errors: ['Device is blocked.'] });
		const error = await expectFailure(client.login(userLogin(baseUrl), OPTIONS), 'validation');
		assert.match(error.message, /Device is blocked\./);
	});

	it('a server echoing a secret in an error → the secret is masked', async () => {
		handler = answer(422, { Status: 422, Errors: [{ key: 'Password', message: `Password '${USER.instanceKey}' is not valid for device ${USER.deviceToken}.` }] });
		const error = await expectFailure(client.login(userLogin(baseUrl), OPTIONS), 'validation');
		assert.match(error.message, /Password: Password '\*\*\*' is not valid for device \*\*\*\./);
	});

	it('a refresh answered 403 → forbidden about the token kind', async () => {
		handler = answer(403, { Status: 403, Title: 'Forbidden', Errors: [] });
		const error = await expectFailure(client.refresh(refresh, OPTIONS), 'forbidden');
		assert.match(error.message, /user vs admin/);
	});

	it('a 404 → badResponse pointing at the service URL setting', async () => {
		handler = answer(404, '<html>Not here</html>', { 'Content-Type': 'text/html' });
		const error = await expectFailure(client.login(userLogin(baseUrl), OPTIONS), 'badResponse');
		assert.match(error.message, /telematicsAuth\.baseUrl/);
		assert.doesNotMatch(error.message, /Not here|</);
	});

	it('plain text under 200 → badResponse without the body', async () => {
		handler = answer(200, 'Welcome to the wifi portal, token=abc', { 'Content-Type': 'text/plain' });
		const error = await expectFailure(client.login(userLogin(baseUrl), OPTIONS), 'badResponse');
		assert.doesNotMatch(error.message, /wifi|abc/);
	});

	it('an answer over 1 MiB → badResponse', async () => {
		handler = (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(`{"x":"${'a'.repeat(1024 * 1024 + 10)}"}`);
		};
		const error = await expectFailure(client.login(userLogin(baseUrl), OPTIONS), 'badResponse');
		assert.match(error.message, /larger than 1024 KiB/);
	});

	it('429 on refresh carries Retry-After and says to wait', async () => {
		handler = answer(429, { Status: 429 }, { 'Retry-After': '30' });
		const error = await expectFailure(client.refresh(refresh, OPTIONS), 'rateLimited');
		assert.equal(error.retryAfterSeconds, 30);
		assert.match(error.message, /Wait 30 seconds/);
	});
});

describe('API client through a proxy', function () {
	this.timeout(10000);
	let emulator: RiggedEmulator;
	let proxy: ConnectProxy;

	before(async () => {
		emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT, loopbackHostOnly: false });
		proxy = await startConnectProxy(() => emulator.port);
	});
	after(async () => {
		await proxy.close();
		await emulator.close();
	});

	it('goes through http.proxy for a non-loopback host', async () => {
		proxy.answer = 'tunnel';
		const client = createServiceClient(new RecordingLog());
		const url = `http://telematics.test:${emulator.port}`;
		remember(await client.login(userLogin(url), { ...OPTIONS, proxy: { proxyUrl: proxy.url, strictSSL: true, noProxy: [] } }));
		assert.deepEqual(proxy.targets.at(-1), `telematics.test:${emulator.port}`);
	});

	it('a proxy asking for authentication → network naming the proxy', async () => {
		proxy.answer = '407';
		const client = createServiceClient(new RecordingLog());
		const error = await expectFailure(client.login(userLogin('http://telematics.test'), { ...OPTIONS, proxy: { proxyUrl: proxy.url, strictSSL: true, noProxy: [] } }), 'network');
		assert.match(error.message, new RegExp(`the proxy ${new URL(proxy.url).host} asked for authentication`));
		assert.match(error.message, /http\.proxyAuthorization/, 'it says where the credentials go');
	});

	describe('a proxy that wants credentials', () => {
		afterEach(() => (proxy.requireAuthorization = undefined));

		it('gets http.proxyAuthorization as Proxy-Authorization, and the secret is in no log line', async () => {
			proxy.answer = 'tunnel';
			proxy.requireAuthorization = 'Basic Y29ycDpwcm94eS1zZWNyZXQ=';
			const log = new RecordingLog();
			const client = createServiceClient(log);
			const url = `http://telematics.test:${emulator.port}`;
			remember(await client.login(userLogin(url), { ...OPTIONS, proxy: { proxyUrl: proxy.url, strictSSL: true, noProxy: [], proxyAuthorization: 'Basic Y29ycDpwcm94eS1zZWNyZXQ=' } }));
			assert.equal(proxy.authorizations.at(-1), 'Basic Y29ycDpwcm94eS1zZWNyZXQ=');
			assert.ok(!log.lines.join('\n').includes('Y29ycDpwcm94eS1zZWNyZXQ='));
		});

		it('sends any http.proxyAuthorization as one header or refuses it before connecting, never adding a header (generated)', async () => {
			proxy.answer = 'tunnel';
			const client = createServiceClient(new RecordingLog());
			const url = `http://telematics.test:${emulator.port}`;
			const hostile = fc.oneof(
				fc.string(),
				fc.string({ unit: fc.constantFrom('B', 'a', ' ', ':', '\r', '\n', '\t', 'X', '-', '=', '\u0000', 'é') }),
				fc.constantFrom('Basic YTpi\r\nX-Injected: 1', 'Basic YTpi\nX-Injected: 1', 'Negotiate YII=\r\n\r\nGET / HTTP/1.1'),
			);
			await fc.assert(fc.asyncProperty(hostile, async (value) => {
				const connects = proxy.headerNames.length;
				const options = { ...OPTIONS, proxy: { proxyUrl: proxy.url, strictSSL: true, noProxy: [], proxyAuthorization: value } };
				const outcome = await client.login(userLogin(url), options).then(() => undefined, (e: unknown) => e);
				for (const names of proxy.headerNames.slice(connects)) {
					assert.deepEqual(names.filter((n) => !['host', 'connection', 'proxy-connection', 'proxy-authorization', 'user-agent'].includes(n)), [], `headers ${names.join(', ')}`);
				}
				if (/^[\x20-\x7e\t]*$/.test(value)) {
					assert.equal(outcome, undefined, `a printable value is sent: ${JSON.stringify(value)}`);
					if (proxy.headerNames.length > connects) assert.equal(proxy.authorizations.at(-1), value.trim());
				} else {
					assert.ok(outcome instanceof ApiError && outcome.kind === 'network', `refused: ${JSON.stringify(value)}`);
					assert.match(outcome.message, /http\.proxyAuthorization holds a character a header cannot carry/);
					assert.equal(proxy.headerNames.length, connects, 'nothing reached the proxy');
				}
			}), { numRuns: 60 });
		});

		it('gets the credentials of a user:password@ proxy URL, and the message without them names only the host', async () => {
			proxy.answer = 'tunnel';
			proxy.requireAuthorization = `Basic ${Buffer.from('corp:proxy-secret').toString('base64')}`;
			const client = createServiceClient(new RecordingLog());
			const url = `http://telematics.test:${emulator.port}`;
			const withCredentials = proxy.url.replace('http://', 'http://corp:proxy-secret@');
			remember(await client.login(userLogin(url), { ...OPTIONS, proxy: { proxyUrl: withCredentials, strictSSL: true, noProxy: [] } }));
			const error = await expectFailure(client.login(userLogin(url), { ...OPTIONS, proxy: { proxyUrl: proxy.url, strictSSL: true, noProxy: [] } }), 'network');
			assert.match(error.message, new RegExp(`the proxy ${new URL(proxy.url).host} asked for authentication`));
			assert.doesNotMatch(error.message, /proxy-secret|corp:/);
		});
	});

	it('an unreachable proxy → network naming the proxy', async () => {
		const closed = createServer();
		const deadProxy = await listen(closed);
		await close(closed);
		const client = createServiceClient(new RecordingLog());
		const error = await expectFailure(client.login(userLogin('http://telematics.test'), { ...OPTIONS, proxy: { proxyUrl: deadProxy, strictSSL: true, noProxy: [] } }), 'network');
		assert.match(error.message, new RegExp(`connection refused \\(through the proxy ${new URL(deadProxy).host}\\)`));
	});
});

describe('network error phrases', () => {
	const cases: [string | undefined, string | undefined, string][] = [
		['ECONNREFUSED', undefined, 'connection refused'],
		['ENOTFOUND', undefined, 'host name not found'],
		['ECONNRESET', undefined, 'the connection was closed unexpectedly'],
		['UND_ERR_SOCKET', 'p:1', 'the connection was closed unexpectedly (through the proxy p:1)'],
		['EHOSTUNREACH', undefined, 'host unreachable'],
		['CERT_HAS_EXPIRED', undefined, 'TLS/certificate problem: CERT_HAS_EXPIRED'],
		['UND_ERR_PRX_TLS', 'p:1', 'TLS/certificate problem: UND_ERR_PRX_TLS (through the proxy p:1)'],
		[undefined, undefined, 'network error'],
	];
	for (const [code, via, expected] of cases) {
		it(`${code} → ${expected}`, () => assert.equal(networkReason(code, via), expected));
	}
	it('finds the code along the cause chain', () => {
		const inner = Object.assign(new Error('x'), { code: 'ECONNREFUSED' });
		assert.equal(errorCode(Object.assign(new Error('outer', { cause: inner }), { code: 'UND_ERR' })), 'ECONNREFUSED');
	});
});
