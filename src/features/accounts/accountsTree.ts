// The Accounts view's nodes and rows: one node per account, its facts and token claims beneath,
// from the plain-data model in core/accounts/accountsTreeModel.ts.
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import { accountNode, accountRows, type RowModel } from '../../core/accounts/accountsTreeModel';
import { formatClockTime } from '../../core/util/time';
import { accountTooltip } from './accountTooltips';

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

/** The nodes under `element` (the accounts at the root), from the stored sessions once they are read. */
export function treeChildren(services: Services, element?: AccountsTreeNode): AccountsTreeNode[] {
	const { store, scheduler, clock } = services;
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

/** The tree item VS Code shows for `element`. */
export function treeItem(services: Services, element: AccountsTreeNode): vscode.TreeItem {
	return element.type === 'account' ? accountItem(services, element) : rowItem(element);
}

function accountItem(services: Services, element: AccountTreeNode): vscode.TreeItem {
	const { store, scheduler, clock } = services;
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
		label: vscode.l10n.t('{0}, {1} account, {2}', node.label, node.production ? vscode.l10n.t('production {0}', node.kind === 'admin' ? vscode.l10n.t('admin') : vscode.l10n.t('user')) : node.kind === 'admin' ? vscode.l10n.t('admin') : vscode.l10n.t('user'), node.description),
	};
	return item;
}

function rowItem(element: RowTreeNode): vscode.TreeItem {
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
