// The telematics platform for the agent in chat: `telematics_accounts` lists the logged-in accounts,
// `telematics_operations` the platform's operations, and `telematics_request` calls one of an account's
// platform hosts with its live bearer. The token never reaches the model: not in a result, not in an
// error, not in the log. Requests that change something ask the person first (prepareInvocation); those to a
// production account or that cannot be undone ask again with a modal from invoke (askBeforeChange.ts),
// whatever the chat's auto-approve says. A refused or
// expired token is refreshed by the scheduler's rules, never by a login.
import vscode = require('../../system/vscodeApi');
import { bodyHeading, bodyShown } from '../../core/agent/questionText';
import { asksFirst, checkInput, describeAnswer, neededKind, pickAccount, type AgentRequestInput } from '../../core/agent/serviceRequest';
import { platformUrlFor } from '../../core/platform/servicePath';
import { describeOperations } from '../../core/agent/operationsList';
import { ConfirmedSenders } from '../../core/agent/confirmedSender';
import { loadPlatform } from '../../core/platform/load';
import { markdownCodeBlock, markdownText } from '../../core/util/displayText';
import { ApiError } from '../../core/api/errors';
import type { AccountKind } from '../../core/api/types';
import type { Session } from '../../core/sessions/types';
import { spellRemaining } from '../../core/util/time';
import { redact } from '../../core/util/redact';
import { sessionSecrets } from '../../core/util/redactingLog';
import { liveSession } from '../shared/freshToken';
import { isProduction } from '../../core/sessions/production';
import { askBeforeChange, Snoozes } from './askBeforeChange';
import { accountPlatformHosts } from '../accounts/accountPlatformHosts';
import type { Services } from '../../services';

export const ACCOUNTS_TOOL = 'telematics_accounts';
export const REQUEST_TOOL = 'telematics_request';
export const OPERATIONS_TOOL = 'telematics_operations';

const text = (value: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);

/** Every secret the store holds, masked in whatever the tools hand back. */
const allSecrets = (services: Services): string[] => [...sessionSecrets(services.store.list())];

const LOG_IN_HINT = (): string => vscode.l10n.t('Ask the person to log in in VS Code with the command "Telematics: Log In". These tools never log in by themselves.');

function disabled(services: Services): string | undefined {
	return services.config.agentTools() ? undefined : vscode.l10n.t('The Telematics tools are turned off (setting telematicsAuth.agentTools.enabled).');
}

/** What the agent calls an account: its short name (`user`, `admin-2`), else its label. */
const nameOf = (session: Session): string => session.account.name ?? session.account.label;

/**
 * The logged-in account named `name` (its name, label or id); with none named, the active one when its
 * kind fits `needed`, else the one account of that kind; else what to tell the model.
 */
function accountFor(services: Services, name: string | undefined, needed?: AccountKind): { session: Session } | { message: string } {
	const sessions = services.store.list();
	if (sessions.length === 0) return { message: `${vscode.l10n.t('No Telematics account is logged in.')} ${LOG_IN_HINT()}` };
	const names = sessions.map((s) => `"${nameOf(s)}"`).join(', ');
	let named: Session | undefined;
	if (name !== undefined) {
		named = sessions.find((s) => s.account.name === name) ?? sessions.find((s) => s.account.label === name) ?? sessions.find((s) => s.account.id === name)
			?? sessions.find((s) => s.account.name?.toLowerCase() === name.toLowerCase() || s.account.label.toLowerCase() === name.toLowerCase());
		if (!named) return { message: vscode.l10n.t('No logged-in Telematics account is called "{0}". The accounts: {1}.', redact(name).slice(0, 80), names) };
	}
	const picked = pickAccount(sessions.map((s) => ({ kind: s.account.kind, session: s })), ((active) => active && { kind: active.account.kind, session: active })(services.store.active()), needed, named && { kind: named.account.kind, session: named });
	if ('account' in picked) return { session: picked.account.session };
	if (!('needs' in picked)) return { message: vscode.l10n.t('No Telematics account is active. Name one: {0}.', names) };
	const kind = picked.needs === 'admin' ? vscode.l10n.t('an admin account') : vscode.l10n.t('a user account');
	if (picked.reason === 'named') return { message: vscode.l10n.t('This operation needs {0}; "{1}" is not one. The accounts: {2}.', kind, named ? nameOf(named) : '', names) };
	if (picked.reason === 'several') return { message: vscode.l10n.t('This operation needs {0}; several are logged in: name one in "account". The accounts: {1}.', kind, names) };
	return { message: `${vscode.l10n.t('This operation needs {0}, and none is logged in. The accounts: {1}.', kind, names)} ${LOG_IN_HINT()}` };
}

/** The account that sends `input` and the URL on its platform, or what to tell the model. */
function targetOf(services: Services, input: AgentRequestInput): { session: Session; url: string } | { message: string } {
	if (input.operation?.token === 'none') return { message: vscode.l10n.t('The operation "{0}" takes no account token: it is signed with an instance\'s InstanceId and InstanceKey headers, which this tool does not send.', input.operation.id) };
	const found = accountFor(services, input.account, neededKind(input.operation));
	if ('message' in found) return found;
	const { account } = found.session;
	const url = platformUrlFor(account.serviceUrl, accountPlatformHosts(services.config, account), input);
	return url.ok ? { session: found.session, url: url.value } : { message: url.message };
}

export class AccountsTool implements vscode.LanguageModelTool<Record<string, never>> {
	constructor(private readonly services: Services) {}

	async invoke(): Promise<vscode.LanguageModelToolResult> {
		await this.services.ready;
		const off = disabled(this.services);
		if (off) return text(off);
		const sessions = this.services.store.list();
		if (sessions.length === 0) return text(`${vscode.l10n.t('No Telematics account is logged in.')} ${LOG_IN_HINT()}`);
		const activeId = this.services.store.active()?.account.id;
		const now = this.services.clock.now();
		const rows = sessions.map((s) => {
			const left = s.tokens && s.state !== 'needsLogin'
				? s.tokens.expiresAt > now ? vscode.l10n.t('token valid for {0}', spellRemaining(s.tokens.expiresAt - now, vscode.l10n.t)) : vscode.l10n.t('token expired (refreshed on the next request when it can be)')
				: vscode.l10n.t('needs a new login by the person');
			return `- "${nameOf(s)}" (${s.account.label}): ${s.account.kind}${isProduction(s.account) ? ', production (changing requests ask the person)' : ''}${s.account.id === activeId ? ', active' : ''}; service ${s.account.serviceUrl}; ${left}`;
		});
		return text([vscode.l10n.t('Logged-in Telematics accounts (name them as "account" in telematics_request; the active one is used when none is named):'), ...rows].join('\n'));
	}
}

export class RequestTool implements vscode.LanguageModelTool<unknown> {
	constructor(
		private readonly services: Services,
		/** This window's "Allow for 10 Minutes", by account (memory only). */
		private readonly snoozes = new Snoozes(services.clock),
		/** The account each prepared question named, which invoke sends as or refuses (memory only). */
		private readonly senders = new ConfirmedSenders(),
	) {}

	/** The question before a request that changes something: the account, the method, the full URL and the body (masked, cut). */
	async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): Promise<vscode.PreparedToolInvocation> {
		await this.services.ready;
		const checked = checkInput(options.input, await loadPlatform());
		if (!checked.ok) return { invocationMessage: vscode.l10n.t('Checking a Telematics request') };
		const input = checked.value;
		const target = targetOf(this.services, input);
		const account = 'session' in target ? nameOf(target.session) : input.account ?? vscode.l10n.t('the active account');
		const shown = 'url' in target ? target.url : input.path;
		const invocationMessage = vscode.l10n.t('{0} {1} as {2}', input.method, shown, account);
		if (!asksFirst(input.method)) return { invocationMessage };
		this.senders.remember(options.input, 'session' in target ? target.session.account.id : undefined);
		const production = 'session' in target && isProduction(target.session.account);
		return {
			invocationMessage,
			confirmationMessages: {
				title: production
					? vscode.l10n.t('Send {0} to the production account {1}?', input.method, account)
					: vscode.l10n.t('Send {0} to the Telematics service as {1}?', input.method, account),
				message: this.confirmation(input, shown, account, production),
			},
		};
	}

	/** What the person reads before a change: outside text (the URL, the body, the name) only as text, never as markup. */
	private confirmation(input: AgentRequestInput, url: string, account: string, production: boolean): vscode.MarkdownString {
		const parts = [
			production
				? vscode.l10n.t('The agent asks to send **{0}**, authenticated as the production account **{1}**, to this URL. It may change data on the service.', input.method, markdownText(account))
				: vscode.l10n.t('The agent asks to send **{0}**, authenticated as **{1}**, to this URL. It may change data on the service.', input.method, markdownText(account)),
			markdownCodeBlock(url),
		];
		if (input.body === undefined) {
			parts.push(vscode.l10n.t('No body.'));
		} else {
			// Pretty-printed, masked, cut with "the first N of M characters", lines wrapped (questionText.ts).
			const preview = bodyShown(input.body, allSecrets(this.services));
			parts.push(bodyHeading(preview, vscode.l10n.t), markdownCodeBlock(preview.text));
		}
		return new vscode.MarkdownString(parts.join('\n\n'));
	}

	async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, cancel: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
		await this.services.ready;
		const off = disabled(this.services);
		if (off) return text(off);
		const platform = await loadPlatform();
		const checked = checkInput(options.input, platform);
		if (!checked.ok) return text(checked.message);
		try {
			return text(await this.send(options.input, checked.value, cancel));
		} catch (error) {
			// Whatever went wrong, the model reads a message with no secret in it.
			return text(redact(error instanceof Error ? error.message : String(error), allSecrets(this.services)));
		}
	}

	private async send(given: unknown, input: AgentRequestInput, cancel: vscode.CancellationToken): Promise<string> {
		const { config, api } = this.services;
		const found = targetOf(this.services, input);
		if ('message' in found) return found.message;
		const { account } = found.session;
		// The account the question named, or nothing: the active account may have changed while it was open.
		// A request that changes data and was never prepared (so never shown) is refused.
		const sender = asksFirst(input.method) ? this.senders.check(given, account.id) : { ok: true as const };
		if (!sender.ok && sender.reason === 'unprepared') {
			this.services.log.info(`The agent's ${input.method} request had no confirmation prepared; nothing was sent.`);
			return vscode.l10n.t('No confirmation was prepared for this request; nothing was sent.');
		}
		if (!sender.ok) {
			const confirmed = sender.confirmed === undefined ? undefined : this.services.store.get(sender.confirmed);
			this.services.log.info(`The active account changed while the agent's ${input.method} request waited for its confirmation; nothing was sent.`);
			return vscode.l10n.t('The active Telematics account changed after this request was confirmed: it was confirmed for {0}, and {1} would send it now. Nothing was sent. Send it again to be asked for {1}, or name the account in "account".', confirmed ? nameOf(confirmed) : vscode.l10n.t('no account'), nameOf(found.session));
		}
		const refused = await askBeforeChange(this.services, this.snoozes, found.session, input, found.url);
		if (refused !== undefined) return refused;
		const session = await liveSession(this.services, account.id);
		if (!session) return `${vscode.l10n.t('The token of {0} has expired and could not be refreshed.', account.label)} ${LOG_IN_HINT()}`;
		const { tokens } = session;
		const controller = new AbortController();
		const listener = cancel.onCancellationRequested(() => controller.abort());
		try {
			const answer = await api.call(
				{ method: input.method, url: found.url, accessToken: tokens.accessToken, ...(input.body !== undefined && { body: input.body }) },
				{ signal: controller.signal },
			);
			const described = describeAnswer(answer, { method: input.method, url: found.url, account: nameOf(found.session) }, allSecrets(this.services));
			if (answer.status === 401) return `${described}\n\n${vscode.l10n.t('The service refused the token of {0}.', account.label)} ${LOG_IN_HINT()}`;
			return described;
		} catch (error) {
			if (error instanceof ApiError && error.kind === 'timeout') return vscode.l10n.t('The request timed out after {0} seconds. Nothing is known about whether the service acted on it.', Math.round(config.requestTimeoutMs() / 1000));
			throw error;
		} finally {
			listener.dispose();
		}
	}
}

/** Lists and searches the platform's operations, so the agent names one instead of guessing a path. */
export class OperationsTool implements vscode.LanguageModelTool<unknown> {
	constructor(private readonly services: Services) {}

	async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>): Promise<vscode.LanguageModelToolResult> {
		const off = disabled(this.services);
		if (off) return text(off);
		return text(describeOperations(options.input, await loadPlatform()));
	}
}

/** The tools, when this VS Code has language-model tools. */
export function registerAgentTools(services: Services): vscode.Disposable[] {
	if (typeof vscode.lm?.registerTool !== 'function') return [];
	return [
		vscode.lm.registerTool(ACCOUNTS_TOOL, new AccountsTool(services)),
		vscode.lm.registerTool(REQUEST_TOOL, new RequestTool(services)),
		vscode.lm.registerTool(OPERATIONS_TOOL, new OperationsTool(services)),
	];
}
