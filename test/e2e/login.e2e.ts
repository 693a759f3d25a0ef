// A person logs in from the palette (step by step), sees the account in the status bar, keeps it across
// a reload, survives a wrong password, sees the Accounts view and inserts the token. Screenshots: media/screenshots.
import * as assert from 'node:assert/strict';
import { DEMO_USERS } from '../emulator/rig';
import { logInAsUser, startE2e, type E2eEnvironment } from './environment';
import { QUICK_INPUT_BOX, waitFor } from './workbench';

const USER = DEMO_USERS[0]!;
const SECOND_USER = DEMO_USERS[1]!;
/** The label the status bar shows for the demo user: the token's `name` claim. */
const LABEL = USER.name!;
const TIME_LEFT = /\d+h \d+m|\d+m|\d+s/;

const HTTP_FILE = [
	'### Trips of the current user',
	'GET https://api.telematicssdk.com/trips/get/v1/',
	'Content-Type: application/json',
	'',
	'{}',
	'',
].join('\n');

describe('Logging in as a user (real VS Code in Chromium)', function () {
	let env: E2eEnvironment;

	before(async function () {
		env = await startE2e({ files: { 'requests.http': HTTP_FILE } });
	});

	after(async function () {
		await env?.close();
	});

	it('numbers the login steps, checks the URL, offers Back that keeps what was typed, hides the key, and Escape changes nothing', async function () {
		const wb = env.workbench;
		await wb.runCommand('Telematics: Log In as User');
		const first = await wb.waitForQuickInput(/\(1\/4\)/);
		assert.match(first, /Log In as User/);
		assert.ok(first.includes(env.emulator.url), 'the configured URL is offered first');
		assert.equal(await wb.quickInputBack().count(), 0, 'no Back on step 1');

		await wb.page.fill(QUICK_INPUT_BOX, 'http://example.com');
		await wb.waitForQuickInput(/https:\/\//);
		await wb.page.press(QUICK_INPUT_BOX, 'Enter');
		assert.match(await wb.waitForQuickInput(/\(1\/4\)/), /https:\/\//, 'a plain-http URL is not accepted');

		await wb.page.fill(QUICK_INPUT_BOX, '');
		await wb.page.press(QUICK_INPUT_BOX, 'Enter');
		await wb.waitForQuickInput(/\(2\/4\)[\s\S]*User Group InstanceID|User Group InstanceID[\s\S]*\(2\/4\)/);
		await wb.page.fill(QUICK_INPUT_BOX, 'typed-instance');
		await wb.quickInputBack().click();
		await wb.waitForQuickInput(/\(1\/4\)/);
		await wb.page.press(QUICK_INPUT_BOX, 'Enter');
		await wb.waitForQuickInput(/\(2\/4\)/);
		assert.equal(await wb.quickInputValue(), 'typed-instance', 'Back and forward keeps what was typed');

		await wb.page.fill(QUICK_INPUT_BOX, USER.instanceId);
		await wb.page.press(QUICK_INPUT_BOX, 'Enter');
		await wb.answer(/\(3\/4\)/, USER.deviceToken);
		await wb.waitForQuickInput(/\(4\/4\)[\s\S]*InstanceKey|InstanceKey[\s\S]*\(4\/4\)/);
		assert.equal(await wb.quickInputIsPassword(), true, 'the InstanceKey is not shown');
		assert.equal(await wb.quickInputValue(), '');

		await wb.page.keyboard.press('Escape');
		await waitFor('the quick input to close', () => wb.quickInputText(), (text) => text === '');
		assert.equal(env.emulator.stats.loginCalls, 0, 'nothing was sent');
		assert.match((await wb.status()).text, /Log In/, 'still logged out');
	});

	it('logs in from the command palette and shows the account and time left in the status bar', async function () {
		const wb = env.workbench;
		const before = await wb.status();
		assert.match(before.text, /Log In/, 'before any login the status bar invites one');
		await logInAsUser(wb, USER, {
			onStep: async (step) => {
				if (step === 'palette') await wb.screenshot('login-palette.png');
				if (step === 'instanceId') await wb.screenshot('login-step.png');
			},
		});
		const status = await wb.waitForStatus(LABEL);
		assert.match(status.text, TIME_LEFT);
		assert.match(status.ariaLabel, new RegExp(`${LABEL}.*valid for`));
		assert.equal(env.emulator.stats.loginCalls, 1);
		await wb.waitForNotification(/Logged in as/).catch(() => undefined);
		await wb.screenshot('status-bar.png');
		const tooltip = await wb.hoverStatus();
		assert.ok(tooltip.includes(USER.instanceId), `the tooltip names the instance: ${tooltip}`);
		assert.doesNotMatch(tooltip, /eyJ|demo-device-token|demo-instance-key/, 'the tooltip shows no token or secret');
		await wb.screenshot('status-tooltip.png');
		await wb.page.mouse.move(700, 400);
	});

	it('keeps the session across a reload without logging in again', async function () {
		const wb = env.workbench;
		const loginsBefore = env.emulator.stats.loginCalls;
		await wb.reload();
		const status = await wb.waitForStatus(LABEL);
		assert.match(status.text, TIME_LEFT);
		assert.equal(env.emulator.stats.loginCalls, loginsBefore, 'a reload must not call Login');
	});

	it('shows an error for a wrong InstanceKey and keeps the earlier session', async function () {
		const wb = env.workbench;
		const loginsBefore = env.emulator.stats.loginCalls;
		await logInAsUser(wb, SECOND_USER, { password: 'not-the-instance-key' });
		const error = await wb.waitForNotification(/Could not log in/);
		assert.equal(error.severity, 'error');
		assert.doesNotMatch(error.text, /not-the-instance-key/, 'the password never appears in a message');
		assert.equal(env.emulator.stats.loginCalls, loginsBefore + 1);
		const status = await wb.status();
		assert.ok(status.text.includes(LABEL), `the earlier session stays active, status bar: ${status.text}`);
		assert.match(status.text, TIME_LEFT);
		await wb.clearNotifications();
	});

	it('lists the account in the Accounts view of the Telematics sidebar', async function () {
		const wb = env.workbench;
		await wb.openActivity('Telematics');
		const rows = await waitFor('the account in the Accounts view', () => wb.treeRows(), (r) => r.some((row) => row.includes(LABEL)));
		assert.equal(rows.filter((row) => row.includes(SECOND_USER.name!)).length, 0, 'the failed login added no account');
		await wb.page.locator('.part.sidebar .monaco-list-row', { hasText: LABEL }).first().click();
		const expanded = await waitFor('the account\'s details', () => wb.treeRows(), (r) => r.length > rows.length);
		assert.ok(expanded.some((row) => row.includes(USER.instanceId)), `the details name the instance: ${expanded.join(' | ')}`);
		await wb.screenshot('sidebar.png');
	});

	it('asks before a token goes to another host than its service, inserts the header when told to, shows whose token it is above it and warns on the request', async function () {
		const wb = env.workbench;
		await wb.openFile('requests.http');
		await wb.goToLine(2);
		await wb.runCommand('Telematics: Insert Authorization Header');
		// Logged in to the demo service on loopback; the request names the real service's host.
		const question = await wb.waitForDialog(/api\.telematicssdk\.com/);
		assert.ok(question.includes(new URL(env.emulator.url).host), `the dialog names the account's service too: ${question}`);
		await wb.screenshot('host-question.png');
		await wb.clickDialogButton('Insert Anyway');
		const text = await waitFor('the header in the editor', () => wb.editorText(), (t) => /Authorization: Bearer ey/.test(t.replace(/\u00a0/g, ' ')));
		assert.match(text.replace(/\u00a0/g, ' '), /GET https:\/\/api\.telematicssdk\.com\/trips\/get\/v1\/[\s\S]*Authorization: Bearer ey/);
		const lenses = await waitFor('a CodeLens over the header', () => wb.codeLenses(), (l) => l.some((lens) => lens.includes(LABEL)));
		assert.ok(lenses.some((lens) => TIME_LEFT.test(lens)), `the lens tells the time left: ${lenses.join(' | ')}`);
		await wb.screenshot('http-lens.png');
		// Sent from here, the request would take the token to another site: the line says so before the click.
		await wb.hoverAtLine('GET https://api.telematicssdk.com', new RegExp(`This request sends the token of ${LABEL} to api\\.telematicssdk\\.com, not to its service`));
		await wb.screenshot('token-elsewhere.png');
	});
});
