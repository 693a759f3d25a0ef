// Loads the features bundle (features.ts → dist/features.js) on first use, so activation
// registers thin stubs only. Each command is a stub until then: the first call waits for the
// stored sessions, loads the features (which dispose the stubs and register the real
// commands), and runs the real command with the same arguments. The features also load when
// a REST file is open (its CodeLens, hover and diagnostics), when VS Code asks the
// authentication provider, and when an automatic refresh fails (to tell the person).
import * as vscode from 'vscode';
import type { Features } from './features';
import type { Services } from './services';
import { isHttpDocument } from './features/restFiles/httpDocuments';
import { PrompterSlot, type Prompter } from './features/login/prompter';

export class LazyFeatures implements vscode.Disposable {
	/** Answers the login steps: the real multi-step input (in the features), or a test's prompter. */
	readonly prompts: PrompterSlot;
	private loaded: Features | undefined;
	private loading: Promise<Features> | undefined;
	private stubs: vscode.Disposable[];
	private readonly commandIds: readonly string[];
	private readonly subscriptions: vscode.Disposable[] = [];
	private disposed = false;

	constructor(private readonly services: Services, commandIds: readonly string[]) {
		this.commandIds = commandIds;
		const real = (): Prompter => {
			if (!this.loaded) throw new Error('The login input is not loaded yet.');
			return this.loaded.multiStepInput;
		};
		this.prompts = new PrompterSlot({
			pickKind: () => real().pickKind(),
			ask: (step) => real().ask(step),
			confirm: (message, detail, action) => real().confirm(message, detail, action),
		});
		this.stubs = this.registerStubs(commandIds);
		this.subscriptions.push(
			services.scheduler.onDidFail((failure) => {
				if (!this.loaded) this.loadThen((features) => features.reportRefreshFailure(failure));
			}),
			vscode.workspace.onDidOpenTextDocument((document) => {
				if (!this.loading && isHttpDocument(document)) this.loadThen();
			}),
		);
		if (vscode.workspace.textDocuments.some(isHttpDocument)) this.loadThen();
	}

	/** The features if they are loaded. */
	get current(): Features | undefined {
		return this.loaded;
	}

	/** Loads the features once (after the stored sessions are read); later calls get the same. */
	load(): Promise<Features> {
		if (this.loading) return this.loading;
		const loading = this.services.store.ready.then(() => import('./features')).then((m) => {
			if (this.disposed) throw new Error('The extension is being deactivated.');
			for (const stub of this.stubs.splice(0)) stub.dispose();
			try {
				this.loaded = m.activateFeatures(this.services, this.prompts); // all or nothing
			} catch (error) {
				this.stubs = this.registerStubs(this.commandIds); // commands stay, and try again
				throw error;
			}
			return this.loaded;
		});
		this.loading = loading;
		loading.catch((e: unknown) => {
			this.services.log.error(`Could not load the extension's features (the next command tries again): ${e instanceof Error ? e.message : String(e)}`);
			if (this.loading === loading && !this.disposed) this.loading = undefined;
		});
		return loading;
	}

	dispose(): void {
		this.disposed = true;
		for (const d of [...this.stubs.splice(0), ...this.subscriptions.splice(0)]) d.dispose();
		this.loaded?.dispose();
	}

	/** Commands that load the features, then run the real command with the same arguments. */
	private registerStubs(commandIds: readonly string[]): vscode.Disposable[] {
		return commandIds.map((id) => vscode.commands.registerCommand(id, async (...args: unknown[]) => {
			await this.load();
			return vscode.commands.executeCommand(id, ...args);
		}));
	}

	private loadThen(then?: (features: Features) => void): void {
		this.load().then(then, () => undefined /* logged in load() */);
	}
}
