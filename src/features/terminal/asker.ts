// Who asks for the token, as the system tells it (Linux: /proc): the asking process's session and whether
// it has a controlling terminal, its own command line and its parent's (the shell line that ran it).
// Elsewhere the system is not asked, and the asker counts as having no terminal of its own.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import vscode = require('../../system/vscodeApi');
import { commandLineOf, parseProcStat, type ProcessTerminal } from '../../core/terminal/allowance';
import { COMMAND_NAME, MCP_COMMAND_NAME } from '../../core/terminal/protocol';
import { clipText, redact } from '../../core/util/redact';

/** Longest command line shown in the question (after redaction). */
const MAX_COMMAND_LINE = 200;

export interface Asker {
	terminal?: ProcessTerminal;
	/** `telematics-token --header (run by bash)`, secrets masked. */
	commandLine?: string;
}

const readProc = (pid: number, file: string): Promise<string> => readFile(`/proc/${pid}/${file}`, 'utf8').catch(() => '');

/** Our commands' scripts in dist/, by the name they have on the PATH. */
const OWN_SCRIPTS: ReadonlyMap<string, string> = new Map([['tokenClient.js', COMMAND_NAME], ['mcp.js', MCP_COMMAND_NAME]]);

/** The command as typed: our client's runtime and script path give way to the command's name. */
function ownCommand(cmdline: string): string | undefined {
	const args = cmdline.split('\0').filter(Boolean);
	const own = args.length >= 2 ? OWN_SCRIPTS.get(basename(args[1]!)) : undefined;
	if (own) return commandLineOf([own, ...args.slice(2)].join('\0'));
	return commandLineOf(cmdline);
}

/** The parent's command line with its program's folder left out (`bash --init-file …`, `sh -c …`). */
function parentCommand(cmdline: string): string | undefined {
	const [program, ...args] = cmdline.split('\0');
	return program ? commandLineOf([basename(program), ...args].join('\0')) : undefined;
}

/** What /proc says about `pid`; nothing when it is gone, not ours to read, or the system has no /proc. */
export async function describeAsker(pid: number | undefined, knownSecrets: Iterable<string>, platform: NodeJS.Platform = process.platform): Promise<Asker> {
	if (pid === undefined || platform !== 'linux') return {};
	const terminal = parseProcStat(await readProc(pid, 'stat'));
	if (!terminal) return {};
	const own = ownCommand(await readProc(pid, 'cmdline'));
	const parent = terminal.parentId > 0 ? parentCommand(await readProc(terminal.parentId, 'cmdline')) : undefined;
	const line = own && parent ? `${own} (run by ${parent})` : own ?? parent;
	return { terminal, ...(line !== undefined && { commandLine: clipText(redact(line, knownSecrets), MAX_COMMAND_LINE) }) };
}

/** The VS Code terminal of this window whose shell leads `sessionId` (its process id), if any. */
export async function terminalOfSession(sessionId: number): Promise<vscode.Terminal | undefined> {
	// One list: terminals may open or close while their process ids are awaited.
	const terminals = [...vscode.window.terminals];
	const pids = await Promise.all(terminals.map((t) => Promise.resolve(t.processId).catch(() => undefined)));
	return terminals.find((_, i) => pids[i] === sessionId);
}
