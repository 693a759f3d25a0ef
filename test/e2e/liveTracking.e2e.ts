// Live Tracking as a person sees it (issue 53): logged in as the demo admin, Telematics: Open Live Tracking
// from the palette shows both demo drives in the panel's list and on its map, and the page's DOM holds no
// token and no device token in full. Screenshot: media/screenshots/live-tracking.png (README).
import * as assert from 'node:assert/strict';
import { DEMO_ADMINS } from '../emulator/rig';
import { MAX_DEVICES } from '../../src/core/liveTracking/fleet';
import { logInAsAdmin, startE2e, type E2eEnvironment } from './environment';
import { waitFor } from './workbench';

const ADMIN = DEMO_ADMINS[0]!;

describe('Live Tracking panel (real VS Code in Chromium)', function () {
	this.timeout(240_000);
	let env: E2eEnvironment;

	before(async () => {
		env = await startE2e({ emulator: { realtimeUpdateMs: 500 }, settings: { 'editor.minimap.enabled': false } });
	});

	after(async () => {
		await env?.close();
	});

	it('shows both demo drives moving, with masked device tokens and no token in the page', async () => {
		const wb = env.workbench;
		await logInAsAdmin(wb, ADMIN);
		await wb.runCommand('View: Close Primary Side Bar');
		await wb.runCommand('Telematics: Open Live Tracking');
		await waitFor('authenticate at the emulator', async () => env.emulator.realtime.authenticateTokens.length, (n) => n > 0, 60_000);
		const page = wb.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
		const rows = page.locator('#devices tbody tr');
		await waitFor('two devices in the list', () => rows.count(), (n) => n === 2, 60_000);
		await waitFor('tracks on the map', () => page.locator('#map polyline').count(), (n) => n === 2, 30_000);
		await waitFor('the state says live', () => page.locator('#state').textContent(), (t) => t === 'Live', 30_000);
		const html = await page.locator('html').evaluate((e) => e.outerHTML);
		for (const secret of [...env.emulator.realtime.authenticateTokens, ...env.emulator.config.users.map((u) => u.deviceToken)]) {
			assert.ok(!html.includes(secret), 'a token or a device token is in the page');
		}
		assert.match(await rows.first().textContent() ?? '', /••••/);
		await wb.screenshot('live-tracking.png');
	});

	it('1,000 devices stream at two updates a second each, and the page still answers: focus stays, Share asks (issue 66)', async () => {
		const wb = env.workbench;
		env.emulator.config.realtimeFleetDevices = MAX_DEVICES - env.emulator.config.users.length;
		const page = wb.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
		const rows = page.locator('#devices tbody tr');
		await waitFor('a thousand devices in the list', () => rows.count(), (n) => n === MAX_DEVICES, 60_000);
		assert.equal((await page.locator('#counts').textContent())?.trim(), '', 'none counted as not shown or dropped');

		// Keyboard focus on a Share button stays there while updates land (rows are updated in place).
		const share = rows.nth(499).locator('button');
		await share.focus();
		// The row's own update time (to the second) changes twice: two updates landed on that very row.
		const updated = rows.nth(499).locator('td').nth(2);
		const first = await updated.textContent();
		const second = await waitFor('an update on the focused row', () => updated.textContent(), (t) => t !== first, 10_000);
		await waitFor('another update on the focused row', () => updated.textContent(), (t) => t !== second, 10_000);
		assert.equal(await share.evaluate((button) => button === button.ownerDocument.activeElement), true, 'the focused Share button kept the focus');

		// A click lands while a thousand positions a second come in: the question names the masked device.
		const label = (await rows.nth(499).locator('td').first().textContent())?.trim() ?? '';
		assert.match(label, /^••••\d{4}$/);
		const sharing = env.emulator.stats.requests.filter((r) => r.path.includes('/sharing/')).length;
		await share.click();
		await wb.waitForQuickInput(/Share Live Location/);
		await wb.chooseRow('1 hour');
		const question = await wb.waitForDialog(/Share/);
		assert.ok(question.includes(label), `the question names the device ${label}: ${question}`);
		await wb.screenshot('live-tracking-fleet.png');
		await wb.clickDialogButton('Cancel');
		assert.equal(env.emulator.stats.requests.filter((r) => r.path.includes('/sharing/')).length, sharing, 'Cancel sends nothing');
		env.emulator.config.realtimeFleetDevices = 0;
	});
});
