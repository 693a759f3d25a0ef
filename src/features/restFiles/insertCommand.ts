// "Insert Authorization Header": gives each request under a cursor exactly one `Authorization: Bearer …`
// header with the account's current token, in one edit (one undo). The file is read and planned once
// (core/restFile/insertPlan.ts: one call, which enters the parser, the hosts, the environments and the
// header's edits itself); the plan's questions are asked once (writeGuards.ts); the edits the plan gives
// for the answers are applied once.
import vscode = require('../../system/vscodeApi');
import { DEFAULT_TOKEN_VARIABLE } from '../../core/restFile/fileVariable';
import { planInsert, type InsertEdits, type InsertPlan, type PlannedRequest } from '../../core/restFile/insertPlan';
import { isProduction } from '../../core/sessions/production';
import type { Session } from '../../core/sessions/types';
import { isSafeToken } from '../../core/util/tokenGrammar';
import { formatRemaining } from '../../core/util/time';
import type { Services } from '../../services';
import { accountIdOf, pickAccount, resolveAccount } from '../accounts/accountPicker';
import { accountPlatformHosts } from '../accounts/accountPlatformHosts';
import type { FreshSession } from '../shared/freshToken';
import { notify } from '../messages/notify';
import { targetRestEditor } from './restDocuments';
import { environmentReadings } from './environmentReadings';
import { applyUnchanged, passGuards, warnUnexposed } from './writeGuards';

export interface InsertOutcome {
	/** Requests under a cursor. */
	requests: number;
	/** Edits applied (0 when everything was already right). */
	edits: number;
	style: InsertEdits['style'];
}

/** The command. `arg`: `{ accountId }`, a file Uri (editor title), or nothing. */
export async function insertAuthorizationHeader(services: Services, arg?: unknown): Promise<InsertOutcome | undefined> {
	const editor = targetRestEditor(arg, vscode.l10n.t('Open a .http or .rest file and put the cursor in a request to insert an Authorization header.'));
	if (!editor) return undefined;
	// The file is read once: the questions below are about this text, and it is this text that gets the edit.
	const { document } = editor;
	const version = document.version;
	const text = document.getText();
	const { environments, outside } = await environmentReadings(document.uri);
	const plan = await planInsert({
		text, style: services.config.insertStyle(), cursors: editor.selections.map((s) => document.offsetAt(s.active)),
		accounts: services.store.list().map((s) => {
			const hosts = accountPlatformHosts(services.config, s.account);
			return {
				id: s.account.id, label: s.account.label, serviceUrl: s.account.serviceUrl, hasToken: s.tokens !== undefined, production: isProduction(s.account),
				...(s.account.name !== undefined && { name: s.account.name }),
				...(hosts !== undefined && { hosts }),
			};
		}),
		named: arg instanceof vscode.Uri ? undefined : accountIdOf(arg),
		environments, ...(outside !== undefined && { outside }),
	});
	if (plan.requests.length === 0) {
		void notify('info', vscode.l10n.t('Put the cursor inside a request (its ### line, request line, headers or body) to insert an Authorization header.'));
		return undefined;
	}
	const owners = await chooseOwners(services, plan);
	if (!owners) return undefined;
	const groups = owners.size ? plan.groups((r) => owners.get(r.anchor)!.account.id) : [];
	const passed = await passGuards(services, { uri: document.uri, environments, action: vscode.l10n.t('Insert Anyway') },
		groups.map((g) => ({ session: [...owners.values()].find((s) => s.account.id === g.accountId)!, reach: () => ({ file: plan.file, destinations: g.destinations }) })),
		{ fresh: plan.tokenInFile, ...(plan.tokenInFile && { git: { offerReference: true } }), foreign: plan.foreign });
	if (!passed) return undefined;
	if (plan.source !== undefined) warnUnexposed(services, plan.source);

	const written = plan.edits({ groups, tokens: passed.fresh.map((f) => f.tokens.accessToken), reference: passed.reference, replaceForeign: passed.replaceForeign });
	if (written.keepsForeign) {
		void notify('info', vscode.l10n.t('Nothing changed: the request keeps its own Authorization header.'));
		return { requests: plan.requests.length, edits: 0, style: written.style };
	}
	const { edits } = written;
	if (!(await applyUnchanged(editor, version, edits, vscode.l10n.t('The file changed while the header was being inserted. Try again.')))) return undefined;
	// The walkthrough's "insert the header" step completes on this.
	void vscode.commands.executeCommand('setContext', 'telematicsAuth.insertedHeader', true);
	tell(services, written.bearers, passed.fresh, passed.reference, edits.length > 0);
	return { requests: plan.requests.length, edits: edits.length, style: written.style };
}

/**
 * The answer to the plan's account question: each request's account, keyed by its anchor (empty: the
 * environment styles with no active account); undefined when a pick was cancelled or there is no account.
 */
async function chooseOwners(services: Services, plan: InsertPlan): Promise<Map<number, Session> | undefined> {
	const owners = new Map<number, Session>();
	const { accounts } = plan;
	if (accounts.by === 'request') {
		const sessions = new Map(services.store.list().map((s) => [s.account.id, s]));
		for (const request of plan.requests) {
			const owner = request.owner !== undefined ? sessions.get(request.owner) : await pickOwner(services, request, request.candidates.flatMap((id) => sessions.get(id) ?? []));
			if (!owner) return undefined;
			owners.set(request.anchor, owner);
		}
		return owners;
	}
	const one = accounts.by === 'one' ? await resolveAccount(services, accounts.named) : services.store.active();
	if (accounts.by === 'one' && !one) return undefined;
	for (const request of plan.requests) if (one) owners.set(request.anchor, one);
	return owners;
}

function pickOwner(services: Services, request: PlannedRequest, sessions: readonly Session[]): Promise<Session | undefined> {
	const { target } = request;
	return pickAccount(services, vscode.l10n.t('Whose token should this request send?'), sessions,
		vscode.l10n.t('line {0}: {1}', request.request.requestLine + 1, target.length > 60 ? `${target.slice(0, 60)}…` : target));
}

/** What went in, said once it is in. */
function tell(services: Services, bearers: readonly string[], fresh: readonly FreshSession[], reference: boolean, edited: boolean): void {
	const session = fresh[0];
	if (!session) {
		vscode.window.setStatusBarMessage(vscode.l10n.t('The Authorization header reads the live token from {0}.', bearers.join(', ')), 5000);
		return;
	}
	const several = fresh.length > 1 && !reference;
	const label = several ? fresh.map((f) => f.account.label).join(', ') : session.account.label;
	if (reference) {
		const copy = vscode.l10n.t('Copy Token');
		void notify('info', vscode.l10n.t('Wrote "Authorization: Bearer {0}" without a token. Define {1} in an untracked environment file (httpYac: .env; REST Client: $dotenv or your user settings). Copy the current token for {2}?', `{{${DEFAULT_TOKEN_VARIABLE}}}`, DEFAULT_TOKEN_VARIABLE, label), copy).then((choice) => {
			if (choice === copy && isSafeToken(session.tokens.accessToken)) void vscode.env.clipboard.writeText(session.tokens.accessToken);
		});
		return;
	}
	const remaining = formatRemaining(session.tokens.expiresAt - services.clock.now());
	vscode.window.setStatusBarMessage(edited
		? several ? vscode.l10n.t('Authorization headers set, each with its account\'s token: {0}.', label) : vscode.l10n.t('Authorization header set for {0} (valid for {1}).', label, remaining)
		: vscode.l10n.t('The Authorization header already holds the current token for {0}.', label), 5000);
}
