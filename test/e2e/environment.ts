// One e2e environment: the emulator in this process, code-server with `telematicsAuth.baseUrl` pointed at
// it and the extension under development, and Chromium with a persistent profile (SecretStorage lives there).
import type { RigConfig, EmulatorUser, RiggedEmulator } from '../emulator/rig';
import { LIFTED_RATE_LIMIT, startEmulator } from '../emulator/rig';
import { launchBrowser, makeTempDir, startCodeServer, type RunningCodeServer } from '../host/codeServer';
import { projectRoot } from '../host/paths';
import { QUICK_INPUT_BOX, Workbench } from './workbench';

export interface E2eEnvironment {
	emulator: RiggedEmulator;
	server: RunningCodeServer;
	workbench: Workbench;
	close(): Promise<void>;
}

export interface E2eOptions {
	emulator?: Partial<RigConfig>;
	/** Extra user settings. */
	settings?: Record<string, unknown>;
	/** Files in the workspace folder. */
	files?: Record<string, string>;
	/** VSIX files installed beside the extension (REST Client). */
	installExtensions?: readonly string[];
}

export async function startE2e(options: E2eOptions = {}): Promise<E2eEnvironment> {
	// Generous login rate limit: the tests log in more often than a person would.
	const emulator = await startEmulator({ loginRateLimit: LIFTED_RATE_LIMIT, ...options.emulator });
	const server = await startCodeServer({
		settings: { 'telematicsAuth.baseUrl': emulator.url, ...options.settings },
		files: options.files,
		installExtensions: options.installExtensions,
	}).catch(async (e: unknown) => {
		await emulator.close();
		throw e;
	});
	const browser = await launchBrowser({ persistentProfile: makeTempDir('chromium'), origin: server.url });
	const page = browser.context.pages()[0] ?? await browser.context.newPage();
	page.on('pageerror', (err) => console.error(`      [page error] ${err.message}`));
	const workbench = new Workbench(page);
	await workbench.open(server.workbenchUrl({ extensionDevelopmentPath: projectRoot }));
	return {
		emulator,
		server,
		workbench,
		async close(): Promise<void> {
			await browser.close();
			await server.stop();
			await emulator.close();
		},
	};
}

/** The whole user login through the command palette, as a person does it. */
export async function logInAsUser(wb: Workbench, user: EmulatorUser, options: { password?: string; onStep?: (step: 'palette' | 'instanceId') => Promise<void> } = {}): Promise<void> {
	await wb.typeCommand('Telematics: Log In as User');
	await options.onStep?.('palette');
	await wb.chooseRow('Telematics: Log In as User');
	await wb.accept(/\(1\/4\)/); // the service URL, prefilled from the setting
	await wb.waitForQuickInput(/User Group InstanceID/);
	await wb.page.fill(QUICK_INPUT_BOX, user.instanceId);
	await options.onStep?.('instanceId');
	await wb.page.press(QUICK_INPUT_BOX, 'Enter');
	await wb.answer(/Device token/, user.deviceToken);
	await wb.answer(/InstanceKey/, options.password ?? user.instanceKey);
}

/** The whole admin login through the command palette. */
export async function logInAsAdmin(wb: Workbench, admin: { instanceId: string; email: string; password: string }): Promise<void> {
	await wb.runCommand('Telematics: Log In as Admin');
	await wb.accept(/\(1\/4\)/);
	await wb.answer(/API InstanceID/, admin.instanceId);
	await wb.answer(/API login/, admin.email);
	await wb.answer(/API password/, admin.password);
}

