// "Insert Authorization Header": gives each request under a cursor exactly one
// `Authorization: Bearer …` header with the account's current token, in one edit (one undo).
import vscode = require('vscode');
import { bearerValue, ENVIRONMENT_REFERENCES, foreignAuthorizations, planAuthEdit, variableNameOf, type AuthValue } from '../../core/restFile/authHeaderEdit';
import { DEFAULT_TOKEN_VARIABLE } from '../../core/restFile/fileVariable';
import { parseRestFile, requestsAt, type ParsedFile } from '../../core/restFile/requestParser';
import { requestDestinations, type Destination, type VariableReadings } from '../../core/restFile/requestHost';
import { requestsSending } from '../../core/restFile/tokenReach';
import type { Services } from '../../services';

import { resolveAccount } from '../shared/accountPicker';
import { notify } from '../shared/notify';
import { isSafeToken } from '../../core/util/tokenGrammar';
import { ensureFreshToken, unsafeStoredTokenMessage, type FreshSession } from '../shared/freshToken';
import { guardTrackedFile } from '../shared/gitExposure';
import { applyTextEdits, targetRestEditor } from '../shared/restDocuments';
import { formatRemaining } from '../../core/util/time';
import { Command } from '../../commands';
import { confirmTokenHosts } from './tokenDestinations';
import { readingsWithEnvironments } from './environmentReadings';

export interface InsertOutcome {
	/** Requests under a cursor. */
	requests: number;
	/** Edits applied (0 when everything was already right). */
	edits: number;
	style: AuthValue['style'];
}

/** The command. `arg`: `{ accountId }`, a file Uri (editor title), or nothing. */
export async function insertAuthorizationHeader(services: Services, arg?: unknown): Promise<InsertOutcome | undefined> {
	const editor = targetRestEditor(arg, vscode.l10n.t('Open a .http or .rest file and put the cursor in a request to insert an Authorization header.'));
	if (!editor) return undefined;
	// The file is read once: the questions below are about this text, and it is this text that gets the edit.
	const { document } = editor;
	const version = document.version;
	const file = parseRestFile(document.getText());
	const cursors = editor.selections.map((s) => document.offsetAt(s.active));
	const requestsUnderCursor = requestsAt(file, cursors).length;
	if (requestsUnderCursor === 0) {
		void notify('info', vscode.l10n.t('Put the cursor inside a request (its ### line, request line, headers or body) to insert an Authorization header.'));
		return undefined;
	}
	const style = services.config.insertStyle();
	let value: AuthValue;
	let session: FreshSession | undefined;
	if (style === 'processEnv' || style === 'dotenv' || style === 'envVariable') {
		// No token goes into the file: a tool fills the reference from what exposeToken keeps current,
		// the active account's token, which goes only to its service as a written one does.
		value = { style: 'environment', source: style };
		const active = services.store.active();
		if (active && !(await confirmTokenHosts(services, file, tokenDestinations(file, cursors, 'header', await readingsWithEnvironments(file, document.uri)), active.account, vscode.l10n.t('Insert Anyway')))) return undefined;
		if (services.config.exposeToken() === 'off' || (style !== 'processEnv' && services.config.exposeToken() !== 'environmentAndFiles')) {
			const choose = vscode.l10n.t('Choose…');
			void notify('warning', vscode.l10n.t('The header will read the token from {0}, but telematicsAuth.exposeToken does not keep it there yet.', ENVIRONMENT_REFERENCES[style]), choose).then((c) => {
				if (c === choose) void vscode.commands.executeCommand(Command.chooseTokenExposure);
			});
		}
	} else {
		const picked = await resolveAccount(services, arg instanceof vscode.Uri ? undefined : arg);
		if (!picked) return undefined;
		session = await ensureFreshToken(services, picked);
		if (!session) return undefined;
		if (!isSafeToken(session.tokens.accessToken)) {
			void notify('error', unsafeStoredTokenMessage(session.account.label));
			return undefined;
		}
		const written = style === 'variable' ? 'variable' : 'header';
		if (!(await confirmTokenHosts(services, file, tokenDestinations(file, cursors, written, await readingsWithEnvironments(file, document.uri)), session.account, vscode.l10n.t('Insert Anyway')))) return undefined;
		value = style === 'variable'
			? { style: 'variable', token: session.tokens.accessToken }
			: { style: 'header', token: session.tokens.accessToken };
		const answer = await guardTrackedFile(services.context, document.uri, services.prompts.current, true);
		if (answer === 'cancel') return undefined;
		if (answer === 'reference') value = { style: 'reference' };
	}

	const foreign = foreignAuthorizations(file, cursors, variableNameOf(value));
	const replaceForeign = foreign.length > 0 && await services.prompts.current.askReplaceForeign(foreign.map((f) => f.scheme));
	if (foreign.length === requestsUnderCursor && !replaceForeign) {
		void notify('info', vscode.l10n.t('Nothing changed: the request keeps its own Authorization header.'));
		return { requests: requestsUnderCursor, edits: 0, style: value.style };
	}
	const edits = planAuthEdit(file, cursors, value, { replaceForeign });
	// An edit made while a question was open would leave the answers about other text: nothing is written then.
	if (edits.length && (document.version !== version || !(await applyTextEdits(editor, edits)))) {
		void notify('error', vscode.l10n.t('The file changed while the header was being inserted. Try again.'));
		return undefined;
	}
	// The walkthrough's "insert the header" step completes on this.
	void vscode.commands.executeCommand('setContext', 'telematicsAuth.insertedHeader', true);
	if (!session) {
		vscode.window.setStatusBarMessage(vscode.l10n.t('The Authorization header reads the live token from {0}.', bearerValue(value)), 5000);
		return { requests: requestsUnderCursor, edits: edits.length, style: value.style };
	}
	const label = session.account.label;
	if (value.style === 'reference') {
		const copy = vscode.l10n.t('Copy Token');
		void notify('info', vscode.l10n.t('Wrote "Authorization: Bearer {0}" without a token. Define {1} in an untracked environment file (httpYac: .env; REST Client: $dotenv or your user settings). Copy the current token for {2}?', `{{${DEFAULT_TOKEN_VARIABLE}}}`, DEFAULT_TOKEN_VARIABLE, label), copy).then((choice) => {
			if (choice === copy && isSafeToken(session.tokens.accessToken)) void vscode.env.clipboard.writeText(session.tokens.accessToken);
		});
	} else {
		const remaining = formatRemaining(session.tokens.expiresAt - services.clock.now());
		vscode.window.setStatusBarMessage(edits.length
			? vscode.l10n.t('Authorization header set for {0} (valid for {1}).', label, remaining)
			: vscode.l10n.t('The Authorization header already holds the current token for {0}.', label), 5000);
	}
	return { requests: requestsUnderCursor, edits: edits.length, style: value.style };
}

/**
 * The hosts the file names for the token: the requests under the cursors, those that read their
 * headers by name, and with the variable style every request that reads the variable (it is the file's).
 */
function tokenDestinations(file: ParsedFile, cursors: readonly number[], style: 'header' | 'variable', variables: VariableReadings): Destination[] {
	return requestDestinations(file, requestsSending(file, { requests: requestsAt(file, cursors), variables: style === 'variable' ? [DEFAULT_TOKEN_VARIABLE] : [] }), variables);
}
