// Running `telematics-token` as a terminal of this window runs it: the environment our collection gives a
// terminal, a shell line, and a terminal opened and waited for until the command is on the PATH.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { delimiter, join } from 'node:path';
import * as vscode from 'vscode';
import { COMMAND_NAME } from '../../src/core/terminal/protocol';
import { until } from './loginHelpers';

/** The environment a terminal opened now gets: our collection applied to this process's. */
export function terminalEnvironment(collection: vscode.EnvironmentVariableCollection): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	collection.forEach((name, mutator) => {
		const current = env[name] ?? '';
		env[name] = mutator.type === vscode.EnvironmentVariableMutatorType.Prepend ? mutator.value + current
			: mutator.type === vscode.EnvironmentVariableMutatorType.Append ? current + mutator.value
				: mutator.value;
	});
	return env;
}

/** Runs `command` with /bin/sh in `env`, as a terminal's shell would. */
export function inTerminal(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile('/bin/sh', ['-c', command], { env, timeout: 90_000 }, (error, stdout, stderr) => {
			resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
		});
	});
}

/** The folder the collection puts on the PATH (appended: the last entry). */
export function commandFolder(collection: vscode.EnvironmentVariableCollection): string {
	return collection.get('PATH')!.value.split(delimiter).filter(Boolean).at(-1)!;
}

/** Where the command's script lands. */
export function commandFile(collection: vscode.EnvironmentVariableCollection): string {
	return join(commandFolder(collection), COMMAND_NAME);
}

/**
 * Opens a terminal and waits until the window listens and the command is on the PATH (the socket comes
 * first, the script after it: a shell that ran the command between the two would not find it).
 */
export async function openTerminalWithCommand(collection: vscode.EnvironmentVariableCollection): Promise<vscode.Terminal> {
	const terminal = vscode.window.createTerminal({ name: 'telematics-token test' });
	await until('the channel listening, then the command written, once a terminal is open', () => fs.existsSync(commandFile(collection)));
	return terminal;
}
