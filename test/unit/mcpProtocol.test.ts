// telematics-mcp without VS Code: the tool-call lines over the channel, what the window decides for a
// session, the body a question shows, and the definition VS Code's own agents get (a fake VS Code API).
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { sessionStep, type SessionFacts } from '../../src/core/agent/mcpSession';
import { CHANNEL_ENV, MAX_LINE_BYTES, MAX_TOOL_LINE_BYTES, MCP_COMMAND_NAME, MCP_GRANT_ENV, MCP_TOOLS, NONCE_ENV, parseRequest, parseToolReply, replyLine, requestLine, toolCallLine, type ToolCall } from '../../src/core/terminal/protocol';
import { definitionProvider, mcpApiOf, type StdioDefinition } from '../../src/features/mcp/mcpDefinition';
import { createServer } from 'node:net';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { askWindow } from '../../src/features/terminal/channelClient';

const nonce = 'a'.repeat(64);
const same = (given: string) => given === nonce;
const SESSION = '0123456789abcdef0123456789abcdef';
const GRANT = 'f'.repeat(64);

describe('telematics-mcp: the tool-call lines', () => {
	const call: ToolCall = { session: SESSION, tool: 'telematics_request', input: { method: 'GET', path: '/v1/Me' } };

	it('a tool call with the nonce reads back as it was sent, its pid and grant too', () => {
		assert.deepEqual(parseRequest(toolCallLine(nonce, call, 42).trim(), same), { ok: true, request: { pid: 42, call } });
		const granted = { ...call, grant: GRANT };
		assert.deepEqual(parseRequest(toolCallLine(nonce, granted).trim(), same), { ok: true, request: { call: granted } });
		assert.deepEqual(parseRequest(toolCallLine('b'.repeat(64), call).trim(), same), { ok: false, error: 'refused' }, 'another window\'s nonce');
		for (const tool of MCP_TOOLS) assert.equal(parseRequest(toolCallLine(nonce, { ...call, tool }).trim(), same).ok, true, tool);
	});

	it('a token request is still a token request: no call in it', () => {
		assert.deepEqual(parseRequest(requestLine(nonce, 'admin', 7).trim(), same), { ok: true, request: { account: 'admin', pid: 7 } });
	});

	const line = (value: unknown) => JSON.stringify({ v: 1, nonce, call: value });
	const refused: Array<[string, unknown]> = [
		['not an object', 'x'],
		['null', null],
		['an array', [SESSION]],
		['another field', { ...call, extra: 1 }],
		['a tool the chat does not have', { ...call, tool: 'telematics_token' }],
		['a tool by another name', { ...call, tool: 'TELEMATICS_REQUEST' }],
		['no input', { session: SESSION, tool: 'telematics_accounts' }],
		['an input that is an array', { ...call, input: [] }],
		['an input that is null', { ...call, input: null }],
		['a short session', { ...call, session: SESSION.slice(1) }],
		['a session in capitals', { ...call, session: SESSION.toUpperCase() }],
		['a session with a line break', { ...call, session: `${SESSION.slice(1)}\n` }],
		['a session with a character before it', { ...call, session: `g${SESSION}` }],
		['a session with a character after it', { ...call, session: `${SESSION}g` }],
		['a session in an array', { ...call, session: [SESSION] }],
		['a grant with a character before it', { ...call, grant: `g${GRANT}` }],
		['a grant with a character after it', { ...call, grant: `${GRANT}g` }],
		['a grant in an array', { ...call, grant: [GRANT] }],
		['a grant that is not 64 hex digits', { ...call, grant: 'f'.repeat(63) }],
		['a grant that is a number', { ...call, grant: 7 }],
	];
	for (const [what, value] of refused) it(`refuses a call with ${what}`, () => assert.deepEqual(parseRequest(line(value), same), { ok: false, error: 'not a request' }));

	it('refuses a call that also names an account (the account is in the input)', () => {
		assert.deepEqual(parseRequest(JSON.stringify({ v: 1, nonce, account: 'admin', call }), same), { ok: false, error: 'not a request' });
	});

	it('a wrong nonce is refused before the call is read', () => {
		assert.deepEqual(parseRequest(JSON.stringify({ v: 1, nonce: 'x', call: 'junk' }), same), { ok: false, error: 'refused' });
	});

	it('reads the window\'s reply: text, the tool\'s error mark, or a refusal on one line; anything else is a refusal', () => {
		assert.deepEqual(parseToolReply(replyLine({ ok: true, text: 'HTTP 200\n{\n  "a": 1\n}' }).trim()), { ok: true, text: 'HTTP 200\n{\n  "a": 1\n}' });
		assert.deepEqual(parseToolReply(replyLine({ ok: true, text: 'refused', isError: true }).trim()), { ok: true, text: 'refused', isError: true });
		assert.deepEqual(parseToolReply('{"ok":false,"error":"Denied.\\n\\u001b[2J"}'), { ok: false, error: 'Denied. [2J' });
		for (const bad of ['{', 'null', '[]', '{"ok":true}', '{"ok":true,"text":7}', '{"ok":"true","text":"x"}', '{"ok":false}', '{"ok":false,"error":1}', '{"ok":true,"error":"x"}']) {
			assert.deepEqual(parseToolReply(bad), { ok: false, error: 'the window answered something that is not a reply' }, bad);
		}
		assert.deepEqual(parseToolReply('{"ok":true,"text":"x","isError":"yes"}'), { ok: true, text: 'x' }, 'only true marks an error');
	});

	it('names itself, and the grant\'s variable, as the terminal and VS Code\'s definition know them', () => {
		assert.equal(MCP_COMMAND_NAME, 'telematics-mcp');
		assert.equal(MCP_GRANT_ENV, 'TELEMATICS_MCP_GRANT');
	});

	it('reads an answer up to its bound, and refuses a longer one: the token command\'s 16 KB, a tool\'s 512 KB', async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ask-'));
		let size = 0;
		const server = createServer((socket) => socket.once('data', () => socket.end(`${'x'.repeat(size)}\n`)));
		const address = path.join(dir, 'sock');
		await new Promise<void>((resolve) => server.listen(address, resolve));
		try {
			for (const bound of [MAX_LINE_BYTES, MAX_TOOL_LINE_BYTES]) {
				size = bound - 1;
				assert.equal((await askWindow(address, 'hello\n', { maxBytes: bound, timeoutMs: 10_000 })).length, bound - 1);
				size = bound + 1;
				await assert.rejects(askWindow(address, 'hello\n', { maxBytes: bound, timeoutMs: 10_000 }), /too long/);
			}
			assert.deepEqual([MAX_LINE_BYTES, MAX_TOOL_LINE_BYTES], [16 * 1024, 512 * 1024]);
		} finally {
			server.close();
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it('any input survives the line: generated objects read back equal (JSON\'s own values)', () => {
		fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (input) => {
			const read = parseRequest(toolCallLine(nonce, { ...call, input }).trim(), same);
			assert.ok(read.ok);
			assert.deepEqual(read.request.call?.input, JSON.parse(JSON.stringify(input)));
		}), { numRuns: 300 });
	});
});

describe('telematics-mcp: what the window does with a session\'s call', () => {
	const facts = (over: Partial<SessionFacts>): SessionFacts => ({ setting: 'ask', granted: false, allowed: false, denied: false, ...over });
	const table: Array<[Partial<SessionFacts>, ReturnType<typeof sessionStep>]> = [
		[{}, 'ask'],
		[{ allowed: true }, 'answer'],
		[{ denied: true }, 'refuse'],
		[{ granted: true }, 'answer'],
		[{ setting: 'always' }, 'answer'],
		[{ setting: 'always', denied: true }, 'answer'],
		[{ setting: 'off' }, 'refuse'],
		[{ setting: 'off', granted: true }, 'refuse'],
		[{ setting: 'off', allowed: true }, 'refuse'],
	];
	for (const [over, step] of table) it(`${JSON.stringify(over)} → ${step}`, () => assert.equal(sessionStep(facts(over)), step));

	it('"off" is nothing at all, whatever else holds; a session is never answered unasked under "ask" without a grant or an allowance', () => {
		fc.assert(fc.property(fc.constantFrom('ask', 'always', 'off'), fc.boolean(), fc.boolean(), fc.boolean(), (setting, granted, allowed, denied) => {
			const step = sessionStep({ setting: setting as SessionFacts['setting'], granted, allowed, denied });
			if (setting === 'off') assert.equal(step, 'refuse');
			if (setting === 'ask' && !granted && !allowed) assert.notEqual(step, 'answer');
		}));
	});
});

describe('telematics-mcp for VS Code\'s own agents (the definition provider, feature-detected)', () => {
	class FakeDefinition implements StdioDefinition {
		constructor(readonly label: string, public command: string, public args: string[] = [], public env: Record<string, string | number | null> = {}, public version?: string) {}
	}
	const registered: string[] = [];
	const fakeVscode = { version: '1.101.0', lm: { registerMcpServerDefinitionProvider: (id: string) => (registered.push(id), { dispose() {} }) }, McpStdioServerDefinition: FakeDefinition };

	it('is found only from VS Code 1.101, where VS Code has both the registration and the definition class', () => {
		assert.equal(mcpApiOf(undefined), undefined);
		assert.equal(mcpApiOf({ lm: {} }), undefined, 'VS Code 1.100');
		assert.equal(mcpApiOf({ lm: { registerMcpServerDefinitionProvider: () => undefined } }), undefined, 'no definition class');
		assert.equal(mcpApiOf({ ...fakeVscode, lm: { registerMcpServerDefinitionProvider: 1 } }), undefined);
		for (const version of ['1.100.3', '1.99.0', '0.200.0', 'x', undefined]) assert.equal(mcpApiOf({ ...fakeVscode, version }), undefined, `VS Code ${version}: a draft of the API, or none`);
		for (const version of ['1.101.0', '1.106.2', '2.0.0', '1.102.0-insider']) assert.ok(mcpApiOf({ ...fakeVscode, version }), `VS Code ${version}`);
		const api = mcpApiOf(fakeVscode)!;
		api.register('telematicsAuth.mcp', {} as never);
		assert.deepEqual(registered, ['telematicsAuth.mcp']);
	});

	let enabled = true;
	let endpoint: { address: string; nonce: string } | undefined = { address: '/run/user/1/telematics-token/x/sock', nonce };
	let grants = 0;
	const provider = definitionProvider({
		Definition: FakeDefinition,
		runtime: '/opt/code/code',
		script: '/ext/dist/mcp.js',
		version: '1.2.3',
		enabled: () => enabled,
		endpoint: async () => endpoint,
		newGrant: () => `${++grants}`.padStart(64, '0'),
		onDidChange: () => ({ dispose() {} }),
	});

	it('lists one server with no secret in it (VS Code may keep the list); the channel and a fresh grant come when it starts', async () => {
		const [listed, ...more] = provider.provideMcpServerDefinitions();
		assert.equal(more.length, 0);
		assert.deepEqual({ ...listed }, { label: 'Telematics', command: '/opt/code/code', args: ['/ext/dist/mcp.js'], env: { ELECTRON_RUN_AS_NODE: '1' }, version: '1.2.3' });
		const started = await provider.resolveMcpServerDefinition(listed!);
		assert.deepEqual(started?.env, { ELECTRON_RUN_AS_NODE: '1', [CHANNEL_ENV]: endpoint!.address, [NONCE_ENV]: nonce, [MCP_GRANT_ENV]: '1'.padStart(64, '0') });
		const again = await provider.resolveMcpServerDefinition(provider.provideMcpServerDefinitions()[0]!);
		assert.equal(again?.env[MCP_GRANT_ENV], '2'.padStart(64, '0'), 'each process its own grant');
	});

	it('lists nothing and starts nothing when the settings turn it off, or without a channel', async () => {
		const listed = provider.provideMcpServerDefinitions()[0]!;
		enabled = false;
		assert.deepEqual(provider.provideMcpServerDefinitions(), []);
		assert.equal(await provider.resolveMcpServerDefinition(listed), undefined);
		enabled = true;
		endpoint = undefined;
		assert.equal(await provider.resolveMcpServerDefinition(listed), undefined);
	});
});
