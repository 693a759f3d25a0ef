// What `activate()` returns in test mode only (ExtensionMode.Test): the shared services, a way
// to answer the login prompts without UI, and snapshots of what a person would see, read from
// the real status bar item and the real Accounts view's data provider.
import * as vscode from 'vscode';
import type { LazyFeatures } from './lazyFeatures';
import type { RedactingLog } from './core/util/logger';
import type { Services } from './services';
import type { AccountsTreeNode } from './features/accounts/accountsTree';
import type { AccountsView } from './features/accounts/accountsView';
import type { ShownMessage } from './features/notifications/notifications';
import type { Prompter } from './features/login/prompter';
import type { StatusBar, StatusBarSnapshot } from './features/statusBar/statusBar';
import type { ActivationTimings } from './core/util/startTime';

export type { ActivationTimings, ShownMessage, StatusBarSnapshot };

export interface TreeSnapshotNode {
	label: string;
	description?: string;
	contextValue?: string;
	tooltip?: string;
	icon?: string;
	children: TreeSnapshotNode[];
}

export interface TreeSnapshot {
	accounts: TreeSnapshotNode[];
}

function tooltipText(tooltip: vscode.TreeItem['tooltip']): string | undefined {
	return typeof tooltip === 'string' ? tooltip : tooltip?.value;
}

function labelText(label: vscode.TreeItem['label']): string {
	return typeof label === 'string' ? label : label?.label ?? '';
}

/** The Accounts view as VS Code would draw it, walked through its data provider. */
async function treeSnapshot(view: AccountsView): Promise<TreeSnapshot> {
	const walk = async (element: AccountsTreeNode): Promise<TreeSnapshotNode> => {
		const item = await view.getTreeItem(element);
		return {
			label: labelText(item.label),
			description: typeof item.description === 'string' ? item.description : undefined,
			contextValue: item.contextValue,
			tooltip: tooltipText(item.tooltip),
			icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined,
			children: item.collapsibleState === vscode.TreeItemCollapsibleState.None ? [] : await Promise.all((await view.getChildren(element)).map(walk)),
		};
	};
	return { accounts: await Promise.all((await view.getChildren()).map(walk)) };
}

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
		tree: () => treeSnapshot(parts.accountsView),
		logLines: () => parts.log.recent(),
		messages: () => parts.features.current?.recentMessages() ?? [],
		quickInput: () => parts.features.current?.multiStepInput.current,
		timings: () => ({ ...parts.timings }),
	};
}
