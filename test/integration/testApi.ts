// What the integration tests read, built from the live parts `activate()` hands out in ExtensionMode.Test:
// the services, a way to answer the prompts without UI, and what the status bar item and Accounts view show.
import * as vscode from 'vscode';
import type { Services } from '../../src/services';
import type { AccountsTreeNode } from '../../src/features/accounts/accountsTree';
import type { AccountsView } from '../../src/features/accounts/accountsView';
import type { ShownMessage } from '../../src/features/messages/notify';
import type { Prompter } from '../../src/core/models/prompter';
import type { StatusBar } from '../../src/features/statusBar/statusBar';
import type { TestHandles } from '../../src/extension';
import type { LivePanelSnapshot } from '../../src/features/liveTracking/livePanel';

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
	/** A grant as the window hands it to a telematics-mcp VS Code starts itself. */
	mcpGrant(): string;
	/** What each open Live Tracking panel shows: its state, what its page was sent, its HTML. */
	livePanels(): LivePanelSnapshot[];
}

/** The TestApi over the parts the extension under test handed out. */
export function testApiOf(handles: TestHandles): TestApi {
	return {
		services: handles.services,
		setPrompter: (prompter) => handles.services.prompts.set(prompter),
		statusBar: () => statusBarSnapshot(handles.statusBar),
		tree: () => treeSnapshot(handles.accountsView),
		logLines: () => handles.services.log.recent(),
		messages: handles.recentMessages,
		mcpGrant: () => handles.mcp.newGrant(),
		livePanels: () => handles.liveTracking.snapshots(),
	};
}
