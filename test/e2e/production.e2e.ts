// A person marks the logged-in account as production from the palette: the status bar item turns the
// theme's warning colour and says PRODUCTION, for screen readers too, and the Accounts view says it.
// Screenshot: media/screenshots/production-status-bar.png.
import * as assert from 'node:assert/strict';
import { DEMO_USERS } from '../emulator/rig';
import { logInAsUser, startE2e, type E2eEnvironment } from './environment';
import { QUICK_INPUT_BOX, waitFor } from './workbench';

const USER = DEMO_USERS[0]!;
const LABEL = USER.name!;

describe('A production account (real VS Code in Chromium)', function () {
	let env: E2eEnvironment;

	before(async function () {
		env = await startE2e();
	});

	after(async function () {
		await env?.close();
	});

	it('Mark Account as Production… colours the status bar and says so in the status bar, its label and the Accounts view', async function () {
		const wb = env.workbench;
		await logInAsUser(wb, USER);
		await wb.waitForStatus(LABEL);
		// VS Code draws the theme's warning background through the item's class (`warning-kind`).
		const background = async (): Promise<string> => (await wb.statusItem().getAttribute('class')) ?? '';
		const before = await background();
		await wb.clearNotifications();

		await wb.runCommand('Telematics: Mark Account as Production');
		await wb.waitForQuickInput(new RegExp(`user${LABEL}`)); // the only account that is not production yet
		await wb.page.press(QUICK_INPUT_BOX, 'Enter');
		const status = await wb.waitForStatus(/PRODUCTION/);
		assert.ok(status.text.includes(LABEL), status.text);
		assert.match(status.ariaLabel, /^production: Telematics account /);
		const after = await waitFor('the warning background', background, (classes) => /\bwarning-kind\b/.test(classes));
		assert.doesNotMatch(before, /\b(warning|error)-kind\b/, `not coloured before: ${before}`);
		assert.match(after, /\bwarning-kind\b/);

		await wb.openActivity('Telematics');
		await waitFor('PRODUCTION in the Accounts view', () => wb.treeRows(), (rows) => rows.some((row) => row.includes(LABEL) && row.includes('PRODUCTION')));
		await wb.page.mouse.move(700, 400);
		await wb.screenshot('production-status-bar.png');
	});
});
