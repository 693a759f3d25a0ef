// Events in the pure core, shaped like VS Code's own (no `vscode` import): `Disposable`, `Event`, and a tiny
// `Emitter` like `vscode.EventEmitter` (a public `event` any `vscode.Event` consumer accepts), disposed with its owner.

export interface Disposable {
	dispose(): void;
}

/** Minimal event shape, compatible with `vscode.Event`. */
export type Event<T> = (listener: (e: T) => unknown) => Disposable;

export class Emitter<T> implements Disposable {
	private listeners: Array<(e: T) => unknown> = [];
	private disposed = false;

	/** Subscribe; the returned Disposable unsubscribes. Extra arguments (thisArgs, disposables) are honoured like VS Code's. */
	readonly event: Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => {
		const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
		if (!this.disposed) this.listeners = [...this.listeners, bound];
		const subscription: Disposable = {
			dispose: () => {
				this.listeners = this.listeners.filter((l) => l !== bound);
			},
		};
		disposables?.push(subscription);
		return subscription;
	};

	/** Calls every listener; a listener that throws does not stop the others. */
	fire(e: T): void {
		for (const listener of this.listeners) {
			try {
				listener(e);
			} catch (error) {
				// Same as VS Code: an error in one listener is reported, not propagated.
				console.error(error);
			}
		}
	}

	dispose(): void {
		this.disposed = true;
		this.listeners = [];
	}
}
