// The Accounts view: its refresh events, the `telematicsAuth.hasAccounts` context key and its
// live descriptions; the nodes and rows come from accountsTree.ts.
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import type { Ticking } from '../../core/util/ticker';
import { nextTickDelay, TICK_SLACK_MS } from '../../core/statusBar/statusModel';
import { treeChildren, treeItem, type AccountsTreeNode } from './accountsTree';

export const VIEW_ID = 'telematicsAuth.accounts';
export const HAS_ACCOUNTS_CONTEXT = 'telematicsAuth.hasAccounts';

/**
 * The view and its data provider: fires the changes, keeps the context key, and refreshes the
 * descriptions through the ticker while the view is visible; nodes and items come from accountsTree.ts.
 */
export class AccountsView implements vscode.TreeDataProvider<AccountsTreeNode>, vscode.Disposable, Ticking {
	private readonly changed = new vscode.EventEmitter<AccountsTreeNode | undefined | void>();
	readonly onDidChangeTreeData = this.changed.event;
	readonly treeView: vscode.TreeView<AccountsTreeNode>;
	private readonly disposables: vscode.Disposable[] = [];
	private hasAccounts: boolean | undefined;
	private disposed = false;

	constructor(private readonly services: Services) {
		this.treeView = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: false });
		const changed = () => {
			this.changed.fire();
			this.update();
		};
		this.disposables.push(
			this.treeView,
			this.changed,
			// One event per change of the sessions or a refresh's status, as the status bar hears it.
			services.scheduler.onDidChange(changed),
			services.config.onDidChange(changed),
			this.treeView.onDidChangeVisibility(() => this.update()),
		);
		void services.store.ready.then(() => this.update());
		this.update();
	}

	/** Until the stored sessions are read the root waits (VS Code shows progress, not the welcome view). */
	getChildren(element?: AccountsTreeNode): AccountsTreeNode[] | Promise<AccountsTreeNode[]> {
		const { store } = this.services;
		return store.loaded ? treeChildren(this.services, element) : store.ready.then(() => treeChildren(this.services, element));
	}

	getTreeItem(element: AccountsTreeNode): vscode.TreeItem {
		return treeItem(this.services, element);
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

	tick(): void {
		this.changed.fire();
		this.arm();
	}

	/** Asks the ticker for the next description change, only while the view is visible. */
	private arm(): void {
		this.services.ticker.schedule(this, this.treeView.visible ? this.nextChangeMs() : undefined);
	}

	/** Milliseconds until some account's description changes on its own, if any will. */
	private nextChangeMs(): number | undefined {
		const now = this.services.clock.now();
		let next: number | undefined;
		for (const s of this.services.store.list()) {
			if (s.state !== 'valid' || !s.tokens) continue;
			const delay = nextTickDelay(s.tokens.expiresAt - now);
			if (delay !== undefined && (next === undefined || delay < next)) next = delay;
		}
		return next === undefined ? undefined : next + TICK_SLACK_MS;
	}

	dispose(): void {
		this.disposed = true;
		this.services.ticker.schedule(this, undefined);
		for (const d of this.disposables) d.dispose();
	}
}
