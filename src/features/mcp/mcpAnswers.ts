// `telematics-mcp`'s tool calls, answered in the window by the chat's own tools (agentTools.ts): the same
// accounts, paths, masking and questions as in the chat. The person is asked once per MCP session (one server
// process, never stored), and before every call the chat would confirm (a request that changes data), with
// the body shown.
import vscode = require('../../system/vscodeApi');
import { AccountsTool, OperationsTool, RequestTool } from '../agentTools/agentTools';
import { SessionBindings, sessionStep, type ProcessIdentity } from '../../core/agent/mcpSession';
import { executableOf, processIdentity } from './processIdentity';
import { wrapLines } from '../../core/agent/questionText';
import { programLines, type SessionAsker } from '../../core/agent/mcpAsker';
import { TerminalAllowances } from '../../core/terminal/allowance';
import { MCP_COMMAND_NAME, type McpTool, type ToolCall, type ToolReply } from '../../core/terminal/protocol';
import { sessionSecrets } from '../../core/util/redactingLog';
import { clipText, redact } from '../../core/util/redact';
import { describeAsker, terminalOfSession } from '../terminal/asker';
import type { Services } from '../../services';

/** The chat's tool that answers each MCP tool (one of each for every session, as the chat has one). */
const TOOLS: Readonly<Record<McpTool, (services: Services) => vscode.LanguageModelTool<unknown>>> = {
	telematics_accounts: (services) => new AccountsTool(services) as vscode.LanguageModelTool<unknown>,
	telematics_operations: (services) => new OperationsTool(services),
	telematics_request: (services) => new RequestTool(services),
};

/** Grants handed to servers VS Code started, kept in memory; the oldest go first past this many. */
const MAX_GRANTS = 16;

export class McpAnswers {
	/** The sessions the person allowed, as terminals are (10 minutes idle, 12 hours at most); in memory only. */
	private readonly allowances = new TerminalAllowances();
	/** The process each allowed session was allowed for (kernel pid and start time): another process asks again. */
	private readonly bindings = new SessionBindings();
	private readonly denied = new Set<string>();
	private readonly askers = new Map<string, SessionAsker>();
	/** One open question per session: a second call waits for the same answer. */
	private readonly questions = new Map<string, Promise<boolean>>();
	private readonly grants: string[] = [];
	private readonly tools = new Map<McpTool, vscode.LanguageModelTool<unknown>>();

	constructor(private readonly services: Services) {}

	/** A secret for one server VS Code starts itself (vscodeMcp.ts): its calls count as an allowed session. */
	newGrant(): string {
		const grant = Array.from({ length: 2 }, () => globalThis.crypto.randomUUID().replace(/-/g, '')).join('');
		this.grants.push(grant);
		if (this.grants.length > MAX_GRANTS) this.grants.shift();
		return grant;
	}

	/** The setting changed: every session is asked about again, and no earlier grant holds. */
	reset(): void {
		this.allowances.clear();
		this.bindings.clear();
		this.denied.clear();
		this.askers.clear();
		this.grants.length = 0;
	}

	async answer(call: ToolCall, pid: number | undefined): Promise<ToolReply> {
		const { config, clock } = this.services;
		const t = vscode.l10n.t;
		if (!config.agentTools()) return { ok: false, error: t('The Telematics tools are turned off in VS Code (setting telematicsAuth.agentTools.enabled).') };
		const process = await processIdentity(pid);
		const step = sessionStep({
			setting: config.terminalToken(),
			granted: call.grant !== undefined && this.grants.includes(call.grant),
			// Allowed for the process the kernel named then: another process sending the session's id asks again.
			allowed: this.bindings.holds(call.session, process) && this.allowances.use(call.session, clock.now()),
			denied: this.denied.has(call.session),
		});
		const denial = t('Denied in VS Code: this {0} session may not use the Telematics accounts. Start a new session and allow it when VS Code asks.', MCP_COMMAND_NAME);
		if (step === 'refuse') return { ok: false, error: denial };
		if (step === 'ask' && !(await this.askSession(call.session, pid, process))) return { ok: false, error: denial };
		return this.run(call);
	}

	/** The first call of a session: which terminal, which program; allowed for the session or denied. */
	private askSession(session: string, pid: number | undefined, process: ProcessIdentity | undefined): Promise<boolean> {
		// One open question per session and process: another process's call waits for its own.
		const key = `${session} ${process ? `${process.pid} ${process.startTime}` : '?'}`;
		const open = this.questions.get(key);
		if (open) return open;
		const question = this.sessionQuestion(session, pid).then((allowed) => {
			if (allowed) {
				this.allowances.allow(session, this.services.clock.now());
				this.bindings.bind(session, process);
			} else {
				this.denied.add(session);
			}
			this.services.log.info(`${MCP_COMMAND_NAME}: the person ${allowed ? 'allowed' : 'denied'} a session.`);
			return allowed;
		}, () => false);
		this.questions.set(key, question);
		return question.finally(() => this.questions.delete(key));
	}

	private async sessionQuestion(session: string, pid: number | undefined): Promise<boolean> {
		const t = vscode.l10n.t;
		const asker = await describeAsker(pid, [...sessionSecrets(this.services.store.list())]);
		const terminal = asker.terminal?.hasTerminal ? await terminalOfSession(asker.terminal.sessionId) : undefined;
		const executable = await executableOf(pid);
		const who: SessionAsker = { ...(terminal && { terminalName: terminal.name }), ...(asker.commandLine !== undefined && { commandLine: asker.commandLine }), ...(executable !== undefined && { executable: clipText(redact(executable, [...sessionSecrets(this.services.store.list())]), 300) }) };
		this.askers.set(session, who);
		const message = who.terminalName === undefined
			? t('A program with no terminal of its own asks to use your Telematics accounts through {0}.', MCP_COMMAND_NAME)
			: t('A program in the terminal "{0}" asks to use your Telematics accounts through {1}.', who.terminalName, MCP_COMMAND_NAME);
		const detail = [
			...programLines(who, pid !== undefined, t),
			t('"Allow for This Session" lets this {0} process list your accounts and read data as them until it has not asked for 10 minutes, for 12 hours at most, or until it ends. It never gets a token. Every request that changes data is asked about each time.', MCP_COMMAND_NAME),
		].join('\n\n');
		return this.services.prompts.current.confirm(message, detail, t('Allow for This Session'));
	}

	/** The chat's tool, run for the session: asked first whenever the chat would confirm it. */
	private async run(call: ToolCall): Promise<ToolReply> {
		let tool = this.tools.get(call.tool);
		if (!tool) this.tools.set(call.tool, (tool = TOOLS[call.tool](this.services)));
		const cancel = new vscode.CancellationTokenSource();
		try {
			const prepared = await tool.prepareInvocation?.({ input: call.input }, cancel.token);
			if (prepared?.confirmationMessages && !(await this.askChange(call, prepared.confirmationMessages))) {
				return { ok: true, isError: true, text: vscode.l10n.t('The person refused this request in VS Code. Nothing was sent.') };
			}
			const result = await tool.invoke({ input: call.input, toolInvocationToken: undefined }, cancel.token);
			const text = (result?.content ?? []).map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('\n');
			// Masked by the tool already; masked again where it leaves the window.
			return { ok: true, text: redact(text, [...sessionSecrets(this.services.store.list())]) };
		} finally {
			cancel.dispose();
		}
	}

	/** A request that changes data: the chat's confirmation (the URL and the body, masked and cut) and who asks. */
	private async askChange(call: ToolCall, confirmation: { title: string; message: string | vscode.MarkdownString }): Promise<boolean> {
		const t = vscode.l10n.t;
		const who = this.askers.get(call.session);
		const detail = [
			wrapLines(plain(confirmation.message)),
			who?.terminalName !== undefined
				? t('Asked through {0} by a program in the terminal "{1}".', MCP_COMMAND_NAME, who.terminalName)
				: t('Asked through {0}.', MCP_COMMAND_NAME),
			// The executable first, the command line labelled as the program's own claim (as the session question).
			...programLines(who, true, t),
		].join('\n\n');
		return this.services.prompts.current.confirm(confirmation.title, detail, t('Send'));
	}
}

/** The chat's confirmation as a dialog's plain text: bold and code marks dropped. */
function plain(message: string | vscode.MarkdownString): string {
	return (typeof message === 'string' ? message : message.value).replace(/\*\*|`/g, '');
}
