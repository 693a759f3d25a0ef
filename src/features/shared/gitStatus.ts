// Would a token written into this file end up in git? The Git extension or a hardened git answers, never in
// Restricted Mode; the person is asked once per trusted workspace before such a file gets a token, else every time.
import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import vscode = require('../../system/vscodeApi');
import type { GitStatus, Prompter, TrackedFileAnswer } from '../../core/models/prompter';
import { askGit, findGit } from '../../system/git';

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

async function fromGitExtension(uri: vscode.Uri): Promise<GitStatus | undefined> {
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

/**
 * How a token written into `uri` could reach git. In Restricted Mode git never runs (`untrusted`):
 * a folder's git config can start programs. Trusted: the Git extension's answer, else git itself,
 * hardened (system/git.ts). Files of other file systems (Live Share, SSH, SFTP) may sit in a
 * repository we cannot ask: `unknown`.
 */
export async function gitStatus(uri: vscode.Uri): Promise<GitStatus> {
	if (REMOTE_REPOSITORY_SCHEMES.has(uri.scheme)) return 'remote';
	if (uri.scheme === 'untitled') return 'none';
	if (uri.scheme !== 'file') return 'unknown';
	if (!vscode.workspace.isTrusted) return 'untrusted';
	// A link: the file it leads to is the one that gets the token (askGit resolves it too).
	const target = vscode.Uri.file(await realpath(uri.fsPath).catch(() => uri.fsPath));
	const fromExtension = await fromGitExtension(target);
	if (fromExtension) return fromExtension;
	const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
	const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? dirname(uri.fsPath);
	return askGit(uri.fsPath, folder, findGit(folders));
}

/**
 * `continue` when the token may be written: the file is not exposed to git, the person
 * already said "Continue" in this workspace, or says so now.
 */
export async function guardTrackedFile(context: vscode.ExtensionContext, uri: vscode.Uri, prompter: Prompter, offerReference: boolean): Promise<TrackedFileAnswer> {
	// Restricted Mode: asked every time, nothing remembered, git not run.
	if (uri.scheme === 'file' && !vscode.workspace.isTrusted) return prompter.askTrackedFile('untrusted', offerReference);
	if (context.workspaceState.get<boolean>(TRACKED_WARNING_KEY) === true) return 'continue';
	const status = await gitStatus(uri);
	if (status === 'ignored' || status === 'none') return 'continue';
	const answer = await prompter.askTrackedFile(status, offerReference);
	if (answer === 'continue') await context.workspaceState.update(TRACKED_WARNING_KEY, true);
	return answer;
}
