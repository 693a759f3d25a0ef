// Logging in, again and out through the real commands in the real extension host, against the
// in-process emulator; the prompts are answered by a scripted Prompter (TestApi.setPrompter).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import { commandSession, adminCredentials, lastError, logIn, ScriptedPrompter, storedSecret, until, useEmulatorSuite, userCredentials } from './loginHelpers';

describe('Login (real VS Code)', () => {
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true }, (started) => ({ api, emu } = started));

	beforeEach(() => emu.resetStats());

	it('logs a user in: tokens in SecretStorage, the account active, labelled by the name claim', async () => {
		const credentials = userCredentials(emu);
		const session = await logIn(api, emu, 'user');
		assert.equal(emu.stats.loginCalls, 1);
		assert.equal(api.services.store.active()?.account.id, session.account.id);
		assert.equal(session.account.kind, 'user');
		assert.equal(session.account.label, 'Demo Driver');
		assert.equal(session.account.serviceUrl, emu.url);
		assert.equal(session.state, 'valid');
		const secret = await storedSecret(api, session.account.id);
		assert.ok(secret, 'a secret is stored for the account');
		assert.ok(session.tokens, 'the session has tokens');
		assert.ok(secret.includes(session.tokens.accessToken) && secret.includes(session.tokens.refreshToken));
		assert.equal(session.tokens.deviceToken, credentials.login);
		const info = api.messages().at(-1);
		assert.equal(info?.severity, 'info');
		assert.match(info?.text ?? '', /^Logged in as Demo Driver \(token valid for (2h 0m|1h 59m)\)\.$/);
	});

	it('logs an admin in through "Log In…" after choosing Admin, labelled by the API login', async () => {
		const credentials = adminCredentials(emu);
		const prompter = ScriptedPrompter.answering(credentials, 'admin');
		api.setPrompter(prompter);
		const session = await commandSession(api, 'telematicsAuth.login');
		assert.ok(session);
		assert.equal(session.account.kind, 'admin');
		assert.equal(session.account.label, credentials.login);
		assert.equal(api.services.store.active()?.account.id, session.account.id);
		assert.deepEqual(prompter.asked.map((s) => `${s.step}/${s.totalSteps} ${s.prompt}`), ['1/4 Service URL', '2/4 API InstanceID (leave empty if your credentials have none)', '3/4 API login (email)', '4/4 API password']);
		assert.deepEqual(prompter.asked.map((s) => s.password), [false, false, false, true]);
	});

	it('offers the configured service URL first', async () => {
		const prompter = new ScriptedPrompter([]);
		api.setPrompter(prompter);
		await vscode.commands.executeCommand('telematicsAuth.loginUser');
		assert.equal(prompter.asked[0]?.value, emu.url);
		assert.equal(prompter.asked[0]?.suggestions?.[0], emu.url);
	});

	it('a wrong InstanceKey shows the error with Try Again and leaves the earlier session as it was', async () => {
		const credentials = userCredentials(emu);
		const earlier = await logIn(api, emu, 'user');
		const secretBefore = await storedSecret(api, earlier.account.id);
		api.setPrompter(ScriptedPrompter.answering({ ...credentials, password: 'wrong-instance-key' }, 'user'));
		const result = await commandSession(api, 'telematicsAuth.loginUser');
		assert.equal(result, undefined);
		assert.equal(emu.stats.loginCalls, 2);
		const error = api.messages().at(-1);
		assert.equal(error?.severity, 'error');
		assert.match(error?.text ?? '', /refused these credentials/);
		assert.deepEqual(error?.actions, ['Try Again', 'Show Log']);
		assert.ok(!error?.text.includes('wrong-instance-key'));
		assert.equal(await storedSecret(api, earlier.account.id), secretBefore, 'the stored tokens are untouched');
		const now = api.services.store.get(earlier.account.id);
		assert.equal(now?.state, 'valid');
		assert.equal(now?.tokens?.accessToken, earlier.tokens?.accessToken);
		assert.equal(api.services.store.active()?.account.id, earlier.account.id);
	});

	it('cancelling with Escape, after going Back, stores nothing and calls nothing', async () => {
		const credentials = userCredentials(emu);
		const prompter = new ScriptedPrompter([{ value: credentials.serviceUrl }, { value: credentials.instanceId }, 'back', 'back', undefined]);
		api.setPrompter(prompter);
		const result = await vscode.commands.executeCommand('telematicsAuth.loginUser');
		assert.equal(result, undefined);
		assert.deepEqual(prompter.asked.map((s) => s.step), [1, 2, 3, 2, 1]);
		assert.equal(prompter.asked[3]?.value, credentials.instanceId, 'Back shows what was typed');
		assert.equal(emu.stats.loginCalls, 0);
		assert.deepEqual(api.services.store.list(), []);
	});

	it('Back then forward again logs in with the corrected value', async () => {
		const credentials = userCredentials(emu);
		const prompter = new ScriptedPrompter([
			{ value: credentials.serviceUrl }, { value: 'typo-instance' }, 'back',
			{ value: credentials.instanceId }, { value: credentials.login }, { value: credentials.password },
		]);
		api.setPrompter(prompter);
		const session = await commandSession(api, 'telematicsAuth.loginUser');
		assert.equal(session?.account.instanceId, credentials.instanceId);
		assert.equal(emu.stats.loginCalls, 1);
	});

	it('rejects http://example.com with a message and sends nothing', async () => {
		const prompter = new ScriptedPrompter([{ value: 'http://example.com' }, undefined]);
		api.setPrompter(prompter);
		await vscode.commands.executeCommand('telematicsAuth.loginUser');
		assert.equal(prompter.asked.length, 2, 'the URL step is asked again');
		assert.equal(prompter.asked[1]?.field, 'serviceUrl');
		assert.match(prompter.asked[1]?.validationMessage ?? '', /Use https:\/\/.*only for the local emulator/);
		assert.equal(prompter.asked[0]?.check('http://example.com').ok, false, 'the live check rejects it too');
		assert.equal(emu.stats.loginCalls, 0);
		assert.deepEqual(api.services.store.list(), []);
	});

	it('Log In Again prefills URL, InstanceID and device token, never the InstanceKey', async () => {
		const credentials = userCredentials(emu);
		const session = await logIn(api, emu, 'user');
		const prompter = new ScriptedPrompter([
			(s) => ({ value: s.value ?? '' }), (s) => ({ value: s.value ?? '' }), (s) => ({ value: s.value ?? '' }),
			(s) => ({ value: s.value ?? credentials.password }),
		]);
		api.setPrompter(prompter);
		const again = await commandSession(api, 'telematicsAuth.loginAgain', { accountId: session.account.id });
		assert.deepEqual(prompter.asked.map((s) => s.value), [credentials.serviceUrl, credentials.instanceId, credentials.login, undefined]);
		assert.equal(again?.account.id, session.account.id, 'the same account, new tokens');
		assert.notEqual(again?.tokens?.refreshToken, session.tokens?.refreshToken);
		assert.equal(api.services.store.list().length, 1);
	});

	it('logs out after the confirmation, and not without it', async () => {
		const session = await logIn(api, emu, 'user');
		const declining = new ScriptedPrompter([], 'user', false);
		api.setPrompter(declining);
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.logout', { accountId: session.account.id }), false);
		assert.match(declining.confirmations[0] ?? '', /^Log out of Demo Driver\? Its tokens are deleted from this machine\.$/);
		assert.ok(api.services.store.get(session.account.id));

		api.setPrompter(new ScriptedPrompter([], 'user', true));
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.logout', { accountId: session.account.id }), true);
		assert.equal(api.services.store.get(session.account.id), undefined);
		assert.equal(await storedSecret(api, session.account.id), undefined, 'the tokens are deleted');
	});

	it('makes another account active', async () => {
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		assert.equal(api.services.store.active()?.account.id, admin.account.id);
		await vscode.commands.executeCommand('telematicsAuth.makeActive', { accountId: user.account.id });
		assert.equal(api.services.store.active()?.account.id, user.account.id);
	});

	it('refreshes on command: new tokens stored, no login', async () => {
		const session = await logIn(api, emu, 'user');
		const refreshed = await commandSession(api, 'telematicsAuth.refresh', { accountId: session.account.id });
		assert.ok(refreshed?.tokens);
		assert.notEqual(refreshed.tokens.accessToken, session.tokens?.accessToken);
		assert.equal(emu.stats.refreshCalls, 1);
		assert.equal(emu.stats.loginCalls, 1);
		assert.equal(api.services.store.get(session.account.id)?.tokens?.refreshToken, refreshed.tokens.refreshToken);
	});

	it('a failed refresh shows the error and keeps the session', async () => {
		const session = await logIn(api, emu, 'user');
		emu.setFaults({ refresh: 'error500', count: 1 });
		const result = await vscode.commands.executeCommand('telematicsAuth.refresh', { accountId: session.account.id });
		assert.equal(result, undefined);
		assert.match(lastError(api) ?? '', /^Could not refresh the token for Demo Driver\. The service is unavailable/);
		const now = api.services.store.get(session.account.id);
		assert.equal(now?.tokens?.accessToken, session.tokens?.accessToken);
		assert.equal(emu.stats.loginCalls, 1, 'never logs in by itself');
	});

	it('an automatic refresh that is refused warns with Log In Again, and does not log in by itself', async () => {
		// The messages are a bounded list: compare objects, not positions.
		const seen = new Set(api.messages());
		emu.setAccessTokenLifetime(4); // refreshed automatically after half its life
		emu.setFaults({ refresh: 'bodyStatusMismatch' }); // the service answers Status 401
		try {
			const session = await logIn(api, emu, 'user');
			const warning = await until('the warning', () => api.messages().find((m) => !seen.has(m) && m.severity === 'warning'));
			assert.equal(warning.text, 'The session for Demo Driver has expired and could not be refreshed.');
			assert.deepEqual(warning.actions, ['Log In Again']);
			assert.ok(emu.stats.refreshCalls >= 1);
			assert.equal(emu.stats.loginCalls, 1, 'never logs in by itself');
			assert.ok(api.services.store.get(session.account.id), 'the account stays, to log in again');
		} finally {
			emu.setFaults({});
			emu.setAccessTokenLifetime(7200);
		}
	});
	it('logs an admin in with an empty API InstanceID: no InstanceId header, no InstanceID shown, and Log In Again works', async () => {
		const credentials = adminCredentials(emu);
		const prompter = ScriptedPrompter.answering({ ...credentials, instanceId: '' }, 'admin');
		api.setPrompter(prompter);
		const session = await commandSession(api, 'telematicsAuth.loginAdmin');
		assert.ok(session);
		assert.match(prompter.asked[1]?.prompt ?? '', /leave empty if your credentials have none/);
		assert.deepEqual(emu.stats.lastLoginHeaders, { 'Content-Type': 'application/json-patch+json' }, 'no InstanceId header');
		assert.equal(session.account.instanceId, undefined);
		const tooltip = await until('the admin in the status bar', () => (api.statusBar().text.includes(credentials.login) ? api.statusBar().tooltip : undefined));
		assert.doesNotMatch(tooltip, /Instance ID/, 'the tooltip shows no empty InstanceID');
		const node = (await api.tree()).accounts.find((a) => a.label.includes(credentials.login));
		assert.ok(node);
		assert.ok(node.children.length > 0);
		assert.ok(node.children.every((row) => !row.label.startsWith('Instance ID')), `the Accounts view shows no InstanceID row: ${node.children.map((r) => r.label).join(' | ')}`);
		assert.doesNotMatch(node.tooltip ?? '', /Instance ID/);

		const again = new ScriptedPrompter([
			(s) => ({ value: s.value ?? '' }), (s) => ({ value: s.value ?? '' }), (s) => ({ value: s.value ?? '' }), { value: credentials.password },
		], 'admin');
		api.setPrompter(again);
		const relogged = await commandSession(api, 'telematicsAuth.loginAgain', { accountId: session.account.id });
		assert.deepEqual(again.asked.map((s) => s.value), [credentials.serviceUrl, undefined, credentials.login, undefined], 'prefilled: no InstanceID to prefill');
		assert.equal(relogged?.account.id, session.account.id);
		assert.equal(emu.stats.loginCalls, 2);
		assert.equal('InstanceId' in (emu.stats.lastLoginHeaders ?? {}), false, 'again no InstanceId header');
	});

	it('a user still needs the User Group InstanceID, and sends it', async () => {
		const credentials = userCredentials(emu);
		const prompter = new ScriptedPrompter([{ value: credentials.serviceUrl }, { value: '' }, { value: credentials.instanceId }, { value: credentials.login }, { value: credentials.password }]);
		api.setPrompter(prompter);
		assert.ok(await commandSession(api, 'telematicsAuth.loginUser'));
		assert.equal(prompter.asked[2]?.field, 'instanceId', 'an empty InstanceID is asked again');
		assert.match(prompter.asked[2]?.validationMessage ?? '', /Enter the InstanceID/);
		assert.equal(emu.stats.lastLoginHeaders?.InstanceId, credentials.instanceId);
	});

	it('the fifth login to a service within the hour is asked about first: neither sends nothing, Refresh refreshes instead, Log In Anyway sends it', async () => {
		for (let i = 0; i < 4; i++) await logIn(api, emu, 'user');
		assert.equal(emu.stats.loginCalls, 4);

		const declining = ScriptedPrompter.answering(userCredentials(emu), 'user');
		api.setPrompter(declining);
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.loginUser'), undefined);
		assert.equal(declining.budgetAsked.length, 1);
		assert.equal(declining.budgetAsked[0]?.count, 4);
		assert.equal(declining.budgetAsked[0]?.refreshable, 'Demo Driver', 'the account of that service is offered for a refresh');
		assert.equal(emu.stats.loginCalls, 4, 'nothing was sent');

		const refreshing = ScriptedPrompter.answering(userCredentials(emu), 'user');
		refreshing.budgetAnswers.push('refresh');
		api.setPrompter(refreshing);
		const refreshed = await commandSession(api, 'telematicsAuth.loginUser');
		assert.equal(refreshed?.account.label, 'Demo Driver');
		assert.equal(emu.stats.refreshCalls, 1, 'refreshed instead');
		assert.equal(emu.stats.loginCalls, 4, 'and no login sent');

		const anyway = ScriptedPrompter.answering(userCredentials(emu), 'user');
		anyway.budgetAnswers.push('login');
		api.setPrompter(anyway);
		assert.ok(await commandSession(api, 'telematicsAuth.loginUser'));
		assert.equal(anyway.budgetAsked[0]?.count, 4, 'a refresh never counts');
		assert.equal(emu.stats.loginCalls, 5);
	});

	it('the budget decides again after its question: a 429 or another login recorded by another window while it is open stops the login, saying why', async () => {
		for (let i = 0; i < 4; i++) await logIn(api, emu, 'user');
		const budget = api.services.loginBudget;
		/** Answers "Log In Anyway" after `meanwhile` (what another window writes to the shared globalState). */
		const answeringAfter = (meanwhile: () => PromiseLike<unknown>) => {
			const prompter = ScriptedPrompter.answering(userCredentials(emu), 'user');
			const ask = prompter.askLoginBudget.bind(prompter);
			prompter.askLoginBudget = async (question) => {
				await meanwhile();
				return ask(question);
			};
			prompter.budgetAnswers.push('login');
			return prompter;
		};

		api.setPrompter(answeringAfter(() => budget.claim(userCredentials(emu).serviceUrl, Infinity).written));
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.loginUser'), undefined);
		assert.equal(emu.stats.loginCalls, 4, 'not sent: a fifth went out from elsewhere while the question was open');
		assert.match(api.messages().at(-1)?.text ?? '', /^Login not sent: 5 logins to this service within the hour now, more than when you were asked/);

		api.setPrompter(answeringAfter(() => budget.recordBlock(userCredentials(emu).serviceUrl, 600)));
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.loginUser'), undefined);
		assert.equal(emu.stats.loginCalls, 4, 'not sent: the service blocks logins');
		assert.match(api.messages().at(-1)?.text ?? '', /blocks logins from this machine until .*Nothing was sent/);
	});

	it('after a 429 the login says until when, and every login to that service says so without calling it, Log In Again before asking anything', async () => {
		const session = await logIn(api, emu, 'user');
		emu.setFaults({ login: 'rateLimited', count: 1 });
		api.setPrompter(ScriptedPrompter.answering(adminCredentials(emu), 'admin'));
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.loginAdmin'), undefined);
		assert.equal(emu.stats.loginCalls, 2);
		assert.match(lastError(api) ?? '', /^Could not log in to .*\. The service answered "too many logins" \(HTTP 429\) and blocks logins until (\d{4}-\d\d-\d\d )?\d\d:\d\d \(in (1m|\d+s)\)\./);

		const prompter = ScriptedPrompter.answering(userCredentials(emu), 'user');
		api.setPrompter(prompter);
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.loginUser'), undefined);
		const warning = api.messages().at(-1);
		assert.equal(warning?.severity, 'warning');
		assert.match(warning?.text ?? '', /blocks logins from this machine until (\d{4}-\d\d-\d\d )?\d\d:\d\d \((in 1m|in \d+s)\).*Nothing was sent/);
		assert.deepEqual(warning?.actions, ['Refresh Demo Driver Instead'], 'the account of that service can still be refreshed');
		assert.equal(emu.stats.loginCalls, 2, 'the service was not called');
		assert.equal(prompter.budgetAsked.length, 0);

		const again = ScriptedPrompter.answering(userCredentials(emu), 'user');
		api.setPrompter(again);
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.loginAgain', { accountId: session.account.id }), undefined);
		assert.equal(again.asked.length, 0, 'Log In Again says so before asking for anything');
		assert.match(api.messages().at(-1)?.text ?? '', /blocks logins from this machine until/);
		assert.equal(emu.stats.loginCalls, 2);
	});
});
