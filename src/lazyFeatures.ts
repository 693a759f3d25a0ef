// Loads the features bundle (features.ts → dist/features.js) on first use, so activation
// registers thin stubs only. Each command is a stub until then: the first call waits for the
// stored sessions, loads the features (which dispose the stubs and register the real
// commands), and runs the real command with the same arguments. The features also load when
// a REST file is open (its CodeLens, hover and diagnostics), when VS Code asks the
// authentication provider, and when an automatic refresh fails (to tell the person).
import * as vscode from 'vscode';
import type { Features } from './features';
import type { Services } from './services';
import { isHttpDocument } from './ui/http/httpDocuments';
import { PrompterSlot, type Prompter } from './ui/prompter';

export class LazyFeatures implements vscode.Disposable {
	/** Answers the login steps: the real multi-step input (in the features), or a test's prompter. */
	readonly prompts: PrompterSlot;
	private loaded: Features | undefined;
	private loading: Promise<Features> | undefined;
	private stubs: vscode.Disposable[];
	private readonly subscriptions: vscode.Disposable[] = [];
	private disposed = false;

	constructor(private readonly services: Services, commandIds: readonly string[]) {
		const real = (): Prompter => {
			if (!this.loaded) throw new Error('The login input is not loaded yet.');
			return this.loaded.multiStepInput;
		};
		this.prompts = new PrompterSlot({
			pickKind: () => real().pickKind(),
			ask: (step) => real().ask(step),
			confirm: (message, detail, action) => real().confirm(message, detail, action),
		});
		this.stubs = commandIds.map((id) => vscode.commands.registerCommand(id, async (...args: unknown[]) => {
			await this.load();
			return vscode.commands.executeCommand(id, ...args);
		}));
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
			this.loaded = m.activateFeatures(this.services, this.prompts);
			return this.loaded;
		});
		this.loading = loading;
		loading.catch((e: unknown) => {
			this.services.log.error(`Could not load the extension's features: ${e instanceof Error ? e.message : String(e)}`);
			if (this.stubs.length && this.loading === loading) this.loading = undefined; // the next use tries again
		});
		return loading;
	}

	dispose(): void {
		this.disposed = true;
		for (const d of [...this.stubs.splice(0), ...this.subscriptions.splice(0)]) d.dispose();
		this.loaded?.dispose();
	}

	private loadThen(then?: (features: Features) => void): void {
		this.load().then(then, () => undefined /* logged in load() */);
	}
}
