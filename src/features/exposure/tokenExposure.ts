// Keeps the live tokens where tools read them (telematicsAuth.exposeToken): the active account's and each
// named account's (TELEMATICS_TOKEN_<NAME>) in the process environment and in git-ignored env files, only
// regular ones (system/regularFile.ts, gitTracked.ts). In Restricted Mode, nowhere: trust brings them back.
// What goes where is decided in core/exposure/exposedTokens.ts; this class writes it.
import { basename, join } from 'node:path';
import vscode = require('../../system/vscodeApi');
import { BASE_URL_KEY, ENV_FILE_NAMES, TOKEN_KEY, type EnvFileKind, type Exposed } from '../../core/restFile/envFiles';
import type { Services } from '../../services';
import { gitStatus } from '../shared/gitStatus';
import { notify } from '../messages/notify';
import type { Refusal } from '../../system/regularFile';
import { addToGitignore, syncEnvFile } from './envFileSync';
import { accountVariables, exposableToken, exposedTokens } from '../../core/exposure/exposedTokens';

/** Why a file of the folder is left alone, in words for the log and the person. */
function refusalText(reason: Refusal): string {
	switch (reason) {
		case 'symlink': return vscode.l10n.t('it is a symbolic link');
		case 'hardLink': return vscode.l10n.t('it has more than one hard link');
		case 'notRegular': return vscode.l10n.t('it is not a regular file');
		case 'notUtf8': return vscode.l10n.t('it is not UTF-8 text');
		case 'tooLarge': return vscode.l10n.t('it is larger than 1 MiB');
	}
}

export class TokenExposure implements vscode.Disposable {
	private readonly subscriptions: vscode.Disposable[] = [];
	private tail: Promise<void> = Promise.resolve();
	/** The variables this window set, so it never removes values the person set themselves. */
	private ownsProcessEnvironment = false;
	/** The per-account variables (`TELEMATICS_TOKEN_<NAME>`) this window set, by name. */
	private readonly ownedAccountVariables = new Set<string>();
	/** Files asked about while this window is open (answered or dismissed): asked once each. */
	private readonly offered = new Set<string>();
	private disposed = false;
	private toldUntrusted = false;

	constructor(private readonly services: Services) {
		this.subscriptions.push(
			services.store.onDidChange(() => this.update()),
			services.config.onDidChange(() => this.update()),
			vscode.workspace.onDidChangeWorkspaceFolders(() => this.update()),
			// Trust granted: the process environment and the files get the token at once, without a reload.
			vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()),
		);
		void services.store.ready.then(() => this.update());
	}

	/**
	 * Brings the process environment and the files in step with the store and the settings. Updates run one
	 * after another on a chain (`tail`): each reads the state afresh when its turn comes, so a burst of
	 * changes ends with the last state written, and two passes never write one file at once.
	 */
	update(): Promise<void> {
		const run = this.tail.then(() => this.apply()).catch((error: unknown) => {
			this.services.log.warn(`Could not update the exposed token: ${error instanceof Error ? error.name : 'error'}.`);
		});
		this.tail = run;
		return run;
	}

	dispose(): void {
		this.disposed = true;
		for (const s of this.subscriptions.splice(0)) s.dispose();
		this.setProcessEnvironment(undefined);
		this.setAccountVariables(new Map());
	}

	private async apply(): Promise<void> {
		if (this.disposed) return;
		const mode = this.services.config.exposeToken();
		if (!vscode.workspace.isTrusted) {
			// Restricted Mode: no token in the process environment (REST Client and httpYac read it from there for any
			// file of the folder), no file of the folder read or written, git not run. Trust brings them back.
			const withheld = mode !== 'off' && this.services.store.list().some((s) => exposableToken(s) !== undefined);
			this.setProcessEnvironment(undefined);
			this.setAccountVariables(new Map());
			if (withheld) this.tellUntrusted();
			return;
		}
		const { store, config } = this.services;
		const sessions = store.list();
		const exposed = exposedTokens(mode !== 'off', store.active(), sessions, config.environmentAccounts());
		this.setProcessEnvironment(exposed);
		this.setAccountVariables(accountVariables(mode !== 'off', sessions));
		const names = this.services.config.exposeFiles();
		for (const folder of vscode.workspace.workspaceFolders ?? []) {
			if (folder.uri.scheme !== 'file') continue;
			for (const kind of ['dotenv', 'jetbrains'] as const) {
				const wanted = mode === 'environmentAndFiles' && names.includes(ENV_FILE_NAMES[kind]) ? exposed : undefined;
				await this.updateFile(folder.uri.fsPath, kind, wanted);
			}
		}
	}

	private setProcessEnvironment(exposed: Exposed | undefined): void {
		if (exposed) {
			process.env[TOKEN_KEY] = exposed.token;
			process.env[BASE_URL_KEY] = exposed.baseUrl;
			this.ownsProcessEnvironment = true;
		} else if (this.ownsProcessEnvironment) {
			delete process.env[TOKEN_KEY];
			delete process.env[BASE_URL_KEY];
			this.ownsProcessEnvironment = false;
		}
	}

	/** Sets each account's variable; removes the ones this window set that no account has now (a logout, a rename). */
	private setAccountVariables(variables: ReadonlyMap<string, string>): void {
		for (const name of this.ownedAccountVariables) {
			if (!variables.has(name)) {
				delete process.env[name];
				this.ownedAccountVariables.delete(name);
			}
		}
		for (const [name, token] of variables) {
			process.env[name] = token;
			this.ownedAccountVariables.add(name);
		}
	}

	/** Sets or removes our keys in one env file, and says what the person should know. */
	private async updateFile(folder: string, kind: EnvFileKind, exposed: Exposed | undefined): Promise<void> {
		const name = ENV_FILE_NAMES[kind];
		const file = join(folder, name);
		const where = basename(folder);
		const outcome = await syncEnvFile(folder, kind, exposed, vscode.workspace.isTrusted, (f) => gitStatus(vscode.Uri.file(f)));
		switch (outcome.result) {
			case 'leftAlone':
				return this.leftAlone(file, outcome.reason === 'unparsable'
					? kind === 'dotenv'
						? vscode.l10n.t('{0} in {1} was left alone: a quoted value in it never closes, or holds our keys over several lines.', name, where)
						: vscode.l10n.t('{0} in {1} was left alone: it is not a JSON object of environments.', name, where)
					: vscode.l10n.t('{0} in {1} was left alone: {2}. Telematics Auth reads and writes only regular files of the folder.', name, where, refusalText(outcome.reason)));
			case 'removed':
				return this.services.log.info(`Removed the token from ${name} in ${basename(folder)}.`);
			case 'written':
				return this.services.log.info(`Wrote the current token to ${name} in ${basename(folder)} (git-ignored, owner-only).`);
			case 'tracked':
				return this.services.log.warn(`${name} in ${basename(folder)} is tracked by git: the token is not written into it.`);
			case 'cannotTell':
				return this.leftAlone(file, vscode.l10n.t('{0} in {1} did not get the token: git could not be asked safely whether it would be committed (a folder inside a larger repository, a worktree, a submodule, or no git found). Tools that read the process environment still get it.', name, where));
			case 'notIgnored':
				if (this.offered.has(file)) return;
				this.offered.add(file);
				// Not awaited: the question must not hold up the process environment and the other files.
				void this.offerGitignore(folder, name);
				return;
			default:
				return;
		}
	}

	/** Says once per window why no env file gets the token, with the action that changes it. */
	private tellUntrusted(): void {
		if (this.toldUntrusted) return;
		this.toldUntrusted = true;
		this.services.log.info('The folder is not trusted: the token is not exposed (not in the process environment, no env file) until it is.');
		const manage = vscode.l10n.t('Manage Workspace Trust');
		void notify('info', vscode.l10n.t('The live token is not exposed to REST clients here: this folder is not trusted (Restricted Mode), so neither TELEMATICS_TOKEN nor any env file gets it. Trust the folder to expose it.'), manage).then((choice) => {
			if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
		});
	}

	/** Logs why a file was not touched, and tells the person once per file and window. */
	private leftAlone(file: string, message: string): void {
		this.services.log.warn(message);
		if (this.offered.has(file)) return;
		this.offered.add(file);
		void notify('warning', message);
	}

	private async offerGitignore(folder: string, name: string): Promise<void> {
		const add = vscode.l10n.t('Add to .gitignore');
		const choice = await notify('warning',
			vscode.l10n.t('{0} in {1} is not ignored by git, so the token is not written into it. Add it to .gitignore?', name, basename(folder)),
			add,
		);
		if (choice !== add || this.disposed) return;
		const added = await addToGitignore(folder, name, vscode.workspace.isTrusted);
		if (added === 'untrusted') return;
		if (added !== 'added') {
			void notify('warning', vscode.l10n.t('.gitignore in {0} was left alone: {1}. Add {2} to it yourself.', basename(folder), refusalText(added), name));
			return;
		}
		await this.update();
	}
}
