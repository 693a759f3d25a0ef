// Reads and replaces files of the opened folder as attacker input: only regular UTF-8 files with one link, decided
// on the open handle (O_NOFOLLOW, fstat); a replacement is renamed into place, so no link is written through.
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';

/** Why a file was left alone. */
export type Refusal = 'symlink' | 'notRegular' | 'hardLink' | 'notUtf8' | 'tooLarge';

export type ReadResult =
	| { kind: 'text'; text: string; mode: number }
	| { kind: 'missing' }
	| { kind: 'refused'; reason: Refusal };

/** Env files and .gitignore are small; anything larger is not one we edit. */
const MAX_BYTES = 1024 * 1024;

/** O_NOFOLLOW where the platform has it (not on Windows, which has no symlinks a user makes by accident). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A regular file's UTF-8 text; a link, a special file, a hard-linked one, one over `maxBytes` or not UTF-8 is refused unread. */
export async function readRegularFile(file: string, maxBytes: number = MAX_BYTES): Promise<ReadResult> {
	let handle: fs.FileHandle;
	try {
		handle = await fs.open(file, constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0));
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') return { kind: 'missing' };
		if (code === 'ELOOP' || code === 'EMLINK') return { kind: 'refused', reason: 'symlink' };
		throw error;
	}
	try {
		const stat = await handle.stat();
		if (!stat.isFile()) return { kind: 'refused', reason: 'notRegular' };
		if (stat.nlink !== 1) return { kind: 'refused', reason: 'hardLink' };
		if (stat.size > maxBytes) return { kind: 'refused', reason: 'tooLarge' };
		if (NO_FOLLOW === 0 && (await fs.lstat(file)).isSymbolicLink()) return { kind: 'refused', reason: 'symlink' };
		const bytes = await handle.readFile();
		try {
			return { kind: 'text', text: utf8.decode(bytes), mode: stat.mode & 0o777 };
		} catch {
			return { kind: 'refused', reason: 'notUtf8' };
		}
	} finally {
		await handle.close();
	}
}

/**
 * Puts `text` at `file` in one step: a new file (exclusive create, `mode`) renamed over the old
 * entry. A symlink or hard link at `file` is replaced as an entry, never written through.
 */
export async function replaceRegularFile(file: string, text: string, mode: number): Promise<void> {
	const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
	try {
		await fs.writeFile(temp, text, { mode, flag: 'wx' });
		await fs.chmod(temp, mode);
		await fs.rename(temp, file);
	} catch (error) {
		await fs.rm(temp, { force: true });
		throw error;
	}
}

/** Removes `file` when it is still a regular file with one link (a symlink's target is never touched). */
export async function removeRegularFile(file: string): Promise<void> {
	const stat = await fs.lstat(file).catch(() => undefined);
	if (stat?.isFile() && stat.nlink === 1) await fs.rm(file, { force: true });
}
