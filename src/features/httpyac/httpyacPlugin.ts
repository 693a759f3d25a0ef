// Telematics Auth's plugin for httpYac, in VS Code's words: core/httpyac/plugin.ts with `vscode.l10n.t`.
// Its own bundle (dist/httpyac.js), loaded by index.ts once httpYac for VS Code is there.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import vscode = require('vscode');
import { registerPlugin as register, type PluginHost } from '../../core/httpyac/plugin';

export type { PluginAccount, PluginHost } from '../../core/httpyac/plugin';

/** Adds the plugin to httpYac's library (what its `activate()` returned); undefined when its API is not the one known. */
export function registerPlugin(exports: unknown, version: string, host: PluginHost): vscode.Disposable | undefined {
	const registration = register(exports, version, host, (message, ...args) => vscode.l10n.t(message, ...args));
	return registration && new vscode.Disposable(() => registration.dispose());
}
