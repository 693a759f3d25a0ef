// New Request… as a person uses it (issue 43): the admin's trips request picked from the platform's
// operations goes into a .http file with the admin's named reference; REST Client itself and httpyac send
// it to the demo service and get 200 with trips. Switched to the user's reference, the request shows the
// warning before Send, and the service's 403 agrees; the light bulb's quick fix puts it right.
// Screenshot: media/screenshots/new-request.png (README).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as httpyac from 'httpyac';
import { DEMO_ADMINS, DEMO_USERS } from '../emulator/rig';
import { projectRoot } from '../host/paths';
import { logInAsAdmin, logInAsUser, startE2e, type E2eEnvironment } from './environment';
import { QUICK_INPUT_BOX, waitFor } from './workbench';

const USER = DEMO_USERS[0]!;
const ADMIN = DEMO_ADMINS[0]!;
const REST_CLIENT = path.resolve(projectRoot, '..', 'shared', 'tools', 'rest-client-0.25.0.vsix');
const FILE = 'platform.http';
const TRIPS = '/trips/get/admin/v1';

/** The request's placeholders made real, as a person would: the demo user and the last 30 days. */
function forTheDemoUser(text: string): string {
	const day = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
	return text.replace('00000000-0000-0000-0000-000000000000', USER.deviceToken)
		.replace(/"StartDate": "[^"]*"/, `"StartDate": "${day(Date.now() - 30 * 86_400_000)}"`)
		.replace(/"EndDate": "[^"]*"/, `"EndDate": "${day(Date.now())}"`);
}

describe('New Request, sent with REST Client and httpyac (real VS Code in Chromium)', function () {
	this.timeout(240_000);
	let env: E2eEnvironment;
	const file = () => path.join(env.server.workspace, FILE);

	before(async function () {
		assert.ok(fs.existsSync(REST_CLIENT), `${REST_CLIENT} is missing: this test sends with REST Client`);
		env = await startE2e({
			settings: { 'telematicsAuth.exposeToken': 'environmentAndFiles', 'telematicsAuth.insertStyle': 'processEnv', 'editor.minimap.enabled': false },
			files: { [FILE]: '# Requests to the platform\n\n', '.gitignore': '.env\n' },
			installExtensions: [REST_CLIENT],
		});
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
	});

	after(async function () {
		await env?.close();
		delete process.env.TELEMATICS_TOKEN_ADMIN;
		delete process.env.TELEMATICS_TOKEN_USER;
	});

	/** httpyac sends the file as saved, with the accounts' live tokens from VS Code's environment; each status and body. */
	async function sendWithHttpyac(): Promise<Array<{ status: number; body: string }>> {
		const text = fs.readFileSync(file(), 'utf8');
		// httpyac runs in this process, which is not the extension host: it gets the accounts' live tokens
		// from the .env file that exposeToken keeps beside the extension host's environment.
		for (const [, name, value] of fs.readFileSync(path.join(env.server.workspace, '.env'), 'utf8').matchAll(/^(TELEMATICS_TOKEN_[A-Z0-9_]+)=(\S+)$/gm)) process.env[name!] = value;
		const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(file(), async () => text, Date.now(), { workingDir: env.server.workspace });
		const answers: Array<{ status: number; body: string }> = [];
		await httpyac.send({ httpFile, logResponse: async (response) => void answers.push({ status: response?.statusCode ?? 0, body: String(response?.body ?? '') }) });
		return answers;
	}

	/** REST Client's own "Send Request" lens, clicked; the status the demo service answered. */
	async function sendWithRestClient(): Promise<number> {
		const wb = env.workbench;
		env.emulator.resetStats();
		await wb.page.locator('.editor-instance .monaco-editor .codelens-decoration a', { hasText: 'Send Request' }).first().click();
		const seen = await waitFor('REST Client\'s request', async () => env.emulator.stats.requests.filter((r) => r.path === TRIPS), (r) => r.length > 0, 90_000);
		return seen[0]!.status;
	}

	/**
	 * Puts `text` in the editor as a person pastes it, and saves it: httpyac reads the file, REST Client the
	 * editor. Not written to disk for VS Code to reload: its watcher's reload and a Revert can both apply
	 * their edits to the model, which left the old text's tail under the new one (seen with the e2e and
	 * integration runs side by side), and a change that lands just after VS Code's own save is taken for it.
	 */
	async function pasteAndSave(text: string, saved = file()): Promise<void> {
		const wb = env.workbench;
		// In the page, where the clipboard is (the tests' types have no DOM).
		await wb.page.evaluate((t) => (globalThis as unknown as { navigator: { clipboard: { writeText(t: string): Promise<void> } } }).navigator.clipboard.writeText(t), text);
		await wb.page.locator('.editor-instance .monaco-editor .view-line').first().click({ position: { x: 400, y: 5 } });
		await wb.page.keyboard.press('Control+A');
		await wb.page.keyboard.press('Control+V');
		await wb.save();
		await waitFor('the pasted text saved', async () => fs.readFileSync(saved, 'utf8'), (t) => t === text);
	}

	/** Saves the editor, then makes its body real for the demo user; the text sent. */
	async function saveWithDemoValues(): Promise<string> {
		const wb = env.workbench;
		await wb.save();
		await waitFor('the file saved', async () => fs.readFileSync(file(), 'utf8'), (t) => t.includes(TRIPS));
		const text = forTheDemoUser(fs.readFileSync(file(), 'utf8'));
		await pasteAndSave(text);
		return text;
	}

	it("inserts the admin's trips request; both clients get 200 with trips; the user's reference is warned about, refused with 403, and fixed", async function () {
		const wb = env.workbench;
		await logInAsUser(wb, USER);
		await wb.waitForStatus(new RegExp(USER.name!));
		await logInAsAdmin(wb, ADMIN);
		await wb.waitForStatus(/admin|@/i);
		await wb.openFile(FILE);
		await wb.goToLine(2);

		// The palette's New Request…: the operations, filtered by words of the path.
		await wb.clearNotifications();
		await wb.runCommand('View: Close Primary Side Bar');
		await wb.runCommand('Telematics: New Request…');
		// The picture: the operations on users, each with the token it needs and what it changes.
		await wb.page.fill(QUICK_INPUT_BOX, 'users');
		await waitFor('the users\' operations', () => wb.quickPickRows(), (rows) => rows.some((r) => r.includes('cannot be undone')));
		await wb.page.mouse.move(900, 650);
		await wb.screenshot('new-request.png');
		await wb.page.fill(QUICK_INPUT_BOX, 'trips admin');
		await waitFor('the admin\'s trip operations', () => wb.quickPickRows(), (rows) => rows.some((r) => r.startsWith(`POST ${TRIPS}`)));
		await wb.chooseRow(`POST ${TRIPS}`);
		// The account: the admin, offered first.
		// Every row an account (the operations' rows may linger a moment as the pick changes).
		// Both accounts' rows: the list may be drawn one row at a time.
		const accounts = await waitFor('the account pick', () => wb.quickPickRows(), (rows) => rows.some((r) => r.includes(USER.instanceId)) && rows.some((r) => /admin/.test(r)) && rows.every((r) => r.includes(env.emulator.url)));
		assert.match(accounts[0]!, /admin/, accounts.join(' | '));
		await wb.chooseRow(accounts[0]!);
		await waitFor('the new request in the editor', () => wb.editorText(), (t) => t.includes('TELEMATICS_TOKEN_ADMIN'));

		const text = await saveWithDemoValues();
		assert.match(text, new RegExp(`^POST ${env.emulator.url}${TRIPS}$`, 'm'));
		assert.match(text, /^Authorization: Bearer \{\{\$processEnv TELEMATICS_TOKEN_ADMIN\}\}$/m);
		assert.equal(await sendWithRestClient(), 200, 'REST Client: 200');
		const [sent] = await sendWithHttpyac();
		assert.equal(sent?.status, 200, sent?.body);
		assert.ok((JSON.parse(sent!.body) as { Result: { Trips: unknown[] } }).Result.Trips.length > 0, 'with trips');

		// The same request as the user: the warning before Send, and the service agrees.
		fs.writeFileSync(file(), text.replace('TELEMATICS_TOKEN_ADMIN', 'TELEMATICS_TOKEN_USER'));
		await waitFor('the user\'s reference in the editor', () => wb.editorText(), (t) => t.includes('TELEMATICS_TOKEN_USER'));
		// The warning's squiggle, and its message where the mouse rests on it.
		const squiggle = wb.page.locator('.editor-instance .monaco-editor .squiggly-warning').first();
		await squiggle.waitFor({ state: 'attached', timeout: 120_000 });
		const hover = await wb.hoverShowing('the warning\'s hover', () => squiggle.hover({ force: true }), /needs an admin token; this request sends user's/);
		assert.match(hover, /403/);
		assert.equal(await sendWithRestClient(), 403, 'REST Client: 403');
		assert.equal((await sendWithHttpyac())[0]?.status, 403);

		// The quick fix: the cursor on the warned line, then Ctrl+. as a person presses it.
		await wb.page.mouse.move(5, 5);
		await wb.page.locator('.editor-instance .monaco-editor .view-line', { hasText: 'TELEMATICS_TOKEN_USER' }).first().click({ position: { x: 30, y: 5 } });
		await wb.page.keyboard.press('Control+.');
		const fix = wb.page.locator('.action-widget .monaco-list-row', { hasText: "Send admin's token" }).first();
		await fix.waitFor({ state: 'visible', timeout: 90_000 });
		// The menu takes the keyboard (a pointer block lies over it until the mouse moves): the preferred fix is the first row.
		const rows = await wb.page.locator('.action-widget .monaco-list-row').allInnerTexts();
		for (let i = 0; i < rows.findIndex((r) => r.includes("Send admin's token")); i++) await wb.page.keyboard.press('ArrowDown');
		await wb.page.keyboard.press('Enter');
		await waitFor('the admin\'s reference again', () => wb.editorText(), (t) => t.includes('TELEMATICS_TOKEN_ADMIN') && !t.includes('TELEMATICS_TOKEN_USER'));
		await wb.save();
		await waitFor('the fix saved', async () => fs.readFileSync(file(), 'utf8'), (t) => t.includes('TELEMATICS_TOKEN_ADMIN'));
		assert.equal(await sendWithRestClient(), 200, 'REST Client: 200 after the fix');
	});

	it("for a production admin, New Request of a user's deletion writes # @note, and REST Client itself asks before it sends; refused, nothing reaches the service (issue 44)", async function () {
		const wb = env.workbench;
		const target = DEMO_USERS[1]!.deviceToken;
		await wb.clearNotifications();
		await wb.runCommand('Telematics: Mark Account as Production');
		await wb.waitForQuickInput(/admin/);
		await wb.chooseRow((await waitFor('the admin in the pick', () => wb.quickPickRows(), (rows) => rows.some((r) => /admin/.test(r)))).find((r) => /admin/.test(r))!);
		await wb.waitForStatus(/PRODUCTION/);

		// A file of its own, so the new request is its only one.
		const danger = path.join(env.server.workspace, 'danger.http');
		fs.writeFileSync(danger, '# Deleting a user\n\n');
		await wb.runCommand('View: Close All Editors');
		await wb.openFile('danger.http');
		await wb.goToLine(2);
		await wb.runCommand('Telematics: New Request…');
		await wb.page.fill(QUICK_INPUT_BOX, 'delete user');
		await wb.chooseRow('DELETE /v1/Management/users/');
		// Every row an account (the operations' rows may linger a moment as the pick changes).
		// Both accounts' rows: the list may be drawn one row at a time.
		const accounts = await waitFor('the account pick', () => wb.quickPickRows(), (rows) => rows.some((r) => r.includes(USER.instanceId)) && rows.some((r) => /admin/.test(r)) && rows.every((r) => r.includes(env.emulator.url)));
		const admin = accounts.find((r) => /admin/.test(r));
		assert.match(admin ?? '', /PRODUCTION/, `the picker says it: ${accounts.join(' | ')}`);
		await wb.chooseRow(admin!);
		await waitFor('the note in the editor', async () => (await wb.editorText()).replace(/\u00a0/g, ' '), (t) => t.includes('# @note Delete the user and all their data: this cannot be undone (production account).'));
		await wb.save();
		await waitFor('the file saved', async () => fs.readFileSync(danger, 'utf8'), (t) => t.includes('# @note'));
		await pasteAndSave(fs.readFileSync(danger, 'utf8').replace('/v1/Management/users/00000000-0000-0000-0000-000000000000', `/v1/Management/users/${target}`), danger);

		// The file's one request: REST Client's Send Request lens.
		env.emulator.resetStats();
		await wb.page.locator('.editor-instance .monaco-editor .codelens-decoration a', { hasText: 'Send Request' }).first().click();
		await wb.waitForNotification(/Are you sure you want to send the request "users_delete"\?/);
		await wb.page.locator('.notifications-toasts .notification-toast .monaco-button', { hasText: /^No$/ }).first().click();
		// REST Client sends, or not, as the answer comes back: its question gone, the answer was taken; then a
		// window in which a DELETE would arrive (a wait that can only make this assertion pass later, never fail).
		await waitFor('REST Client\'s question gone', () => wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Are you sure you want to send the request' }).count(), (n) => n === 0);
		await wb.page.waitForTimeout(2000);
		assert.deepEqual(env.emulator.stats.requests.filter((r) => r.method === 'DELETE'), [], 'REST Client sent nothing');
		assert.ok(env.emulator.config.users.some((u) => u.deviceToken === target), 'the user is still there');
	});
});
