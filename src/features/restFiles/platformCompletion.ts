// Completion of the platform's paths in a request line, after a platform host of a logged-in account (or
// of the service in telematicsAuth.baseUrl): `POST https://api.telematicssdk.com/` offers the api host's
// POST paths. The choice is core/platform/pathCompletion.ts.
import vscode = require('../../system/vscodeApi');
import { pathCompletions, originIndex } from '../../core/platform/pathCompletion';
import { platformHosts, type PlatformHosts } from '../../core/platform/hosts';
import { loadPlatform } from '../../core/platform/load';
import type { Services } from '../../services';
import { accountPlatformHosts } from '../accounts/accountPlatformHosts';

/** The characters after which completion is asked for by itself. */
export const PATH_TRIGGERS = ['/'];

export class PlatformPathCompletion implements vscode.CompletionItemProvider {
	constructor(private readonly services: Services) { }

	async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[] | undefined> {
		const line = document.lineAt(position.line).text;
		const before = line.slice(0, position.character);
		// Cheap refusal first: most lines are no request line to an http(s) URL.
		if (!/https?:\/\//i.test(before)) return undefined;
		const platforms: PlatformHosts[] = [];
		for (const session of this.services.store.list()) {
			const hosts = accountPlatformHosts(this.services.config, session.account);
			if (hosts) platforms.push(hosts);
		}
		const configured = platformHosts(this.services.config.baseUrl(), this.services.config.platformHosts());
		if (configured) platforms.push(configured);
		const index = originIndex(platforms);
		// The description loads here, the first time a request line reaches a platform host.
		if (pathCompletions(before, index, []) === undefined) return undefined;
		const found = pathCompletions(before, index, (await loadPlatform()).OPERATIONS);
		if (!found) return undefined;
		// The path typed so far and what follows it up to a space or the query are replaced.
		const rest = /^[^\s?#]*/.exec(line.slice(position.character))![0];
		const range = new vscode.Range(position.line, found.pathStart, position.line, position.character + rest.length);
		return found.operations.map((op, i) => {
			const item = new vscode.CompletionItem({ label: op.path, description: `${op.method} · ${op.token === 'none' ? vscode.l10n.t('no token') : op.token}` }, vscode.CompletionItemKind.Reference);
			let n = 0;
			// A path parameter is a placeholder to type over (the description's paths hold no `$` or `\\`: a unit test holds them).
			item.insertText = new vscode.SnippetString(op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => `\${${++n}:${name}}`));
			item.filterText = op.path;
			item.range = range;
			item.detail = op.summary;
			item.sortText = String(i).padStart(3, '0');
			return item;
		});
	}
}
