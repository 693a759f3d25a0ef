// The status bar item: the active account and its time left, live, with one timer at most.
// The decisions (text, severity, when to look again) are in core/models/statusModel.ts.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { describeStatus, loadingStatus, type Severity, type StatusDescription } from '../../core/models/statusModel';

import { accountTooltip, loadingTooltip, loggedOutTooltip } from '../shared/tooltips';

export const STATUS_BAR_ID = 'telematicsAuth.status';

const BACKGROUND: Record<Severity, string | undefined> = {
	none: undefined,
	warning: 'statusBarItem.warningBackground',
	error: 'statusBarItem.errorBackground',
};

/** Owns the status bar item from creation to disposal. */
export class StatusBar implements vscode.Disposable {
	/** The item it owns, shown from construction to disposal. */
	readonly item: vscode.StatusBarItem;
	private readonly disposables: vscode.Disposable[] = [];
	private timer: unknown;
	private disposed = false;

	constructor(private readonly services: Services) {
		this.item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Left, 90);
		this.item.name = vscode.l10n.t('Telematics Auth');
		const render = () => this.render();
		this.disposables.push(
			services.store.onDidChange(render),
			services.scheduler.onDidChangeStatus(render),
			services.config.onDidChange(render),
		);
		void services.store.ready.then(render);
		this.render();
		this.item.show();
	}

	/** Re-reads the active session and re-arms the one timer. */
	render(): void {
		if (this.disposed) return;
		const { store, scheduler, config, clock } = this.services;
		const now = clock.now();
		if (!store.loaded) {
			this.show(loadingStatus(vscode.l10n.t), loadingTooltip());
			return;
		}
		const session = store.active();
		const status = session ? scheduler.status(session.account.id) : undefined;
		const d = describeStatus(session, status, now, config.refreshBeforeExpiryMs(), vscode.l10n.t);
		this.show(d, session ? accountTooltip(session, status, now, true) : loggedOutTooltip());
	}

	private show(d: StatusDescription, tooltip: vscode.MarkdownString): void {
		this.item.text = d.text;
		this.item.command = d.command;
		this.item.accessibilityInformation = { label: d.accessibilityLabel, role: 'button' };
		const background = BACKGROUND[d.severity];
		this.item.backgroundColor = background ? new vscode.ThemeColor(background) : undefined;
		this.item.tooltip = tooltip;
		this.arm(d.nextTickMs);
	}

	private arm(delay: number | undefined): void {
		const { clock } = this.services;
		if (this.timer !== undefined) {
			clock.clearTimeout(this.timer);
			this.timer = undefined;
		}
		if (delay === undefined) return;
		this.timer = clock.setTimeout(() => {
			this.timer = undefined;
			this.render();
		}, delay);
	}

	dispose(): void {
		this.disposed = true;
		if (this.timer !== undefined) this.services.clock.clearTimeout(this.timer);
		this.timer = undefined;
		for (const d of this.disposables) d.dispose();
		this.item.dispose();
	}
}
