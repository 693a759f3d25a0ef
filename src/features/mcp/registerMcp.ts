// Registers `telematics-mcp` with VS Code's own agents where VS Code offers it (mcpDefinition.ts); nothing in
// an older VS Code, and nothing, with a line in the log, where the registration fails: never a failed activation.
import { join } from 'node:path';
import vscode = require('../../system/vscodeApi');
import { definitionProvider, mcpApiOf, MCP_PROVIDER_ID } from './mcpDefinition';
import type { TerminalToken } from '../terminal/terminalToken';
import type { McpAnswers } from './mcpAnswers';
import type { Services } from '../../services';
import { caughtText } from '../../core/util/caughtText';

export function registerMcpServer(services: Services, terminals: TerminalToken, answers: McpAnswers): vscode.Disposable[] {
	const api = mcpApiOf(vscode);
	if (!api) return [];
	const { config, context } = services;
	const changed = new vscode.EventEmitter<void>();
	const provider = definitionProvider({
		Definition: api.Definition,
		runtime: process.execPath,
		script: join(context.extensionPath, 'dist', 'mcp.js'),
		version: String((context.extension.packageJSON as { version?: unknown }).version ?? ''),
		enabled: () => config.agentTools() && config.terminalToken() !== 'off',
		endpoint: () => terminals.endpoint(),
		newGrant: () => answers.newGrant(),
		onDidChange: changed.event,
	});
	try {
		return [changed, config.onDidChange(() => changed.fire()), api.register(MCP_PROVIDER_ID, provider)];
	} catch (error) {
		changed.dispose();
		services.log.warn(`Could not offer telematics-mcp to VS Code's own agents: ${caughtText(error)}`);
		return [];
	}
}
