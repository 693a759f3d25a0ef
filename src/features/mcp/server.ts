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
import { CHANNEL_ENV, MAX_TOOL_LINE_BYTES, MCP_COMMAND_NAME, MCP_GRANT_ENV, MCP_TOOLS, NONCE_ENV, oneLine, parseToolReply, toolCallLine, type McpTool } from '../../core/terminal/protocol';
import { askWindow } from '../terminal/channelClient';

/** The window may be asking the person; a question left unanswered this long counts as no answer. */
const ANSWER_TIMEOUT_MS = 120_000;

const WINDOW_GONE = `The VS Code window this ${MCP_COMMAND_NAME} belongs to is gone, or Telematics Auth is off there (telematicsAuth.terminalToken). Start the agent again from a terminal of a VS Code window with Telematics Auth.`;

/** A property of a tool's input schema in package.json, as far as the tools use JSON Schema. */
interface SchemaProperty {
	type?: string | string[];
	enum?: string[];
	description?: string;
	additionalProperties?: SchemaProperty;
}

interface ToolContribution {
	name: string;
	modelDescription: string;
	inputSchema: { properties: Record<string, SchemaProperty>; required?: string[] };
}

/** The chat's tools that telematics-mcp offers, from package.json: one name, description and schema for both roads. */
const TOOLS = (contributes.languageModelTools as unknown as readonly ToolContribution[]).filter((t) => MCP_TOOLS.includes(t.name as McpTool));

const PRIMITIVES = { string: z.string(), number: z.number(), integer: z.number().int(), boolean: z.boolean() } as const;

/** One property as zod: a value of its type or enum; anything for a property without a type (a body). The window checks every value again. */
function zodOf(property: SchemaProperty): z.ZodType {
	if (property.enum) return z.enum(property.enum as [string, ...string[]]);
	const types = (Array.isArray(property.type) ? property.type : property.type === undefined ? [] : [property.type]).map((type): z.ZodType => {
		if (type === 'object') return z.record(z.string(), property.additionalProperties ? zodOf(property.additionalProperties) : z.unknown());
		return Object.hasOwn(PRIMITIVES, type) ? PRIMITIVES[type as keyof typeof PRIMITIVES] : z.unknown();
	});
	const [first, second, ...rest] = types;
	if (!first) return z.unknown();
	return second ? z.union([first, second, ...rest]) : first;
}

/** A tool's input schema as the SDK takes it: a zod shape, each property described, the required ones required. */
function shapeOf(tool: ToolContribution): Record<string, z.ZodType> {
	return Object.fromEntries(Object.entries(tool.inputSchema.properties).map(([name, property]) => {
		const value = zodOf(property);
		return [name, (tool.inputSchema.required?.includes(name) ? value : value.optional()).describe(property.description ?? '')];
	}));
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
	for (const tool of TOOLS) {
		server.registerTool(tool.name, { description: tool.modelDescription, inputSchema: shapeOf(tool) }, (input: Record<string, unknown>) => call(tool.name as McpTool, input));
	}
	await server.connect(new StdioServerTransport());
}

void main();
