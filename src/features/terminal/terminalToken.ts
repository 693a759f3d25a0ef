// `telematics-token` in the integrated terminals (telematicsAuth.terminalToken): a per-window private channel,
// the command on the PATH and the channel's address and nonce through VS Code's environment variable collection.
import { mkdir } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import vscode = require('../../system/vscodeApi');
import { CHANNEL_ENV, COMMAND_NAME, MCP_COMMAND_NAME, NONCE_ENV, oneLine, type Reply, type TokenRequest, type ToolCall, type ToolReply } from '../../core/terminal/protocol';
import { cmdScript, posixScript } from '../../core/terminal/scripts';
import { replaceRegularFile } from '../../system/regularFile';
import { openTokenChannel, type PeerProcess, type TokenChannel } from './tokenChannel';
import { describeAsker, terminalOfSession } from './asker';
import { TerminalAllowances } from '../../core/terminal/allowance';
import { privateChannelRoot, removeDeadWindows, rootBases } from './channelRoot';
import type { Services } from '../../services';
import { caughtText } from '../../core/util/caughtText';
import { sessionSecrets } from '../../core/util/redactingLog';
import { liveSession } from '../shared/freshToken';

/** An allowance's key: the terminal whose shell leads the session. */
const sessionKey = (sessionId: number): string => `session:${sessionId}`;

/** workspaceState: the person allowed the command in this untrusted folder. */
export const TERMINAL_ALLOWED_KEY = 'telematicsAuth.terminalTokenAllowedInRestrictedMode';

/** What answers telematics-mcp's tool calls, which come over the same channel (features/mcp/mcpAnswers.ts). */
export interface ToolCalls {
	/** One tool call; `pid`: the asking process, as the kernel tells it. */
	answer(call: ToolCall, pid: number | undefined): Promise<ToolReply>;
	/** The setting left "ask": what the person allowed is asked again. */
	reset(): void;
}

export class TerminalToken implements vscode.Disposable {
	private readonly subscriptions: vscode.Disposable[] = [];
	private channel: Promise<TokenChannel | undefined> | undefined;
	/** The question for an untrusted folder, asked once per window at most. */
	private restrictedAnswer: Promise<boolean> | undefined;
	/** Waits for the first terminal, when the channel starts listening. */
	private firstTerminal: vscode.Disposable | undefined;
	private disposed = false;
	/** The terminals the person allowed ("ask"), by their shell's session; in memory only. */
	private readonly allowances = new TerminalAllowances();
	/** One open question per terminal: a second request from it waits for the same answer. */
	private readonly questions = new Map<string, Promise<boolean>>();
	/** `toolCalls`: telematics-mcp's tool calls, over the same channel. */
	constructor(private readonly services: Services, private readonly toolCalls: ToolCalls) {
		this.subscriptions.push(services.config.onDidChange(() => this.follow()));
		this.subscriptions.push(vscode.window.onDidCloseTerminal((terminal) => {
			void Promise.resolve(terminal.processId).then((pid) => pid !== undefined && this.allowances.forget(sessionKey(pid)), () => undefined);
		}));
		this.follow();
	}

	dispose(): void {
		this.disposed = true;
		for (const s of this.subscriptions.splice(0)) s.dispose();
		void this.stop();
	}

	private follow(): void {
		if (this.disposed) return;
		// A changed choice starts afresh: what was allowed under "ask" is asked again.
		if (this.services.config.terminalToken() !== 'ask') {
			this.allowances.clear();
			this.toolCalls.reset();
		}
		if (this.services.config.terminalToken() !== 'off') this.channel ??= this.start();
		else void this.stop();
	}

	private async start(): Promise<TokenChannel | undefined> {
		try {
			const root = await this.channelRoot();
			if (!root) {
				this.services.log.warn(`${COMMAND_NAME} is not offered: no folder of this user's that others cannot write was found (tried $XDG_RUNTIME_DIR, the temp folder, the extension's storage and the home folder).`);
				this.channel = undefined;
				return undefined;
			}
			const channel = await openTokenChannel((request, peer) => this.answer(request, peer), root);
			if (this.disposed || this.services.config.terminalToken() === 'off') {
				await channel.close();
				return undefined;
			}
			const bin = join(channel.privateDir, 'bin');
			const env = this.services.context.environmentVariableCollection;
			// The address and nonce are good for this window only: never written to workspace storage.
			env.persistent = false;
			env.description = this.services.config.terminalToken() === 'ask'
				? vscode.l10n.t('Adds the {0} command, which prints the live Telematics token once you allow this terminal.', COMMAND_NAME)
				: vscode.l10n.t('Adds the {0} command, which prints the live Telematics token. Any program run in the terminal can ask for it.', COMMAND_NAME);
			// Last on the PATH: a folder of ours can only ever answer for a command nothing else on the PATH
			// has. Once, when the terminal's process starts (applied again by shell integration, it was
			// on the PATH twice); a shell whose own start-up sets PATH afresh loses it.
			env.append('PATH', `${delimiter}${bin}`, { applyAtProcessCreation: true, applyAtShellIntegration: false });
			env.replace(CHANNEL_ENV, channel.address);
			env.replace(NONCE_ENV, channel.nonce);
			this.listenOnceATerminalOpens(channel, bin);
			this.services.log.debug(`${COMMAND_NAME} is available in terminals opened from now on.`);
			return channel;
		} catch (error) {
			this.services.log.warn(`Could not offer ${COMMAND_NAME} in terminals: ${caughtText(error)}`);
			this.channel = undefined;
			return undefined;
		}
	}

	/** The user's private folder for the channels (channelRoot.ts); on Windows the temp folder, which is the user's own. */
	private async channelRoot(): Promise<string | undefined> {
		if (process.platform === 'win32') return tmpdir();
		const storage = this.services.context.globalStorageUri;
		const storageDir = storage.scheme === 'file' ? storage.fsPath : undefined;
		if (storageDir) await mkdir(storageDir, { recursive: true }).catch(() => undefined);
		const bases = rootBases({ runtimeDir: process.env.XDG_RUNTIME_DIR, tmpDir: tmpdir(), platform: process.platform, storageDir, homeDir: homedir() });
		return privateChannelRoot(bases, process.getuid?.() ?? 0);
	}

	/**
	 * Nothing on disk and no socket until the window has a terminal (nothing else can run the command):
	 * then the private folder, the socket and the command's script in `bin`.
	 */
	private listenOnceATerminalOpens(channel: TokenChannel, bin: string): void {
		const listen = (): void => {
			this.firstTerminal?.dispose();
			this.firstTerminal = undefined;
			channel.listen()
				.then(() => this.writeCommand(bin))
				.then(() => this.removeDeadWindows(channel))
				.catch((error: unknown) => this.services.log.warn(`${COMMAND_NAME} cannot answer terminals: ${caughtText(error)}`));
		};
		if (vscode.window.terminals.length > 0) listen();
		else this.firstTerminal = vscode.window.onDidOpenTerminal(listen);
	}

	/**
	 * The commands on the PATH: scripts that run dist/tokenClient.js and dist/mcp.js with VS Code's own
	 * runtime, each put in place whole (a terminal that runs one meanwhile finds no command, never an empty
	 * or half-written one).
	 */
	private async writeCommand(bin: string): Promise<void> {
		await mkdir(bin, { mode: 0o700 });
		const runtime = process.execPath;
		for (const [name, script] of [[COMMAND_NAME, 'tokenClient.js'], [MCP_COMMAND_NAME, 'mcp.js']] as const) {
			const client = join(this.services.context.extensionPath, 'dist', script);
			if (process.platform === 'win32') await replaceRegularFile(join(bin, `${name}.cmd`), cmdScript(runtime, client, name), 0o600);
			else await replaceRegularFile(join(bin, name), posixScript(runtime, client, name), 0o700);
		}
	}

	/**
	 * The channel's address and nonce for a server VS Code starts itself (vscodeMcp.ts), listening from now
	 * on; undefined when the setting is off or the channel cannot open.
	 */
	async endpoint(): Promise<{ address: string; nonce: string } | undefined> {
		const channel = await this.channel;
		if (!channel || this.disposed) return undefined;
		await channel.listen();
		return { address: channel.address, nonce: channel.nonce };
	}

	/** The folders of windows that died without closing theirs go (on Windows each pipe goes with its process). */
	private async removeDeadWindows(channel: TokenChannel): Promise<void> {
		if (process.platform === 'win32') return;
		const root = join(channel.privateDir, '..');
		const removed = await removeDeadWindows(root, basename(channel.privateDir), process.getuid?.() ?? 0);
		if (removed.length) this.services.log.debug(`Removed the ${COMMAND_NAME} folders of ${removed.length} window(s) that had closed without removing them.`);
	}

	private async stop(): Promise<void> {
		this.firstTerminal?.dispose();
		this.firstTerminal = undefined;
		const running = this.channel;
		this.channel = undefined;
		this.services.context.environmentVariableCollection.clear();
		await (await running)?.close();
	}

	/** One request from a terminal: the account's current token, refreshed first inside its refresh window; or a tool call of telematics-mcp. */
	private async answer(request: TokenRequest, peer: PeerProcess): Promise<Reply | ToolReply> {
		const t = vscode.l10n.t;
		if (!vscode.workspace.isTrusted && !(await this.allowedInRestrictedMode())) {
			return { ok: false, error: t('Not allowed in this folder, which is not trusted. Allow it when VS Code asks, or trust the folder.') };
		}
		if (request.call) return this.toolCalls.answer(request.call, await peer().catch(() => undefined));
		const { store, config, log } = this.services;
		const session = request.account === undefined
			? store.active()
			: store.list().find((s) => s.account.name === request.account) ?? store.list().find((s) => s.account.label === request.account || s.account.id === request.account);
		if (!session) {
			return { ok: false, error: request.account === undefined
				? t('No Telematics account is logged in. Log in in VS Code (Telematics: Log In).')
				: t('No logged-in Telematics account is called "{0}".', oneLine(request.account, 80)) };
		}
		const { id } = session.account;
		if (config.terminalToken() === 'ask' && !(await this.allowedByThePerson(peer, session.account.label))) {
			log.info(`${COMMAND_NAME}: denied a program the token of "${session.account.label}".`);
			return { ok: false, error: t('Denied in VS Code: this program may not read the Telematics token. Allow it when VS Code asks, or set telematicsAuth.terminalToken.') };
		}
		const current = await liveSession(this.services, id);
		if (!current) {
			return { ok: false, error: t('The token of {0} has expired and could not be refreshed now. Refresh or log in again in VS Code.', store.get(id)?.account.label ?? session.account.label) };
		}
		const { tokens } = current;
		log.debug(`${COMMAND_NAME}: handed the token of "${current.account.label}" to a terminal.`);
		return { ok: true, token: tokens.accessToken, expiresAt: tokens.expiresAt, label: current.account.label, serviceUrl: current.account.serviceUrl };
	}

	/**
	 * "ask": a program in a terminal of this window that the person allowed goes on; any other is asked
	 * about (for its terminal, or this once when it has none: agents run their commands that way). Which
	 * process asks is the kernel's word (peer.ts), never the `pid` the client writes; where the system does
	 * not say, the question says that any program of the person's could be asking.
	 */
	private async allowedByThePerson(peer: PeerProcess, account: string): Promise<boolean> {
		const { clock, store } = this.services;
		const pid = await peer().catch(() => undefined);
		const asker = await describeAsker(pid, [...sessionSecrets(store.list())]);
		const terminal = asker.terminal?.hasTerminal ? await terminalOfSession(asker.terminal.sessionId) : undefined;
		const key = terminal && asker.terminal ? sessionKey(asker.terminal.sessionId) : undefined;
		if (key && this.allowances.use(key, clock.now())) return true;
		const open = key ? this.questions.get(key) : undefined;
		if (open) return open;
		const question = this.services.prompts.current.askTerminalToken({
			account,
			...(terminal && { terminalName: terminal.name }),
			...(asker.commandLine !== undefined && { commandLine: asker.commandLine }),
			...(pid === undefined && { anyProgram: true }),
		}).then((allowed) => {
			if (allowed && key) this.allowances.allow(key, clock.now());
			return allowed;
		}, () => false);
		if (!key) return question;
		this.questions.set(key, question);
		return question.finally(() => this.questions.delete(key));
	}

	/** In an untrusted folder: allowed once by the person for this folder (asked once per window). */
	private allowedInRestrictedMode(): Promise<boolean> {
		const state = this.services.context.workspaceState;
		if (state.get<boolean>(TERMINAL_ALLOWED_KEY) === true) return Promise.resolve(true);
		this.restrictedAnswer ??= this.services.prompts.current.confirm(
			vscode.l10n.t('A program in a terminal of this untrusted folder asks for the Telematics token.'),
			vscode.l10n.t('{0} prints the live access token to whatever runs it there. Allow it for this folder? Trusting the folder allows it too.', COMMAND_NAME),
			vscode.l10n.t('Allow for This Folder'),
		).then(async (allowed) => {
			if (allowed) await state.update(TERMINAL_ALLOWED_KEY, true);
			return allowed;
		});
		return this.restrictedAnswer;
	}
}
