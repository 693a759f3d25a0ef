// What each command runs. activate() (extension.js) makes the one table and registers every command id
// with VS Code once; the features set their handlers in it. Pure: no `vscode`.
import type { CommandId } from './commands';

export type Handler = (...args: unknown[]) => unknown;

/** Each registration of activate() runs the handler set here, after the rest of the extension has loaded. */
export class CommandHandlers {
	private readonly handlers = new Map<CommandId, Handler>();

	/** `id` runs `handler` until the returned disposable is disposed. */
	set(id: CommandId, handler: Handler): { dispose(): void } {
		this.handlers.set(id, handler);
		return { dispose: () => void (this.handlers.get(id) === handler && this.handlers.delete(id)) };
	}

	run(id: CommandId, args: unknown[]): unknown {
		const handler = this.handlers.get(id);
		if (!handler) throw new Error(`${id} has no handler: the extension is shutting down or did not start.`);
		return handler(...args);
	}
}
