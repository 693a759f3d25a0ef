// The Accounts view in the real extension host, against the in-process emulator: account
// nodes, their rows and claims, the context values the menus match, expiry and logout.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_ADMINS, DEMO_USERS, startEmulator, type RunningEmulator } from '../../src/emulator/server';
import type { Session } from '../../src/session/types';
import type { TestApi } from '../../src/testApi';
import type { TreeSnapshotNode as TreeNodeSnapshot } from '../../src/ui/accountsTree';
import type { Prompter } from '../../src/ui/prompter';

const EXTENSION_ID = 'telematics-tools.telematics-auth';

async function testApi(): Promise<TestApi> {
	const api = await vscode.extensions.getExtension<TestApi>(EXTENSION_ID)!.activate();
	assert.ok(api, 'the TestApi is returned in test mode');
	// Activation does not wait for SecretStorage; the stored sessions are read right after.
	await api.services.store.ready;
	return api;
}

function answering(emu: RunningEmulator, kind: 'user' | 'admin'): Prompter {
	const user = DEMO_USERS[0]!;
	const admin = DEMO_ADMINS[0]!;
	const values = kind === 'user'
		? { serviceUrl: emu.url, instanceId: user.instanceId, login: user.deviceToken, password: user.instanceKey }
		: { serviceUrl: emu.url, instanceId: admin.instanceId, login: admin.email, password: admin.password };
	return {
		pickKind: async () => kind,
		ask: async (step) => ({ value: values[step.field] }),
		confirm: async () => true,
	};
}

async function logIn(api: TestApi, emu: RunningEmulator, kind: 'user' | 'admin'): Promise<Session> {
	api.setPrompter(answering(emu, kind));
	const session = await vscode.commands.executeCommand<Session | undefined>(kind === 'admin' ? 'telematicsAuth.loginAdmin' : 'telematicsAuth.loginUser');
	assert.ok(session, `login as ${kind} succeeded`);
	return session;
}

/** The account nodes, rows and claims expanded. */
async function accounts(api: TestApi): Promise<TreeNodeSnapshot[]> {
	return (await api.tree()).accounts;
}

async function logOutAll(api: TestApi): Promise<void> {
	for (const s of api.services.store.list()) await api.services.store.remove(s.account.id);
}

async function until(what: string, predicate: () => Promise<boolean>, timeoutMs = 8000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await predicate())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
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

const settings = () => vscode.workspace.getConfiguration('telematicsAuth');

describe('Accounts view (real VS Code)', () => {
	let api: TestApi;
	let emu: RunningEmulator;

	before(async () => {
		api = await testApi();
		emu = await startEmulator({ loginRateLimit: { max: 1000, windowSeconds: 60, blockSeconds: 1 } });
		await settings().update('baseUrl', emu.url, vscode.ConfigurationTarget.Global);
	});

	beforeEach(async () => {
		await logOutAll(api);
		emu.setAccessTokenLifetime(7200);
	});

	after(async () => {
		await logOutAll(api);
		api.setPrompter(undefined);
		await settings().update('autoRefresh', undefined, vscode.ConfigurationTarget.Global);
		await settings().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
		await emu.close();
	});

	it('is empty without accounts (the welcome view shows then)', async () => {
		assert.deepEqual(await accounts(api), []);
	});

	it('lists a user and an admin in login order, the active one marked, with menu context values', async () => {
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		const tree = await accounts(api);
		assert.deepEqual(tree.map((n) => n.label), [user.account.label, admin.account.label]);
		const [userNode, adminNode] = tree as [TreeNodeSnapshot, TreeNodeSnapshot];
		assert.match(userNode.description ?? '', /^(2h 0m|1h 59m)$/);
		assert.match(adminNode.description ?? '', /^active · (2h 0m|1h 59m)$/);
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
		assert.ok(masked.includes('…') && !masked.includes(DEMO_USERS[0]!.deviceToken), `masked: ${masked}`);
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
		await settings().update('autoRefresh', false, vscode.ConfigurationTarget.Global);
		try {
			emu.setAccessTokenLifetime(2);
			await logIn(api, emu, 'admin');
			await until('the node says expired', async () => (await accounts(api))[0]?.description === 'active · expired');
			const [node] = await accounts(api);
			assert.equal(node!.contextValue, 'account.admin.active.expired');
			assert.match(node!.contextValue ?? '', /^account.*expired/, 'matches the loginAgain menu clause');
			assert.match(child(node!, 'Access token expiry').description ?? '', /\(expired\)$/);
		} finally {
			await settings().update('autoRefresh', undefined, vscode.ConfigurationTarget.Global);
		}
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
