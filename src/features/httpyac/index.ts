// httpYac for VS Code, when it is installed: Telematics Auth's plugin goes into httpYac's own library
// (its `activate()` returns it), so httpYac reads the live tokens at Send and every request is checked
// as httpYac will send it (plugin.ts, its own bundle dist/httpyac.js, loaded only once httpYac is
// there). Nothing here loads at start-up but this file: while httpYac is absent it only listens for
// extensions being installed.
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import { liveSession } from '../shared/freshToken';
import { accountPlatformOrigins } from '../accounts/accountPlatformHosts';
import { tokenVariableFor } from '../../core/sessions/accountNames';
import { TOKEN_KEY } from '../../core/restFile/envFiles';
import { caughtText } from '../../core/util/caughtText';
import { isRestDocument } from '../../core/restFile/restDocument';
import { onFirstDocument } from '../shared/firstDocument';
import type { PluginHost } from './httpyacPlugin';

export const HTTPYAC_EXTENSION_ID = 'anweber.vscode-httpyac';

/** Whether httpYac for VS Code is installed (and enabled) here: then `{{TELEMATICS_TOKEN…}}` needs no exposure. */
export function httpyacInstalled(): boolean {
	return vscode.extensions.getExtension(HTTPYAC_EXTENSION_ID) !== undefined;
}

/** What the plugin may know of the accounts and the person, given from here so its bundle shares no module with ours. */
function pluginHost(services: Services): PluginHost {
	const { store, config, log, prompts, clock, earlierTokens: earlier } = services;
	return {
		log,
		activeVariable: TOKEN_KEY,
		accounts: () => {
			const activeId = store.active()?.account.id;
			return store.list().map((s) => ({
				id: s.account.id,
				name: s.account.name ?? '',
				label: s.account.label,
				variable: s.account.name ? tokenVariableFor(s.account.name) : undefined,
				active: s.account.id === activeId,
				tokens: s.tokens ? [...new Set([s.tokens.accessToken, s.tokens.refreshToken, ...earlier.of(s.account.id, clock.now())])] : earlier.of(s.account.id, clock.now()),
				platformOrigins: accountPlatformOrigins(config, s.account),
			}));
		},
		liveToken: async (accountId) => (await liveSession(services, accountId))?.tokens.accessToken,
		trusted: () => vscode.workspace.isTrusted,
		httpProxy: () => config.proxy().proxyUrl,
		confirm: (message, detail, action) => prompts.current.confirm(message, detail, action),
	};
}

/** httpYac sends from REST files and from markdown and asciidoc code blocks. */
function isHttpyacDocument(document: vscode.TextDocument): boolean {
	return isRestDocument(document) || document.languageId === 'markdown' || document.languageId === 'asciidoc';
}

/**
 * Registers the plugin once httpYac is there: now when it is already running, else when the first REST,
 * markdown or asciidoc file opens (httpYac starts then too), and again after an install. Undone when the extension stops.
 */
export function startHttpyacPlugin(services: Services): vscode.Disposable {
	let registered: vscode.Disposable | undefined;
	let waiting: vscode.Disposable | undefined;
	let disposed = false;

	const register = async (extension: vscode.Extension<unknown>): Promise<void> => {
		try {
			const exports: unknown = extension.isActive ? extension.exports : await extension.activate();
			if (disposed || registered) return;
			const { registerPlugin } = await import('./httpyacPlugin');
			if (disposed || registered) return;
			registered = registerPlugin(exports, String((extension.packageJSON as { version?: unknown }).version ?? ''), pluginHost(services));
		} catch (e) {
			services.log.warn(`httpYac is installed, but Telematics Auth could not add its plugin: ${caughtText(e)}`);
		}
	};

	const look = (): void => {
		if (disposed || registered || waiting) return;
		const extension = vscode.extensions.getExtension(HTTPYAC_EXTENSION_ID);
		if (!extension) return;
		if (extension.isActive) {
			waiting = new vscode.Disposable(() => undefined);
			void register(extension);
			return;
		}
		waiting = onFirstDocument(isHttpyacDocument, () => void register(extension));
	};

	look();
	const installs = vscode.extensions.onDidChange(look);
	return new vscode.Disposable(() => {
		disposed = true;
		installs.dispose();
		waiting?.dispose();
		registered?.dispose();
	});
}
