// Production accounts in the real host, against the emulator: marked and unmarked through the commands, shown
// by the status bar (warning background, the word spoken), the Accounts view, the tooltips and the pickers;
// the agent's changing request to one asks from inside the tool (the modal answered by the scripted
// Prompter, as chat's auto-approve would leave it), refused it sends nothing, "Allow for 10 Minutes" lets
// the next go; an irreversible operation asks on any account, snoozed or not; the active account is never
// switched into production by a logout.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RiggedEmulator } from '../emulator/rig';
import type { AccountResult, Session } from '../../src/core/sessions/types';
import { RequestTool } from '../../src/features/agentTools/agentTools';
import type { TestApi } from './testApi';
import { logIn, ScriptedPrompter, useEmulatorSuite } from './loginHelpers';

function textOf(result: vscode.LanguageModelToolResult): string {
	return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

const invoke = async (input: object): Promise<string> =>
	textOf(await vscode.lm.invokeTool('telematics_request', { input, toolInvocationToken: undefined }));

describe('Production accounts (real VS Code)', function () {
	this.timeout(120_000);
	let api: TestApi;
	let emu: RiggedEmulator;

	useEmulatorSuite({ rateLimit: 'lifted', logOutBetweenTests: true }, (started) => ({ api, emu } = started));

	/** A prompter that answers the modal questions (and confirms), recording them. */
	const answering = (): ScriptedPrompter => {
		const prompter = new ScriptedPrompter([]);
		api.setPrompter(prompter);
		return prompter;
	};
	const mark = (session: Session): Thenable<AccountResult | undefined> => vscode.commands.executeCommand<AccountResult | undefined>('telematicsAuth.markProduction', { accountId: session.account.id });

	it('a loopback login is not production; marked, it shows everywhere; unmarked after a confirmation, it no longer does', async () => {
		const user = await logIn(api, emu, 'user');
		assert.equal(user.account.production, undefined);
		assert.equal(api.statusBar().backgroundColor, undefined, 'the demo and loopback are not production');
		assert.doesNotMatch(api.messages().at(-1)?.text ?? '', /production/i, 'a loopback login asks nothing about production');

		assert.ok(await mark(user));
		assert.equal(api.services.store.get(user.account.id)?.account.production, true);
		const bar = api.statusBar();
		assert.equal(bar.backgroundColor, 'statusBarItem.warningBackground');
		assert.match(bar.text, /PRODUCTION/);
		assert.match(bar.accessibilityText, /^production: /);
		assert.match(bar.tooltip, /Production account/);
		assert.match(bar.tooltip, /command:telematicsAuth\.unmarkProduction/);
		const node = (await api.tree()).accounts[0]!;
		assert.match(node.description ?? '', /PRODUCTION/);
		assert.match(node.contextValue ?? '', /\.production$/);
		assert.equal(node.icon, 'flame');
		assert.match(node.tooltip ?? '', /Production account/);

		const declining = new ScriptedPrompter([], 'user', false);
		api.setPrompter(declining);
		assert.equal(await vscode.commands.executeCommand('telematicsAuth.unmarkProduction', { accountId: user.account.id }), undefined);
		assert.match(declining.confirmations[0] ?? '', /^Unmark user as production\?/);
		assert.equal(api.services.store.get(user.account.id)?.account.production, true, 'declined: still production');
		answering();
		assert.ok(await vscode.commands.executeCommand('telematicsAuth.unmarkProduction', { accountId: user.account.id }));
		assert.equal(api.services.store.get(user.account.id)?.account.production, false);
		assert.equal(api.statusBar().backgroundColor, undefined);
	});

	it('the pickers say which account is production; Mark from the palette offers only the others', async () => {
		const user = await logIn(api, emu, 'user');
		await logIn(api, emu, 'admin');
		await mark(user);
		const prompter = answering();
		prompter.accountPicks.push('user');
		await vscode.commands.executeCommand('telematicsAuth.switchAccount');
		assert.deepEqual(prompter.choicesOffered[0]?.map((c) => [c.name, c.production]), [['user', true], ['admin', false]]);
		assert.equal(api.services.store.active()?.account.id, user.account.id, 'the person switched into it');
		prompter.accountPicks.push('admin');
		await vscode.commands.executeCommand('telematicsAuth.markProduction');
		assert.deepEqual(prompter.accountsOffered.at(-1)?.names, ['admin'], 'only the accounts not yet production');
		assert.equal(api.services.store.list().every((s) => s.account.production === true), true);
	});

	it('the agent\'s POST to a production account asks with a modal from inside the tool: refused, nothing is sent', async () => {
		const user = await logIn(api, emu, 'user');
		await mark(user);
		const prompter = answering();
		emu.resetStats();
		const refused = await invoke({ method: 'POST', path: '/v1/Trips', body: { name: 'x' } });
		assert.match(refused, /^The person refused this request \(a changing request to the production account user: POST http:\/\/127\.0\.0\.1:\d+\/v1\/Trips\)\. Nothing was sent\./);
		assert.equal(emu.stats.requests.length, 0, 'nothing reached the service');
		const asked = prompter.sendAsked[0];
		assert.ok(asked);
		assert.deepEqual({ kind: asked.question.kind, account: asked.account, method: asked.method, url: asked.url, body: asked.body, snooze: asked.offerSnooze },
			{ kind: 'production', account: 'user', method: 'POST', url: `${emu.url}/v1/Trips`, body: '{"name":"x"}', snooze: true });

		const prepared = await new RequestTool(api.services).prepareInvocation({ input: { method: 'POST', path: '/v1/Trips' } });
		assert.equal(prepared.confirmationMessages?.title, 'Send POST to the production account user?', 'VS Code\'s own confirmation says it too');
		assert.match(await vscode.lm.invokeTool('telematics_accounts', { input: {}, toolInvocationToken: undefined }).then(textOf), /- "user" \(.*\): user, production \(changing requests ask the person\), active;/);

		prompter.sendAnswers.push('send');
		assert.match(await invoke({ method: 'POST', path: '/v1/Trips', body: { name: 'x' } }), /^POST .* → HTTP 404/);
		assert.equal(prompter.sendAsked.length, 2);
		assert.match(await invoke({ method: 'GET', path: '/v1/Me' }), /HTTP 200/);
		assert.equal(prompter.sendAsked.length, 2, 'a read asks nothing');
		assert.deepEqual(emu.stats.requests.map((r) => r.method), ['POST', 'GET']);
	});

	it('"Allow for 10 Minutes" sends it and the next changing requests to that account; an irreversible one still asks', async () => {
		// An admin: deleting a user is an admin's operation, so a user account would be refused before any question.
		const admin = await logIn(api, emu, 'admin');
		await mark(admin);
		const prompter = answering();
		prompter.sendAnswers.push('snooze');
		emu.resetStats();
		for (const method of ['POST', 'PUT', 'PATCH']) assert.match(await invoke({ method, path: '/v1/Trips' }), new RegExp(`^${method} .* → HTTP`));
		assert.equal(prompter.sendAsked.length, 1, 'asked once');
		const irreversible = await invoke({ method: 'DELETE', path: '/v1/Management/users/device-42' });
		assert.match(irreversible, /^The person refused this request \(Delete the user and all their data \(DeviceToken "device-42"\)/);
		assert.equal(prompter.sendAsked.length, 2);
		assert.equal(prompter.sendAsked[1]?.offerSnooze, false, 'no snooze on what cannot be undone');
		assert.deepEqual(emu.stats.requests.map((r) => r.method), ['POST', 'PUT', 'PATCH']);
	});

	it('an irreversible operation asks on an account that is not production, with its name and target', async () => {
		await logIn(api, emu, 'admin');
		const prompter = answering();
		emu.resetStats();
		assert.match(await invoke({ method: 'DELETE', path: '/v1/Instances/inst-7' }), /refused this request \(Delete the instance \(InstanceId "inst-7"\)/);
		assert.match(await invoke({ method: 'POST', path: '/v1/Management/users/instances/change', body: { DeviceToken: 'd', ToInstanceId: 'i' } }), /refused this request \(Move the user to another instance \(DeviceToken "d", ToInstanceId "i"\)/);
		assert.equal(emu.stats.requests.length, 0, 'nothing was sent');
		assert.deepEqual(prompter.sendAsked.map((q) => [q.question.kind, q.offerSnooze]), [['irreversible', false], ['irreversible', false]]);
		prompter.sendAnswers.push('send');
		assert.match(await invoke({ method: 'DELETE', path: '/v1/Instances/inst-7' }), /^DELETE .* → HTTP/);
		assert.equal(emu.stats.requests.length, 1);
		assert.match(await invoke({ method: 'POST', path: '/v1/Trips' }), /^POST .* → HTTP/, 'an ordinary change to a non-production account asks only VS Code\'s own confirmation');
		assert.equal(prompter.sendAsked.length, 3);
	});

	it('logging out of the active account never switches into a production one: none is active, and the status bar asks to choose', async () => {
		const user = await logIn(api, emu, 'user');
		const admin = await logIn(api, emu, 'admin');
		await mark(user);
		assert.equal(api.services.store.active()?.account.id, admin.account.id);
		await api.services.store.remove(admin.account.id);
		assert.equal(api.services.store.active(), undefined);
		const bar = api.statusBar();
		assert.match(bar.text, /Choose Account/);
		assert.equal(bar.command, 'telematicsAuth.switchAccount');
		assert.match(await invoke({ method: 'GET', path: '/v1/Me' }), /No Telematics account is active\. Name one: "user"\./);
	});
});
