// telematics-mcp as an agent starts it, with the MCP SDK's own client over stdio, against a real channel whose
// window is played by a function: the tools and their descriptions (the chat's, from package.json), each
// call carried to the window with the session and the process, the window's answer handed back as it is,
// and nothing at all without a window.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CHANNEL_ENV, MCP_GRANT_ENV, NONCE_ENV, type TokenRequest, type ToolReply } from '../../src/core/terminal/protocol';
import { openTokenChannel, type TokenChannel } from '../../src/features/terminal/tokenChannel';

const SERVER = path.resolve(__dirname, '../../src/features/mcp/server.js');
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: { languageModelTools: Array<{ name: string; modelDescription: string; inputSchema: { properties: Record<string, { enum?: string[] }>; required?: string[] } }> } };

describe('telematics-mcp: the server, with the SDK\'s client over stdio', function () {
	this.timeout(30_000);
	let root: string;
	let channel: TokenChannel;
	const asked: TokenRequest[] = [];
	let reply: ToolReply;
	let client: Client | undefined;
	let stderr = '';

	before(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-channels-'));
	});
	after(() => fs.rmSync(root, { recursive: true, force: true }));
	beforeEach(async () => {
		asked.length = 0;
		reply = { ok: true, text: 'GET http://127.0.0.1/v1/Me as user → HTTP 200' };
		channel = await openTokenChannel(async (request) => {
			asked.push(request);
			return reply;
		}, root);
		await channel.listen();
	});
	afterEach(async () => {
		await client?.close().catch(() => undefined);
		client = undefined;
		await channel.close();
	});

	async function start(env: Record<string, string>): Promise<Client> {
		stderr = '';
		const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
		transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
		client = new Client({ name: 'test-agent', version: '1.0.0' });
		await client.connect(transport);
		return client;
	}
	const channelEnv = () => ({ [CHANNEL_ENV]: channel.address, [NONCE_ENV]: channel.nonce });
	const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text: string }>).map((c) => c.text).join('');

	it('offers the chat\'s tools with the chat\'s names, descriptions and input schemas (package.json)', async () => {
		const { tools } = await (await start(channelEnv())).listTools();
		const chat = manifest.contributes.languageModelTools;
		assert.deepEqual(tools.map((t) => t.name), chat.map((t) => t.name));
		assert.deepEqual(tools.map((t) => t.name), ['telematics_accounts', 'telematics_operations', 'telematics_request']);
		for (const tool of tools) {
			const contributed = chat.find((t) => t.name === tool.name)!;
			assert.equal(tool.description, contributed.modelDescription);
			const schema = tool.inputSchema as { properties?: Record<string, { enum?: string[]; description?: string }>; required?: string[] };
			assert.deepEqual(Object.keys(schema.properties ?? {}), Object.keys(contributed.inputSchema.properties), tool.name);
			assert.deepEqual(schema.required ?? [], contributed.inputSchema.required ?? [], tool.name);
			for (const [name, property] of Object.entries(contributed.inputSchema.properties)) {
				assert.deepEqual(schema.properties![name]!.enum, property.enum, `${tool.name}.${name}`);
			}
		}
		assert.deepEqual(asked, [], 'listing asks the window nothing');
	});

	it('carries each call to the window with one session per process, its pid, and no grant of its own', async () => {
		const agent = await start(channelEnv());
		const result = await agent.callTool({ name: 'telematics_request', arguments: { method: 'POST', path: '/v1/x', body: { Name: 'n' }, account: 'admin' } });
		assert.deepEqual({ isError: result.isError, text: textOf(result) }, { isError: undefined, text: reply.ok ? reply.text : '' });
		await agent.callTool({ name: 'telematics_accounts', arguments: {} });
		assert.equal(asked.length, 2);
		const [first, second] = asked.map((r) => r.call!);
		assert.deepEqual(first, { session: first!.session, tool: 'telematics_request', input: { method: 'POST', path: '/v1/x', body: { Name: 'n' }, account: 'admin' } });
		assert.deepEqual(second, { session: first!.session, tool: 'telematics_accounts', input: {} }, 'the same session');
		assert.match(first!.session, /^[0-9a-f]{32}$/);
		assert.ok(asked.every((r) => Number.isSafeInteger(r.pid) && r.pid !== process.pid));
		await agent.close();
		const next = await start(channelEnv());
		await next.callTool({ name: 'telematics_accounts', arguments: {} });
		assert.notEqual(asked[2]!.call!.session, first!.session, 'a new process is a new session');
	});

	it('passes on the grant VS Code gave it, and only one of the grant\'s shape', async () => {
		const grant = 'c'.repeat(64);
		await (await start({ ...channelEnv(), [MCP_GRANT_ENV]: grant })).callTool({ name: 'telematics_accounts', arguments: {} });
		await client!.close();
		await (await start({ ...channelEnv(), [MCP_GRANT_ENV]: 'not-a-grant' })).callTool({ name: 'telematics_accounts', arguments: {} });
		assert.deepEqual(asked.map((r) => r.call!.grant), [grant, undefined]);
	});

	it('a refusal and the tool\'s own error come back as errors, in the window\'s words', async () => {
		const agent = await start(channelEnv());
		reply = { ok: false, error: 'Denied in VS Code: this telematics-mcp session may not use the Telematics accounts.' };
		const denied = await agent.callTool({ name: 'telematics_accounts', arguments: {} });
		assert.deepEqual({ isError: denied.isError, text: textOf(denied) }, { isError: true, text: reply.error });
		reply = { ok: true, text: 'The person refused this request in VS Code. Nothing was sent.', isError: true };
		const refused = await agent.callTool({ name: 'telematics_request', arguments: { method: 'DELETE', path: '/v1/x' } });
		assert.deepEqual({ isError: refused.isError, text: textOf(refused) }, { isError: true, text: reply.text });
	});

	it('checks the arguments\' shape before the window hears of them', async () => {
		const agent = await start(channelEnv());
		const wrong = await agent.callTool({ name: 'telematics_request', arguments: { method: 'TRACE', path: '/v1/Me' } });
		assert.equal(wrong.isError, true);
		const host = await agent.callTool({ name: 'telematics_operations', arguments: { host: 'https://elsewhere.example' } });
		assert.equal(host.isError, true);
		const query = await agent.callTool({ name: 'telematics_request', arguments: { method: 'GET', path: '/v1/Me', query: { a: { nested: 1 } } } });
		assert.equal(query.isError, true);
		assert.deepEqual(asked, []);
	});

	it('the window gone while it runs: a clear error for each call', async () => {
		const agent = await start(channelEnv());
		await channel.close();
		const result = await agent.callTool({ name: 'telematics_accounts', arguments: {} });
		assert.equal(result.isError, true);
		assert.match(textOf(result), /VS Code window .* is gone/);
	});

	it('no window at all, or no channel: it does not start, and says why on stderr', async () => {
		await channel.close();
		await assert.rejects(start(channelEnv()));
		assert.match(stderr, /^telematics-mcp: The VS Code window .* is gone/);
		await assert.rejects(start({}));
		assert.match(stderr, /^telematics-mcp: not in a terminal of a VS Code window with Telematics Auth/);
	});
});
