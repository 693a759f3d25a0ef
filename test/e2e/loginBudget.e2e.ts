// Logging in as the service signs people in today, through the UI: an admin with only a login and a password
// (no InstanceId header), a user with the InstanceID, and the login budget: the fifth login within the hour
// is asked about before anything is sent, and after the service's 429 the next Log In says until when and
// sends nothing. The emulator plays the vendor's limit: 5 logins, then an hour's block with Retry-After.
import * as assert from 'node:assert/strict';
import { DEMO_ADMINS, DEMO_USERS } from '../emulator/rig';
import { logInAsUser, startE2e, type E2eEnvironment } from './environment';
import { QUICK_INPUT_BOX, waitFor } from './workbench';

const USER = DEMO_USERS[0]!;
const SECOND_USER = DEMO_USERS[1]!;
const ADMIN = DEMO_ADMINS[0]!;

describe('Admin without an InstanceID, and the login budget (real VS Code in Chromium)', function () {
	let env: E2eEnvironment;

	before(async function () {
		env = await startE2e({ emulator: { loginRateLimit: { max: 5, windowSeconds: 3600, blockSeconds: 3600 } } });
	});

	after(async function () {
		await env?.close();
	});

	it('an admin logs in with an empty InstanceID and no InstanceId header is sent; a user login still sends it', async function () {
		const wb = env.workbench;
		await wb.runCommand('Telematics: Log In as Admin');
		await wb.accept(/\(1\/4\)/);
		await wb.waitForQuickInput(/API InstanceID \(leave empty if your credentials have none\)/);
		assert.equal(await wb.quickInputValue(), '');
		await wb.page.press(QUICK_INPUT_BOX, 'Enter');
		await wb.answer(/API login/, ADMIN.email);
		await wb.answer(/API password/, ADMIN.password);
		await wb.waitForStatus(ADMIN.email);
		assert.equal(env.emulator.stats.loginCalls, 1);
		assert.deepEqual({ ...env.emulator.stats.lastLoginHeaders }, { 'Content-Type': 'application/json-patch+json' }, 'the Login went out with no InstanceId header');
		const tooltip = await wb.hoverStatus();
		assert.ok(tooltip.includes(ADMIN.email), tooltip);
		assert.doesNotMatch(tooltip, /Instance ID/, 'the tooltip shows no empty InstanceID');
		await wb.page.mouse.move(700, 400);
		await wb.clearNotifications();

		await logInAsUser(wb, USER);
		await wb.waitForStatus(USER.name!);
		assert.equal(env.emulator.stats.loginCalls, 2);
		assert.equal(env.emulator.stats.lastLoginHeaders?.InstanceId, USER.instanceId, 'a user login sends the InstanceId');
		await wb.clearNotifications();
	});

	it('asks before the fifth login within the hour, sending nothing until told; after the 429 the next Log In says until when and sends nothing', async function () {
		const wb = env.workbench;
		await logInAsUser(wb, SECOND_USER);
		await wb.waitForStatus(SECOND_USER.name!);
		await logInAsUser(wb, USER, { password: 'not-the-instance-key' });
		// The refused login, as the service saw it (its notification may already be gone on a slow machine).
		await waitFor('the refused fourth login', async () => env.emulator.stats.loginCalls, (n) => n === 4);
		await waitFor('its answer', async () => env.emulator.stats.requests.at(-1)?.status, (status) => status === 401);
		await wb.clearNotifications();
		assert.equal(env.emulator.stats.loginCalls, 4, 'four logins so far, one of them refused');

		await logInAsUser(wb, USER);
		const question = await wb.waitForDialog(/4 logins to this service in the last (\d+ minutes|minute)\./);
		assert.match(question, /blocks further logins for up to an hour after about 5\. Log in anyway\?/);
		assert.equal(await wb.page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: 'Refresh Demo Driver Instead' }).count(), 1, 'an account of the service can be refreshed instead');
		assert.equal(env.emulator.stats.loginCalls, 4, 'nothing is sent while the question is open');
		await wb.clickDialogButton('Log In Anyway');
		await waitFor('the fifth login', async () => env.emulator.stats.loginCalls, (n) => n === 5);
		await wb.waitForNotification(/Logged in as Demo Driver/);
		await wb.clearNotifications();

		await logInAsUser(wb, USER);
		await wb.waitForDialog(/5 logins to this service/);
		await wb.clickDialogButton('Log In Anyway');
		const refused = await wb.waitForNotification(/too many logins.*until (\d{4}-\d\d-\d\d )?\d\d:\d\d/);
		assert.equal(refused.severity, 'error');
		assert.equal(env.emulator.stats.loginCalls, 6);
		assert.equal(env.emulator.stats.requests.at(-1)?.status, 429, 'the emulator blocked the sixth');
		await wb.clearNotifications();

		await logInAsUser(wb, USER);
		const blocked = await wb.waitForNotification(/blocks logins from this machine until (\d{4}-\d\d-\d\d )?\d\d:\d\d/);
		assert.match(blocked.text, /Nothing was sent/);
		assert.equal(env.emulator.stats.loginCalls, 6, 'the next Log In sent nothing');
	});
});
