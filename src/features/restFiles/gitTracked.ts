// Would a token written into this file end up in git? The git extension answers when it knows the
// repository, else `git` itself; the person is asked once per workspace before such a file gets a token.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GitExposure, Prompter, TrackedFileAnswer } from '../../core/models/prompter';

export const TRACKED_WARNING_KEY = 'telematicsAuth.trackedFileWarningAcknowledged';

/** Schemes of files that live in a remote repository (GitHub Repositories, Remote Repositories). */
const REMOTE_REPOSITORY_SCHEMES: ReadonlySet<string> = new Set(['vscode-vfs', 'github', 'vscode-remote-repositories']);


interface GitRepository {
	checkIgnore(paths: string[]): Promise<Set<string>>;
}
interface GitApi {
	getRepository(uri: vscode.Uri): GitRepository | null;
}
interface GitExtension {
	enabled?: boolean;
	getAPI(version: 1): GitApi;
}

async function fromGitExtension(uri: vscode.Uri): Promise<GitExposure | undefined> {
	try {
		const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
		if (!extension?.isActive || extension.exports.enabled === false) return undefined;
		const repository = extension.exports.getAPI(1).getRepository(uri);
		if (!repository) return undefined;
		const ignored = await repository.checkIgnore([uri.fsPath]);
		return ignored.size > 0 ? 'ignored' : 'notIgnored';
	} catch {
		return undefined;
	}
}

/** Exit code of `git args` in `cwd`; undefined when git could not run at all. */
function git(cwd: string, args: string[]): Promise<number | undefined> {
	return new Promise((resolve) => {
		execFile('git', args, { cwd, timeout: 5000, windowsHide: true }, (error) => {
			if (!error) resolve(0);
			else resolve(typeof error.code === 'number' ? error.code : undefined);
		});
	});
}

async function fromGitCommand(uri: vscode.Uri): Promise<GitExposure> {
	const cwd = path.dirname(uri.fsPath);
	const name = path.basename(uri.fsPath);
	if (await git(cwd, ['ls-files', '--error-unmatch', '--', name]) === 0) return 'tracked';
	switch (await git(cwd, ['check-ignore', '-q', '--', name])) {
		case 0: return 'ignored';
		case 1: return 'notIgnored';
		default: return 'none'; // 128: not a repository; undefined: no git
	}
}

export async function gitExposure(uri: vscode.Uri): Promise<GitExposure> {
	if (REMOTE_REPOSITORY_SCHEMES.has(uri.scheme)) return 'remote';
	if (uri.scheme !== 'file') return 'none';
	return (await fromGitExtension(uri)) ?? fromGitCommand(uri);
}

/**
 * `continue` when the token may be written: the file is not exposed to git, the person
 * already said "Continue" in this workspace, or says so now.
 */
export async function guardTrackedFile(context: vscode.ExtensionContext, uri: vscode.Uri, prompter: Prompter, offerReference: boolean): Promise<TrackedFileAnswer> {
	if (context.workspaceState.get<boolean>(TRACKED_WARNING_KEY) === true) return 'continue';
	const exposure = await gitExposure(uri);
	if (exposure !== 'tracked' && exposure !== 'notIgnored' && exposure !== 'remote') return 'continue';
	const answer = await prompter.askTrackedFile(exposure, offerReference);
	if (answer === 'continue') await context.workspaceState.update(TRACKED_WARNING_KEY, true);
	return answer;
}
