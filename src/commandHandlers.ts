// What each command runs. activate() (extension.js) makes the one table and registers every command id
// with VS Code once; the features set their handlers in it. Pure: no `vscode`.
import type { CommandId } from './commands';

export type Handler = (...args: unknown[]) => unknown;

/** Each registration of activate() runs the handler set here, after the rest of the extension has loaded. */
export class CommandHandlers {
	private readonly handlers = new Map<CommandId, Handler>();
	/** Runs a command that has no handler yet: loads the code that sets it (onDemand.js), then runs it. */
	private fallback: ((id: CommandId, args: unknown[]) => unknown) | undefined;

	/** `id` runs `handler` until the returned disposable is disposed. */
	set(id: CommandId, handler: Handler): { dispose(): void } {
		this.handlers.set(id, handler);
		return { dispose: () => void (this.handlers.get(id) === handler && this.handlers.delete(id)) };
	}

	/** What runs a command without a handler, until the returned disposable is disposed. */
	setFallback(fallback: (id: CommandId, args: unknown[]) => unknown): { dispose(): void } {
		this.fallback = fallback;
		return { dispose: () => void (this.fallback === fallback && (this.fallback = undefined)) };
	}

	/** Whether `id` has a handler of its own (not the fallback). */
	has(id: CommandId): boolean {
		return this.handlers.has(id);
	}

	run(id: CommandId, args: unknown[]): unknown {
		const handler = this.handlers.get(id);
		if (!handler && this.fallback) return this.fallback(id, args);
		if (!handler) throw new Error(`${id} has no handler: the extension is shutting down or did not start.`);
		return handler(...args);
	}
}
