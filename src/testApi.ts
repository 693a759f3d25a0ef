// What `activate()` returns in test mode only (ExtensionMode.Test): the shared services, a way
// to answer the login prompts without UI, and snapshots of what a person would see.
import type * as vscode from 'vscode';
import type { LazyFeatures } from './lazyFeatures';
import type { RedactingLog } from './core/util/logger';
import type { Services } from './services';
import type { TreeSnapshot } from './features/accounts/accountsTree';
import type { AccountsView } from './features/accounts/accountsView';
import type { ShownMessage } from './features/notifications/notifications';
import type { Prompter } from './features/login/prompter';
import type { StatusBar, StatusBarSnapshot } from './features/statusBar/statusBar';
import type { ActivationTimings } from './core/util/startTime';

export type { ActivationTimings, ShownMessage, StatusBarSnapshot, TreeSnapshot };

export interface TestApi {
	readonly services: Services;
	/** Answers the login flow's questions and the logout confirmation; undefined restores the real UI. */
	setPrompter(prompter: Prompter | undefined): void;
	/** What the status bar item shows now. */
	statusBar(): StatusBarSnapshot;
	/** The Accounts view: account nodes and their rows (loads the features, as showing the view does). */
	tree(): Promise<TreeSnapshot>;
	/** The last lines written to the log (at most 500), already redacted, e.g. `[info] Logged in…`. */
	logLines(): readonly string[];
	/** The last notifications shown (information, warning, error), oldest first. All come from the features bundle: none before it loads. */
	messages(): readonly ShownMessage[];
	/** The login step on screen when the real multi-step input is in use (no test prompter). */
	quickInput(): vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox | undefined;
	/** What activation cost by our own clock (`activationMs` is 0 while `activate()` still runs). */
	timings(): ActivationTimings;
}

export function createTestApi(parts: {
	services: Services;
	features: LazyFeatures;
	log: RedactingLog;
	statusBar: StatusBar;
	accountsView: AccountsView;
	timings: ActivationTimings;
}): TestApi {
	return {
		services: parts.services,
		setPrompter: (prompter) => parts.features.prompts.set(prompter),
		statusBar: () => parts.statusBar.snapshot(),
		tree: () => parts.accountsView.snapshot(),
		logLines: () => parts.log.recent(),
		messages: () => parts.features.current?.recentMessages() ?? [],
		quickInput: () => parts.features.current?.multiStepInput.current,
		timings: () => ({ ...parts.timings }),
	};
}
