// New Request: the text of a complete request for one of the platform's operations, and where it goes in
// a REST file. Pure: no I/O, no `vscode`.
//
// What both clients send, as checked with httpYac and REST Client:
// - path parameters are written as values (the description's example, else a zero GUID: the platform's
//   ids are GUIDs): a `{{name}}` no file defines is an error in httpYac, and a file variable is file-wide
//   in REST Client, so two requests would share it;
// - required query parameters go on the request line with their example values, encoded;
// - the instance's `InstanceId` and `InstanceKey` (operations with no token) are `{{InstanceId}}` and
//   `{{InstanceKey}}`: the key is a secret, so its value is the user's to define in an env file.
import { bearerValue, type AuthValue } from './authHeaderEdit';
import { planFileVariable, DEFAULT_TOKEN_VARIABLE } from './fileVariable';
import { lineAt, parseRestFile, requestAt, SEPARATOR, type ParsedFile, type ParsedRequest } from './requestParser';
import { applyEdits, sortEdits, type TextEdit } from './textEdit';
import type { Operation, Parameter } from '../platform/operations';
import type { OperationLookup } from './wrongIdentity';

/** What stands for a value the description gives no example of, by the platform's habit (ids are GUIDs). */
const ZERO_GUID = '00000000-0000-0000-0000-000000000000';

/** The headers an operation without a token is signed with: always references, never values. */
const INSTANCE_HEADERS: ReadonlySet<string> = new Set(['InstanceId', 'InstanceKey']);

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A parameter's value in a skeleton: its example, else a neutral value of its type. */
export function exampleValue(parameter: Parameter): Json {
	if (parameter.example !== undefined) return Array.isArray(parameter.example) ? [...parameter.example] : parameter.example as Json;
	switch (parameter.type) {
		case 'integer': return 0;
		case 'boolean': return false;
		case 'array': return [];
		case 'object': return {};
		case 'date': return '2026-01-01';
		case 'date-time': return '2026-01-01T00:00:00Z';
		default: return ZERO_GUID;
	}
}

/** The JSON body of every required body field; a dotted name nests (`Identifiers.UserId` → `{"Identifiers": {"UserId": …}}`). */
export function bodySkeleton(op: Operation): Record<string, Json> {
	const body: Record<string, Json> = {};
	for (const parameter of op.parameters) {
		if (parameter.in !== 'body' || !parameter.required) continue;
		const parts = parameter.name.split('.');
		let at: Record<string, Json> = body;
		for (const part of parts.slice(0, -1)) {
			const next = at[part];
			at = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : (at[part] = {});
		}
		at[parts.at(-1)!] = exampleValue(parameter);
	}
	return body;
}

/** `trips.admin.list` → `trips_admin_list`, unique among `taken` (`_2`, `_3`, …): REST Client's names are word characters. */
export function requestName(op: Operation, taken: ReadonlySet<string>): string {
	const base = op.id.replace(/[^A-Za-z0-9_]/g, '_');
	let name = base;
	for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
	return name;
}

/** The request whose block holds `# @name <name>` before its request line. */
export function namedRequest(file: ParsedFile, name: string): ParsedRequest | undefined {
	return file.requests.find((r) => file.lines.slice(r.blockStart, r.requestLine).some((l) => l.text.trim() === `# @name ${name}`));
}

/** The `# @name` values a file already has. */
export function requestNames(file: Pick<ParsedFile, 'lines'>): Set<string> {
	const names = new Set<string>();
	for (const { text } of file.lines) {
		const match = /^\s*(?:#|\/\/)\s*@name\s+(\S+)/.exec(text);
		if (match) names.add(match[1]!);
	}
	return names;
}

export interface NewRequestOptions {
	/** The origin of the operation's host for the account (`https://api.telematicssdk.com`). */
	origin: string;
	/** The Authorization value; absent for an operation that needs no token. Checked where it leaves (bearerValue). */
	auth?: AuthValue;
	/** The `# @name` it gets. */
	name: string;
	/** Whether the account is production (production.ts): its changing requests get a `# @note`. */
	production?: boolean;
	/** The platform's operations by method, host and path: the note is computed from the URL as written. */
	operationFor?: OperationLookup;
}

/**
 * The `# @note` a request gets, or undefined: REST Client and httpYac both ask the person before they send
 * a request that has one. Every operation that cannot be undone gets it, and every changing operation of a
 * production account. One line, no line breaks. `account`: the production account's label, to name it
 * (Insert knows whose token the request sends).
 */
export function requestNote(op: Operation, production: boolean, account?: string): string | undefined {
	if (op.irreversible) return `${op.irreversible}: this cannot be undone${production ? ` (production account${account === undefined ? '' : ` ${account}`})` : ''}.`;
	if (op.changesData && production) return account === undefined ? `${op.summary}, on a production account.` : `${op.summary}: this changes data on production account ${account}.`;
	return undefined;
}

/** What a note line may hold: letters, digits, spaces and plain punctuation (no `{{`, which a client would fill in, no line break). */
const NOTE_CHARACTER = /[^\p{L}\p{N} .,:;@'()/+_-]/gu;
/** How much of a note is kept. */
const MAX_NOTE = 200;

/** `# @note <text>`, checked where it leaves for the file: characters outside the allow-list become spaces, one line, at most MAX_NOTE. */
export function noteLine(text: string): string {
	return `# @note ${text.replace(NOTE_CHARACTER, ' ').replace(/ {2,}/g, ' ').trim().slice(0, MAX_NOTE)}`;
}

/**
 * A path parameter's value as written: its example when that is one whole segment, else the neutral value of
 * its type. Never empty, `.`, `..` or with a `/` or `\\`: a value filled into a path adds or removes no
 * segment (`/tags/..` is sent as the request one level up).
 */
export function pathValue(parameter: Parameter): string {
	const value = String(exampleValue(parameter));
	return value === '' || value === '.' || value === '..' || /[/\\]/.test(value) ? String(exampleValue({ ...parameter, example: undefined })) : value;
}

/** The request's lines (no line endings): a comment, `# @name`, the request line, headers, a body. */
export function requestLines(op: Operation, options: NewRequestOptions): string[] {
	let path = op.path;
	for (const parameter of op.parameters.filter((p) => p.in === 'path')) {
		path = path.replace(`{${parameter.name}}`, encodeURIComponent(pathValue(parameter)));
	}
	// The note is the one of the operation the URL as written reaches (as Insert's is), else the operation's own.
	const written = options.operationFor?.(op.method, op.host, new URL(`${options.origin}${path}`).pathname);
	const query = op.parameters.filter((p) => p.in === 'query' && p.required)
		.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(exampleValue(p)))}`);
	const needs = op.token === 'none' ? 'no token: the instance\'s InstanceId and InstanceKey' : op.token === 'unknown' ? 'a token of a kind its OpenAPI document cannot say' : `an ${op.token === 'admin' ? 'admin' : 'user'} token`;
	const lines = [
		`# ${op.summary} (needs ${needs}${op.irreversible ? '; cannot be undone' : ''})`,
		`# @name ${options.name}`,
		...((note) => note ? [`# @note ${note}`] : [])(requestNote(written ?? op, options.production === true) ?? requestNote(op, options.production === true)),
		`${op.method} ${options.origin}${path}${query.length ? `?${query.join('&')}` : ''}`,
	];
	if (op.token !== 'none' && options.auth) lines.push(`Authorization: Bearer ${bearerValue(options.auth)}`);
	for (const parameter of op.parameters.filter((p) => p.in === 'header')) {
		if (INSTANCE_HEADERS.has(parameter.name)) lines.push(`${parameter.name}: {{${parameter.name}}}`);
		else if (parameter.required) lines.push(`${parameter.name}: ${String(exampleValue(parameter))}`);
	}
	if (op.contentType) {
		lines.push(`Content-Type: ${op.contentType}`, '', ...JSON.stringify(bodySkeleton(op), null, 2).split('\n'));
	}
	return lines;
}

const BLANK = /^\s*$/;

/**
 * Where a new request goes for a cursor at `offset`: on the cursor's line when it is blank and not inside a
 * request (after its request line), else after the block that holds the cursor, so no request is split.
 * Returns the line it goes before (the line count: the end of the file).
 */
export function insertionLine(file: ParsedFile, offset: number): number {
	const line = lineAt(file.lines, offset);
	const request = requestAt(file, file.lines[line]!.start);
	if (BLANK.test(file.lines[line]!.text) && !(request && line > request.requestLine)) return line;
	const block = file.blocks.find(([first, last]) => first <= line && line <= last)!;
	return block[1] + 1;
}

/**
 * The edit that puts `lines` (a request) at `line`: with a `###` line before it unless only blank lines
 * or a `###` line precede it, and a `###` line after it when anything but a `###` line follows, so it
 * stays one request in REST Client and httpYac and its neighbours stay whole. The file's line ending.
 */
export function insertRequest(file: ParsedFile, line: number, lines: readonly string[]): TextEdit {
	const { eol } = file;
	const before = file.lines.slice(0, line).map((l) => l.text).filter((t) => !BLANK.test(t));
	const after = file.lines.slice(line).map((l) => l.text).filter((t) => !BLANK.test(t));
	const leading = before.length > 0 && !SEPARATOR.test(before.at(-1)!);
	const trailing = after.length > 0 && !SEPARATOR.test(after[0]!);
	const parts = [...(leading ? ['###'] : []), ...lines, ...(after.length > 0 ? [''] : []), ...(trailing ? ['###'] : [])];
	if (line >= file.lines.length) {
		// After the last line: behind its text, with a line ending first when it has none.
		const last = file.lines.at(-1)!;
		return { start: last.end, end: last.end, newText: (last.text === '' ? '' : eol) + parts.join(eol) + eol };
	}
	const start = file.lines[line]!.start;
	return { start, end: start, newText: parts.join(eol) + eol };
}

/**
 * The edits New Request makes in `text` for a cursor at `offset`: the request, and with the `variable`
 * style the file's `@telematicsToken` line as Insert keeps it (planned on the text with the request in
 * it, then told in the original text's offsets, so it is one edit and one undo step).
 */
export function planNewRequest(text: string, offset: number, op: Operation, options: Omit<NewRequestOptions, 'name'>): { edits: TextEdit[]; name: string } {
	const file = parseRestFile(text);
	const name = requestName(op, requestNames(file));
	const lines = requestLines(op, { ...options, name });
	// A blank line may lie inside a part that is no request (a `/* … */` comment, a `< {% … %}` script): the
	// request goes where it is read as one request more, at the cursor, else after its block, else at the end.
	const line = insertionLine(file, offset);
	const block = file.blocks.find(([first, last]) => first <= line && line <= last);
	const insert = [line, ...(block ? [block[1] + 1] : []), file.lines.length]
		.map((at) => insertRequest(file, at, lines))
		.find((edit) => {
			const after = parseRestFile(applyEdits(text, [edit]));
			return after.requests.length === file.requests.length + 1 && namedRequest(after, name) !== undefined;
		}) ?? insertRequest(file, file.lines.length, lines);
	if (options.auth?.style !== 'variable' || op.token === 'none') return { edits: [insert], name };
	const withRequest = applyEdits(text, [insert]);
	const variable = planFileVariable(parseRestFile(withRequest), options.auth.variableName ?? DEFAULT_TOKEN_VARIABLE, options.auth.token);
	return { edits: composeAfterInsert(insert, variable), name };
}

/**
 * Edits made on the text after `insert` (an insertion), told as edits on the text before it: those
 * inside or touching the inserted text change it; the others move by its length.
 */
export function composeAfterInsert(insert: TextEdit, later: readonly TextEdit[]): TextEdit[] {
	const at = insert.start;
	const end = at + insert.newText.length;
	let inserted = insert.newText;
	const outside: TextEdit[] = [];
	// Right to left, so each edit inside the inserted text keeps its offsets.
	for (const edit of sortEdits([...later]).reverse()) {
		if (edit.end < at || (edit.end === at && edit.start < at)) outside.push(edit);
		else if (edit.start > end || (edit.start === end && edit.end > end)) outside.push({ ...edit, start: edit.start - insert.newText.length, end: edit.end - insert.newText.length });
		else if (edit.start >= at && edit.end <= end) inserted = inserted.slice(0, edit.start - at) + edit.newText + inserted.slice(edit.end - at);
		else throw new Error('An edit crosses the new request: nothing was inserted.');
	}
	return sortEdits([...outside, { start: at, end: at, newText: inserted }]);
}
