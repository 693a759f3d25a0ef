// The one place that reads and writes settings. Everyone else asks these typed getters and setters.
import vscode = require('./vscodeApi');
import type { LoginFieldsFormat, ProxySettings } from '../core/api/types';
import { environmentBindings, renamedBindings } from '../core/restFile/environmentAccounts';
import type { InsertStyle } from '../core/restFile/insertPlan';

const SECTION = 'telematicsAuth';

const INSERT_STYLES: readonly InsertStyle[] = ['header', 'variable', 'processEnv', 'dotenv', 'envVariable'];

/** Which terminals `telematics-token` answers: asked per terminal, every one, or none. */
export type TerminalTokenMode = 'ask' | 'always' | 'off';

/** How other tools get the live token (telematicsAuth.exposeToken). */
export type ExposeMode = 'off' | 'environment' | 'environmentAndFiles';

export class Config implements vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<void>();
	/** Fires when any `telematicsAuth.*` or `http.proxy*` setting changes. */
	readonly onDidChange = this.changed.event;
	private readonly listener: vscode.Disposable;
	/**
	 * Each getter's answer until any setting changes (cleared before anyone hears of the change):
	 * the status bar and the lenses ask on every render.
	 */
	private readonly answers = new Map<string, unknown>();
	/**
	 * Our section's defaults and user values, from one `inspect` per change. Each `inspect` walks every
	 * language override of every settings layer (1–3 ms in a start-up profile), so only a value that
	 * fails its check (for its default) and the extra certificates (for the user's value) need it.
	 */
	private layers: { defaults: unknown; user: unknown } | undefined;

	constructor() {
		this.listener = vscode.workspace.onDidChangeConfiguration((e) => {
			this.answers.clear();
			this.layers = undefined;
			if (e.affectsConfiguration(SECTION) || ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy', 'http.proxySupport', 'http.proxyAuthorization', 'http.fetchAdditionalSupport'].some((key) => e.affectsConfiguration(key))) {
				this.changed.fire();
			}
		});
	}

	private get section(): vscode.WorkspaceConfiguration {
		return vscode.workspace.getConfiguration(SECTION);
	}

	/** `key`'s default (from package.json) and user value, both from the section's one `inspect`. */
	private layer(which: 'defaults' | 'user', key: string): unknown {
		if (!this.layers) {
			const inspected = vscode.workspace.getConfiguration().inspect<unknown>(SECTION);
			this.layers = { defaults: inspected?.defaultValue, user: inspected?.globalValue };
		}
		return key.split('.').reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), this.layers[which]);
	}

	/**
	 * A setting's value when it has the type `valid` checks, else its default from package.json
	 * (the one place defaults are written). The settings a workspace must not choose (the service,
	 * the insert style, exposure, the terminal command) have `application` scope in package.json:
	 * VS Code takes those from user settings only and never hands this host a workspace's value
	 * (test/integration/workspaceSettings.test.ts plants one).
	 */
	private value<T>(key: string, valid: (v: unknown) => v is T): T {
		if (this.answers.has(key)) return this.answers.get(key) as T;
		const set = this.section.get<unknown>(key);
		const answer = (valid(set) ? set : this.layer('defaults', key)) as T;
		this.answers.set(key, answer);
		return answer;
	}

	/** The service URL, from user settings only (`application` scope). */
	baseUrl(): string {
		return this.value('baseUrl', isString).trim();
	}

	/**
	 * The platform's hosts the user set, host key → origin (user settings only, `application` scope and
	 * restricted): read as given; `platformHosts()` in core/platform/hosts.ts keeps only valid origins.
	 */
	platformHosts(): Readonly<Record<string, unknown>> {
		return this.value('platformHosts', isObject) as Readonly<Record<string, unknown>>;
	}

	/** Clamped to 1..300 s here too: settings.json is hand-edited, and the schema only warns. */
	requestTimeoutMs(): number {
		return Math.min(300, Math.max(1, this.value('requestTimeoutSeconds', isFiniteNumber))) * 1000;
	}

	loginFieldsFormat(): LoginFieldsFormat {
		return this.value('loginFieldsFormat', isLoginFieldsFormat);
	}

	refreshBeforeExpiryMs(): number {
		return Math.min(86_400, Math.max(0, this.value('refreshBeforeExpirySeconds', isFiniteNumber))) * 1000;
	}

	autoRefresh(): boolean {
		return this.value('autoRefresh', isBoolean);
	}

	/** Whether REST Client's history file is kept free of tokens (features/restClient/historyGuard.ts). */
	cleanRestClientHistory(): boolean {
		return this.value('cleanRestClientHistory', isBoolean);
	}

	/** User settings only (`application` scope, restricted): a workspace cannot turn "reference only" back into a token. */
	insertStyle(): InsertStyle {
		return this.value('insertStyle', isInsertStyle);
	}

	/** User settings only (`application` scope): a workspace cannot expose the token. */
	exposeToken(): ExposeMode {
		return this.value('exposeToken', isExposeMode);
	}

	/** The env file names `environmentAndFiles` writes (user settings only); see core/restFile/envFiles.ts. */
	exposeFiles(): readonly string[] {
		return this.value('exposeTokenFiles', isStringArray);
	}

	/** Environments bound to accounts, valid pairs only (user settings only: a workspace cannot move a token between environments). */
	environmentAccounts(): ReadonlyMap<string, string> {
		return environmentBindings(this.value('environmentAccounts', isObject));
	}

	/** Binds `environment` to the account named `name`, or removes its binding (undefined); the other entries stay as written. */
	async setEnvironmentAccount(environment: string, name: string | undefined): Promise<void> {
		const current = this.value('environmentAccounts', isObject) as Record<string, unknown>;
		const next: Record<string, unknown> = { ...current };
		if (name === undefined) delete next[environment];
		else next[environment] = name;
		await this.section.update('environmentAccounts', next, vscode.ConfigurationTarget.Global);
	}

	/** Rename Account: the bindings to `from` follow the account to `to`. */
	async renameInBindings(from: string, to: string): Promise<void> {
		const renamed = renamedBindings(this.value('environmentAccounts', isObject), from, to);
		if (renamed) await this.section.update('environmentAccounts', renamed, vscode.ConfigurationTarget.Global);
	}

	/** User settings only: whether terminals get the `telematics-token` command, and whether each terminal is asked about first (the earlier `true`/`false` read as `always`/`off`). */
	terminalToken(): TerminalTokenMode {
		const mode = this.value('terminalToken', isTerminalTokenSetting);
		return mode === true ? 'always' : mode === false ? 'off' : mode;
	}

	/** The person's choice in "Choose How Tools Get the Token…", in user settings. */
	async setExposure(mode: ExposeMode, files: readonly string[]): Promise<void> {
		await this.section.update('exposeToken', mode, vscode.ConfigurationTarget.Global);
		if (files.length) await this.section.update('exposeTokenFiles', [...files], vscode.ConfigurationTarget.Global);
	}

	async setInsertStyle(style: InsertStyle): Promise<void> {
		await this.section.update('insertStyle', style, vscode.ConfigurationTarget.Global);
	}

	codeLensEnabled(): boolean {
		return this.value('codeLens.enabled', isBoolean);
	}

	/** Whether the agent's language-model tools (telematics_accounts, telematics_request) answer. */
	agentTools(): boolean {
		return this.value('agentTools.enabled', isBoolean);
	}

	/**
	 * VS Code's proxy settings (an empty `http.proxy` means "use the environment";
	 * `http.proxySupport: off` means no proxy) and the extra trusted certificates, which only
	 * user or machine settings can name (`machine` scope).
	 */
	proxy(): ProxySettings {
		const http = vscode.workspace.getConfiguration('http');
		const proxyUrl = http.get<string>('proxy')?.trim();
		const support = http.get<string>('proxySupport');
		const authorization = http.get<unknown>('proxyAuthorization');
		const extra = this.layer('user', 'extraCertificates');
		return {
			proxyUrl: proxyUrl ? proxyUrl : undefined,
			strictSSL: http.get<boolean>('proxyStrictSSL', true),
			noProxy: http.get<string[]>('noProxy', []),
			proxyAuthorization: typeof authorization === 'string' && authorization.trim() !== '' ? authorization.trim() : undefined,
			proxySupport: support === 'off' || support === 'on' || support === 'fallback' ? support : 'override',
			fetchAdditionalSupport: http.get<boolean>('fetchAdditionalSupport', true) !== false,
			extraCertificates: Array.isArray(extra) ? extra.filter((f): f is string => typeof f === 'string' && f.trim() !== '').map((f) => f.trim()) : [],
		};
	}

	dispose(): void {
		this.listener.dispose();
		this.changed.dispose();
	}
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isInsertStyle = (v: unknown): v is InsertStyle => INSERT_STYLES.includes(v as InsertStyle);
const isTerminalTokenSetting = (v: unknown): v is TerminalTokenMode | boolean => v === 'ask' || v === 'always' || v === 'off' || typeof v === 'boolean';
const isExposeMode = (v: unknown): v is ExposeMode => v === 'off' || v === 'environment' || v === 'environmentAndFiles';
const isLoginFieldsFormat = (v: unknown): v is LoginFieldsFormat => v === 'object' || v === 'string';
const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
