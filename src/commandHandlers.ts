// What each command runs. activate() (extension.js) makes the one table and registers every command id
// with VS Code once; the features set their handlers in it. Pure: no `vscode`.
import type { CommandId } from './commands';

export type Handler = (...args: unknown[]) => unknown;

/** Each registration of activate() runs the handler set here, after the rest of the extension has loaded. */
export class CommandHandlers {
	private readonly handlers = new Map<CommandId, Handler>();
	/** Sets the handlers not set yet (loads onDemand.js); a command without a handler waits for it. */
	private loader: (() => Promise<unknown>) | undefined;

	/** `id` runs `handler` until the returned disposable is disposed. */
	set(id: CommandId, handler: Handler): { dispose(): void } {
		this.handlers.set(id, handler);
		return { dispose: () => void (this.handlers.get(id) === handler && this.handlers.delete(id)) };
	}

	/** `load` sets the handlers a command may still lack, until the returned disposable is disposed. */
	setLoader(load: () => Promise<unknown>): { dispose(): void } {
		this.loader = load;
		return { dispose: () => void (this.loader === load && (this.loader = undefined)) };
	}

	/** Runs `id`'s handler; without one, runs the loader first, then the handler it set. */
	run(id: CommandId, args: unknown[]): unknown {
		const load = this.loader;
		return this.handlers.has(id) || !load ? this.runSet(id, args) : load().then(() => this.runSet(id, args));
	}

	private runSet(id: CommandId, args: unknown[]): unknown {
		const handler = this.handlers.get(id);
		if (!handler) throw new Error(`${id} has no handler: the extension is shutting down or did not start.`);
		return handler(...args);
	}
}
