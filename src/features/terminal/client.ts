// `telematics-token`, the command in the integrated terminals (dist/tokenClient.js, run on VS Code's own
// runtime by a per-window script): asks its window over the private channel and prints the live token.
import { connect } from 'node:net';
import { CHANNEL_ENV, formatAnswer, MAX_LINE_BYTES, NONCE_ENV, oneLine, parseArgs, parseReply, requestLine, USAGE, type Reply } from '../../core/terminal/protocol';

/** Exit codes: 0 printed; 1 no token (logged out, refused); 2 a wrong command line; 3 no window to ask. */
function fail(code: number, message: string): never {
	process.stderr.write(`${process.env.TELEMATICS_TOKEN_NAME ?? 'telematics-token'}: ${oneLine(message)}\n`);
	process.exit(code);
}

/** The window may be asking the person (telematicsAuth.terminalToken: "ask"): said on stderr after this long. */
const WAITING_NOTICE_MS = 1_500;
/** A question left unanswered this long counts as no answer. */
const ANSWER_TIMEOUT_MS = 120_000;

function ask(address: string, line: string): Promise<Reply> {
	return new Promise((resolve, reject) => {
		const socket = connect(address);
		let received = '';
		const notice = setTimeout(() => process.stderr.write(`${process.env.TELEMATICS_TOKEN_NAME ?? 'telematics-token'}: waiting for VS Code: allow or deny this terminal there.\n`), WAITING_NOTICE_MS);
		socket.on('close', () => clearTimeout(notice));
		socket.setTimeout(ANSWER_TIMEOUT_MS, () => {
			socket.destroy();
			reject(new Error('The VS Code window did not answer in time.'));
		});
		socket.on('connect', () => socket.write(line));
		socket.on('data', (chunk: Buffer) => {
			received += chunk.toString('utf8');
			if (Buffer.byteLength(received) > MAX_LINE_BYTES) socket.destroy(new Error('The answer is too long.'));
		});
		socket.on('end', () => resolve(parseReply(received.split('\n')[0] ?? '')));
		socket.on('error', reject);
	});
}

async function main(): Promise<void> {
	const parsed = parseArgs(process.argv.slice(2));
	if (!parsed.ok) {
		if (parsed.help) {
			process.stdout.write(`${USAGE}\n`);
			return;
		}
		fail(2, `${parsed.error ?? 'Wrong arguments.'} See --help.`);
	}
	const address = process.env[CHANNEL_ENV];
	const nonce = process.env[NONCE_ENV];
	if (!address || !nonce) fail(3, 'Not in a terminal of a VS Code window with Telematics Auth (its channel is not set).');
	let reply: Reply;
	try {
		reply = await ask(address, requestLine(nonce, parsed.args.account, process.pid));
	} catch {
		fail(3, 'The VS Code window of this terminal is gone or Telematics Auth is off there. Open a new terminal in a window with Telematics Auth.');
	}
	if (!reply.ok) fail(1, reply.error);
	process.stdout.write(formatAnswer(reply, parsed.args.mode));
}

void main();
