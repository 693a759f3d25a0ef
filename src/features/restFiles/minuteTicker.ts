// Re-renders the REST files' lenses and warnings once a minute while a REST file is visible, so
// "expires in 12m" stays true; asks the shared ticker for nothing while none is.
import vscode = require('../../system/vscodeApi');
import type { Ticker, Ticking } from '../../core/util/ticker';
import { isRestDocument } from '../../core/restFile/restDocument';

const MINUTE = 60_000;

export class MinuteTicker implements vscode.Disposable, Ticking {
	private readonly subscriptions: vscode.Disposable[] = [];

	constructor(private readonly ticker: Ticker, private readonly onTick: () => void) {
		vscode.window.onDidChangeVisibleTextEditors(() => this.update(), null, this.subscriptions);
		this.update();
	}

	tick(): void {
		this.onTick();
		this.update();
	}

	private update(): void {
		const visible = vscode.window.visibleTextEditors.some((e) => isRestDocument(e.document));
		if (!visible) this.ticker.schedule(this, undefined);
		else if (!this.ticker.isScheduled(this)) this.ticker.schedule(this, MINUTE);
	}

	dispose(): void {
		this.ticker.schedule(this, undefined);
		vscode.Disposable.from(...this.subscriptions).dispose();
	}
}
