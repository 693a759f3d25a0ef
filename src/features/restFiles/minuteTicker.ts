// Ticks once a minute while a REST file is visible, so lenses and diagnostics that say
// "expires in 12m" stay true; stops when none is.
import * as vscode from 'vscode';

import { isHttpDocument } from '../shared/restDocuments';
import type { Clock } from '../../core/util/clock';

const MINUTE = 60_000;

export class MinuteTicker implements vscode.Disposable {
	private readonly ticked = new vscode.EventEmitter<void>();
	readonly onTick = this.ticked.event;
	private readonly subscriptions: vscode.Disposable[] = [];
	private handle: unknown;

	constructor(private readonly clock: Clock) {
		vscode.window.onDidChangeVisibleTextEditors(() => this.update(), null, this.subscriptions);
		this.update();
	}

	private update(): void {
		const visible = vscode.window.visibleTextEditors.some((e) => isHttpDocument(e.document));
		if (visible && this.handle === undefined) this.schedule();
		if (!visible && this.handle !== undefined) {
			this.clock.clearTimeout(this.handle);
			this.handle = undefined;
		}
	}

	private schedule(): void {
		this.handle = this.clock.setTimeout(() => {
			this.handle = undefined;
			this.ticked.fire();
			this.update();
		}, MINUTE);
	}

	dispose(): void {
		if (this.handle !== undefined) this.clock.clearTimeout(this.handle);
		this.handle = undefined;
		this.ticked.dispose();
		vscode.Disposable.from(...this.subscriptions).dispose();
	}
}
