// Would a token written into this file end up in git? Asks the built-in git extension when
// it knows the repository, else runs `git` itself. Warns once per workspace (a boolean in
// workspaceState; never a token) before a token is written into such a file.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const TRACKED_WARNING_KEY = 'telematicsAuth.trackedFileWarningAcknowledged';

/**
 * `tracked`: git tracks it. `notIgnored`: in a repository and not ignored, so it can be committed.
 * `remote`: a virtual or remote-repository workspace (vscode-vfs, github): a save may be a commit.
 */
export type GitExposure = 'tracked' | 'notIgnored' | 'remote' | 'ignored' | 'none';

/** Schemes of files that live in a remote repository (GitHub Repositories, Remote Repositories). */
const REMOTE_REPOSITORY_SCHEMES: ReadonlySet<string> = new Set(['vscode-vfs', 'github', 'vscode-remote-repositories']);

export type TrackedFileAnswer = 'continue' | 'reference' | 'cancel';

/** What the commands need, so tests can stand in for git and for the questions. */
export interface TrackedFileDeps {
	gitExposure(uri: vscode.Uri): Promise<GitExposure>;
	ask(exposure: GitExposure, offerReference: boolean): Promise<TrackedFileAnswer>;
	/** Requests already carry another kind of Authorization (`schemes`): replace them (true) or leave them alone. */
	askReplaceForeign(schemes: readonly string[]): Promise<boolean>;
}

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

export async function askTrackedFile(exposure: GitExposure, offerReference: boolean): Promise<TrackedFileAnswer> {
	const proceed = vscode.l10n.t('Continue');
	const reference = vscode.l10n.t('Use {{variable}} Only');
	const where = exposure === 'tracked'
		? vscode.l10n.t('This file is tracked by git.')
		: exposure === 'remote'
			? vscode.l10n.t('This file lives in a remote repository.')
			: vscode.l10n.t('This file is in a git repository and not ignored.');
	const detail = [
		vscode.l10n.t('An access token written here can end up in a commit, where anyone with the repository can use it until it expires.'),
		offerReference
			? vscode.l10n.t('"Use {{variable}} Only" writes "Authorization: Bearer {{telematicsToken}}" and no token: define telematicsToken in an untracked environment file (REST Client: your user settings\' rest-client.environmentVariables or {{$dotenv}}; httpYac: .env or http-client.private.env.json).')
			: '',
		vscode.l10n.t('"Continue" writes the token and does not ask again in this workspace.'),
	].filter(Boolean).join('\n\n');
	const choices = offerReference ? [proceed, reference] : [proceed];
	const choice = await vscode.window.showWarningMessage(where, { modal: true, detail }, ...choices);
	return choice === proceed ? 'continue' : choice === reference ? 'reference' : 'cancel';
}

export async function askReplaceForeign(schemes: readonly string[]): Promise<boolean> {
	const replace = vscode.l10n.t('Replace');
	const leave = vscode.l10n.t('Leave Them Alone');
	const listed = [...new Set(schemes)].join(', ');
	const message = schemes.length === 1
		? vscode.l10n.t('This request already has an Authorization header of another kind ({0}).', listed)
		: vscode.l10n.t('{0} requests already have an Authorization header of another kind ({1}).', schemes.length, listed);
	const detail = vscode.l10n.t('It may be another service\'s credentials (an OAuth client\'s Basic login, a token from another tool). "Replace" puts the Telematics token in its place; "Leave Them Alone" changes only the other requests.');
	const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, replace, leave);
	return choice === replace;
}

export const defaultTrackedFileDeps: TrackedFileDeps = { gitExposure, ask: askTrackedFile, askReplaceForeign };

/**
 * `continue` when the token may be written: the file is not exposed to git, the person
 * already said "Continue" in this workspace, or says so now.
 */
export async function guardTrackedFile(context: vscode.ExtensionContext, uri: vscode.Uri, deps: TrackedFileDeps, offerReference: boolean): Promise<TrackedFileAnswer> {
	if (context.workspaceState.get<boolean>(TRACKED_WARNING_KEY) === true) return 'continue';
	const exposure = await deps.gitExposure(uri);
	if (exposure !== 'tracked' && exposure !== 'notIgnored' && exposure !== 'remote') return 'continue';
	const answer = await deps.ask(exposure, offerReference);
	if (answer === 'continue') await context.workspaceState.update(TRACKED_WARNING_KEY, true);
	return answer;
}
