// A person runs an agent in a real integrated terminal (the MCP SDK's own client, which starts
// `telematics-mcp` from the terminal's PATH): the window asks about the session, naming the terminal and the
// program, and the person allows it; the agent reads the user's profile from the demo platform; its change
// is asked about with the body shown, and refused, never reaches the service. Saves the question's picture.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_USERS } from '../emulator/rig';
import { makeTempDir } from '../host/codeServer';
import type { McpCallSpec, McpRun } from '../support/mcpClient';
import { logInAsUser, startE2e, type E2eEnvironment } from './environment';
import { waitFor } from './workbench';

const USER = DEMO_USERS[0]!;
const CLIENT = path.resolve(__dirname, '../support/mcpClient.js');

describe('telematics-mcp in a real terminal (real VS Code in Chromium)', function () {
	this.timeout(180_000);
	let env: E2eEnvironment;

	before(async function () {
		env = await startE2e();
		await logInAsUser(env.workbench, USER);
		await env.workbench.waitForStatus(new RegExp(USER.name!));
	});
	after(async function () {
		await env?.close();
	});

	it('asks about the agent\'s session once, answers its reads, and asks about its change with the body shown', async () => {
		const wb = env.workbench;
		const out = makeTempDir('mcp-agent');
		const calls: McpCallSpec[] = [
			{ name: 'telematics_accounts' },
			{ name: 'telematics_request', arguments: { operation: 'users.me' } },
			{ name: 'telematics_request', arguments: { method: 'PATCH', path: '/v1/Management/users', body: { FirstName: 'Changed by the agent' } } },
		];
		fs.writeFileSync(path.join(out, 'calls.json'), JSON.stringify(calls));
		const result = path.join(out, 'run.json');

		await wb.openTerminal(out);
		await wb.typeInTerminal(out, `'${process.execPath}' '${CLIENT}' '${path.join(out, 'calls.json')}' '${result}'`);

		const session = await wb.waitForDialog(/asks to use your Telematics accounts/).catch((error: Error) => {
			const agent = fs.existsSync(result) ? fs.readFileSync(result, 'utf8') : 'no result yet: the agent still waits for an answer';
			throw new Error(`${error.message}\nthe agent's run: ${agent}`);
		});
		assert.match(session, /A program in the terminal ".+" asks to use your Telematics accounts through telematics-mcp/);
		assert.match(session, /telematics-mcp \(run by node .*mcpClient\.js/, 'the program that started it');
		await wb.screenshot('mcp-question.png');
		await wb.clickDialogButton('Allow for This Session');

		const change = await wb.waitForDialog(/Send PATCH/, 60_000);
		assert.match(change, /"FirstName": ?"Changed by the agent"/, 'the body is shown');
		await wb.clickDialogButton('Cancel');

		const text = await waitFor('the agent\'s result', async () => (fs.existsSync(result) ? fs.readFileSync(result, 'utf8') : ''), (t) => t.endsWith('}'), 60_000);
		const run = JSON.parse(text) as McpRun;
		assert.equal(run.error, undefined, run.stderr);
		const [accounts, profile, refused] = run.calls;
		assert.match(accounts!.text, /"user" \(.*\): user, active/);
		assert.match(profile!.text, /HTTP 200/);
		assert.match(profile!.text, /"FirstName": /);
		assert.deepEqual(refused, { isError: true, text: 'The person refused this request in VS Code. Nothing was sent.' });
		assert.equal(env.emulator.stats.requests.filter((r) => r.method === 'PATCH').length, 0, 'the change never reached the service');
		assert.doesNotMatch(text, /eyJ[\w-]{4,}\.[\w-]{4,}/, 'nothing token-shaped reached the agent');
	});
});
