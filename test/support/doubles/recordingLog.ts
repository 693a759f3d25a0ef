// A Log that keeps every line as `<level> <message>`, for tests that read what was logged
// (and check it holds no secret).
import type { Log } from '../../../src/core/util/log';

export class RecordingLog implements Log {
	readonly lines: string[] = [];
	trace(m: string): void { this.lines.push(`trace ${m}`); }
	debug(m: string): void { this.lines.push(`debug ${m}`); }
	info(m: string): void { this.lines.push(`info ${m}`); }
	warn(m: string): void { this.lines.push(`warn ${m}`); }
	error(m: string): void { this.lines.push(`error ${m}`); }
}
