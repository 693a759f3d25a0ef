// An agent's side of telematics-mcp, with the MCP SDK's own client (Client + StdioClientTransport): started
// as a program in a terminal starts it, it starts `telematics-mcp` (found on the PATH, as an agent finds it)
// over stdio with its whole environment, lists the tools, makes the calls given, and writes what it got.
//   node mcpClient.js <file of the calls, as JSON> <output file> [command]
import * as fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface McpCallSpec {
	name: string;
	arguments?: Record<string, unknown>;
}

export interface McpRun {
	tools: Array<{ name: string; description?: string; inputSchema: unknown }>;
	calls: Array<{ isError: boolean; text: string }>;
	/** What went wrong before or between the calls (the server would not start, the pipe broke). */
	error?: string;
	/** The server's stderr. */
	stderr: string;
}

async function main(): Promise<void> {
	const [callsFile, out, command = 'telematics-mcp'] = process.argv.slice(2);
	const calls = JSON.parse(fs.readFileSync(callsFile!, 'utf8')) as McpCallSpec[];
	const run: McpRun = { tools: [], calls: [], stderr: '' };
	const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
	const transport = new StdioClientTransport({ command, args: [], env, stderr: 'pipe' });
	transport.stderr?.on('data', (chunk: Buffer) => (run.stderr += chunk.toString('utf8')));
	const client = new Client({ name: 'telematics-test-agent', version: '1.0.0' });
	try {
		await client.connect(transport);
		run.tools = (await client.listTools()).tools;
		for (const call of calls) {
			const result = await client.callTool({ name: call.name, arguments: call.arguments ?? {} });
			const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
			run.calls.push({ isError: result.isError === true, text: content.map((c) => c.text ?? `[${c.type}]`).join('\n') });
		}
	} catch (error) {
		run.error = error instanceof Error ? error.message : String(error);
	} finally {
		await client.close().catch(() => undefined);
		fs.writeFileSync(out!, JSON.stringify(run));
	}
}

void main();
