// The telematics API for the agent in chat: `telematics_accounts` lists the logged-in accounts, and
// `telematics_request` calls an account's service with its live bearer. The token never reaches the
// model: not in a result, not in an error, not in the log. Requests that change something ask the person
// first (prepareInvocation); a refused or expired token is refreshed by the scheduler's rules, never by a
// login.
import vscode = require('vscode');
import { asksFirst, bodyPreview, checkInput, describeAnswer, serviceUrlFor, type AgentRequestInput } from '../../core/agent/serviceRequest';
import { markdownCodeBlock, markdownText } from '../../core/util/displayText';
import { ApiError } from '../../core/api/errors';
import type { Session } from '../../core/sessions/types';
import { spellRemaining } from '../../core/util/time';
import { redact } from '../../core/util/redact';
import { sessionSecrets } from '../../core/util/logger';
import { liveSession } from '../shared/freshToken';
import type { Services } from '../../services';

export const ACCOUNTS_TOOL = 'telematics_accounts';
export const REQUEST_TOOL = 'telematics_request';

const text = (value: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);

/** Every secret the store holds, masked in whatever the tools hand back. */
const allSecrets = (services: Services): string[] => [...sessionSecrets(services.store.list())];

const LOG_IN_HINT = (): string => vscode.l10n.t('Ask the person to log in in VS Code with the command "Telematics: Log In". These tools never log in by themselves.');

function disabled(services: Services): string | undefined {
	return services.config.agentTools() ? undefined : vscode.l10n.t('The Telematics tools are turned off (setting telematicsAuth.agentTools.enabled).');
}

/** What the agent calls an account: its short name (`user`, `admin-2`), else its label. */
const nameOf = (session: Session): string => session.account.name ?? session.account.label;

/** The logged-in account named `name` (its label or id), the active one when none is named; else what to tell the model. */
function accountFor(services: Services, name: string | undefined): { session: Session } | { message: string } {
	const sessions = services.store.list();
	if (sessions.length === 0) return { message: `${vscode.l10n.t('No Telematics account is logged in.')} ${LOG_IN_HINT()}` };
	if (name === undefined) {
		const active = services.store.active();
		return active ? { session: active } : { message: vscode.l10n.t('No Telematics account is active. Name one: {0}.', sessions.map((s) => `"${nameOf(s)}"`).join(', ')) };
	}
	const found = sessions.find((s) => s.account.name === name) ?? sessions.find((s) => s.account.label === name) ?? sessions.find((s) => s.account.id === name)
		?? sessions.find((s) => s.account.name?.toLowerCase() === name.toLowerCase() || s.account.label.toLowerCase() === name.toLowerCase());
	return found ? { session: found } : { message: vscode.l10n.t('No logged-in Telematics account is called "{0}". The accounts: {1}.', redact(name).slice(0, 80), sessions.map((s) => `"${nameOf(s)}"`).join(', ')) };
}

class AccountsTool implements vscode.LanguageModelTool<Record<string, never>> {
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
			return `- "${nameOf(s)}" (${s.account.label}): ${s.account.kind}${s.account.id === activeId ? ', active' : ''}; service ${s.account.serviceUrl}; ${left}`;
		});
		return text([vscode.l10n.t('Logged-in Telematics accounts (name them as "account" in telematics_request; the active one is used when none is named):'), ...rows].join('\n'));
	}
}

export class RequestTool implements vscode.LanguageModelTool<unknown> {
	constructor(private readonly services: Services) {}

	/** The question before a request that changes something: the account, the method, the full URL and the body (masked, cut). */
	async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): Promise<vscode.PreparedToolInvocation> {
		await this.services.ready;
		const checked = checkInput(options.input);
		if (!checked.ok) return { invocationMessage: vscode.l10n.t('Checking a Telematics request') };
		const input = checked.value;
		const found = accountFor(this.services, input.account);
		const url = 'session' in found ? serviceUrlFor(found.session.account.serviceUrl, input.path, input.query) : undefined;
		const account = 'session' in found ? nameOf(found.session) : input.account ?? vscode.l10n.t('the active account');
		const shown = url?.ok ? url.value : input.path;
		const invocationMessage = vscode.l10n.t('{0} {1} as {2}', input.method, shown, account);
		if (!asksFirst(input.method)) return { invocationMessage };
		return {
			invocationMessage,
			confirmationMessages: {
				title: vscode.l10n.t('Send {0} to the Telematics service as {1}?', input.method, account),
				message: this.confirmation(input, shown, account),
			},
		};
	}

	/** What the person reads before a change: outside text (the URL, the body, the name) only as text, never as markup. */
	private confirmation(input: AgentRequestInput, url: string, account: string): vscode.MarkdownString {
		const parts = [vscode.l10n.t('The agent asks to send **{0}**, authenticated as **{1}**, to this URL. It may change data on the service.', input.method, markdownText(account)), markdownCodeBlock(url)];
		if (input.body === undefined) {
			parts.push(vscode.l10n.t('No body.'));
		} else {
			const preview = bodyPreview(input.body, allSecrets(this.services));
			parts.push(preview.cut > 0
				? vscode.l10n.t('The body, {0} characters, tokens masked (the first {1} shown):', input.body.length, preview.text.length)
				: vscode.l10n.t('The body, {0} characters, tokens masked:', input.body.length), markdownCodeBlock(preview.text));
		}
		return new vscode.MarkdownString(parts.join('\n\n'));
	}

	async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, cancel: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
		await this.services.ready;
		const off = disabled(this.services);
		if (off) return text(off);
		const checked = checkInput(options.input);
		if (!checked.ok) return text(checked.message);
		try {
			return text(await this.send(checked.value, cancel));
		} catch (error) {
			// Whatever went wrong, the model reads a message with no secret in it.
			return text(redact(error instanceof Error ? error.message : String(error), allSecrets(this.services)));
		}
	}

	private async send(input: AgentRequestInput, cancel: vscode.CancellationToken): Promise<string> {
		const { config, api } = this.services;
		const found = accountFor(this.services, input.account);
		if ('message' in found) return found.message;
		const { account } = found.session;
		const url = serviceUrlFor(account.serviceUrl, input.path, input.query);
		if (!url.ok) return url.message;
		const session = await liveSession(this.services, account.id);
		if (!session) return `${vscode.l10n.t('The token of {0} has expired and could not be refreshed.', account.label)} ${LOG_IN_HINT()}`;
		const { tokens } = session;
		const controller = new AbortController();
		const listener = cancel.onCancellationRequested(() => controller.abort());
		try {
			const answer = await api.call(
				{ method: input.method, url: url.value, accessToken: tokens.accessToken, ...(input.body !== undefined && { body: input.body }) },
				{ timeoutMs: config.requestTimeoutMs(), proxy: config.proxy(), signal: controller.signal },
			);
			const described = describeAnswer(answer, { method: input.method, url: url.value, account: nameOf(found.session) }, allSecrets(this.services));
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

/** Both tools, when this VS Code has language-model tools. */
export function registerAgentTools(services: Services): vscode.Disposable[] {
	if (typeof vscode.lm?.registerTool !== 'function') return [];
	return [
		vscode.lm.registerTool(ACCOUNTS_TOOL, new AccountsTool(services)),
		vscode.lm.registerTool(REQUEST_TOOL, new RequestTool(services)),
	];
}
