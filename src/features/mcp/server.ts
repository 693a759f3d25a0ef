// `telematics-mcp`, the MCP server (stdio) for agents outside VS Code's chat (dist/mcp.js, run on VS Code's
// own runtime by a per-window script in the integrated terminals, or started by VS Code for its own agents).
// It offers the chat's tools under their names and descriptions, and holds no token and decides nothing:
// each call goes to the window over the terminal's private channel, where the chat's own tool runs it (the
// person asked first, the request sent, the answer masked). Its process is the MCP session.
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { contributes, version } from '../../../package.json';
import { AGENT_METHODS } from '../../core/agent/serviceRequest';
import { CHANNEL_ENV, MAX_TOOL_LINE_BYTES, MCP_COMMAND_NAME, MCP_GRANT_ENV, NONCE_ENV, oneLine, parseToolReply, toolCallLine, type McpTool } from '../../core/terminal/protocol';
import { askWindow } from '../terminal/channelClient';

/** The window may be asking the person; a question left unanswered this long counts as no answer. */
const ANSWER_TIMEOUT_MS = 120_000;

const WINDOW_GONE = `The VS Code window this ${MCP_COMMAND_NAME} belongs to is gone, or Telematics Auth is off there (telematicsAuth.terminalToken). Start the agent again from a terminal of a VS Code window with Telematics Auth.`;

interface ToolContribution {
	name: string;
	modelDescription: string;
	inputSchema: { properties: Record<string, { description?: string }> };
}

/** The chat tool's description, from package.json: one text for both roads. */
function described(name: McpTool): ToolContribution {
	const tool = (contributes.languageModelTools as readonly ToolContribution[]).find((t) => t.name === name);
	if (!tool) throw new Error(`${name} is not in package.json`);
	return tool;
}

const fail = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** Whether the window's channel answers a connection (it is asked nothing). */
function reachable(address: string): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(address, () => {
			socket.destroy();
			resolve(true);
		});
		socket.on('error', () => resolve(false));
	});
}

function exit(message: string): never {
	process.stderr.write(`${MCP_COMMAND_NAME}: ${message}\n`);
	process.exit(3);
}

async function main(): Promise<void> {
	const address = process.env[CHANNEL_ENV];
	const nonce = process.env[NONCE_ENV];
	if (!address || !nonce) exit('not in a terminal of a VS Code window with Telematics Auth (its channel is not set). Run it from such a terminal, or let VS Code start it.');
	// Nothing at all without the window: no tools are offered by a server that could answer none.
	if (!(await reachable(address))) exit(WINDOW_GONE);
	const grant = process.env[MCP_GRANT_ENV];
	const session = randomUUID().replace(/-/g, '');

	/** One tool call, answered by the window. */
	async function call(tool: McpTool, input: Record<string, unknown>): Promise<CallToolResult> {
		const line = toolCallLine(nonce!, { session, tool, input, ...(grant && /^[0-9a-f]{64}$/.test(grant) && { grant }) }, process.pid);
		let answer: string;
		try {
			answer = await askWindow(address!, line, { maxBytes: MAX_TOOL_LINE_BYTES, timeoutMs: ANSWER_TIMEOUT_MS });
		} catch {
			return fail(WINDOW_GONE);
		}
		const reply = parseToolReply(answer);
		if (!reply.ok) return fail(oneLine(reply.error, 1000));
		return { content: [{ type: 'text', text: reply.text }], ...(reply.isError && { isError: true }) };
	}

	const server = new McpServer({ name: 'telematics', version });
	const accounts = described('telematics_accounts');
	server.registerTool('telematics_accounts', { title: 'Telematics accounts', description: accounts.modelDescription, inputSchema: {} }, () => call('telematics_accounts', {}));
	const request = described('telematics_request');
	const about = (name: string): string => request.inputSchema.properties[name]?.description ?? '';
	server.registerTool('telematics_request', {
		title: 'Telematics API request',
		description: request.modelDescription,
		inputSchema: {
			method: z.enum(AGENT_METHODS).describe(about('method')),
			path: z.string().describe(about('path')),
			query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().describe(about('query')),
			body: z.unknown().optional().describe(about('body')),
			account: z.string().optional().describe(about('account')),
		},
	}, (input) => call('telematics_request', input));
	await server.connect(new StdioServerTransport());
}

void main();
