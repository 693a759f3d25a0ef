// The first day: the VSIX in a fresh profile, its pictures and icon inside the package, then the walkthrough
// alone to a first authorized request sent by httpyac to the demo service. Prints the actions and the time.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as httpyac from 'httpyac';
import { launchBrowser, makeTempDir, startCodeServer, type RunningCodeServer } from '../host/codeServer';
import { projectRoot } from '../host/paths';
import { packageVsix, vsixEntries } from '../host/vsix';
import { Workbench, waitFor } from './workbench';

const SAMPLE = 'telematics-sample.http';

describe('The first day: from the installed VSIX to a first request (real VS Code in Chromium)', function () {
	this.timeout(300_000);
	let vsix: string;
	let server: RunningCodeServer;
	let wb: Workbench;
	let close: () => Promise<void>;

	before(async () => {
		vsix = packageVsix();
	});

	after(async () => {
		await close?.();
	});

	it('packs every bundle, every picture the README shows, the icon and the walkthrough, and nothing else', () => {
		const entries = vsixEntries(vsix);
		const readme = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
		const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
		assert.ok(pictures.length >= 5, `${pictures.length} pictures`);
		for (const picture of pictures) {
			if (/^https:\/\//.test(picture)) continue;
			assert.ok(entries.includes(`extension/${picture}`), `${picture} is in the VSIX`);
			assert.ok(fs.statSync(path.join(projectRoot, picture)).size <= 200 * 1024, `${picture} is small`);
		}
		const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { icon: string; repository: { url: string } };
		assert.ok(entries.includes(`extension/${manifest.icon}`), 'the icon is in the VSIX');
		const icon = fs.readFileSync(path.join(projectRoot, manifest.icon));
		assert.deepEqual([icon.readUInt32BE(16), icon.readUInt32BE(20)], [128, 128], 'the icon is 128×128');
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is plain CommonJS
		const { buildOptions } = require(path.join(projectRoot, 'esbuild.js')) as { buildOptions(o: object): { entryPoints: Record<string, string> } };
		for (const bundle of Object.keys(buildOptions({ outdir: 'dist', production: true }).entryPoints)) {
			assert.ok(entries.includes(`extension/dist/${bundle}.js`), `dist/${bundle}.js is in the VSIX`);
		}
		for (const entry of entries) {
			assert.doesNotMatch(entry, /^extension\/(src|test|out|node_modules|scripts)\/|\.map$|\.ts$|\.vsix$/, `${entry} does not belong in the VSIX`);
		}
	});

	it('the walkthrough alone takes a fresh profile to a 200 with a live token, in under two minutes', async () => {
		server = await startCodeServer({ installExtensions: [vsix] });
		const browser = await launchBrowser({ persistentProfile: makeTempDir('chromium'), origin: server.url });
		close = async () => {
			await browser.close();
			await server.stop();
		};
		const page = browser.context.pages()[0] ?? await browser.context.newPage();
		wb = new Workbench(page);
		await wb.open(server.workbenchUrl()); // no development path: the installed VSIX
		const started = Date.now();
		let actions = 0;
		const act = async <T>(what: () => Promise<T>): Promise<T> => {
			actions++;
			return what();
		};

		// Open the walkthrough (VS Code opens it by itself after an install from the Marketplace).
		await act(() => wb.typeCommand('Welcome: Open Walkthrough...'));
		await act(() => wb.chooseRow('Welcome: Open Walkthrough...'));
		await act(() => wb.chooseRow('Get Started with Telematics Auth'));
		const container = page.locator('.gettingStartedContainer');
		await container.waitFor({ state: 'visible' });
		await wb.screenshot('walkthrough-1-login.png');

		// 1. Log in with the built-in demo service: no credentials needed.
		await act(() => container.getByText('Try the demo service', { exact: true }).click());
		await wb.waitForStatus(/Demo Driver/);
		await waitFor('the login step done', () => stepDone(page, 'Log in'), (done) => done);

		// 2. The status bar: a click shows the account's actions.
		await act(() => container.getByText('Watch the status bar', { exact: true }).click());
		await wb.screenshot('walkthrough-2-status-bar.png');
		await act(() => page.locator('.statusbar-item[id$="telematicsAuth.status"]').click());
		await wb.waitForQuickInput(/Demo Driver|Refresh|Copy/);
		await act(() => wb.closeQuickInput());
		await waitFor('the status bar step done', () => stepDone(page, 'Watch the status bar'), (done) => done);

		// 3. The sample .http file, and the header inserted into it.
		await act(() => container.getByText('Insert the header into a request', { exact: true }).click());
		// The step open before its button is pressed: a press while it still unfolds went nowhere (a busy machine).
		await container.locator('.getting-started-step[aria-expanded="true"]', { hasText: 'Insert the header into a request' }).waitFor({ state: 'visible', timeout: 90_000 });
		await act(() => container.getByText('Open the Sample', { exact: true }).click());
		await waitFor('the sample', async () => fs.existsSync(path.join(server.workspace, SAMPLE)), (ok) => ok);
		// As a person would: the sample is on screen before they click the next link.
		await waitFor('the sample in an editor', () => page.locator('.monaco-editor .view-lines').allInnerTexts(), (texts) => texts.some((t) => t.includes('/trips/get/v1/')));
		await act(() => container.getByText('Insert Authorization Header', { exact: true }).click());
		await waitFor('the header in the sample', () => page.locator('.monaco-editor .view-lines').allInnerTexts(), (texts) => texts.some((t) => /Authorization:\s*Bearer\s+eyJ/.test(t)));
		await waitFor('the insert step done', () => stepDone(page, 'Insert the header into a request'), (done) => done);
		await wb.screenshot('walkthrough-3-insert.png');

		// 4. How other tools get the token.
		await act(() => container.getByText('Choose how other tools get the token', { exact: true }).click());
		await act(() => container.getByText('Choose…', { exact: true }).click());
		await wb.waitForQuickInput(/How should other tools get the live token/);
		await act(() => page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Process environment' }).first().click());
		await waitFor('the tools step done', () => stepDone(page, 'Choose how other tools get the token'), (done) => done);
		await wb.screenshot('walkthrough-4-tools.png');

		// The sample, saved, sent by a real REST client: 200 with the live token.
		await act(() => page.keyboard.press('Control+S'));
		const file = path.join(server.workspace, SAMPLE);
		await waitFor('the saved sample', async () => fs.readFileSync(file, 'utf8'), (text) => /Authorization: Bearer eyJ/.test(text));
		const elapsed = (Date.now() - started) / 1000;
		const answers = await sendWithHttpyac(file);
		assert.deepEqual(answers.map((a) => a.status), [200], 'the sample gets a 200 from the demo service');
		assert.ok((JSON.parse(answers[0]!.body) as { Result: { Trips: unknown[] } }).Result.Trips.length > 0, 'with the demo driver\'s trips');
		console.log(`      [first day] ${actions} user actions, ${elapsed.toFixed(1)} s from the installed VSIX to a first authorized request`);
		assert.ok(elapsed < 120, `${elapsed} s`);
	});
});

/** Whether the walkthrough shows the step titled `title` as done (its check icon filled). */
async function stepDone(page: import('playwright-core').Page, title: string): Promise<boolean> {
	const step = page.locator('.getting-started-step', { has: page.locator('.step-title', { hasText: title }) }).first();
	const checked = step.locator('.codicon-pass-filled, .codicon-getting-started-step-checked, .complete');
	const classes = (await step.getAttribute('class').catch(() => '')) ?? '';
	return /\bcomplete\b/.test(classes) || (await checked.count()) > 0;
}

async function sendWithHttpyac(file: string): Promise<Array<{ status: number | 'not sent'; body: string }>> {
	httpyac.cli.initFileProvider();
	await httpyac.cli.initIOProvider();
	const text = fs.readFileSync(file, 'utf8');
	const httpFile = await new httpyac.store.HttpFileStore().getOrCreate(file, async () => text, Date.now(), { workingDir: path.dirname(file) });
	const answers: Array<{ status: number | 'not sent'; body: string }> = [];
	await httpyac.send({ httpFile, logResponse: async (response) => void answers.push({ status: response ? response.statusCode : 'not sent', body: String(response?.body ?? '') }) });
	return answers.length ? answers : [{ status: 'not sent', body: '' }];
}
