// Rewrites a file another program rewrites too (REST Client's history.json, issue 65), so that neither
// loses the other's write. The other program reads the whole file, changes it and writes it back in place
// (truncate, then write); a reader of a half-written file gets nothing and starts from empty. So:
// - the new text is written to a file beside it and renamed into place: the other program never reads
//   half of ours;
// - the file is read through one handle and replaced only while the path still names that same, unchanged
//   file; otherwise we start again from what is there now;
// - after the rename, the handle on the file we replaced tells whether the other program was writing into
//   it meanwhile (it had opened it before the rename): then, once its write is done, its text is handed
//   to the caller, who keeps what it holds (core/restClient/history.ts's HistoryKeeper), and the path is
//   rewritten again.
// Only a regular file with one link is touched (O_NOFOLLOW, decided on the handle).
import { randomBytes } from 'node:crypto';
import { constants, promises as fs, type Stats } from 'node:fs';

export type RewriteResult<T> =
	| { kind: 'rewritten'; detail: T }
	| { kind: 'unchanged' }
	| { kind: 'missing' }
	/** Not a file we touch, or it kept changing under us (the next change tries again). */
	| { kind: 'refused'; reason: 'notRegular' | 'tooLarge' | 'busy' };

/** What the caller makes of a text: a new text, nothing to do, or "read it again" (half-written). */
export type TextRewrite<T> = { kind: 'write'; text: string; detail: T } | { kind: 'none' } | { kind: 'again' };

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const MAX_BYTES = 64 * 1024 * 1024;
const ATTEMPTS = 8;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function sameFile(a: Stats, b: Stats): boolean {
	return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** The whole file behind `handle`, from its start, and its stat before and after the read. */
async function readWhole(handle: fs.FileHandle): Promise<{ text: string; before: Stats; after: Stats }> {
	const before = await handle.stat();
	const buffer = Buffer.alloc(before.size);
	let read = 0;
	while (read < buffer.length) {
		const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
		if (bytesRead === 0) break;
		read += bytesRead;
	}
	return { text: buffer.subarray(0, read).toString('utf8'), before, after: await handle.stat() };
}

/** `text` renamed into place at `file` through a new file beside it. */
async function replaceWith(file: string, text: string, mode: number): Promise<void> {
	const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
	await fs.writeFile(temp, text, { flag: 'wx', mode });
	try {
		await fs.rename(temp, file);
	} catch (e) {
		await fs.rm(temp, { force: true });
		throw e;
	}
}

/**
 * Rewrites `file` with `rewrite`. When the other program wrote into the file we replaced (it had opened it
 * before our rename), its text, once whole, goes to `late` (the caller keeps what it holds) and the path is
 * rewritten again. `settleMs`: how long a file must stay unchanged to count as written.
 */
export async function rewriteSharedFile<T>(file: string, rewrite: (text: string) => TextRewrite<T>, late: (text: string) => void, settleMs = 150): Promise<RewriteResult<T>> {
	let result: RewriteResult<T> = { kind: 'unchanged' };
	for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
		let handle: fs.FileHandle;
		try {
			handle = await fs.open(file, constants.O_RDONLY | NO_FOLLOW);
		} catch (e) {
			const code = (e as NodeJS.ErrnoException).code;
			if (code === 'ENOENT') return result.kind === 'rewritten' ? result : { kind: 'missing' };
			if (code === 'ELOOP') return { kind: 'refused', reason: 'notRegular' };
			throw e;
		}
		try {
			const first = await handle.stat();
			if (!first.isFile() || first.nlink !== 1) return { kind: 'refused', reason: 'notRegular' };
			if (first.size > MAX_BYTES) return { kind: 'refused', reason: 'tooLarge' };
			const { text, before, after } = await readWhole(handle);
			const outcome = sameFile(before, after) ? rewrite(text) : ({ kind: 'again' } as const);
			if (outcome.kind === 'none') return result;
			if (outcome.kind === 'again') {
				await pause(Math.min(50, 5 * (attempt + 1)));
				continue;
			}
			const now = await fs.lstat(file).catch(() => undefined);
			if (!now || !sameFile(now, after)) continue;
			await replaceWith(file, outcome.text, after.mode & 0o777);
			result = { kind: 'rewritten', detail: outcome.detail };
			// Was the other program writing into the file we replaced? Wait until its write is whole (unchanged
			// for settleMs, and readable), hand it over, and rewrite the path again.
			let last = after;
			let handed = false;
			for (let look = 0; look < 100 && !handed; look++) {
				await pause(settleMs);
				const replaced = await handle.stat();
				if (!sameFile(replaced, last)) {
					last = replaced;
					continue;
				}
				if (sameFile(last, after)) return result;
				const theirs = (await readWhole(handle)).text;
				if (rewrite(theirs).kind === 'again') continue; // truncated and not yet written, or half written
				late(theirs);
				handed = true;
			}
		} finally {
			await handle.close();
		}
	}
	return result.kind === 'rewritten' ? result : { kind: 'refused', reason: 'busy' };
}
