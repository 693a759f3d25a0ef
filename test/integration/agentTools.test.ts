// The agent's tools in the real host, called as chat calls them (vscode.lm.invokeTool) against the emulator:
// the accounts listed, each account's own identity, no token in any result; paths that would leave the
// service never reach another server; a POST asks first through VS Code's own confirmation; a due token is
// refreshed once, and a refused refresh asks for a login and makes none.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fc from 'fast-check';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import { MCP_TOOLS } from '../../src/core/terminal/protocol';
import { RequestTool } from '../../src/features/agentTools/agentTools';
import type { TestApi } from './testApi';
import { logIn, ScriptedPrompter, settings, until, useEmulatorSuite } from './loginHelpers';

/** The text of a tool's result. */
function textOf(result: vscode.LanguageModelToolResult): string {
	return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

const invoke = async (name: string, input: object): Promise<string> =>
	textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));

describe('Language-model tools for the agent (real VS Code, vscode.lm.invokeTool)', function () {
	this.timeout(120_000);
	let api: TestApi;
	let emu: RiggedEmulator;
	let other: { server: Server; port: number; hits: number };

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, resetsSettings: ['agentTools.enabled', 'autoRefresh'] }, (started) => ({ api, emu } = started));

	before(async () => {
		// Another host: a second server on loopback that counts what reaches it.
		other = { server: createServer((req, res) => { other.hits++; req.resume(); res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"stolen":true}'); }), port: 0, hits: 0 };
		await new Promise<void>((resolve) => other.server.listen(0, '127.0.0.1', () => resolve()));
		other.port = (other.server.address() as AddressInfo).port;
	});
	after(() => new Promise((resolve) => other.server.close(resolve)));

	/** Every secret the store holds: none may appear in a result. */
	const secrets = (): string[] => api.services.store.list().flatMap((s) => [s.tokens?.accessToken, s.tokens?.refreshToken, s.tokens?.deviceToken]).filter((v): v is string => !!v);
	const assertNoSecret = (text: string): void => {
		for (const secret of secrets()) assert.ok(!text.includes(secret), 'a result holds a token');
		assert.doesNotMatch(text, /eyJ[\w-]+\.[\w-]+/, 'a result holds a JWT');
	};

	it('are contributed with their names, and list no token', () => {
		const names = vscode.lm.tools.map((t) => t.name);
		assert.ok(names.includes('telematics_accounts') && names.includes('telematics_request'), names.join(', '));
	});

	it('telematics_accounts lists the user and the admin; telematics_request GET /v1/Me as each returns that account\'s identity', async () => {
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		const listed = await invoke('telematics_accounts', {});
		assert.equal(user.account.name, 'user');
		assert.equal(admin.account.name, 'admin');
		assert.ok(listed.includes(`- "user" (${user.account.label}): user; service ${emu.url}`), listed);
		assert.ok(listed.includes(`- "admin" (${admin.account.label}): admin, active; service ${emu.url}`), listed);
		assertNoSecret(listed);

		const asUser = await invoke('telematics_request', { method: 'GET', path: '/v1/Me', account: 'user' });
		const asAdmin = await invoke('telematics_request', { method: 'get', path: '/v1/Me' });
		assert.match(asUser, new RegExp(`^GET ${emu.url}/v1/Me as user → HTTP 200 \\(application/json`));
		assert.match(asUser, /"Role": "user"/);
		assert.match(asAdmin, /as admin → HTTP 200/);
		assert.match(asAdmin, /"Role": "admin"/);
		assert.notEqual(/"Subject": "([^"]+)"/.exec(asUser)?.[1], /"Subject": "([^"]+)"/.exec(asAdmin)?.[1], 'two identities');
		assertNoSecret(asUser + asAdmin);
		assert.deepEqual(emu.stats.requests.filter((r) => r.path.toLowerCase() === '/v1/me').map((r) => r.status), [200, 200]);
	});

	it('bad input changes nothing and says what to do: unknown account (lists the names), no account, a body on GET', async () => {
		emu.resetStats();
		assert.match(await invoke('telematics_request', { method: 'GET', path: '/v1/Me' }), /No Telematics account is logged in\. Ask the person to log in/);
		await logIn(api, emu, 'user');
		assert.match(await invoke('telematics_request', { method: 'GET', path: '/v1/Me', account: 'nobody' }), /No logged-in Telematics account is called "nobody"\. The accounts: "user"\./);
		assert.match(await invoke('telematics_request', { method: 'GET', path: '/v1/Me', body: { a: 1 } }), /has no body/);
		assert.match(await invoke('telematics_request', { method: 'TRACE', path: '/v1/Me' }), /"method" must be one of/);
		assert.equal(emu.stats.requests.filter((r) => r.path.toLowerCase() === '/v1/me').length, 0, 'nothing was sent');
	});

	it('a path that would leave the service never reaches another host (generated)', async () => {
		await logIn(api, emu, 'user');
		const host = fc.constantFrom(`127.0.0.1:${other.port}`, `localhost:${other.port}`);
		const encode = (text: string, times: number): string => {
			let out = text;
			for (let i = 0; i < times; i++) out = [...out].map((c) => (/[/\\.:@]/.test(c) ? `%${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('');
			return out;
		};
		const path = fc.tuple(host, fc.constantFrom(0, 1, 2), fc.constantFrom(
			(h: string) => `http://${h}/v1/Me`,
			(h: string) => `//${h}/v1/Me`,
			(h: string) => `/\\${h}/v1/Me`,
			(h: string) => `\\\\${h}/v1/Me`,
			(h: string) => `/../..//${h}/v1/Me`,
			(h: string) => `/v1/../../${h}`,
			(h: string) => `@${h}/v1/Me`,
			(h: string) => `:@${h}/v1/Me`,
			(h: string) => `/%2F${h}/v1/Me`,
			(h: string) => `HTTP:${h}/v1/Me`,
			(h: string) => ` //${h}/v1/Me`,
			(h: string) => `/\t/${h}/v1/Me`,
			(h: string) => `/#@${h}`,
		)).map(([h, times, shape]) => {
			const raw = shape(h);
			// Encoded: the separators only, after the first character, so a leading "/" may stay.
			return times === 0 ? raw : raw[0] + encode(raw.slice(1), times);
		});
		const before = other.hits;
		let refused = 0;
		await fc.assert(fc.asyncProperty(path, async (p) => {
			const result = await invoke('telematics_request', { method: 'GET', path: p });
			if (/The path must be a path on the account's service/.test(result)) refused++;
			else assert.match(result, new RegExp(`^GET ${emu.url}/`), `went to the service or was refused: ${result.slice(0, 200)}`);
		}), { numRuns: 150 });
		assert.equal(other.hits - before, 0, 'the other host got no call');
		assert.ok(refused > 100, `${refused} refused`);
	});

	it('a POST asks first, naming the account, the method, the URL and the body (masked), all as text; a GET asks nothing', async () => {
		const user = await logIn(api, emu, 'user');
		const tool = new RequestTool(api.services);
		const post = await tool.prepareInvocation({ input: { method: 'POST', path: '/v1/Trips', body: { name: 'x' } } });
		assert.equal(post.confirmationMessages?.title, 'Send POST to the Telematics service as user?');
		const message = post.confirmationMessages?.message;
		const text = typeof message === 'string' ? message : message?.value ?? '';
		assert.equal(text, `The agent asks to send **POST**, authenticated as **user**, to this URL. It may change data on the service.\n\n\`\`\`\n${emu.url}/v1/Trips\n\`\`\`\n\nThe body, 17 characters, tokens masked:\n\n\`\`\`\n│ {\n│   "name": "x"\n│ }\n\`\`\``);
		assert.equal(typeof message === 'string' ? undefined : message?.isTrusted, undefined, 'no command link runs from it');
		// A query that closed an inline code span and rewrote the rest: shown as written, in a block no line closes.
		const hostile = await tool.prepareInvocation({ input: { method: 'DELETE', path: '/v1/Users?name=`&nbsp;[ok](command:x)```', body: `{"t":"${user.tokens!.accessToken}"}` } });
		const hostileText = (hostile.confirmationMessages?.message as vscode.MarkdownString).value;
		assert.ok(hostileText.includes(`\n\`\`\`\`\n${emu.url}/v1/Users?name=\`&nbsp;[ok](command:x)\`\`\`\n\`\`\`\`\n`), hostileText);
		assert.ok(!hostileText.includes(user.tokens!.accessToken), 'the body\'s token is masked');
		assert.match(hostileText, /The body, \d+ characters, tokens masked:/);
		for (const method of ['PUT', 'PATCH', 'DELETE']) {
			assert.ok((await tool.prepareInvocation({ input: { method, path: '/v1/Trips/1' } })).confirmationMessages, `${method} asks`);
		}
		for (const method of ['GET', 'HEAD']) {
			const prepared = await tool.prepareInvocation({ input: { method, path: '/v1/Me' } });
			assert.equal(prepared.confirmationMessages, undefined, `${method} asks nothing`);
			assert.equal(prepared.invocationMessage, `${method} ${emu.url}/v1/Me as ${user.account.name}`);
		}
		assertNoSecret(JSON.stringify(post));
	});

	it('VS Code holds a POST back until it is confirmed: cancelled before, nothing is sent; confirmed, it is', async () => {
		// The extension test host answers VS Code's own confirmations itself (its dialogs are skipped in
		// tests), so the refusal is shown here as a cancelled invocation: the tool never runs.
		const user = await logIn(api, emu, 'user');
		emu.resetStats();
		const cancelled = new vscode.CancellationTokenSource();
		cancelled.cancel();
		await assert.rejects(Promise.resolve(vscode.lm.invokeTool('telematics_request', { input: { method: 'POST', path: '/v1/Trips', body: { name: 'x' } }, toolInvocationToken: undefined }, cancelled.token)));
		assert.equal(emu.stats.requests.length, 0, 'nothing was sent');
		const sent = await invoke('telematics_request', { method: 'POST', path: '/v1/Trips', body: { name: 'x' } });
		assert.match(sent, new RegExp(`^POST ${emu.url}/v1/Trips as ${user.account.name} → HTTP 404`));
		assert.deepEqual(emu.stats.requests.map((r) => [r.method, r.path]), [['POST', '/v1/Trips']]);
	});

	/** Until the account's access token has expired by its own expiry (what the tool decides by). */
	const expired = (accountId: string) => {
		const expiresAt = api.services.store.get(accountId)!.tokens!.expiresAt;
		return until('the access token expired', () => Date.now() >= expiresAt, { timeoutMs: 60_000 });
	};

	it('a token that expired between two calls is refreshed once; a refused refresh asks for a login and makes none', async () => {
		await settings().update('autoRefresh', false, vscode.ConfigurationTarget.Global);
		emu.setAccessTokenLifetime(3);
		try {
			const user = await logIn(api, emu, 'user');
			assert.match(await invoke('telematics_request', { method: 'GET', path: '/v1/Me' }), /HTTP 200/);
			await expired(user.account.id);
			const refreshes = emu.stats.refreshCalls;
			const logins = emu.stats.loginCalls;
			const after = await invoke('telematics_request', { method: 'GET', path: '/v1/Me' });
			assert.match(after, /HTTP 200/, after);
			assert.equal(emu.stats.refreshCalls - refreshes, 1, 'refreshed once');

			// A fresh account whose refresh the service refuses: tried once, then the person is asked to log in.
			const admin = await logIn(api, emu, 'admin');
			await expired(admin.account.id);
			emu.setFaults({ refresh: 'error500' });
			const tried = emu.stats.refreshCalls;
			const refused = await invoke('telematics_request', { method: 'GET', path: '/v1/Me', account: admin.account.label });
			assert.match(refused, /has expired and could not be refreshed\. Ask the person to log in in VS Code/);
			assert.equal(emu.stats.refreshCalls - tried, 1, 'the refresh was tried once');
			assert.equal(emu.stats.loginCalls, logins + 1, 'no login but the person\'s own');
			assertNoSecret(refused);
		} finally {
			emu.setFaults({});
			emu.setAccessTokenLifetime(7200);
		}
	});

	it('turned off by its setting, says so and sends nothing', async () => {
		await logIn(api, emu, 'user');
		emu.resetStats();
		await settings().update('agentTools.enabled', false, vscode.ConfigurationTarget.Global);
		try {
			const off = 'The Telematics tools are turned off (setting telematicsAuth.agentTools.enabled).';
			assert.equal(await invoke('telematics_accounts', {}), off);
			assert.equal(await invoke('telematics_request', { method: 'GET', path: '/v1/Me' }), off);
			assert.equal(emu.stats.requests.filter((r) => r.path.toLowerCase() === '/v1/me').length, 0);
		} finally {
			await settings().update('agentTools.enabled', undefined, vscode.ConfigurationTarget.Global);
		}
		// Turned on again, the chat offers the tools again: the window applies the tools' `when` clause after
		// the setting changed, so this waits for it rather than reading the list at once.
		await until('the tools offered again', () => MCP_TOOLS.every((name) => vscode.lm.tools.some((t) => t.name === name)), 30_000);
	});
	describe('the platform (issue 43)', () => {
		const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
		const month = { StartDate: `${day(-30)}T00:00:00Z`, EndDate: `${day(0)}T23:59:59Z`, IncludeDetails: true };
		/** Every instance's key the emulator holds: none may appear in a result. */
		const assertNoInstanceKey = (text: string): void => {
			for (const user of emu.config.users) assert.ok(!text.includes(user.instanceKey), 'a result holds an InstanceKey');
		};

		it('telematics_operations lists the operations with the account kind each needs', async () => {
			assert.ok(vscode.lm.tools.some((t) => t.name === 'telematics_operations'));
			const listed = await invoke('telematics_operations', { query: 'trips' , kind: 'user' });
			assert.match(listed, /- trips\.user\.list: POST api \/trips\/get\/v1\/ — The signed-in user's trips; needs a user account; reads only\./);
			assert.doesNotMatch(listed, /trips\.admin\.list/);
			assert.match(await invoke('telematics_operations', { operation: 'users.delete' }), /cannot be undone/);
		});

		it('the user\'s trips from the api host, by operation and by host and path, with the user\'s account though the admin is active', async () => {
			await logIn(api, emu, 'user');
			const admin = await logIn(api, emu, 'admin');
			assert.equal(api.services.store.active()?.account.id, admin.account.id, 'the admin is active');
			emu.resetStats();
			const byOperation = await invoke('telematics_request', { operation: 'trips.user.list', body: month });
			assert.match(byOperation, new RegExp(`^POST ${emu.url}/trips/get/v1/ as user → HTTP 200`), byOperation);
			assert.match(byOperation, /"Trips": \[\n\s+\{\n\s+"Id": /);
			const byPath = await invoke('telematics_request', { method: 'POST', host: 'api', path: '/trips/get/v1/', body: month });
			assert.match(byPath, /as user → HTTP 200/);
			assert.deepEqual(emu.stats.requests.map((r) => [r.method, r.path, r.status]), [['POST', '/trips/get/v1/', 200], ['POST', '/trips/get/v1/', 200]]);
			assertNoSecret(byOperation + byPath);
		});

		it('the admin\'s statistics for a user; with no admin logged in, it says which kind is needed and sends nothing', async () => {
			await logIn(api, emu, 'user');
			emu.resetStats();
			const query = { UserId: emu.config.users[0]!.deviceToken, StartDate: day(-30), EndDate: day(0), TransportType: 'Driver' };
			const none = await invoke('telematics_request', { operation: 'indicators.admin.statistics', query });
			assert.match(none, /This operation needs an admin account, and none is logged in\. The accounts: "user"\./);
			assert.equal(emu.stats.requests.length, 0);
			await logIn(api, emu, 'admin');
			const stats = await invoke('telematics_request', { operation: 'indicators.admin.statistics', query, account: 'admin' });
			assert.match(stats, new RegExp(`^GET ${emu.url}/indicators/admin/v3/Statistics\\?UserId=[^ ]+&StartDate=${day(-30)}&EndDate=${day(0)}&TransportType=Driver as admin → HTTP 200`), stats);
			assert.match(stats, /"TripsCount": [1-9]/);
			const wrongKind = await invoke('telematics_request', { operation: 'indicators.admin.statistics', query, account: 'user' });
			assert.match(wrongKind, /This operation needs an admin account; "user" is not one\./);
			assertNoSecret(stats);
		});

		it('a DELETE of a user asks with a modal, naming it; refused, nothing is sent and the user stays', async () => {
			await logIn(api, emu, 'admin');
			const second = emu.config.users[1]!.deviceToken;
			const refusing = new ScriptedPrompter([], 'admin', false);
			api.setPrompter(refusing);
			emu.resetStats();
			const byOperation = await invoke('telematics_request', { operation: 'users.delete', pathParameters: { DeviceToken: second } });
			const byPath = await invoke('telematics_request', { method: 'DELETE', path: `/v1/Management/users/${second}` });
			// On the demo every host key is the same origin: through another key, or percent-encoded, it is asked about too.
			const byOtherHost = await invoke('telematics_request', { method: 'DELETE', host: 'api', path: `/v1/%4Danagement/users/${second}` });
			for (const result of [byOperation, byPath, byOtherHost]) assert.match(result, /^The person refused this request \(Delete the user and all their data \(DeviceToken "[^"]+"\): DELETE .*Nothing was sent\./);
			assert.equal(refusing.sendAsked.length, 3, 'asked each time');
			assert.deepEqual(refusing.sendAsked.map((q) => [q.question.kind, q.method, q.url, q.account, q.offerSnooze]), [
				['irreversible', 'DELETE', `${emu.url}/v1/Management/users/${second}`, 'admin', false],
				['irreversible', 'DELETE', `${emu.url}/v1/Management/users/${second}`, 'admin', false],
				['irreversible', 'DELETE', `${emu.url}/v1/%4Danagement/users/${second}`, 'admin', false],
			]);
			assert.deepEqual(emu.stats.requests, [], 'nothing was sent');
			assert.ok(emu.config.users.some((u) => u.deviceToken === second), 'the emulator still has the user');

			const sending = new ScriptedPrompter([], 'admin', true);
			sending.sendAnswers.push('send');
			api.setPrompter(sending);
			const deleted = await invoke('telematics_request', { operation: 'users.delete', pathParameters: { DeviceToken: second } });
			assert.match(deleted, /as admin → HTTP 200/);
			assert.equal(emu.config.users.some((u) => u.deviceToken === second), false, 'confirmed, it is deleted');
		});

		it('a host key outside the platform and an origin in "host" are refused, and reach nothing', async () => {
			await logIn(api, emu, 'user');
			emu.resetStats();
			const before = other.hits;
			const outside = await invoke('telematics_request', { method: 'GET', host: 'leaderboard', path: '/v1/Me' });
			assert.match(outside, /"leaderboard" is not a host of the account's platform\. Its hosts are "user", "api", "accounts", "portal"\./);
			for (const host of [`http://127.0.0.1:${other.port}`, `127.0.0.1:${other.port}`, 'api.telematicssdk.com']) {
				assert.match(await invoke('telematics_request', { method: 'GET', host, path: '/v1/Me' }), /"host" must be a host key of the account's platform .*never a URL, an origin or a host name/);
			}
			assert.equal(emu.stats.requests.length, 0);
			assert.equal(other.hits, before, 'the other host got no call');
		});

		it('a host set in telematicsAuth.platformHosts is where that key goes; no result holds a token or an InstanceKey', async () => {
			const admin = await logIn(api, emu, 'admin');
			const app = await invoke('telematics_request', { operation: 'applications.get', pathParameters: { AppId: 'demo-app' }, query: { includeInstances: true } });
			assert.match(app, /"Key": "\*\*\*"/, app);
			assertNoInstanceKey(app);
			const instances = await invoke('telematics_request', { method: 'GET', host: 'accounts', path: '/v1/applications/demo-app/instances' });
			assertNoInstanceKey(instances);
			assertNoSecret(app + instances);
			// The api host moved to the other server (a loopback origin is allowed): the request follows the setting.
			await settings().update('platformHosts', { api: `http://127.0.0.1:${other.port}` }, vscode.ConfigurationTarget.Global);
			try {
				const before = other.hits;
				const moved = await invoke('telematics_request', { operation: 'indicators.admin.streaks', query: { UserId: 'x' }, account: admin.account.name });
				assert.match(moved, new RegExp(`^GET http://127\\.0\\.0\\.1:${other.port}/indicators/admin/v3/Streaks\\?UserId=x as admin → HTTP 200`), moved);
				assert.equal(other.hits - before, 1);
			} finally {
				await settings().update('platformHosts', undefined, vscode.ConfigurationTarget.Global);
			}
		});
	});
});
