// Insert Authorization Header, planned once: from the file's text, the cursors, the insert style and the
// logged-in accounts, which requests get a header, whose account each goes with (or who must be asked),
// where each account's token would go (the host check's question), which requests hold someone else's
// Authorization (the replace question), and the edits: the headers, and the `# @note` line a changing
// operation of a production account gets, which REST Client and httpYac turn into a question before they
// send. Pure: no I/O, no `vscode`. The feature (features/restFiles/insertCommand.ts) asks for the plan once,
// with the file's text and the environments its folder holds; asks the questions the plan names; and applies
// the edits the plan gives for the answers (InsertPlan.groups and .edits answer from what the plan read, and
// read nothing again). The helpers below (the parser, the hosts, the environments, the header's edit) are
// entered from here, not from the command.
import { bearerValue, foreignAuthorizations, planAuthEdit, type AuthValue, type EnvironmentSource, type ForeignAuthorization } from './authHeaderEdit';
import { withEnvironments, type EnvironmentReadings } from './environments';
import { DEFAULT_TOKEN_VARIABLE } from './fileVariable';
import { parseRestFile, requestsAt, type ParsedFile, type ParsedRequest } from './requestParser';
import { requestDestinations, requestTarget, variableReadings, type Destination, type VariableReadings } from './requestHost';
import { accountsServing } from './requestAccount';
import { globalNames } from './requestShape';
import { tokenVariableFor } from '../sessions/accountNames';
import { requestsReached } from './tokenReach';
import { sortEdits, type TextEdit } from './textEdit';
import { operationOfRequest, type OperationLookup } from './wrongIdentity';
import type { PlatformHosts } from '../platform/hosts';
import { loadPlatform } from '../platform/load';
import { noteLine, requestNote } from './requestText';

/** telematicsAuth.insertStyle: the token in the header, in a file variable, or a reference a tool fills. */
export type InsertStyle = 'header' | 'variable' | EnvironmentSource;

/** A logged-in account, as the plan needs it. */
export interface PlanAccount {
	id: string;
	label: string;
	/** Its short name (`admin`): the environment styles write its own variable (`TELEMATICS_TOKEN_ADMIN`). */
	name?: string;
	serviceUrl: string;
	/** Whether it holds a token now (the environment styles offer only named accounts with one). */
	hasToken: boolean;
	/** Production (core/sessions/production.ts): its changing requests get a `# @note`. */
	production: boolean;
	/** Its platform's hosts (features/accounts/accountPlatformHosts.ts): which operation a request is, for the note, and which hosts count as its service; absent: none. */
	hosts?: PlatformHosts;
}

export interface InsertInput {
	/** The file's text, read once: the questions are about it, and it gets the edits. */
	text: string;
	cursors: readonly number[];
	style: InsertStyle;
	accounts: readonly PlanAccount[];
	/** The account the command names (`{ accountId }`), if any. */
	named?: string;
	/** What the environments of the file's clients give its variables (features/restFiles/environmentReadings.ts), and why the folder does not say, if it does not. */
	environments?: EnvironmentReadings;
	outside?: string;
	/** The platform's operations by request (catalog.ts), for the note; absent: loaded when an account is production. */
	operationFor?: OperationLookup;
}

/** A request under a cursor. */
export interface PlannedRequest {
	request: ParsedRequest;
	/** The start of its request line: where its account's edit is anchored. */
	anchor: number;
	/** `line 12: https://…`, for a question about it. */
	target: string;
	/** With accounts by request: the one account whose service it goes to; else `candidates`, those the person picks among. */
	owner?: string;
	candidates: string[];
}

/**
 * Whose token goes in. `request`: each request's (`PlannedRequest.owner`, else the person picks among its
 * candidates). `one`: every request with one account, the one named, else the active one or the person's
 * pick. `active`: the active account's reference, whatever account that is when the request is sent (none
 * is asked; with no active account no host is checked).
 */
export type AccountsBy = { by: 'request' } | { by: 'one'; named?: string } | { by: 'active' };

export interface InsertPlan {
	readonly file: ParsedFile;
	readonly style: InsertStyle;
	/** With the environment styles: where the header reads the token from (the warnings name it). */
	readonly source?: EnvironmentSource;
	readonly requests: readonly PlannedRequest[];
	readonly accounts: AccountsBy;
	/** Whether the token itself goes into the file: then it must be fresh, and git is asked about. */
	readonly tokenInFile: boolean;
	/** The requests under a cursor whose Authorization is not ours: replaced only when the person says so. */
	readonly foreign: readonly ForeignAuthorization[];
	/** Every destination a token written at the cursors may reach, by request line (read once). */
	readonly destinations: ReadonlyMap<number, readonly Destination[]>;
	readonly variables?: VariableReadings;
	readonly outside?: string;
	readonly operationFor?: OperationLookup;
	readonly byId: ReadonlyMap<string, PlanAccount>;
	/**
	 * The host question's subject once the account question is answered (`ownerOf`: each request's account):
	 * the requests by account, in first-seen order, each with every place its token would reach.
	 */
	groups(ownerOf: (request: PlannedRequest) => string): InsertGroup[];
	/** The edits for the answers to the plan's questions (see InsertAnswers). */
	edits(answers: InsertAnswers): InsertEdits;
}

/** The answers to the plan's questions. */
export interface InsertAnswers {
	/** The plan's groups for the account question's answer (none: the environment styles with no active account). */
	groups: readonly InsertGroup[];
	/** With the token in the file: each group's current token, in the groups' order. */
	tokens: readonly string[];
	/** The person chose a reference instead of the token (the git question). */
	reference: boolean;
	/** Someone else's Authorization is replaced (the replace question). */
	replaceForeign: boolean;
}

/** What the answers give. */
export interface InsertEdits {
	/** The edits, sorted (none: everything was right already, or nothing may change). */
	edits: TextEdit[];
	/** The style written. */
	style: AuthValue['style'];
	/** What each group's header says, as written (the environment styles tell it); none when nothing is written. */
	bearers: string[];
	/** Every request under a cursor keeps its own Authorization: nothing is written. */
	keepsForeign: boolean;
}

function isEnvironment(style: InsertStyle): style is EnvironmentSource {
	return style === 'processEnv' || style === 'dotenv' || style === 'envVariable';
}

/** Plans an Insert (see the top of this file). */
export async function planInsert(input: InsertInput): Promise<InsertPlan> {
	const { text, cursors, style, named, environments, outside } = input;
	const file = parseRestFile(text);
	// What the file's variables may be: its own readings, with the environments' values for the names a client may take from them.
	const variables = environments === undefined ? undefined : withEnvironments(variableReadings(file), environments, globalNames(file));
	const under = requestsAt(file, cursors);
	const environment = isEnvironment(style);
	// Several accounts and none named: each request gets the token of the account whose service it goes to.
	// One variable holds one token, so the variable style stays with one account; the environment styles
	// write a named account's own variable, so they choose among named accounts that hold a token.
	const among = environment ? input.accounts.filter((a) => a.name !== undefined && a.hasToken) : input.accounts;
	const accounts: AccountsBy = among.length > 1 && named === undefined && style !== 'variable'
		? { by: 'request' }
		: environment ? { by: 'active' } : { by: 'one', ...(named !== undefined && { named }) };
	// Where a token written here goes: the requests under the cursors, those that read their headers by name,
	// and with the variable style every request that reads the variable (it is the file's). Read once.
	const reached = requestsReached(file, { requests: under, variables: style === 'variable' ? [DEFAULT_TOKEN_VARIABLE] : [] });
	const destinations = new Map<number, Destination[]>();
	for (const destination of requestDestinations(file, reached, variables, outside)) {
		(destinations.get(destination.line) ?? destinations.set(destination.line, []).get(destination.line)!).push(destination);
	}
	const requests: PlannedRequest[] = [];
	for (const request of under) {
		const planned: PlannedRequest = { request, anchor: file.lines[request.requestLine]!.start, target: requestTarget(file, request), candidates: [] };
		if (accounts.by === 'request') {
			const hosts = (destinations.get(request.requestLine) ?? []).map((d) => d.host);
			// The account's platform hosts count as its service (by exact origin), as in the warnings.
			const serving = await accountsServing(hosts, among.map((a) => ({ ...a, platformOrigins: a.hosts ? Object.values(a.hosts) : [] })));
			if (serving.length === 1) planned.owner = serving[0]!.id;
			else planned.candidates = (serving.length > 1 ? serving : among).map((a) => a.id);
		}
		requests.push(planned);
	}
	// Notes are for production accounts only: the catalog loads then (a bundle of its own), not for every Insert.
	const production = input.accounts.some((a) => a.production);
	const operationFor = input.operationFor ?? (production && under.length > 0 ? (await loadPlatform()).operationFor : undefined);
	const plan: InsertPlan = {
		file, style, requests, accounts, destinations,
		...(environment && { source: style }),
		tokenInFile: !environment,
		foreign: foreignAuthorizations(file, cursors),
		byId: new Map(input.accounts.map((a) => [a.id, a])),
		...(variables !== undefined && { variables }),
		...(outside !== undefined && { outside }),
		...(operationFor !== undefined && { operationFor }),
		groups: (ownerOf) => insertGroups(plan, ownerOf),
		edits: (answers) => answerEdits(plan, answers),
	};
	return plan;
}

/** The requests going with one account, and every place its token would reach. */
export interface InsertGroup {
	accountId: string;
	requests: readonly PlannedRequest[];
	destinations: readonly Destination[];
}

/** The plan's requests grouped by the account each goes with (`ownerOf`: the answer to the plan's account question), in first-seen order. */
function insertGroups(plan: InsertPlan, ownerOf: (request: PlannedRequest) => string): InsertGroup[] {
	const grouped = new Map<string, PlannedRequest[]>();
	for (const request of plan.requests) {
		const id = ownerOf(request);
		(grouped.get(id) ?? grouped.set(id, []).get(id)!).push(request);
	}
	const groups = [...grouped];
	return groups.map(([accountId, requests]) => ({ accountId, requests, destinations: groups.length === 1 ? [...plan.destinations.values()].flat() : reachedBy(plan, requests) }));
}

/** Where the token of `requests` alone goes: among the destinations read once (a group reaches a part of what all reach). */
function reachedBy(plan: InsertPlan, requests: readonly PlannedRequest[]): Destination[] {
	const reached = requestsReached(plan.file, { requests: requests.map((r) => r.request), variables: plan.style === 'variable' ? [DEFAULT_TOKEN_VARIABLE] : [] });
	const unread = reached.filter((r) => !plan.destinations.has(r.requestLine));
	const read = unread.length ? requestDestinations(plan.file, unread, plan.variables, plan.outside) : [];
	return reached.flatMap((r) => plan.destinations.get(r.requestLine) ?? read.filter((d) => d.line === r.requestLine));
}

/** What one group's requests get. `accountId`: whose token it is (the note names it); absent for the active account's reference. */
export interface GroupValue {
	requests: readonly PlannedRequest[];
	value: AuthValue;
	accountId?: string;
}

/** What each group's requests get for the answers, and the edits. */
function answerEdits(plan: InsertPlan, answers: InsertAnswers): InsertEdits {
	const { groups, tokens, reference, replaceForeign } = answers;
	const source = plan.source;
	const values: GroupValue[] = source === undefined
		? groups.map((g, i) => ({ requests: g.requests, accountId: g.accountId, value: tokenValue(plan.style, reference, tokens[i]!) }))
		: plan.accounts.by === 'request'
			? groups.map((g) => ({ requests: g.requests, accountId: g.accountId, value: { style: 'environment', source, variable: tokenVariableFor(plan.byId.get(g.accountId)!.name!) } }))
			: [{ requests: plan.requests, value: { style: 'environment', source }, ...(groups[0] && { accountId: groups[0].accountId }) }];
	const style = values[0]!.value.style;
	if (plan.foreign.length === plan.requests.length && !replaceForeign) return { edits: [], style, bearers: [], keepsForeign: true };
	const edits = insertEdits(plan, values, replaceForeign);
	return { edits, style, bearers: values.map((g) => bearerValue(g.value)), keepsForeign: false };
}

/** A token's value in the token styles: the token in the header or the file variable, or the reference the person chose instead. */
function tokenValue(style: InsertStyle, reference: boolean, token: string): AuthValue {
	return reference ? { style: 'reference' } : style === 'variable' ? { style: 'variable', token } : { style: 'header', token };
}

/**
 * The edits: each group's requests get its Authorization (a request holding someone else's only with
 * `replaceForeign`), and each request that goes to a known changing operation of a production account
 * with it gets a `# @note` above its request line, unless it has one.
 */
function insertEdits(plan: InsertPlan, groups: readonly GroupValue[], replaceForeign: boolean): TextEdit[] {
	const kept = new Set(replaceForeign ? [] : plan.foreign.map((f) => f.line));
	const edits: TextEdit[] = [];
	for (const group of groups) {
		edits.push(...planAuthEdit(plan.file, group.requests.map((r) => r.anchor), group.value, { replaceForeign }));
		const account = group.accountId === undefined ? undefined : plan.byId.get(group.accountId);
		for (const { request, anchor } of group.requests) {
			if (kept.has(request.requestLine)) continue;
			const note = account ? productionNote(plan, request, account) : undefined;
			if (note !== undefined) edits.push({ start: anchor, end: anchor, newText: note + plan.file.eol });
		}
	}
	return sortEdits(edits);
}

/** A `# @note` line in the request's comments (REST Client's and httpYac's `# @note` or `// @note`). */
const NOTE = /^\s*(?:#|\/\/)\s*@note\b/;

/** The `# @note …` line `request` gets with `account`'s token, or undefined: not production, not a known changing operation, or noted already. */
export function productionNote(plan: Pick<InsertPlan, 'file' | 'operationFor'>, request: ParsedRequest, account: PlanAccount): string | undefined {
	if (!account.production || !account.hosts || !plan.operationFor) return undefined;
	if (plan.file.lines.slice(request.blockStart, request.requestLine).some((l) => NOTE.test(l.text))) return undefined;
	const op = operationOfRequest(plan.file, request, [{ hosts: account.hosts }], plan.operationFor);
	const note = op && (op.changesData || op.irreversible) ? requestNote(op, true, account.label) : undefined;
	return note === undefined ? undefined : noteLine(note);
}
