// The logging surface the pure core writes to. VS Code's LogOutputChannel satisfies it;
// tests pass a recorder. Callers hand over redacted text only (see util/redact.ts).

export interface Log {
	trace(message: string): void;
	debug(message: string): void;
	info(message: string): void;
	warn(message: string): void;
	error(message: string): void;
	/**
	 * The lowest level shown, numbered as VS Code's LogLevel (0 off, 1 trace, 2 debug, 3 info, 4 warning,
	 * 5 error); a LogOutputChannel follows the user's choice. Absent: every line is shown.
	 */
	readonly logLevel?: number;
}

export const silentLog: Log = {
	trace() { /* silent */ },
	debug() { /* silent */ },
	info() { /* silent */ },
	warn() { /* silent */ },
	error() { /* silent */ },
};
