// "Insert Authorization Header": gives each request under a cursor exactly one
// `Authorization: Bearer …` header with the account's current token, in one edit (one undo).
import vscode = require('vscode');
import { bearerValue, ENVIRONMENT_REFERENCES, foreignAuthorizations, planAuthEdit, variableNameOf, type AuthValue } from '../../core/restFile/authHeaderEdit';
import { DEFAULT_TOKEN_VARIABLE } from '../../core/restFile/fileVariable';
import { parseRestFile, requestsAt, type ParsedFile } from '../../core/restFile/requestParser';
import { requestDestinations, requestTarget, type Destination } from '../../core/restFile/requestHost';
import { accountsServing } from '../../core/restFile/requestAccount';
import { tokenVariableFor } from '../../core/sessions/accountNames';
import type { Session } from '../../core/sessions/types';
import { requestsReached } from '../../core/restFile/tokenReach';
import type { Services } from '../../services';

import { accountIdOf, pickAccount, resolveAccount } from '../accounts/accountPicker';
import { notify } from '../messages/notify';
import { isSafeToken } from '../../core/util/tokenGrammar';
import { ensureFreshToken, unsafeStoredTokenMessage, type FreshSession } from '../shared/freshToken';
import { guardTrackedFile } from '../shared/gitExposure';
import { applyTextEdits, targetRestEditor } from './restDocuments';
import { formatRemaining } from '../../core/util/time';
import { Command } from '../../commands';
import { confirmTokenHosts } from './tokenDestinations';
import { readingsWithEnvironments, type Readings } from './environmentReadings';

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
	/** With several accounts, each account's requests and the value they get (Insert by account). */
	let byAccount: Array<{ cursors: number[]; value: AuthValue }> | undefined;
	/** The accounts whose tokens went in, when more than one did. */
	let labels: string[] | undefined;
	if (style === 'processEnv' || style === 'dotenv' || style === 'envVariable') {
		// No token goes into the file: a tool fills the reference from what exposeToken keeps current,
		// which goes only to its account's service as a written token does.
		value = { style: 'environment', source: style };
		const readings = await readingsWithEnvironments(file, document.uri);
		const named = services.store.list().filter((s) => s.account.name !== undefined && s.tokens);
		if (named.length > 1 && !accountIdOf(arg)) {
			// Several accounts: each request gets the named reference of the account whose service it goes to.
			const chosen = await accountsByRequest(services, file, cursors, readings, named);
			if (!chosen) return undefined;
			byAccount = [];
			for (const [, { session: owner, cursors: own }] of chosen) {
				if (!(await confirmTokenHosts(services, file, tokenDestinations(file, own, 'header', readings), owner.account, vscode.l10n.t('Insert Anyway'), readings.environments))) return undefined;
				byAccount.push({ cursors: own, value: { style: 'environment', source: style, variable: tokenVariableFor(owner.account.name!) } });
			}
		} else {
			const active = services.store.active();
			if (active && !(await confirmTokenHosts(services, file, tokenDestinations(file, cursors, 'header', readings), active.account, vscode.l10n.t('Insert Anyway'), readings.environments))) return undefined;
		}
		if (services.config.exposeToken() === 'off' || (style !== 'processEnv' && services.config.exposeToken() !== 'environmentAndFiles')) {
			const choose = vscode.l10n.t('Choose…');
			void notify('warning', vscode.l10n.t('The header will read the token from {0}, but telematicsAuth.exposeToken does not keep it there yet.', ENVIRONMENT_REFERENCES[style]), choose).then((c) => {
				if (c === choose) void vscode.commands.executeCommand(Command.chooseTokenExposure);
			});
		}
	} else {
		const readings = await readingsWithEnvironments(file, document.uri);
		const accounts = services.store.list();
		// Several accounts and none named: in the header style each request gets the token of the account
		// whose service it goes to (one variable holds one token, so the variable style stays with one account).
		const groups = style === 'header' && accounts.length > 1 && accountIdOf(arg) === undefined
			? await accountsByRequest(services, file, cursors, readings, accounts)
			: await oneAccount(services, arg instanceof vscode.Uri ? undefined : arg, cursors);
		if (!groups) return undefined;
		const written = style === 'variable' ? 'variable' : 'header';
		const fresh: Array<{ session: FreshSession; cursors: number[] }> = [];
		for (const group of groups.values()) {
			const current = await ensureFreshToken(services, group.session);
			if (!current) return undefined;
			if (!isSafeToken(current.tokens.accessToken)) {
				void notify('error', unsafeStoredTokenMessage(current.account.label));
				return undefined;
			}
			if (!(await confirmTokenHosts(services, file, tokenDestinations(file, group.cursors, written, readings), current.account, vscode.l10n.t('Insert Anyway'), readings.environments))) return undefined;
			fresh.push({ session: current, cursors: group.cursors });
		}
		session = fresh[0]!.session;
		value = style === 'variable'
			? { style: 'variable', token: session.tokens.accessToken }
			: { style: 'header', token: session.tokens.accessToken };
		if (fresh.length > 1) byAccount = fresh.map((f) => ({ cursors: f.cursors, value: { style: 'header', token: f.session.tokens.accessToken } }));
		const answer = await guardTrackedFile(services.context, document.uri, services.prompts.current, true);
		if (answer === 'cancel') return undefined;
		if (answer === 'reference') {
			value = { style: 'reference' };
			byAccount = undefined;
		}
		if (byAccount) labels = fresh.map((f) => f.session.account.label);
	}

	const foreign = foreignAuthorizations(file, cursors, variableNameOf(value));
	const replaceForeign = foreign.length > 0 && await services.prompts.current.askReplaceForeign(foreign.map((f) => f.scheme));
	if (foreign.length === requestsUnderCursor && !replaceForeign) {
		void notify('info', vscode.l10n.t('Nothing changed: the request keeps its own Authorization header.'));
		return { requests: requestsUnderCursor, edits: 0, style: value.style };
	}
	const edits = byAccount
		? byAccount.flatMap((group) => planAuthEdit(file, group.cursors, group.value, { replaceForeign }))
		: planAuthEdit(file, cursors, value, { replaceForeign });
	// An edit made while a question was open would leave the answers about other text: nothing is written then.
	if (edits.length && (document.version !== version || !(await applyTextEdits(editor, edits)))) {
		void notify('error', vscode.l10n.t('The file changed while the header was being inserted. Try again.'));
		return undefined;
	}
	// The walkthrough's "insert the header" step completes on this.
	void vscode.commands.executeCommand('setContext', 'telematicsAuth.insertedHeader', true);
	if (!session) {
		vscode.window.setStatusBarMessage(vscode.l10n.t('The Authorization header reads the live token from {0}.', (byAccount ?? [{ value }]).map((g) => bearerValue(g.value)).join(', ')), 5000);
		return { requests: requestsUnderCursor, edits: edits.length, style: value.style };
	}
	const label = labels?.join(', ') ?? session.account.label;
	if (value.style === 'reference') {
		const copy = vscode.l10n.t('Copy Token');
		void notify('info', vscode.l10n.t('Wrote "Authorization: Bearer {0}" without a token. Define {1} in an untracked environment file (httpYac: .env; REST Client: $dotenv or your user settings). Copy the current token for {2}?', `{{${DEFAULT_TOKEN_VARIABLE}}}`, DEFAULT_TOKEN_VARIABLE, label), copy).then((choice) => {
			if (choice === copy && isSafeToken(session.tokens.accessToken)) void vscode.env.clipboard.writeText(session.tokens.accessToken);
		});
	} else {
		const remaining = formatRemaining(session.tokens.expiresAt - services.clock.now());
		vscode.window.setStatusBarMessage(edits.length
			? labels ? vscode.l10n.t('Authorization headers set, each with its account\'s token: {0}.', label) : vscode.l10n.t('Authorization header set for {0} (valid for {1}).', label, remaining)
			: vscode.l10n.t('The Authorization header already holds the current token for {0}.', label), 5000);
	}
	return { requests: requestsUnderCursor, edits: edits.length, style: value.style };
}

/** The account a command argument names, else the active one, else the person's pick: all requests under the cursors go with it. */
async function oneAccount(services: Services, arg: unknown, cursors: number[]): Promise<Map<string, { session: Session; cursors: number[] }> | undefined> {
	const picked = await resolveAccount(services, arg);
	return picked && new Map([[picked.account.id, { session: picked, cursors }]]);
}

/**
 * For each request under a cursor, the account whose service it goes to, when exactly one's does; else
 * the person picks (among those that serve it, or all), names first. Undefined: a pick was cancelled.
 * Requests are keyed by the offset of their request line, grouped by account id.
 */
async function accountsByRequest(services: Services, file: ParsedFile, cursors: readonly number[], readings: Readings, sessions: readonly Session[]): Promise<Map<string, { session: Session; cursors: number[] }> | undefined> {
	const chosen = new Map<string, { session: Session; cursors: number[] }>();
	for (const request of requestsAt(file, cursors)) {
		const hosts = requestDestinations(file, [request], readings.variables, readings.outside).map((d) => d.host);
		const serving = await accountsServing(hosts, sessions.map((s) => ({ session: s, serviceUrl: s.account.serviceUrl })));
		const target = requestTarget(file, request);
		const owner = serving.length === 1
			? serving[0]!.session
			: await pickAccount(services, vscode.l10n.t('Whose token should this request send?'), serving.length > 1 ? serving.map((s) => s.session) : sessions,
				vscode.l10n.t('line {0}: {1}', request.requestLine + 1, target.length > 60 ? `${target.slice(0, 60)}…` : target));
		if (!owner) return undefined;
		const group = chosen.get(owner.account.id) ?? chosen.set(owner.account.id, { session: owner, cursors: [] }).get(owner.account.id)!;
		group.cursors.push(file.lines[request.requestLine]!.start);
	}
	return chosen;
}

/**
 * The hosts the file names for the token: the requests under the cursors, those that read their
 * headers by name, and with the variable style every request that reads the variable (it is the file's).
 */
function tokenDestinations(file: ParsedFile, cursors: readonly number[], style: 'header' | 'variable', readings: Readings): Destination[] {
	return requestDestinations(file, requestsReached(file, { requests: requestsAt(file, cursors), variables: style === 'variable' ? [DEFAULT_TOKEN_VARIABLE] : [] }), readings.variables, readings.outside);
}
