// One env file of a workspace folder brought in step with the live token, as attacker input: nothing in a
// folder in Restricted Mode, only regular files, only where git will not commit them. Node only, no `vscode`.
import { join } from 'node:path';
import type { GitStatus } from '../../core/models/prompter';
import { dotenvHasOtherContent, ENV_FILE_NAMES, updateDotenv, updateJetbrainsEnv, type EnvFileKind, type Exposed } from '../../core/restFile/envFiles';
import { readRegularFile, removeRegularFile, replaceRegularFile, type Refusal } from '../../system/regularFile';

/** Env files that hold a token are readable by their owner only. */
const OWNER_ONLY = 0o600;

/**
 * What happened to the file. `untrusted`: Restricted Mode, nothing read or written. `leftAlone`:
 * not a regular UTF-8 file with one link, or not readable with certainty (`unparsable`).
 * `tracked`/`notIgnored`: git could commit it, so no token went in (`notIgnored`: offer .gitignore).
 * `cannotTell`: a repository may hold it but git could not be asked safely (a subfolder of a clone,
 * a worktree, a submodule, no git): no token went in either, whatever .gitignore says, since
 * .gitignore never untracks a tracked file.
 */
export type EnvFileOutcome =
	| { result: 'untrusted' | 'nothing' | 'unchanged' | 'written' | 'removed' | 'tracked' | 'notIgnored' | 'cannotTell' }
	| { result: 'leftAlone'; reason: Refusal | 'unparsable' };

/** Whether the folder's own .gitignore lists `name` on a line of its own (for folders git cannot be asked about). */
async function gitignoreLists(folder: string, name: string): Promise<boolean> {
	const read = await readRegularFile(join(folder, '.gitignore'));
	return read.kind === 'text' && read.text.split(/\r?\n/).some((line) => [name, `/${name}`].includes(line.trim()));
}

/**
 * Sets our keys in `folder`'s env file of `kind` to `exposed`, or removes them (undefined).
 * `trusted`: the folder is trusted (else nothing is touched). `gitStatus`: how the file could
 * reach git; asked only before a token is written.
 */
export async function syncEnvFile(folder: string, kind: EnvFileKind, exposed: Exposed | undefined, trusted: boolean, gitStatus: (file: string) => Promise<GitStatus>): Promise<EnvFileOutcome> {
	if (!trusted) return { result: 'untrusted' };
	const name = ENV_FILE_NAMES[kind];
	const file = join(folder, name);
	const read = await readRegularFile(file);
	if (read.kind === 'missing' && !exposed) return { result: 'nothing' };
	if (read.kind === 'refused') return { result: 'leftAlone', reason: read.reason };
	const before = read.kind === 'text' ? read.text : '';
	const after = kind === 'dotenv' ? updateDotenv(before, exposed) : updateJetbrainsEnv(before, exposed);
	if (after === undefined) return { result: 'leftAlone', reason: 'unparsable' };
	if (after === before) return { result: 'unchanged' };
	if (!exposed) {
		// Logout or exposure turned off: our keys go; a file that held only them goes too (a JSON file
		// that is not empty always holds more than our keys).
		// Stryker disable next-line ConditionalExpression: equivalent
		if (after === '' || (kind === 'dotenv' && !dotenvHasOtherContent(after))) await removeRegularFile(file);
		else await replaceRegularFile(file, after, OWNER_ONLY);
		return { result: 'removed' };
	}
	const status = await gitStatus(file);
	if (status === 'unknown' || status === 'remote' || status === 'untrusted') return { result: 'cannotTell' };
	const ignored = status === 'ignored' || (status === 'none' && await gitignoreLists(folder, name));
	if (!ignored) return { result: status === 'tracked' ? 'tracked' : 'notIgnored' };
	await replaceRegularFile(file, after, OWNER_ONLY);
	return { result: 'written' };
}

/** Appends `name` to the folder's .gitignore (created when missing); a refusal when it is not a regular file. */
export async function addToGitignore(folder: string, name: string, trusted: boolean): Promise<'added' | 'untrusted' | Refusal> {
	if (!trusted) return 'untrusted';
	const gitignore = join(folder, '.gitignore');
	const read = await readRegularFile(gitignore);
	if (read.kind === 'refused') return read.reason;
	const current = read.kind === 'text' ? read.text : '';
	const eol = /\r\n/.test(current) ? '\r\n' : '\n';
	await replaceRegularFile(gitignore, `${current}${current === '' || current.endsWith('\n') ? '' : eol}${name}${eol}`, read.kind === 'text' ? read.mode : 0o644);
	return 'added';
}
