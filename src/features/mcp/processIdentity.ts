// A process as the kernel knows it (Linux: /proc): its id and start time, and the executable it runs
// (`/proc/<pid>/exe`), which, unlike its command line, the program cannot set for itself. Nothing
// elsewhere: the system is not asked.
import { readFile, readlink } from 'node:fs/promises';
import { startTimeOf, type ProcessIdentity } from '../../core/agent/mcpSession';

/** `pid`'s id and start time, or undefined when it is gone, not ours to read, or the system has no /proc. */
export async function processIdentity(pid: number | undefined, platform: NodeJS.Platform = process.platform): Promise<ProcessIdentity | undefined> {
	if (pid === undefined || platform !== 'linux') return undefined;
	const startTime = startTimeOf(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''));
	return startTime === undefined ? undefined : { pid, startTime };
}

/** The path of the executable `pid` runs, as the kernel has it (" (deleted)" kept: it says so), or undefined. */
export async function executableOf(pid: number | undefined, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
	if (pid === undefined || platform !== 'linux') return undefined;
	return readlink(`/proc/${pid}/exe`).catch(() => undefined);
}
