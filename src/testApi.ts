// What `activate()` returns in ExtensionMode.Test only: the services, a way to answer the prompts
// without UI, and what a person would see, read from the real status bar item and the real Accounts view.
import * as vscode from 'vscode';
import type { RedactingLog } from './core/util/logger';
import type { Services } from './services';
import type { AccountsTreeNode } from './features/accounts/accountsTree';
import type { AccountsView } from './features/accounts/accountsView';
import type { ShownMessage } from './features/notifications/notifications';
import type { Prompter } from './features/login/prompter';
import type { StatusBar } from './features/statusBar/statusBar';

export type { ShownMessage };

/** What the status bar item shows. */
export interface StatusBarSnapshot {
	text: string;
	/** The tooltip's markdown source. */
	tooltip: string;
	/** Theme color id of the background, if any. */
	backgroundColor?: string;
	accessibilityText: string;
	command?: string;
}

function statusBarSnapshot({ item }: StatusBar): StatusBarSnapshot {
	const { tooltip, command } = item;
	return {
		text: item.text,
		tooltip: typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '',
		backgroundColor: item.backgroundColor?.id,
		accessibilityText: item.accessibilityInformation?.label ?? '',
		command: typeof command === 'string' ? command : command?.command,
	};
}

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
	/** The Accounts view: account nodes and their rows. */
	tree(): Promise<TreeSnapshot>;
	/** The last lines written to the log (at most 500), already redacted, e.g. `[info] Logged in…`. */
	logLines(): readonly string[];
	/** The last notifications shown (information, warning, error), oldest first. */
	messages(): readonly ShownMessage[];
}

export function createTestApi(parts: {
	services: Services;
	log: RedactingLog;
	statusBar: StatusBar;
	accountsView: AccountsView;
	recentMessages: () => readonly ShownMessage[];
}): TestApi {
	return {
		services: parts.services,
		setPrompter: (prompter) => parts.services.prompts.set(prompter),
		statusBar: () => statusBarSnapshot(parts.statusBar),
		tree: () => treeSnapshot(parts.accountsView),
		logLines: () => parts.log.recent(),
		messages: parts.recentMessages,
	};
}
