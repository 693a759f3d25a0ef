// "Update Tokens in File": every token in the file that belongs to a logged-in account (tokenMatch.ts)
// and is older than its current token is replaced by the current one, in one edit.
import vscode = require('../../system/vscodeApi');
import { findJwts, planTokenUpdates } from '../../core/restFile/jwtScan';
import { findOwner, planReplacements } from '../../core/restFile/tokenMatch';
import type { Services } from '../../services';
import { notify } from '../messages/notify';
import { isSafeToken } from '../../core/util/tokenGrammar';
import { ensureFreshToken, knownTokens } from '../shared/freshToken';
import { targetRestEditor } from './restDocuments';
import { offsetsByAccount, receivingDestinationsAt } from '../../core/restFile/tokenReach';
import { parseRestFile } from '../../core/restFile/requestParser';
import { readingsWithEnvironments } from './environmentReadings';
import { applyUnchanged, passGuards } from './writeGuards';

export interface UpdateOutcome {
	/** Occurrences replaced. */
	updated: number;
	/** Tokens found in the file. */
	found: number;
}

/** The command. `arg`: a file Uri (CodeLens, editor menus) or nothing (the active editor). */
export async function updateTokensInFile(services: Services, arg?: unknown): Promise<UpdateOutcome | undefined> {
	const editor = targetRestEditor(arg, vscode.l10n.t('Open a .http or .rest file to update the tokens in it.'));
	if (!editor) return undefined;
	const { document } = editor;
	const version = document.version;
	const text = document.getText();
	const found = findJwts(text);
	if (found.length === 0) {
		void notify('info', vscode.l10n.t('There are no tokens in this file.'));
		return { updated: 0, found: 0 };
	}
	// An owner whose current token has expired is offered a refresh first.
	const owners = new Set(found.map((j) => findOwner(j.token, knownTokens(services))?.accountId).filter((id) => id !== undefined));
	const now = services.clock.now();
	for (const id of owners) {
		const session = services.store.get(id);
		if (session && (!session.tokens || session.tokens.expiresAt <= now)) await ensureFreshToken(services, session);
	}

	// Only tokens of the token grammar are written into a file (planTokenUpdates checks again).
	const fresh = knownTokens(services).filter((k) => k.expiresAt > services.clock.now() && isSafeToken(k.accessToken));
	const replacements = planReplacements(found.map((j) => j.token), fresh);
	if (replacements.size === 0) {
		void notify('info', owners.size
			? vscode.l10n.t('The tokens in this file are already the current ones.')
			: vscode.l10n.t('None of the tokens in this file belong to a logged-in account.'));
		return { updated: 0, found: found.length };
	}
	// The file is read once: the questions below are about this text, and it is this text that gets the edit.
	const file = parseRestFile(text);
	const readings = await readingsWithEnvironments(file, document.uri);
	// Each account whose tokens are replaced: every request a replaced token reaches has its host checked (a
	// host the file does not say is asked about); one that reaches no request goes nowhere.
	const writes = [...offsetsByAccount(found, (token) => replacements.get(token)?.accountId)].flatMap(([accountId, offsets]) => {
		const session = services.store.get(accountId);
		return session ? [{ session, reach: () => ({ file, destinations: receivingDestinationsAt(file, offsets, readings.variables, readings.outside) }) }] : [];
	});
	const passed = await passGuards(services, { uri: document.uri, environments: readings.environments, action: vscode.l10n.t('Update Anyway') }, writes, { fresh: false, git: { offerReference: false } });
	if (!passed) return undefined;
	const edits = planTokenUpdates(text, new Map([...replacements].map(([old, r]) => [old, r.newToken])));
	if (!(await applyUnchanged(editor, version, edits, vscode.l10n.t('The file changed while the tokens were being updated. Try again.')))) return undefined;
	const labels = [...new Set([...replacements.values()].map((r) => services.store.get(r.accountId)?.account.label ?? r.accountId))].join(', ');
	void notify('info', edits.length === 1
		? vscode.l10n.t('Updated 1 token in this file ({0}).', labels)
		: vscode.l10n.t('Updated {0} tokens in this file ({1}).', edits.length, labels));
	return { updated: edits.length, found: found.length };
}
