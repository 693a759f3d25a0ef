// The agent's list of operations (core/agent/operationsList.ts): what it finds for words, a host, a kind or
// one id, with the account kind each needs and whether it changes data, and nothing it cannot find.
import * as assert from 'node:assert/strict';
import { describeOperations, DETAILED_OPERATIONS } from '../../src/core/agent/operationsList';
import { SHIPPED as platform } from '../../src/core/platform/catalog';
import { loadPlatform } from '../../src/core/platform/load';

const list = (input: unknown): string => describeOperations(input, platform);

describe('the agent\'s operations list', () => {
	it('finds operations by words, with the id, method, host, path, the kind needed and the effect', () => {
		const text = list({ query: '/trips/get' });
		assert.match(text, /^4 of the platform's \d+ operations match "\/trips\/get"\./);
		assert.ok(text.includes('- trips.user.list: POST api /trips/get/v1/ — The signed-in user\'s trips; needs a user account; reads only.'), text);
		assert.ok(text.includes('- trips.admin.list: POST api /trips/get/admin/v1 — A user\'s trips (admin); needs an admin account; reads only.'), text);
		assert.match(text, /Identifiers\.UserId \(body, string, required, e\.g\. "00000000-0000-0000-0000-000000000000"\)/, 'a few come with their parameters');
	});

	it('says which cannot be undone, and that the person is asked', () => {
		assert.match(list({ operation: 'users.delete' }), /^- users\.delete: DELETE user \/v1\/Management\/users\/\{DeviceToken\} — .*changes data and cannot be undone \(Delete the user and all their data; the person is asked first\)\.\n {2}Parameters:\n {4}- DeviceToken \(path, string, required\)/);
	});

	it('narrows by host and kind; lists many in one line each, and all of them for no words', () => {
		const accounts = list({ host: 'accounts' });
		assert.ok(accounts.split('\n').filter((l) => l.startsWith('- ')).every((l) => / accounts \//.test(l)));
		const user = list({ kind: 'user', query: 'indicators' });
		assert.ok(user.split('\n').filter((l) => l.startsWith('- ')).every((l) => l.includes('needs a user account')));
		assert.match(user, /Parameters are listed for 8 operations or fewer/);
		const all = list({});
		assert.equal(all.split('\n').filter((l) => l.startsWith('- ')).length, platform.OPERATIONS.length);
		assert.ok(platform.OPERATIONS.length > DETAILED_OPERATIONS);
	});

	it('says what to do when nothing matches or the input is wrong', () => {
		assert.match(list({ query: 'teleportation' }), /No operation matches "teleportation"/);
		assert.match(list({ operation: 'nope' }), /No operation has the id "nope"/);
		assert.match(list({ host: 'https://api.telematicssdk.com' }), /"host" must be one of "user", "api", "accounts", "portal"/);
		assert.match(list({ kind: 'root' }), /"kind" must be "admin" or "user"/);
		assert.match(list('trips'), /operations\./, 'input that is no object lists them all');
	});

	it('loads the description on first use, once', async () => {
		const first = await loadPlatform();
		assert.equal(await loadPlatform(), first);
		assert.equal(first.operationById('trips.user.list')?.host, 'api');
	});
});
