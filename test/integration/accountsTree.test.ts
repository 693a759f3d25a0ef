// The Accounts view in the real extension host, against the in-process emulator: account
// nodes, their rows and claims, the context values the menus match, expiry and logout.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_ADMINS, DEMO_USERS, type RiggedEmulator } from '../emulator/rig';
import type { TestApi } from './testApi';
import type { TreeSnapshotNode as TreeNodeSnapshot } from './testApi';
import { logIn, until, useEmulatorSuite, withSetting } from './loginHelpers';

/** The account nodes, rows and claims expanded. */
async function accounts(api: TestApi): Promise<TreeNodeSnapshot[]> {
	return (await api.tree()).accounts;
}

function child(node: TreeNodeSnapshot, label: string): TreeNodeSnapshot {
	const found = node.children.find((c) => c.label === label);
	assert.ok(found, `${node.label} has a "${label}" row`);
	return found;
}

/** Every label, description and tooltip in the tree, markdown escapes removed. */
function shownText(nodes: TreeNodeSnapshot[]): string {
	return nodes.map((n) => [n.label, n.description ?? '', (n.tooltip ?? '').replace(/\\(.)/g, '$1'), shownText(n.children)].join('\n')).join('\n');
}

describe('Accounts view (real VS Code)', () => {
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true, accessTokenLifetimeSeconds: 7200, resetsSettings: ['autoRefresh'] }, (started) => ({ api, emu } = started));

	it('is empty without accounts (the welcome view shows then)', async () => {
		assert.deepEqual(await accounts(api), []);
	});

	it('lists a user and an admin in login order, the active one marked, with menu context values', async () => {
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		const tree = await accounts(api);
		assert.deepEqual(tree.map((n) => n.label), [user.account.label, admin.account.label]);
		const [userNode, adminNode] = tree as [TreeNodeSnapshot, TreeNodeSnapshot];
		// The short name first: what files, terminals and the agent call the account.
		assert.match(userNode.description ?? '', /^user · (2h 0m|1h 59m)$/);
		assert.match(adminNode.description ?? '', /^admin · active · (2h 0m|1h 59m)$/);
		assert.equal(userNode.contextValue, 'account.user');
		assert.equal(adminNode.contextValue, 'account.admin.active');
		assert.ok(adminNode.tooltip?.includes('Admin'));

		await vscode.commands.executeCommand('telematicsAuth.makeActive', { accountId: user.account.id });
		const after = await accounts(api);
		assert.equal(after[0]!.contextValue, 'account.user.active');
		assert.equal(after[1]!.contextValue, 'account.admin');
	});

	it('shows the account facts as rows, the device token masked, and the token claims', async () => {
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		const [userNode, adminNode] = (await accounts(api)) as [TreeNodeSnapshot, TreeNodeSnapshot];

		assert.deepEqual(userNode.children.map((c) => c.label), ['Service', 'Instance ID', 'Device token', 'Access token expiry', 'Refresh token', 'Last refresh', 'Token claims']);
		assert.deepEqual(adminNode.children.map((c) => c.label), ['Service', 'Instance ID', 'Access token expiry', 'Refresh token', 'Last refresh', 'Token claims']);
		assert.equal(child(userNode, 'Service').description, emu.url);
		assert.equal(child(userNode, 'Instance ID').description, DEMO_USERS[0]!.instanceId);
		assert.equal(child(adminNode, 'Instance ID').description, DEMO_ADMINS[0]!.instanceId);
		const masked = child(userNode, 'Device token').description ?? '';
		assert.ok(masked.startsWith('••••') && masked.length <= 8 && !masked.includes(DEMO_USERS[0]!.deviceToken), `masked: ${masked}`);
		assert.match(child(adminNode, 'Access token expiry').description ?? '', /\(in (2h 0m|1h 59m)\)$/);
		assert.equal(child(adminNode, 'Refresh token').description, 'present');
		assert.equal(child(adminNode, 'Last refresh').description, 'never');

		const claims = child(adminNode, 'Token claims').children.map((c) => c.label);
		assert.ok(claims.includes('role: admin'), claims.join(', '));
		assert.ok(claims.includes(`instanceId: ${DEMO_ADMINS[0]!.instanceId}`));
		assert.ok(claims.some((c) => c.startsWith('exp: ') && !/^exp: \d{9,}$/.test(c)), 'exp is a clock time');

		const text = shownText(await accounts(api));
		for (const s of [user, admin]) {
			const tokens = api.services.store.get(s.account.id)!.tokens!;
			assert.ok(!text.includes(tokens.accessToken), 'no access token in the tree');
			assert.ok(!text.includes(tokens.refreshToken), 'no refresh token in the tree');
			if (tokens.deviceToken) assert.ok(!text.includes(tokens.deviceToken), 'no device token in the tree');
		}
	});

	it('marks an expired account for the Log In Again menu', async () => {
		await withSetting('autoRefresh', false, async () => {
			emu.setAccessTokenLifetime(2);
			await logIn(api, emu, 'admin');
			await until('the node says expired', async () => (await accounts(api))[0]?.description === 'admin · active · expired');
			const [node] = await accounts(api);
			assert.equal(node!.contextValue, 'account.admin.active.expired');
			assert.match(node!.contextValue ?? '', /^account.*expired/, 'matches the loginAgain menu clause');
			assert.match(child(node!, 'Access token expiry').description ?? '', /\(expired\)$/);
		});
	});

	it('drops an account after logout', async () => {
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		await vscode.commands.executeCommand('telematicsAuth.logout', { accountId: user.account.id });
		const tree = await accounts(api);
		assert.deepEqual(tree.map((n) => n.label), [admin.account.label]);
		await vscode.commands.executeCommand('telematicsAuth.logout', { accountId: admin.account.id });
		assert.deepEqual(await accounts(api), []);
	});
});
