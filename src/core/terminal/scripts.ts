// The per-window scripts that put `telematics-token` and `telematics-mcp` on a terminal's PATH: they run the
// command's client on the runtime VS Code itself runs on (its path changes with every update), as the Git
// extension's askpass does.
import { shellQuote } from '../util/tokenGrammar';
import { COMMAND_NAME } from './protocol';

/** `sh` script: VS Code's runtime as Node (ELECTRON_RUN_AS_NODE), the client, the arguments as given. */
export function posixScript(runtime: string, client: string, name: string = COMMAND_NAME): string {
	return [
		'#!/bin/sh',
		`# ${name} for one VS Code window (Telematics Auth); made when the window started, removed when it closes.`,
		`ELECTRON_RUN_AS_NODE=1 exec ${shellQuote(runtime)} ${shellQuote(client)} "$@"`,
		'',
	].join('\n');
}

/** A `.cmd` for cmd.exe and PowerShell: the same, with `%` doubled so no path expands a variable. */
export function cmdScript(runtime: string, client: string, name: string = COMMAND_NAME): string {
	const quoted = (value: string) => `"${value.replace(/%/g, '%%').replace(/"/g, '')}"`;
	return [
		'@echo off',
		`rem ${name} for one VS Code window (Telematics Auth).`,
		'setlocal',
		'set ELECTRON_RUN_AS_NODE=1',
		`${quoted(runtime)} ${quoted(client)} %*`,
		'',
	].join('\r\n');
}
