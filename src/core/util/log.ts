// The logging surface the pure core writes to. VS Code's LogOutputChannel satisfies it;
// tests pass a recorder. Callers hand over redacted text only (see util/redact.ts).

export interface Log {
	trace(message: string): void;
	debug(message: string): void;
	info(message: string): void;
	warn(message: string): void;
	error(message: string): void;
}

export const silentLog: Log = {
	trace() { /* silent */ },
	debug() { /* silent */ },
	info() { /* silent */ },
	warn() { /* silent */ },
	error() { /* silent */ },
};
