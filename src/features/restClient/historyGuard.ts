// REST Client's request history holds no token of ours (issue 65). REST Client (humao.rest-client) writes
// each request it sends, headers resolved, to history.json; while it is installed and
// telematicsAuth.cleanRestClientHistory is on, each change of that file is answered by a rewrite where every
// token of a logged-in account (current or earlier access tokens, refresh tokens) becomes a reference REST
// Client resolves on replay, or a placeholder naming the account (core/restClient/history.ts), written so
// that neither program loses the other's write (system/sharedFile.ts).
import { existsSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import { historyReplacements, HistoryKeeper, restClientHistoryPath, type HistoryAccount, type HistoryReplacement } from '../../core/restClient/history';
import { tokenVariableFor } from '../../core/sessions/accountNames';
import { rewriteSharedFile } from '../../system/sharedFile';
import { caughtText } from '../../core/util/caughtText';

export const REST_CLIENT_EXTENSION_ID = 'humao.rest-client';

/** How often the history file's stat is looked at while REST Client is installed. */
const POLL_MS = 500;

/**
 * The accounts' tokens as the rewrite needs them: each logged-in account's, and those of accounts logged out
 * in this window whose tokens have not expired (the service revokes none); whether each account's variable is
 * in the environment now.
 */
function accounts(services: Services): HistoryAccount[] {
	const now = services.clock.now();
	const sessions = services.store.list();
	const remembered = services.earlierTokens.accounts(now);
	const ids = new Set([...sessions.map((s) => s.account.id), ...remembered.map((r) => r.id)]);
	return [...ids].map((id) => {
		const session = sessions.find((s) => s.account.id === id);
		const name = session?.account.name ?? remembered.find((r) => r.id === id)?.name ?? '';
		const variable = name ? tokenVariableFor(name) : undefined;
		return {
			name,
			variable,
			exposed: session !== undefined && variable !== undefined && process.env[variable] !== undefined,
			accessTokens: [...new Set([...(session?.tokens ? [session.tokens.accessToken] : []), ...services.earlierTokens.of(id, now)])],
			refreshToken: session?.tokens?.refreshToken,
		};
	});
}

/** Watches REST Client's history while REST Client is installed and the setting is on. */
export function startRestClientHistoryGuard(services: Services): vscode.Disposable {
	const file = restClientHistoryPath(process.env, homedir(), (folder) => existsSync(folder));
	let watching = false;
	let running: Promise<void> | undefined;
	let again = false;
	let toldForeign = false;
	let replacements: HistoryReplacement[] = [];
	// The entries seen lately: one a REST Client write based on an older read dropped is put back.
	const keeper = new HistoryKeeper(() => replacements);

	const clean = async (): Promise<void> => {
		const list = accounts(services);
		replacements = historyReplacements(list);
		if (replacements.length === 0) return;
		const result = await rewriteSharedFile(file, (text) => {
			const rewrite = keeper.take(text);
			if (rewrite.kind === 'rewritten') return { kind: 'write', text: rewrite.text, detail: rewrite.tokens };
			if (rewrite.kind === 'unreadable') return { kind: 'again' };
			if (rewrite.kind === 'foreign' && !toldForeign) {
				toldForeign = true;
				services.log.info(`REST Client's history (${file}) is not the list of requests REST Client 0.25 writes: Telematics Auth leaves it alone.`);
			}
			return { kind: 'none' };
		}, (late) => keeper.absorb(late));
		if (result.kind === 'rewritten') services.log.info(`Replaced ${result.detail} token(s) in REST Client's history (${file}) with references.`);
		else if (result.kind === 'refused') services.log.warn(`REST Client's history (${file}) was left alone: ${result.reason === 'notRegular' ? 'it is not a regular file with one link' : result.reason === 'tooLarge' ? 'it is too large' : 'it kept changing; the next change tries again'}.`);
	};

	const run = (): void => {
		if (running) {
			again = true;
			return;
		}
		running = clean().catch((e: unknown) => services.log.warn(`Could not clean REST Client's history (${file}): ${caughtText(e)}`)).finally(() => {
			running = undefined;
			if (again) {
				again = false;
				run();
			}
		});
	};

	const listener = (current: Stats, previous: Stats): void => {
		if (current.mtimeMs !== previous.mtimeMs || current.size !== previous.size || current.ino !== previous.ino) run();
	};

	const update = (): void => {
		const wanted = services.config.cleanRestClientHistory() && vscode.extensions.getExtension(REST_CLIENT_EXTENSION_ID) !== undefined;
		if (wanted === watching) return;
		watching = wanted;
		if (wanted) {
			watchFile(file, { interval: POLL_MS, persistent: false }, listener);
			run();
		} else {
			unwatchFile(file, listener);
		}
	};

	update();
	const subscriptions = [
		vscode.extensions.onDidChange(update),
		services.config.onDidChange(update),
		// A token noted anew (a refresh, a login) may already be in the file.
		services.store.onDidChange(() => { if (watching) run(); }),
	];
	return new vscode.Disposable(() => {
		for (const s of subscriptions) s.dispose();
		if (watching) unwatchFile(file, listener);
		watching = false;
	});
}
