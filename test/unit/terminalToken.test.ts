// `telematics-token` without VS Code: the protocol, the per-window scripts run by a real sh with hostile paths,
// and the command against a real channel over a real socket (nonce, private directory, the window gone).
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { CHANNEL_ENV, COMMAND_NAME, formatAnswer, NONCE_ENV, oneLine, parseArgs, parseReply, parseRequest, replyLine, requestLine, USAGE, type Reply, type TokenRequest } from '../../src/core/terminal/protocol';
import { posixScript } from '../../src/core/terminal/scripts';
import { openTokenChannel, type TokenChannel } from '../../src/features/terminal/tokenChannel';
import { onlyHolder, peerInodeOf, socketInode } from '../../src/core/terminal/peer';
import { peerProcessId } from '../../src/features/terminal/peer';
import { spawn } from 'node:child_process';
import * as net from 'node:net';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXJtaW5hbCJ9.c2ln';
const ANSWER = { token: TOKEN, expiresAt: Date.UTC(2030, 0, 1), label: 'Demo Driver', serviceUrl: 'http://127.0.0.1:8787' };
const CLIENT = path.resolve(__dirname, '../../src/features/terminal/client.js');

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(file, args, { env, timeout: 20_000 }, (error, stdout, stderr) => {
			resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
		});
	});
}

describe('telematics-token: the protocol', () => {
	const nonce = 'a'.repeat(64);
	const same = (given: string) => given === nonce;

	it('takes one kind of request, with the nonce, and nothing else', () => {
		assert.deepEqual(parseRequest(requestLine(nonce).trim(), same), { ok: true, request: {} });
		assert.deepEqual(parseRequest(requestLine(nonce, 'Demo Driver').trim(), same), { ok: true, request: { account: 'Demo Driver' } });
		assert.deepEqual(parseRequest(requestLine(nonce, undefined, 4242).trim(), same), { ok: true, request: { pid: 4242 } }, 'the asking process, for the window to ask the system about');
		assert.deepEqual(parseRequest(requestLine('b'.repeat(64)).trim(), same), { ok: false, error: 'refused' });
		const bad = (pid: string) => `{"v":1,"nonce":"${nonce}","pid":${pid}}`;
		for (const line of ['', 'null', '[]', '{"v":1}', bad('0'), bad('-1'), bad('1.5'), bad('"12"'), bad('9007199254740993'), bad('null'), `{"v":2,"nonce":"${nonce}"}`, `{"v":1,"nonce":"${nonce}","kind":"refresh"}`, `{"v":1,"nonce":"${nonce}","account":7}`, `{"v":1,"nonce":"${nonce}","account":""}`]) {
			assert.equal(parseRequest(line, same).ok, false, line);
		}
	});

	it('never prints what is not a token: a reply with anything else is a refusal (generated)', () => {
		fc.assert(fc.property(fc.string({ unit: 'binary' }), (token) => {
			const reply = parseReply(replyLine({ ok: true, ...ANSWER, token }).trim());
			if (reply.ok) assert.equal(formatAnswer(reply, 'header'), `Authorization: Bearer ${token}\n`);
			assert.equal(reply.ok, /^[A-Za-z0-9\-_.~+/=]+$/.test(token) && token.length <= 8192);
		}), { numRuns: 500 });
	});

	it('prints the token, the header or JSON, one line each', () => {
		assert.equal(formatAnswer(ANSWER, 'token'), `${TOKEN}\n`);
		assert.equal(formatAnswer(ANSWER, 'header'), `Authorization: Bearer ${TOKEN}\n`);
		assert.deepEqual(JSON.parse(formatAnswer(ANSWER, 'json')), { ...ANSWER, expiresAt: '2030-01-01T00:00:00.000Z' });
		assert.equal(JSON.parse(formatAnswer({ ...ANSWER, expiresAt: 1e20 }, 'json')).expiresAt, null);
	});

	// Issue 36: each command line and request a terminal or a stranger could send, and exactly what comes back.
	const argCases: Array<[string[], ReturnType<typeof parseArgs>]> = [
		[[], { ok: true, args: { mode: 'token' } }],
		[['--header', '--account', 'Second Driver'], { ok: true, args: { mode: 'header', account: 'Second Driver' } }],
		[['--json', '--account=x'], { ok: true, args: { mode: 'json', account: 'x' } }],
		[['--header', '--header'], { ok: true, args: { mode: 'header' } }],
		[['--help'], { ok: false, help: true }],
		[['-h', '--json'], { ok: false, help: true }],
		[['--header', '--json'], { ok: false, help: false, error: '--header and --json cannot be combined.' }],
		[['--json', '--header'], { ok: false, help: false, error: '--header and --json cannot be combined.' }],
		[['--account'], { ok: false, help: false, error: '--account needs a label.' }],
		[['--account='], { ok: false, help: false, error: '--account needs a label.' }],
		[['--accounts'], { ok: false, help: false, error: 'Unknown argument: --accounts' }],
		[['-x'], { ok: false, help: false, error: 'Unknown argument: -x' }],
		[['a\u001b[31mb'], { ok: false, help: false, error: 'Unknown argument: a [31mb' }],
	];
	for (const [argv, read] of argCases) it(`reads ${JSON.stringify(argv)}`, () => assert.deepEqual(parseArgs(argv), read));

	const requestCases: Array<[string, ReturnType<typeof parseRequest>]> = [
		['not json', { ok: false, error: 'not a request' }],
		['null', { ok: false, error: 'not a request' }],
		['[1]', { ok: false, error: 'not a request' }],
		['"text"', { ok: false, error: 'not a request' }],
		[`{"v":1,"nonce":7}`, { ok: false, error: 'not a request' }],
		[`{"v":1,"nonce":"${'a'.repeat(64)}","account":"${'x'.repeat(256)}"}`, { ok: true, request: { account: 'x'.repeat(256) } }],
		[`{"v":1,"nonce":"${'a'.repeat(64)}","account":"${'x'.repeat(257)}"}`, { ok: false, error: 'not a request' }],
		[`{"v":1,"nonce":"${'a'.repeat(64)}","pid":1}`, { ok: true, request: { pid: 1 } }],
	];
	for (const [line, read] of requestCases) it(`reads the request ${line.slice(0, 40)}`, () => assert.deepEqual(parseRequest(line, same), read));

	it('sends only what it was given', () => {
		assert.equal(requestLine(nonce), `{"v":1,"nonce":"${nonce}"}\n`);
		assert.equal(requestLine(nonce, 'a', 7), `{"v":1,"nonce":"${nonce}","account":"a","pid":7}\n`);
	});

	const replyCases: Array<[string, Reply]> = [
		['{', { ok: false, error: 'the window answered something that is not a reply' }],
		['null', { ok: false, error: 'the window answered something that is not a token' }],
		['{"ok":false,"error":"No account.\\n\\u001b[2J"}', { ok: false, error: 'No account. [2J' }],
		['{"ok":false,"error":7}', { ok: false, error: 'the window answered something that is not a token' }],
		['{"error":"x"}', { ok: false, error: 'the window answered something that is not a token' }],
		[JSON.stringify({ ...ANSWER, ok: 'true' }), { ok: false, error: 'the window answered something that is not a token' }],
		[JSON.stringify({ ...ANSWER, ok: true, token: 'a b' }), { ok: false, error: 'the window answered something that is not a token' }],
		[JSON.stringify({ ...ANSWER, ok: true, expiresAt: '1' }), { ok: false, error: 'the window answered something that is not a token' }],
		[`{"ok":true,"token":"${TOKEN}","expiresAt":1e999,"label":"a","serviceUrl":"b"}`, { ok: false, error: 'the window answered something that is not a token' }],
		[JSON.stringify({ ...ANSWER, ok: true, label: 1 }), { ok: false, error: 'the window answered something that is not a token' }],
		[JSON.stringify({ ...ANSWER, ok: true, serviceUrl: null }), { ok: false, error: 'the window answered something that is not a token' }],
		[JSON.stringify({ ...ANSWER, ok: true }), { ok: true, ...ANSWER }],
	];
	for (const [line, read] of replyCases) it(`reads the reply ${line.slice(0, 50)}`, () => assert.deepEqual(parseReply(line), read));

	it('never formats what is not a token', () => {
		assert.throws(() => formatAnswer({ ...ANSWER, token: 'two words' }, 'token'), /not a token/);
	});

	it('writes one line of at most 300 characters for stderr', () => {
		assert.equal(oneLine('  a\r\n\tb\u2028c\u0085d  '), 'a b c d');
		assert.equal(oneLine('x'.repeat(300)), 'x'.repeat(300));
		assert.equal(oneLine('x'.repeat(301)), `${'x'.repeat(299)}…`);
		assert.equal(oneLine('abcdef', 4), 'abc…');
	});

	it('names itself and says how to use it', () => {
		assert.equal(COMMAND_NAME, 'telematics-token');
		assert.match(USAGE, /^Usage: telematics-token \[--header \| --json\] \[--account <name>\]/);
	});
});

describe('telematics-token: the per-window script', () => {
	it('runs the client on the given runtime with the arguments as typed, whatever the paths hold', async function () {
		this.timeout(60_000);
		const names = fc.sample(fc.constantFrom('plain', 'with space', "it's", '$(touch pwned)', '`id`', 'a"b', 'semi;colon', 'new\nline', '*glob?'), 12);
		for (const name of names) {
			const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'script-'));
			try {
				const holder = path.join(dir, name);
				fs.mkdirSync(holder);
				const client = path.join(holder, 'client.js');
				fs.writeFileSync(client, 'process.stdout.write(JSON.stringify({ args: process.argv.slice(2), asNode: process.env.ELECTRON_RUN_AS_NODE }))');
				const script = path.join(holder, 'telematics-token');
				fs.writeFileSync(script, posixScript(process.execPath, client), { mode: 0o700 });
				const result = await run(script, ['--account', 'Demo Driver', '$(id)'], { PATH: process.env.PATH });
				assert.deepEqual(JSON.parse(result.stdout), { args: ['--account', 'Demo Driver', '$(id)'], asNode: '1' }, name);
				assert.deepEqual(fs.readdirSync(dir).filter((f) => f === 'pwned'), []);
				assert.equal(fs.existsSync(path.join(process.cwd(), 'pwned')), false);
			} finally {
				fs.rmSync(dir, { recursive: true, force: true });
			}
		}
	});
});

describe('telematics-token: the command against a real channel', function () {
	this.timeout(30_000);
	let channel: TokenChannel;
	let reply: Reply;
	const asked: TokenRequest[] = [];
	const env = () => ({ PATH: process.env.PATH, [CHANNEL_ENV]: channel.address, [NONCE_ENV]: channel.nonce });
	/** The user's private root for the channels (channelRoot.ts picks it in the extension). */
	let root: string;
	before(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'channels-'));
	});
	after(() => fs.rmSync(root, { recursive: true, force: true }));

	beforeEach(async () => {
		reply = { ok: true, ...ANSWER };
		asked.length = 0;
		channel = await openTokenChannel(async (request) => {
			asked.push(request);
			return reply;
		}, root);
		await channel.listen();
	});
	afterEach(() => channel.close());

	it('prints the live token, the header or JSON for the account asked', async () => {
		assert.deepEqual(await run(process.execPath, [CLIENT], env()), { code: 0, stdout: `${TOKEN}\n`, stderr: '' });
		assert.equal((await run(process.execPath, [CLIENT, '--header'], env())).stdout, `Authorization: Bearer ${TOKEN}\n`);
		const json = await run(process.execPath, [CLIENT, '--json', '--account', 'Second Driver'], env());
		assert.equal(JSON.parse(json.stdout).label, 'Demo Driver');
		assert.deepEqual(asked.map((r) => ({ ...r, pid: undefined })).map(({ account }) => (account === undefined ? {} : { account })), [{}, {}, { account: 'Second Driver' }]);
		assert.ok(asked.every((r) => Number.isSafeInteger(r.pid) && r.pid! > 0 && r.pid !== process.pid), 'each names its own process, for the window to ask the system about');
	});

	it('logged out: nothing on stdout, one line on stderr, exit 1', async () => {
		reply = { ok: false, error: 'No Telematics account is logged in.\nLog in.' };
		assert.deepEqual(await run(process.execPath, [CLIENT], env()), { code: 1, stdout: '', stderr: 'telematics-token: No Telematics account is logged in. Log in.\n' });
	});

	it('gives each window its own unguessable nonce, folder and pipe name (hex from the runtime\'s random UUIDs)', async () => {
		const names = async (platform: NodeJS.Platform) => {
			const opened = await openTokenChannel(async () => reply, root, platform);
			await opened.close();
			return opened;
		};
		const [a, b, pipe] = [await names('linux'), await names('linux'), await names('win32')];
		for (const c of [a, b, pipe]) assert.match(c.nonce, /^[0-9a-f]{64}$/);
		assert.match(path.basename(a.privateDir), /^[0-9a-f]{16}$/);
		assert.equal(path.dirname(a.privateDir), root);
		assert.match(pipe.address, /^\\\\\.\\pipe\\telematics-token-[0-9a-f]{32}$/);
		assert.equal(new Set([a.nonce, b.nonce, pipe.nonce]).size, 3);
		assert.notEqual(a.privateDir, b.privateDir);
		assert.ok(!a.nonce.includes(path.basename(a.privateDir)), 'the folder\'s name tells nothing of the nonce');
	});

	it('puts nothing on disk until it listens, and will not listen in a folder someone else made or linked there', async () => {
		await channel.close();
		channel = await openTokenChannel(async () => reply, root);
		assert.equal(fs.existsSync(channel.privateDir), false, 'no folder before the first terminal');
		const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'squatter-'));
		try {
			fs.symlinkSync(elsewhere, channel.privateDir);
			await assert.rejects(channel.listen(), { code: 'EEXIST' });
			assert.deepEqual(fs.readdirSync(elsewhere), [], 'no socket in the folder the link points to');
			const result = await run(process.execPath, [CLIENT], env());
			assert.equal(result.code, 3);
			assert.deepEqual(asked, []);
			await channel.close();
			assert.ok(fs.lstatSync(channel.privateDir).isSymbolicLink(), 'closing leaves alone what the window did not make');
		} finally {
			fs.rmSync(channel.privateDir, { force: true });
			fs.rmSync(elsewhere, { recursive: true, force: true });
		}
	});

	it('a wrong nonce gets nothing and the window is not asked', async () => {
		const result = await run(process.execPath, [CLIENT], { ...env(), [NONCE_ENV]: 'f'.repeat(64) });
		assert.equal(result.code, 1);
		assert.equal(result.stdout, '');
		assert.match(result.stderr, /does not belong to this VS Code window/);
		assert.deepEqual(asked, []);
	});

	it('lives in a directory only the user can enter, and is gone with the window: exit 3', async () => {
		if (process.platform !== 'win32') assert.equal(fs.statSync(channel.privateDir).mode & 0o777, 0o700);
		await channel.close();
		assert.equal(fs.existsSync(channel.privateDir), false);
		const gone = await run(process.execPath, [CLIENT], env());
		assert.deepEqual({ code: gone.code, stdout: gone.stdout }, { code: 3, stdout: '' });
		assert.match(gone.stderr, /window of this terminal is gone/);
		const outside = await run(process.execPath, [CLIENT], { PATH: process.env.PATH });
		assert.equal(outside.code, 3);
	});

	it('a wrong command line says so on stderr: exit 2', async () => {
		const result = await run(process.execPath, [CLIENT, '--json', '--header'], env());
		assert.deepEqual({ code: result.code, stdout: result.stdout }, { code: 2, stdout: '' });
		assert.deepEqual(asked, []);
	});
});

describe('telematics-token: who asks, as the kernel says (Linux)', function () {
	this.timeout(20_000);
	const linux = process.platform === 'linux' && ['/usr/bin/ss', '/bin/ss'].some((p) => fs.existsSync(p));

	it('reads a descriptor\'s socket inode, and nothing else', () => {
		assert.equal(socketInode('socket:[529446]'), 529446);
		for (const link of ['', 'pipe:[12]', 'socket:[]', 'socket:[12] ', '/tmp/socket:[12]', 'socket:[1234567890123456]']) assert.equal(socketInode(link), undefined, link);
	});

	it('finds our socket\'s peer in ss\'s listing by our path and inode, whatever the peer\'s bound name holds', () => {
		const ours = '/run/user/0/telematics-token/ab12/s';
		const listing = [
			'u_dgr UNCONN 0      0      /run/user/0/telematics-token/ab12/s 529446 * 1',
			'u_str LISTEN 0      511    /run/user/0/telematics-token/ab12/s 529440 * 0',
			'u_str ESTAB  0      0      * 529445 /run/user/0/telematics-token/ab12/s 529446',
			'u_str ESTAB  0      0      /run/user/0/telematics-token/ab12/s 529446 * 529445',
			'u_str ESTAB  0      0      /run/user/0/telematics-token/ab12/s 529450 /tmp/x 529446 * 77 529449',
			'u_str ESTAB  0      0      /tmp/evil /run/user/0/telematics-token/ab12/s 529446 * 1 * 999 ',
			'   u_str ESTAB  0      0      /run/user/0/telematics-token/ab12/s 529460 * 529459',
		].join('\n');
		assert.equal(peerInodeOf(listing, ours, 529446), 529445);
		assert.equal(peerInodeOf(listing, ours, 529450), 529449, 'a peer name with spaces and numbers: the last field');
		assert.equal(peerInodeOf(listing, ours, 529440), undefined, 'the listening socket has no peer');
		assert.equal(peerInodeOf(listing, ours, 1), undefined);
		assert.equal(peerInodeOf(listing, '/other/s', 529446), undefined);
		assert.equal(peerInodeOf(listing, ours, 529460), 529459, 'a line that starts with spaces');
		for (const peer of ['x', 'x12', '12x', '0', '1234567890123456']) assert.equal(peerInodeOf(`u_str ESTAB 0 0 /a/s 5 * ${peer}`, '/a/s', 5), undefined, peer);
		assert.equal(peerInodeOf('u_str ESTAB 0 0 /home/a  b/s 7 * 8', '/home/a  b/s', 7), 8, 'a path with spaces, as ss prints it');
		assert.equal(peerInodeOf('u_str ESTAB 0 0 /home/ab/s 7 * 8', '/home/a  b/s', 7), undefined);
	});

	it('names a process only when exactly one holds the peer\'s socket', () => {
		assert.equal(onlyHolder([4242]), 4242);
		assert.equal(onlyHolder([4242, 4242]), 4242);
		assert.equal(onlyHolder([]), undefined);
		assert.equal(onlyHolder([4242, 4243]), undefined);
	});

	it('learns the asking process from the kernel, not from the pid it writes: a real second process that lies', async function () {
		if (!linux) this.skip();
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peer-'));
		const address = path.join(dir, 's');
		let seen: Promise<number | undefined> | undefined;
		const server = net.createServer((socket) => {
			seen = peerProcessId(socket, address);
			void seen.finally(() => socket.end('ok\n'));
		});
		await new Promise<void>((resolve) => server.listen(address, resolve));
		try {
			// It writes the id of this test's process as its own, and waits for the answer.
			const liar = spawn(process.execPath, ['-e', `const c=require('node:net').connect(${JSON.stringify(address)});c.write(JSON.stringify({v:1,nonce:'x',pid:${process.pid}})+'\\n');c.on('data',()=>c.end());`], { stdio: 'ignore' });
			const exited = new Promise((resolve) => liar.on('exit', resolve));
			await exited;
			assert.ok(seen, 'the server saw the connection');
			assert.equal(await seen, liar.pid, 'the kernel names the liar');
			assert.equal(await peerProcessId(new net.Socket(), address), undefined, 'a socket with no descriptor: the system does not say');
			assert.equal(await peerProcessId(new net.Socket(), address, 'darwin'), undefined, 'another system: the system does not say');
		} finally {
			server.close();
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it('through the channel: the answer is given the kernel\'s word for the telematics-token process', async function () {
		if (!linux) this.skip();
		const root = fs.mkdtempSync(path.join(os.tmpdir(), 'channels-'));
		const peers: Array<number | undefined> = [];
		const channel = await openTokenChannel(async (_request, peer) => {
			peers.push(await peer());
			return { ok: true, ...ANSWER };
		}, root);
		try {
			await channel.listen();
			const child = spawn(process.execPath, [CLIENT], { env: { PATH: process.env.PATH, [CHANNEL_ENV]: channel.address, [NONCE_ENV]: channel.nonce }, stdio: 'ignore' });
			await new Promise((resolve) => child.on('exit', resolve));
			assert.deepEqual(peers, [child.pid]);
		} finally {
			await channel.close();
			fs.rmSync(root, { recursive: true, force: true });
		}
	});
});

describe('telematics-token: the request and reply lines, field by field', () => {
	const nonce = 'n';
	const parse = (value: unknown) => parseRequest(JSON.stringify(value), (n) => n === nonce);
	it('a pid that is a positive safe integer is kept; any other is refused as not a request', () => {
		assert.deepEqual(parse({ v: 1, nonce, pid: 4242 }), { ok: true, request: { pid: 4242 } });
		for (const pid of [0, -1, 1.5, '42', 2 ** 60, null]) assert.deepEqual(parse({ v: 1, nonce, pid }), { ok: false, error: 'not a request' }, String(pid));
	});
	it('a reply whose token is outside the token grammar is a refusal, never printed', () => {
		const reply = parseReply(JSON.stringify({ ok: true, token: 'eyJa.eyJb.c d', expiresAt: 1, label: 'x', serviceUrl: 'https://s' }));
		assert.equal(reply.ok, false);
	});
});
