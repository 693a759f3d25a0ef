// The status bar item: the active account and its time left, live (the ticker wakes it when its text changes).
// The decisions (text, severity, when to look again) are in core/statusBar/statusModel.ts.
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import type { Ticking } from '../../core/util/ticker';
import { describeStatus, loadingStatus, noActiveStatus, type StatusBackground, type StatusDescription } from '../../core/statusBar/statusModel';

import { Command } from '../../commands';
import { accountTooltip, chooseAccountTooltip, loadingTooltip, loggedOutTooltip } from '../accounts/accountTooltips';

export const STATUS_BAR_ID = 'telematicsAuth.status';

const BACKGROUND: Record<StatusBackground, string | undefined> = {
	none: undefined,
	warning: 'statusBarItem.warningBackground',
	error: 'statusBarItem.errorBackground',
};

/** Owns the status bar item from creation to disposal. */
export class StatusBar implements vscode.Disposable, Ticking {
	/** The item it owns, shown from construction to disposal. */
	readonly item: vscode.StatusBarItem;
	private readonly disposables: vscode.Disposable[] = [];
	private disposed = false;

	constructor(private readonly services: Services) {
		this.item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Left, 90);
		this.item.name = vscode.l10n.t('Telematics Auth');
		const render = () => this.render();
		this.disposables.push(
			// The scheduler follows the store: one event per change of the sessions or their refresh status.
			services.scheduler.onDidChange(render),
			services.config.onDidChange(render),
		);
		void services.store.ready.then(render);
		this.render();
		this.item.show();
	}

	tick(): void {
		this.render();
	}

	/** Re-reads the active session and asks the ticker for the next change of its text. */
	render(): void {
		if (this.disposed) return;
		const { store, scheduler, config, clock } = this.services;
		const now = clock.now();
		if (!store.loaded) {
			this.show(loadingStatus(vscode.l10n.t), loadingTooltip());
			return;
		}
		const session = store.active();
		if (!session && store.list().length > 0) {
			this.show(noActiveStatus(vscode.l10n.t), chooseAccountTooltip());
			return;
		}
		const status = session ? scheduler.status(session.account.id) : undefined;
		const d = describeStatus(session, status, now, config.refreshBeforeExpiryMs(), vscode.l10n.t);
		this.show(d, session ? accountTooltip(session, status, now, true) : loggedOutTooltip());
	}

	private show(d: StatusDescription, tooltip: vscode.MarkdownString): void {
		this.item.text = d.text;
		this.item.command = Command[d.click];
		this.item.accessibilityInformation = { label: d.accessibilityLabel, role: 'button' };
		const background = BACKGROUND[d.severity];
		this.item.backgroundColor = background ? new vscode.ThemeColor(background) : undefined;
		this.item.tooltip = tooltip;
		this.services.ticker.schedule(this, d.nextTickMs);
	}

	dispose(): void {
		this.disposed = true;
		this.services.ticker.schedule(this, undefined);
		for (const d of this.disposables) d.dispose();
		this.item.dispose();
	}
}
