// The Accounts view: one node per account, with its facts and token claims beneath.
// The node model (labels, descriptions, rows) is plain data from session/treeModel.ts.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { nextTickDelay, TICK_SLACK_MS } from '../session/statusModel';
import { accountNode, accountRows, type RowModel } from '../session/treeModel';
import { formatClockTime } from '../util/time';
import { accountTooltip } from './statusBar';

export const VIEW_ID = 'telematicsAuth.accounts';
export const HAS_ACCOUNTS_CONTEXT = 'telematicsAuth.hasAccounts';

/** An account in the view. Commands run from it receive it, and read `accountId`. */
export interface AccountTreeNode {
	type: 'account';
	accountId: string;
}

/** A row beneath an account; `path` names it (`expiry`, `claims/0`), stable across refreshes. */
export interface RowTreeNode {
	type: 'row';
	accountId: string;
	path: string;
	row: RowModel;
}

export type AccountsTreeNode = AccountTreeNode | RowTreeNode;

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

export class AccountsTreeProvider implements vscode.TreeDataProvider<AccountsTreeNode>, vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<AccountsTreeNode | undefined | void>();
	readonly onDidChangeTreeData = this.changed.event;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(private readonly services: Services) {
		const refresh = () => this.refresh();
		this.disposables.push(
			services.store.onDidChange(refresh),
			services.scheduler.onDidChangeStatus(refresh),
			services.config.onDidChange(refresh),
		);
	}

	refresh(): void {
		this.changed.fire();
	}

	/** Until the stored sessions are read, the root waits (VS Code shows progress, not the welcome view). */
	getChildren(element?: AccountsTreeNode): AccountsTreeNode[] | Promise<AccountsTreeNode[]> {
		if (!element && !this.services.store.loaded) return this.services.store.ready.then(() => this.childrenNow());
		return this.childrenNow(element);
	}

	private childrenNow(element?: AccountsTreeNode): AccountsTreeNode[] {
		const { store, scheduler, clock } = this.services;
		if (!element) return store.list().map((s) => ({ type: 'account', accountId: s.account.id }));
		const session = store.get(element.accountId);
		if (!session) return [];
		if (element.type === 'account') {
			const now = clock.now();
			const rows = accountRows(session, now, scheduler.status(session.account.id), { t: vscode.l10n.t, formatTime: (ms) => formatClockTime(ms, now) });
			return rows.map((row) => ({ type: 'row', accountId: element.accountId, path: row.key, row }));
		}
		return (element.row.children ?? []).map((row, i) => ({ type: 'row', accountId: element.accountId, path: `${element.path}/${i}`, row }));
	}

	getTreeItem(element: AccountsTreeNode): vscode.TreeItem {
		return element.type === 'account' ? this.accountItem(element) : this.rowItem(element);
	}

	private accountItem(element: AccountTreeNode): vscode.TreeItem {
		const { store, scheduler, clock } = this.services;
		const session = store.get(element.accountId);
		if (!session) return new vscode.TreeItem(element.accountId, vscode.TreeItemCollapsibleState.None);
		const now = clock.now();
		const activeId = store.active()?.account.id;
		const node = accountNode(session, now, activeId, { t: vscode.l10n.t });
		const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
		item.id = `account:${node.accountId}`;
		item.description = node.description;
		item.contextValue = node.contextValue;
		item.iconPath = new vscode.ThemeIcon(node.icon, node.iconColor ? new vscode.ThemeColor(node.iconColor) : undefined);
		item.tooltip = accountTooltip(session, scheduler.status(session.account.id), now, node.active);
		item.accessibilityInformation = {
			label: vscode.l10n.t('{0}, {1} account, {2}', node.label, node.kind === 'admin' ? vscode.l10n.t('admin') : vscode.l10n.t('user'), node.description),
		};
		return item;
	}

	private rowItem(element: RowTreeNode): vscode.TreeItem {
		const { row } = element;
		const collapsible = row.children === undefined
			? vscode.TreeItemCollapsibleState.None
			: vscode.TreeItemCollapsibleState.Collapsed;
		const item = new vscode.TreeItem(row.label, collapsible);
		item.id = `row:${element.accountId}/${element.path}`;
		item.description = row.description;
		item.iconPath = new vscode.ThemeIcon(row.icon);
		item.contextValue = `row.${row.key}`;
		item.tooltip = row.tooltip ?? (row.description ? `${row.label}: ${row.description}` : undefined);
		return item;
	}

	/** Milliseconds until some account's description changes on its own, if any will. */
	nextChangeMs(): number | undefined {
		const now = this.services.clock.now();
		let next: number | undefined;
		for (const s of this.services.store.list()) {
			if (s.state !== 'valid' || !s.tokens) continue;
			const delay = nextTickDelay(s.tokens.expiresAt - now);
			if (delay !== undefined && (next === undefined || delay < next)) next = delay;
		}
		return next === undefined ? undefined : next + TICK_SLACK_MS;
	}

	/** The whole tree as plain data, for tests (account nodes and their rows, claims included). */
	async snapshot(): Promise<TreeSnapshot> {
		await this.services.store.ready;
		const walk = (element: AccountsTreeNode): TreeSnapshotNode => {
			const item = this.getTreeItem(element);
			const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
			return {
				label: labelText(item.label),
				description: typeof item.description === 'string' ? item.description : undefined,
				contextValue: item.contextValue,
				tooltip: tooltipText(item.tooltip),
				icon,
				children: item.collapsibleState === vscode.TreeItemCollapsibleState.None ? [] : this.childrenNow(element).map(walk),
			};
		};
		return { accounts: this.childrenNow().map(walk) };
	}

	dispose(): void {
		for (const d of this.disposables) d.dispose();
		this.changed.dispose();
	}
}

/** The view, its context key and its live descriptions (only while the view is visible). */
export class AccountsView implements vscode.Disposable {
	readonly provider: AccountsTreeProvider;
	readonly treeView: vscode.TreeView<AccountsTreeNode>;
	private readonly disposables: vscode.Disposable[] = [];
	private timer: unknown;
	private hasAccounts: boolean | undefined;
	private disposed = false;

	constructor(private readonly services: Services) {
		this.provider = new AccountsTreeProvider(services);
		this.treeView = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.provider, showCollapseAll: false });
		const update = () => this.update();
		this.disposables.push(
			this.provider,
			this.treeView,
			services.store.onDidChange(update),
			services.scheduler.onDidChangeStatus(update),
			services.config.onDidChange(update),
			this.treeView.onDidChangeVisibility(update),
		);
		void services.store.ready.then(update);
		this.update();
	}

	private update(): void {
		if (this.disposed || !this.services.store.loaded) return;
		const has = this.services.store.list().length > 0;
		if (has !== this.hasAccounts) {
			this.hasAccounts = has;
			void vscode.commands.executeCommand('setContext', HAS_ACCOUNTS_CONTEXT, has);
		}
		this.arm();
	}

	/** One timer, armed only while the view is visible, for the next description change. */
	private arm(): void {
		const { clock } = this.services;
		if (this.timer !== undefined) clock.clearTimeout(this.timer);
		this.timer = undefined;
		if (!this.treeView.visible) return;
		const delay = this.provider.nextChangeMs();
		if (delay === undefined) return;
		this.timer = clock.setTimeout(() => {
			this.timer = undefined;
			this.provider.refresh();
			this.arm();
		}, delay);
	}

	dispose(): void {
		this.disposed = true;
		if (this.timer !== undefined) this.services.clock.clearTimeout(this.timer);
		this.timer = undefined;
		for (const d of this.disposables) d.dispose();
	}
}

export function registerAccountsView(services: Services): AccountsView {
	return new AccountsView(services);
}
