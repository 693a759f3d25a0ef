// "Try the Built-in Demo Service" and "Open a Sample .http File": a live token and a first request
// without credentials. The demo service (the emulator, dist/demo.js) listens on 127.0.0.1 while the window is open.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import { accountResult, type Session } from '../../core/sessions/types';
import { sampleHosts, sampleText } from '../../core/platform/sample';
import { logIn } from '../login/logIn';
import { readRegularFile } from '../../system/regularFile';
import { Command } from '../../commands';
import { registerCommand } from '../commands/registerCommand';

type DemoModule = typeof import('../../emulator/server');

export class DemoService implements vscode.Disposable {
	private running: Promise<{ url: string; module: DemoModule; close(): Promise<void> }> | undefined;

	/** Starts the demo service once per window; its URL. */
	start(): Promise<{ url: string; module: DemoModule }> {
		this.running ??= import('../../emulator/server').then(async (module) => {
			const emulator = await module.startEmulator({ host: '127.0.0.1', port: 0 });
			return { url: emulator.url, module, close: () => emulator.close() };
		});
		this.running.catch(() => (this.running = undefined));
		return this.running;
	}

	dispose(): void {
		void this.running?.then((r) => r.close(), () => undefined);
	}
}

/** Starts the demo service and logs in as its demo driver. */
export async function tryDemo(services: Services, demo: DemoService): Promise<Session | undefined> {
	const { url, module } = await demo.start();
	const user = module.DEMO_USERS[0]!;
	services.log.info(`Started the built-in demo service at ${url}.`);
	return logIn(services, 'user', { serviceUrl: url, instanceId: user.instanceId, login: user.deviceToken, password: user.instanceKey }, () => tryDemo(services, demo));
}


export const SAMPLE_FILE = 'telematics-sample.http';

/**
 * The sample file in the first workspace folder when this extension wrote it (it holds exactly the
 * sample for `serviceUrl`), created when missing; undefined when the folder is untrusted or holds
 * another file of that name (planted, or edited since): the walkthrough never opens one it did not write.
 */
async function ownSampleFile(serviceUrl: string, apiHost: string): Promise<vscode.Uri | undefined> {
	const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
	if (!folder || !vscode.workspace.isTrusted) return undefined;
	const file = join(folder.uri.fsPath, SAMPLE_FILE);
	try {
		await writeFile(file, sampleText(serviceUrl, apiHost), { flag: 'wx', mode: 0o644 });
		return vscode.Uri.file(file);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
	}
	const existing = await readRegularFile(file);
	const ours = existing.kind === 'text' && [sampleText(serviceUrl, apiHost), sampleText(serviceUrl, apiHost, '\r\n')].includes(existing.text);
	return ours ? vscode.Uri.file(file) : undefined;
}

/** Writes the sample into the first workspace folder (an untitled file when that cannot be ours) and opens it. */
export async function openSample(services: Services): Promise<vscode.TextEditor | undefined> {
	const configured = services.store.active()?.account.serviceUrl ?? services.config.baseUrl();
	// The URLs go into a file: only plain http(s) URLs, else a placeholder to edit.
	const { serviceUrl, apiHost } = sampleHosts(configured, services.config.platformHosts());
	const own = await ownSampleFile(serviceUrl, apiHost);
	const document = own
		? await vscode.workspace.openTextDocument(own)
		: await vscode.workspace.openTextDocument({ language: 'http', content: sampleText(serviceUrl, apiHost) });
	// Beside the walkthrough, so its next button stays in view.
	const editor = await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside });
	const line = document.getText().split(/\r?\n/).findIndex((l) => l.startsWith('POST '));
	if (line >= 0) editor.selection = new vscode.Selection(line, 0, line, 0);
	return editor;
}

/** The walkthrough's commands: Try the Built-in Demo Service, Open a Sample .http File. */
export function registerWalkthroughCommands(services: Services): vscode.Disposable {
	const demo = new DemoService();
	return vscode.Disposable.from(
		demo,
		registerCommand(services, Command.tryDemo, async () => accountResult(await tryDemo(services, demo))),
		registerCommand(services, Command.openSample, () => openSample(services)),
	);
}

export { sampleHosts, sampleText };
