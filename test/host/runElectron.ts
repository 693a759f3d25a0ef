// `npm run test:electron`: the integration suite in desktop VS Code through @vscode/test-electron; it downloads
// VS Code (internet needed) unless VSCODE_EXECUTABLE_PATH names one. Headless Linux: `xvfb-run -a`.
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { makeTempDir } from './codeServer';
import { projectRoot } from './paths';
import { caughtText } from '../../src/core/util/caughtText';

async function main(): Promise<void> {
	if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
		console.error('No display found. On a headless Linux machine run: xvfb-run -a npm run test:electron');
		process.exit(1);
	}
	const workspace = makeTempDir('electron-workspace');
	const exitCode = await runTests({
		extensionDevelopmentPath: projectRoot,
		extensionTestsPath: path.join(projectRoot, 'out', 'test', 'integration', 'index'),
		vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH || undefined,
		launchArgs: ['--disable-extensions', '--disable-workspace-trust', `--user-data-dir=${makeTempDir('electron-user')}`, workspace],
	});
	process.exit(exitCode);
}

main().catch((e: unknown) => {
	console.error(`test:electron failed: ${caughtText(e)}`);
	console.error('It needs to download VS Code (or VSCODE_EXECUTABLE_PATH); offline, use `npm run test:integration`.');
	process.exit(1);
});
