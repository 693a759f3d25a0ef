// `telematics-token`, the command in the integrated terminals (dist/tokenClient.js, run on VS Code's own
// runtime by a per-window script): asks its window over the private channel and prints the live token.
import { askWindow } from './channelClient';
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

async function ask(address: string, line: string): Promise<Reply> {
	const answer = await askWindow(address, line, {
		maxBytes: MAX_LINE_BYTES,
		timeoutMs: ANSWER_TIMEOUT_MS,
		slowMs: WAITING_NOTICE_MS,
		onSlow: () => process.stderr.write(`${process.env.TELEMATICS_TOKEN_NAME ?? 'telematics-token'}: waiting for VS Code: allow or deny this terminal there.\n`),
	});
	return parseReply(answer);
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
