// A person works as the user and the admin in one .http file: both log in, the file names each account's
// token by its variable, the lenses say whose token each request reads, and REST Client sends both (the
// user's trips, a driver's statistics as the admin), each with its own account's live token. Screenshot: media/screenshots/two-roles.png (README).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_ADMINS, DEMO_USERS } from '../emulator/rig';
import { projectRoot } from '../host/paths';
import { logInAsAdmin, logInAsUser, startE2e, type E2eEnvironment } from './environment';
import { waitFor } from './workbench';

const USER = DEMO_USERS[0]!;
const ADMIN = DEMO_ADMINS[0]!;
const REST_CLIENT = path.resolve(projectRoot, '..', 'shared', 'tools', 'rest-client-0.25.0.vsix');

describe('The user and the admin in one file, sent with REST Client (real VS Code in Chromium)', function () {
	this.timeout(180_000);
	let env: E2eEnvironment;

	before(async function () {
		assert.ok(fs.existsSync(REST_CLIENT), `${REST_CLIENT} is missing: this test sends with REST Client`);
		env = await startE2e({ settings: { 'telematicsAuth.exposeToken': 'environment', 'editor.minimap.enabled': false }, installExtensions: [REST_CLIENT] });
	});

	after(async function () {
		await env?.close();
	});

	it('each request carries its own account\'s token, named in the file, shown in its lens', async function () {
		const wb = env.workbench;
		await logInAsUser(wb, USER);
		await wb.waitForStatus(new RegExp(USER.name!));
		await logInAsAdmin(wb, ADMIN);
		await wb.waitForStatus(/admin|@/i);
		const url = env.emulator.url;
		const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
		fs.writeFileSync(path.join(env.server.workspace, 'two-roles.http'), [
			'### My trips, as the user',
			`POST ${url}/trips/get/v1/`,
			'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_USER}}',
			'Content-Type: application/json',
			'',
			`{ "StartDate": "${day(-30)}", "EndDate": "${day(0)}", "IncludeDetails": true }`,
			'',
			'### A driver\'s statistics, as the admin',
			`GET ${url}/indicators/admin/v3/Statistics?UserId=${USER.deviceToken}&StartDate=${day(-30)}&EndDate=${day(0)}&TransportType=Driver`,
			'Authorization: Bearer {{$processEnv TELEMATICS_TOKEN_ADMIN}}',
			'',
		].join('\n'));
		await wb.openFile('two-roles.http');
		const lenses = await waitFor('a lens over each reference', () => wb.codeLenses(), (l) => l.filter((lens) => /TELEMATICS_TOKEN_(USER|ADMIN): (user|admin) · valid for/.test(lens)).length === 2);
		assert.ok(lenses.some((l) => l.startsWith('TELEMATICS_TOKEN_USER: user')) && lenses.some((l) => l.startsWith('TELEMATICS_TOKEN_ADMIN: admin')), lenses.join(' | '));

		const received: Array<[string | undefined, number]> = [];
		for (const [index, variable] of ['TELEMATICS_TOKEN_USER', 'TELEMATICS_TOKEN_ADMIN'].entries()) {
			env.emulator.resetStats();
			// REST Client's own "Send Request" lens above each request, as a person clicks it.
			await wb.page.locator('.editor-instance .monaco-editor .codelens-decoration a', { hasText: 'Send Request' }).nth(index).click();
			const request = await waitFor(`REST Client's request with ${variable}`, async () => env.emulator.stats.requests.find((r) => /^\/(trips|indicators)\//.test(r.path)), (r) => r !== undefined, 90_000);
			received.push([request!.bearerRole, request!.status]);
		}
		assert.deepEqual(received, [['user', 200], ['admin', 200]], 'each request carries its own account\'s token, whichever is active, and the platform answers it');
		await wb.clearNotifications();
		await wb.runCommand('View: Close Primary Side Bar');
		await wb.screenshot('two-roles.png');
	});
});
