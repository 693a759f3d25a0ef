// `telematics-mcp` for VS Code's own agents, where VS Code offers `lm.registerMcpServerDefinitionProvider`
// (1.101+; this extension's engine is older, so the API is found at run time through a typed guard). VS Code
// starts such a server itself, in no terminal: the channel's address, its nonce and a per-process grant go
// into the server's environment when VS Code starts it (`resolveMcpServerDefinition`), never into the list
// VS Code may keep between windows. Only types come from `vscode` here, so unit tests run it in plain Node.
import type * as vscode from 'vscode';
import { CHANNEL_ENV, MCP_GRANT_ENV, NONCE_ENV } from '../../core/terminal/protocol';

/** The provider's id, as `contributes.mcpServerDefinitionProviders` in package.json names it. */
export const MCP_PROVIDER_ID = 'telematicsAuth.mcp';

type Env = Record<string, string | number | null>;

/** The part of VS Code's `McpStdioServerDefinition` this extension uses. */
export interface StdioDefinition {
	readonly label: string;
	command: string;
	args: string[];
	env: Env;
	version?: string;
}

type StdioDefinitionClass = new (label: string, command: string, args?: string[], env?: Env, version?: string) => StdioDefinition;

export interface DefinitionProvider {
	readonly onDidChangeMcpServerDefinitions: vscode.Event<void>;
	provideMcpServerDefinitions(): StdioDefinition[];
	resolveMcpServerDefinition(server: StdioDefinition): Promise<StdioDefinition | undefined>;
}

/** VS Code's MCP API, when the running VS Code has it. */
export interface McpApi {
	register(id: string, provider: DefinitionProvider): vscode.Disposable;
	Definition: StdioDefinitionClass;
}

/** The first VS Code whose API is the one documented; 1.100 has a draft of it, under another contribution point. */
const FIRST_VERSION = [1, 101];

/** `vscode`'s MCP API, found by version and shape: undefined in a VS Code without it (1.100 and older). */
export function mcpApiOf(api: unknown): McpApi | undefined {
	if (typeof api !== 'object' || api === null) return undefined;
	const { lm, McpStdioServerDefinition, version } = api as { lm?: { registerMcpServerDefinitionProvider?: unknown }; McpStdioServerDefinition?: unknown; version?: unknown };
	const [major = 0, minor = 0] = typeof version === 'string' ? version.split('.').map((part) => Number.parseInt(part, 10)) : [];
	if (!(major > FIRST_VERSION[0]! || (major === FIRST_VERSION[0] && minor >= FIRST_VERSION[1]!))) return undefined;
	const register = lm?.registerMcpServerDefinitionProvider;
	if (typeof register !== 'function' || typeof McpStdioServerDefinition !== 'function') return undefined;
	return {
		register: (id, provider) => (register as (id: string, provider: DefinitionProvider) => vscode.Disposable).call(lm, id, provider),
		Definition: McpStdioServerDefinition as StdioDefinitionClass,
	};
}

export interface DefinitionParts {
	Definition: StdioDefinitionClass;
	/** The runtime VS Code runs on (run as Node), and dist/mcp.js. */
	runtime: string;
	script: string;
	/** The extension's version: a new one tells VS Code the tools may have changed. */
	version: string;
	/** Both settings allow it: telematicsAuth.agentTools.enabled, and telematicsAuth.terminalToken not off. */
	enabled(): boolean;
	/** The channel, listening; undefined when it cannot be had. */
	endpoint(): Promise<{ address: string; nonce: string } | undefined>;
	/** A fresh grant for one server process. */
	newGrant(): string;
	onDidChange: vscode.Event<void>;
}

/**
 * The provider: one server, "Telematics", while the settings allow it. Its list holds no secret; the
 * channel, nonce and a fresh grant are added when VS Code starts the server, and a server is not started
 * when the settings have turned it off since or the channel cannot be had.
 */
export function definitionProvider(parts: DefinitionParts): DefinitionProvider {
	return {
		onDidChangeMcpServerDefinitions: parts.onDidChange,
		provideMcpServerDefinitions: () => (parts.enabled()
			? [new parts.Definition('Telematics', parts.runtime, [parts.script], { ELECTRON_RUN_AS_NODE: '1' }, parts.version)]
			: []),
		async resolveMcpServerDefinition(server) {
			if (!parts.enabled()) return undefined;
			const endpoint = await parts.endpoint();
			if (!endpoint) return undefined;
			server.env = { ...server.env, ELECTRON_RUN_AS_NODE: '1', [CHANNEL_ENV]: endpoint.address, [NONCE_ENV]: endpoint.nonce, [MCP_GRANT_ENV]: parts.newGrant() };
			return server;
		},
	};
}
