// Asking the window over its private channel, as both terminal commands do (`telematics-token` and
// `telematics-mcp`, each its own process): one line out, the first line of the answer back.
import { connect } from 'node:net';

export interface AskOptions {
	/** The longest answer read; a longer one fails. */
	maxBytes: number;
	/** A question left unanswered this long counts as no answer (the window may be asking the person). */
	timeoutMs: number;
	/** Called once when the window has not answered after `slowMs` (it is asking the person). */
	onSlow?: () => void;
	slowMs?: number;
}

/** Sends `line` to the channel at `address`; the answer's first line. Fails when the window is gone, silent or too long. */
export function askWindow(address: string, line: string, options: AskOptions): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = connect(address);
		let received = '';
		const notice = options.onSlow ? setTimeout(options.onSlow, options.slowMs ?? 1_500) : undefined;
		socket.on('close', () => clearTimeout(notice));
		socket.setTimeout(options.timeoutMs, () => {
			socket.destroy();
			reject(new Error('The VS Code window did not answer in time.'));
		});
		socket.on('connect', () => socket.write(line));
		socket.on('data', (chunk: Buffer) => {
			received += chunk.toString('utf8');
			if (Buffer.byteLength(received) > options.maxBytes) socket.destroy(new Error('The answer is too long.'));
		});
		socket.on('end', () => resolve(received.split('\n')[0] ?? ''));
		socket.on('error', reject);
	});
}
