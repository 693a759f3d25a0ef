// A person types `telematics-token` into a real integrated terminal (code-server's node-pty, a login bash):
// the window asks first (telematicsAuth.terminalToken: "ask"), then the live token, and after the automatic
// refresh the new one in the same terminal without asking again, accepted by the service. Another terminal
// is asked again; denied, it gets no token and a non-zero exit.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_USERS } from '../emulator/rig';
import { makeTempDir } from '../host/codeServer';
import { logInAsUser, startE2e, type E2eEnvironment } from './environment';
import { waitFor } from './workbench';

const USER = DEMO_USERS[0]!;

/** Files under `root` whose bytes contain `text`. */
function filesHolding(root: string, text: string): string[] {
	const found: string[] = [];
	for (const entry of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
		const file = path.join(root, entry);
		const stat = fs.lstatSync(file);
		if (stat.isFile() && stat.size < 50_000_000 && fs.readFileSync(file).includes(text)) found.push(file);
	}
	return found;
}

describe('telematics-token in a real terminal (real VS Code in Chromium)', function () {
	this.timeout(180_000);
	let env: E2eEnvironment;
	let out: string;
	/** The first extension host's folder for the command (the last entry of a terminal's PATH, less `/bin`). */
	let firstWindowFolder: string | undefined;

	before(async function () {
		// No terminal of VS Code's own making when the window opens (it makes one for an open, empty panel):
		// the killed-host test counts on a window with no terminal until it opens one.
		env = await startE2e({ emulator: { accessTokenLifetimeSeconds: 40 }, settings: { 'terminal.integrated.hideOnStartup': 'always' } });
		await logInAsUser(env.workbench, USER);
		await env.workbench.waitForStatus(new RegExp(USER.name!));
		out = makeTempDir('terminal-out');
	});

	after(async function () {
		await env?.close();
	});

	/** Types `command` into the focused terminal and waits for the file it writes. */
	async function typeInTerminal(command: string, file: string, answer?: (dialog: string) => Promise<void>): Promise<string> {
		await env.workbench.typeInTerminal(out, command);
		if (answer) await answer(await env.workbench.waitForDialog(/asks for the token/));
		return waitFor(`${path.basename(file)} from the terminal`, async () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''), (text) => text.endsWith('\n'), 90_000);
	}

	/** What the emulator's protected resource answers to `header` (an `Authorization: Bearer …` line). */
	async function statusWith(header: string): Promise<number> {
		const [name, value] = header.trim().split(/:\s*/, 2) as [string, string];
		return (await fetch(`${env.emulator.url}/v1/Me`, { headers: { [name]: value } })).status;
	}

	it('prints the live token in a terminal opened after the extension started, and the refreshed one in the same terminal', async () => {
		const wb = env.workbench;
		await wb.openTerminal(out);
		// The first request from this terminal: the window asks, naming the terminal, the account and the command line.
		const first = await typeInTerminal(`telematics-token --header > ${out}/first.txt 2>${out}/first.err`, path.join(out, 'first.txt'), async (dialog) => {
			assert.match(dialog, /A program in the terminal ".+" asks for the token of /);
			assert.match(dialog, /telematics-token --header/, 'the command line that ran it');
			await wb.screenshot('terminal-token-question.png');
			await wb.clickDialogButton('Allow for This Terminal');
		});
		assert.match(first, /^Authorization: Bearer eyJ[\w-]+\.[\w-]+\.[\w-]*\n$/);
		assert.equal(await statusWith(first), 200, 'the service accepts the printed header');
		// The command's folder is on the PATH once, last: it can only answer for telematics-token.
		const entries = (await typeInTerminal(`echo "$PATH" > ${out}/path.txt`, path.join(out, 'path.txt'))).trim().split(':');
		firstWindowFolder = path.dirname(entries.at(-1)!);
		const ours = entries.filter((e) => /telematics-token/.test(e));
		assert.equal(ours.length, 1, `the PATH holds the command's folder ${ours.length} times: ${entries.join(':')}`);
		assert.equal(entries.at(-1), ours[0], 'appended, after everything else');

		// 40 s tokens are refreshed at half their life; the terminal stays open. Counted after the first token
		// was printed: on a busy machine a refresh can come before it, and the one after it is the one awaited.
		const refreshes = () => env.emulator.stats.requests.filter((r) => r.path.toLowerCase() === '/v1/auth/refreshtoken' && r.status === 200).length;
		const before = refreshes();
		await waitFor('an automatic refresh after the first token', async () => refreshes(), (n) => n > before, 60_000);
		// Allowed for this terminal: not asked again (a question would leave the command waiting, and no file).
		// The service answered the refresh a moment before the window holds the new token: run again until it does.
		let runs = 0;
		const second = await waitFor('the refreshed token in the same terminal', async () => {
			const name = `second-${++runs}.txt`;
			return typeInTerminal(`telematics-token --header > ${out}/${name} 2>&1`, path.join(out, name));
		}, (text) => text !== first, 60_000);
		assert.notEqual(second, first, 'the same terminal prints the new token');
		assert.equal(await statusWith(second), 200, `the service accepts the refreshed one: ${second.slice(0, 40)}`);
		assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'no question for the allowed terminal');

		// Another terminal is asked again; denied, it gets no token and a non-zero exit.
		await wb.openTerminal(out);
		const exit = await typeInTerminal(`telematics-token > ${out}/denied.txt 2>${out}/denied.err; echo "exit $?" > ${out}/denied.code`, path.join(out, 'denied.code'), async (dialog) => {
			assert.match(dialog, /A program in the terminal ".+" asks for the token of /);
			await wb.clickDialogButton('Deny');
		});
		assert.equal(exit, 'exit 1\n');
		assert.equal(fs.readFileSync(path.join(out, 'denied.txt'), 'utf8'), '', 'no token');
		assert.match(fs.readFileSync(path.join(out, 'denied.err'), 'utf8'), /Denied in VS Code/);

		// Nothing of VS Code's or the workspace's holds a token because of it.
		for (const header of [first, second]) {
			const token = header.trim().split(' ').at(-1)!;
			for (const root of [env.server.workspace, env.server.userDataDir]) assert.deepEqual(filesHolding(root, token), [], `${root} holds the token`);
		}
	});

	it('a window whose extension host was killed leaves its folder behind only until the next one has a terminal', async () => {
		assert.ok(firstWindowFolder && fs.existsSync(firstWindowFolder), `the first window's folder: ${firstWindowFolder}`);
		const wb = env.workbench;
		// The folder is cleaned by the first window that has a terminal. VS Code restarts a crashed extension
		// host by itself, and the window's terminals outlive its host: a restarted host would find them and
		// clean at once, racing this test's reload. So the terminals go first, and the window opened again
		// makes none of its own (hideOnStartup): it has none until the test opens one, and the order is the
		// test's, not the machine's.
		await wb.runCommand('Terminal: Kill All Terminals');
		await waitFor('the terminals gone', () => wb.page.locator('.terminal-wrapper .xterm').count(), (n) => n === 0, 60_000);
		const hosts = env.server.processesMatching('extensionHost');
		assert.ok(hosts.length > 0, 'the extension host runs');
		for (const pid of hosts) process.kill(pid, 'SIGKILL');
		await waitFor('the extension host gone', async () => env.server.processesMatching('extensionHost'), (p) => p.every((pid) => !hosts.includes(pid)), 60_000);
		// The person opens the window again: a new extension host, with the sessions read (the status bar).
		await wb.reload();
		await wb.waitForStatus(new RegExp(USER.name!));
		assert.equal(await wb.page.locator('.terminal-wrapper').count(), 0, 'the window opened again has no terminal');
		assert.ok(fs.existsSync(firstWindowFolder), 'a window without a terminal removed the dead window\'s folder');
		await wb.openTerminal(out);
		const root = path.dirname(firstWindowFolder);
		const folders = await waitFor('the dead window\'s folder gone, a live one in its place', async () => fs.readdirSync(root),
			(names) => !names.includes(path.basename(firstWindowFolder!)) && names.length >= 1, 60_000);
		assert.equal(folders.length, 1, `only the live window's folder stays: ${folders.join(', ')}`);
		assert.ok(fs.existsSync(path.join(root, folders[0]!, 'sock')), 'the live window listens');
	});
});
