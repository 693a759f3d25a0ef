// General shapes of the pure core, compatible with VS Code's own. Pure: no `vscode` import.

export interface Disposable {
	dispose(): void;
}

/** Minimal event shape, compatible with `vscode.Event`. */
export type Event<T> = (listener: (e: T) => unknown) => Disposable;
