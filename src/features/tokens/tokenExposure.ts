// Keeps the active account's live token where other tools read it, when telematicsAuth.exposeToken says
// so: the process environment and the git-ignored env files. Nothing is written while it is off.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExposeMode } from '../../platform/config';
import { BASE_URL_KEY, dotenvHasOtherContent, ENV_FILE_NAMES, TOKEN_KEY, updateDotenv, updateJetbrainsEnv, type EnvFileKind, type Exposed } from '../../core/restFile/envFiles';
import type { Services } from '../../services';
import { isSafeToken } from '../../core/util/tokenGrammar';
import { gitExposure } from '../restFiles/gitTracked';

/** Writes `text` to `file` with owner-only permissions, replacing it in one step. */
async function writeAtomically(file: string, text: string): Promise<void> {
	const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
	try {
		await fs.writeFile(temp, text, { mode: 0o600, flag: 'wx' });
		await fs.chmod(temp, 0o600);
		await fs.rename(temp, file);
	} catch (error) {
		await fs.rm(temp, { force: true });
		throw error;
	}
}

async function readOrEmpty(file: string): Promise<string | undefined> {
	try {
		return await fs.readFile(file, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
}

/** Whether the folder's own .gitignore lists `name` on a line of its own (for folders outside git). */
async function gitignoreLists(folder: string, name: string): Promise<boolean> {
	const text = await readOrEmpty(path.join(folder, '.gitignore'));
	return text !== undefined && text.split(/\r?\n/).some((line) => [name, `/${name}`].includes(line.trim()));
}

export class TokenExposure implements vscode.Disposable {
	private readonly subscriptions: vscode.Disposable[] = [];
	private tail: Promise<void> = Promise.resolve();
	/** The variables this window set, so it never removes values the person set themselves. */
	private ownsEnvironment = false;
	/** Files asked about this session (answered or dismissed): asked once each. */
	private readonly offered = new Set<string>();
	private disposed = false;

	constructor(private readonly services: Services) {
		this.subscriptions.push(
			services.store.onDidChange(() => this.update()),
			services.config.onDidChange(() => this.update()),
			vscode.workspace.onDidChangeWorkspaceFolders(() => this.update()),
		);
		void services.store.ready.then(() => this.update());
	}

	/** Brings the environment and the files in step with the store and the settings. */
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
		this.setEnvironment(undefined);
	}

	/** What should be exposed now: the active account's current token, or nothing. */
	private exposed(mode: ExposeMode): Exposed | undefined {
		if (mode === 'off') return undefined;
		const active = this.services.store.active();
		const tokens = active?.tokens;
		if (!active || !tokens || active.state === 'needsLogin' || !isSafeToken(tokens.accessToken)) return undefined;
		return { token: tokens.accessToken, baseUrl: active.account.serviceUrl.replace(/\/+$/, '') };
	}

	private async apply(): Promise<void> {
		if (this.disposed) return;
		const mode = this.services.config.exposeToken();
		const exposed = this.exposed(mode);
		this.setEnvironment(exposed);
		const names = this.services.config.exposeFiles();
		for (const folder of vscode.workspace.workspaceFolders ?? []) {
			if (folder.uri.scheme !== 'file') continue;
			for (const kind of ['dotenv', 'jetbrains'] as const) {
				const wanted = mode === 'environmentAndFiles' && names.includes(ENV_FILE_NAMES[kind]) ? exposed : undefined;
				await this.updateFile(folder.uri.fsPath, kind, wanted);
			}
		}
	}

	private setEnvironment(exposed: Exposed | undefined): void {
		if (exposed) {
			process.env[TOKEN_KEY] = exposed.token;
			process.env[BASE_URL_KEY] = exposed.baseUrl;
			this.ownsEnvironment = true;
		} else if (this.ownsEnvironment) {
			delete process.env[TOKEN_KEY];
			delete process.env[BASE_URL_KEY];
			this.ownsEnvironment = false;
		}
	}

	/** Sets or removes our keys in one env file, writing only files git will not commit. */
	private async updateFile(folder: string, kind: EnvFileKind, exposed: Exposed | undefined): Promise<void> {
		const name = ENV_FILE_NAMES[kind];
		const file = path.join(folder, name);
		const before = await readOrEmpty(file);
		if (!exposed && before === undefined) return; // nothing of ours to remove
		const after = kind === 'dotenv' ? updateDotenv(before ?? '', exposed) : updateJetbrainsEnv(before ?? '', exposed);
		if (after === undefined) {
			this.services.log.warn(`${name} in ${path.basename(folder)} is not a JSON object; it was left alone.`);
			return;
		}
		if (after === (before ?? '')) return;
		if (!exposed) {
			// Logout or exposure turned off: our keys go; a file that held only them goes too.
			if (after === '' || (kind === 'dotenv' && !dotenvHasOtherContent(after))) await fs.rm(file, { force: true });
			else await writeAtomically(file, after);
			this.services.log.info(`Removed the token from ${name} in ${path.basename(folder)}.`);
			return;
		}
		if (!(await this.safeToWrite(folder, name, file))) return;
		await writeAtomically(file, after);
		this.services.log.info(`Wrote the current token to ${name} in ${path.basename(folder)} (git-ignored, owner-only).`);
	}

	/** True when git ignores the file; otherwise offers (once) to add it to .gitignore. */
	private async safeToWrite(folder: string, name: string, file: string): Promise<boolean> {
		const exposure = await gitExposure(vscode.Uri.file(file));
		if (exposure === 'ignored') return true;
		if (exposure === 'none' && await gitignoreLists(folder, name)) return true;
		if (exposure === 'tracked') {
			this.services.log.warn(`${name} in ${path.basename(folder)} is tracked by git: the token is not written into it.`);
			return false;
		}
		if (!this.offered.has(file)) {
			this.offered.add(file);
			// Not awaited: the question must not hold up the environment and the other files.
			void this.offerGitignore(folder, name);
		}
		return false;
	}

	private async offerGitignore(folder: string, name: string): Promise<void> {
		const add = vscode.l10n.t('Add to .gitignore');
		const choice = await vscode.window.showWarningMessage(
			vscode.l10n.t('{0} in {1} is not ignored by git, so the token is not written into it. Add it to .gitignore?', name, path.basename(folder)),
			add,
		);
		if (choice !== add || this.disposed) return;
		const gitignore = path.join(folder, '.gitignore');
		const current = (await readOrEmpty(gitignore)) ?? '';
		const eol = /\r\n/.test(current) ? '\r\n' : '\n';
		await fs.writeFile(gitignore, `${current}${current === '' || current.endsWith('\n') ? '' : eol}${name}${eol}`);
		await this.update();
	}
}
