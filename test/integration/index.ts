// The integration suite's entry point: VS Code's extension host calls `run()`, which runs every compiled
// `*.test.js` here with mocha and prints the `N passed, N failed` line the runner reads.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { format } from 'node:util';
import { SUITE_ENV } from '../support/hostileFolder';
import { printSuiteTimes } from '../support/suiteTimes';
import { trustTestRootLikeTheOsStore } from '../support/testCa';

/** Where mocha's reporter output goes besides the console, when the runner asks for it. */
const OUTPUT_FILE_ENV = 'TELEMATICS_TEST_OUTPUT';

function testFiles(dir: string): string[] {
	return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((name) => name.endsWith('.test.js'))
		.sort()
		.map((name) => path.join(dir, name));
}

/** Sends reporter lines to the console and, when set, to the runner's output file. */
function installOutput(): (line: string) => void {
	const file = process.env[OUTPUT_FILE_ENV];
	const write = (line: string) => {
		if (file) fs.appendFileSync(file, line + '\n');
		else console.log(line);
	};
	// mocha's reporters print through Base.consoleLog (console.log captured at load time)
	Mocha.reporters.Base.consoleLog = (...args: unknown[]) => {
		const [first, ...rest] = args;
		const text = typeof first === 'string'
			? format(first, ...rest)
			: args.map(String).join(' ');
		write(text);
	};
	return write;
}

/**
 * After each test, the workbench's notifications are cleared, as a person closes them: the tests read what
 * was shown from the extension, and every toast left open is laid out again (a forced reflow each) whenever
 * another one comes or goes: 30 of the 85 s of the workbench's script in a trusted pass.
 */
async function clearNotifications(): Promise<void> {
	await vscode.commands.executeCommand('notifications.clearAll');
}

export function run(): Promise<void> {
	const write = installOutput();
	if (process.env.TELEMATICS_TEST_CA_DIR) trustTestRootLikeTheOsStore(process.env.TELEMATICS_TEST_CA_DIR);
	const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, color: false, reporter: 'spec', rootHooks: { afterEach: clearNotifications } });
	const grep = process.env.TELEMATICS_TEST_GREP;
	if (grep) mocha.grep(grep);
	// The httpyac pass (httpYac for VS Code installed) runs httpyac/, the restricted pass (a hostile folder in
	// Restricted Mode) restricted/; the trusted pass the files at the top.
	const suite = process.env[SUITE_ENV] ?? 'trusted';
	const folder = suite === 'trusted' ? '.' : suite;
	for (const file of testFiles(__dirname)) {
		if (path.dirname(path.relative(__dirname, file)) === folder) mocha.addFile(file);
	}
	return new Promise((resolve, reject) => {
		try {
			const runner = mocha.run((failures) => {
				const passed = runner.stats?.passes ?? 0;
				const failed = runner.stats?.failures ?? failures;
				write(`${passed} passed, ${failed} failed`);
				if (failed > 0) reject(new Error(`${failed} integration test(s) failed`));
				else if (passed === 0 && !grep) reject(new Error('no integration test ran'));
				else resolve();
			});
			printSuiteTimes(runner, write);
		} catch (e) {
			write(`0 passed, 1 failed`);
			reject(e instanceof Error ? e : new Error(String(e)));
		}
	});
}
