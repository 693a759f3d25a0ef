// Reads a REST file (.http/.rest, as REST Client and httpYac write them) into requests: where each request line,
// its headers and its file variables are; a method line where a body would start begins a request, as in httpYac.

export interface Line {
	/** Offset of the first character. */
	start: number;
	/** Offset just past the last character, before the line ending. */
	end: number;
	/** Length of the line ending after it: 0 (last line), 1 (LF or CR) or 2 (CRLF). */
	eolLength: number;
	text: string;
}

export interface Header {
	line: number;
	name: string;
	value: string;
	/** Leading whitespace of the header line. */
	indent: string;
}

export interface FileVariable {
	line: number;
	name: string;
	value: string;
	/** Offset where the value starts (after `=` and spaces). */
	valueStart: number;
	/** Offset where the value ends (end of line). */
	valueEnd: number;
}

export interface ParsedRequest {
	/** First line of the request's block (its `###` line, or 0 for the first block). */
	blockStart: number;
	/** Last line of the block. */
	blockEnd: number;
	requestLine: number;
	/** Last line of the URL: the request line or its last `?`/`&` continuation line. */
	urlEndLine: number;
	headers: Header[];
}

export interface ParsedFile {
	lines: Line[];
	/** The file's dominant line ending; LF when it has none. */
	eol: '\n' | '\r\n';
	requests: ParsedRequest[];
	/** File variables outside requests (`@name = value` before a block's request line). */
	variables: FileVariable[];
	/** Blocks as [firstLine, lastLine], separated by `###` lines. */
	blocks: Array<[number, number]>;
}

/** A region separator as httpYac reads it (utils/parserUtils.ts, RegionSeparator): `###` or more, after any whitespace, with an optional title. */
export const SEPARATOR = /^\s*#{3,}/;
const COMMENT = /^\s*(#|\/\/)/;
const BLANK = /^\s*$/;
const VARIABLE = /^\s*@([A-Za-z_][\w.-]*)\s*=\s*/;
/** A query line continuing the target: `?…` or `&…`, not httpYac's `?? assertion`. */
const CONTINUATION = /^\s*(\?(?!\?)|&)/;
/** httpYac's header spread, `...defaultHeaders`: part of the header section, not a header. */
const SPREAD = /^\s*\.\.\.[A-Za-z_$][\w$.]*\s*$/;
/** Indented lines right after the request line continue its target (JetBrains), unless they are headers. */
const INDENTED = /^[ \t]+\S/;
/**
 * What may start a request line: a method (HTTP, WebDAV, and the protocols httpYac and
 * kulala speak) followed by a space, or a URL on its own (REST Client's `GET` default).
 */
const METHOD_LINE = /^\s*(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|CONNECT|PROPFIND|PROPPATCH|MKCOL|COPY|MOVE|LOCK|UNLOCK|SEARCH|REPORT|GRAPHQL|GRPC|WS|WSS|WEBSOCKET|SSE|MQTT|AMQP|RABBITMQ)[ \t]+\S/i;
// The version is one `\s+` away from the target: `\s*(HTTP…)?\s*$` split a run of spaces two ways at each
// length, so a host line padded with 200 KB of spaces held the extension host for minutes.
const URL_LINE = /^\s*((https?|wss?|grpcs?):\/\/\S|\{\{[^{}\s]+\}\}\S*(\/|\?|:\d)|(localhost|[\w-]+(\.[\w-]+)+)(:\d+)?(\/\S*)?(\s+HTTP\/[\d.]+)?\s*$|\/\S)/i;
/** One-line directives before a request: `@xpath_ns …` and other `@` lines, kulala's `import`/`run`, httpYac's `proto <`. */
const DIRECTIVE = /^\s*(@\S|import\s|run\s|proto\s*<)/;
/** A pre-request script file: `< ./script.js` (before the request line only; after it, a body file). */
const SCRIPT_FILE = /^\s*<\s+\S/;
/** A header line: a token name (RFC 9110 tchar), a colon, a value. */
const HEADER = /^(\s*)([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s?(.*)$/;

export function splitLines(text: string): Line[] {
	const parts = text.split(/(\r\n|\r|\n)/);
	const lines: Line[] = new Array((parts.length + 1) >> 1);
	let start = 0;
	for (let i = 0; i < parts.length; i += 2) {
		const lineText = parts[i]!;
		const end = start + lineText.length;
		const eolLength = i + 1 < parts.length ? parts[i + 1]!.length : 0;
		lines[i >> 1] = { start, end, eolLength, text: lineText };
		start = end + eolLength;
	}
	return lines;
}

/** CRLF when most line endings are CRLF, LF otherwise. */
export function detectEol(text: string): '\n' | '\r\n' {
	return eolOf(splitLines(text));
}

function eolOf(lines: readonly Line[]): '\n' | '\r\n' {
	let crlf = 0;
	let other = 0;
	for (const line of lines) {
		if (line.eolLength === 2) crlf++;
		else if (line.eolLength === 1) other++;
	}
	return crlf > other ? '\r\n' : '\n';
}

export function isComment(text: string): boolean {
	return COMMENT.test(text);
}

function parseVariable(line: Line, index: number): FileVariable | undefined {
	const match = VARIABLE.exec(line.text);
	if (!match) return undefined;
	const valueStart = line.start + match[0].length;
	return { line: index, name: match[1]!, value: line.text.slice(match[0].length).trimEnd(), valueStart, valueEnd: line.start + line.text.trimEnd().length };
}

/** Lines, line ending and `###` blocks: the cheap part of parsing. */
export interface Layout {
	lines: Line[];
	eol: '\n' | '\r\n';
	blocks: Array<[number, number]>;
}

export function parseLayout(text: string): Layout {
	const lines = splitLines(text);
	const blocks: Array<[number, number]> = [];
	let blockStart = 0;
	for (let i = 1; i < lines.length; i++) {
		if (SEPARATOR.test(lines[i]!.text)) {
			blocks.push(...splitAtRequestLines(lines, [blockStart, i - 1]));
			blockStart = i;
		}
	}
	blocks.push(...splitAtRequestLines(lines, [blockStart, lines.length - 1]));
	return { lines, eol: eolOf(lines), blocks };
}

/**
 * A `###` block cut where httpYac starts another request: at a method line after a blank line,
 * once the block already holds a request (where REST Client would read a body). A body that is
 * itself a request line is never what the author meant, so this costs REST Client users nothing;
 * text after a blank line that is not a method line stays the body, as both read it.
 */
function splitAtRequestLines(lines: readonly Line[], [first, last]: [number, number]): Array<[number, number]> {
	const out: Array<[number, number]> = [];
	let start = first;
	// The part from `start` is read once, to the block's end; what a cut at line j would see is derived
	// from it (reading [start, j - 1] again for each method line made a file of one unclosed `/*` and
	// many method lines quadratic: 240 KB took 6.6 s).
	let part = readPart(lines, start, last);
	for (let j = first + 1; j <= last; j++) {
		if (!METHOD_LINE.test(lines[j]!.text)) continue;
		const { request, headersEnd, multipart } = part;
		if (!request || request.requestLine > j - 1) continue;
		// A multipart body (an OData batch) holds request lines of its own: httpYac leaves it whole.
		if (multipart && request.urlEndLine < j - 1) continue;
		// After a blank line where a body would start, or right where the header section ends (a
		// method line inside the target's continuation ends the target there).
		const end = request.urlEndLine >= j - 1 ? j - 1 : headersEnd;
		if (!(BLANK.test(lines[j - 1]!.text) && request.requestLine < j - 1) && end !== j - 1) continue;
		out.push([start, j - 1]);
		start = j;
		part = readPart(lines, start, last);
	}
	out.push([start, last]);
	return out;
}

/** The request of the lines from `start` to `last`, where its header section ends, and whether its body is multipart. */
function readPart(lines: readonly Line[], start: number, last: number): { request?: ParsedRequest; headersEnd: number; multipart: boolean } {
	const { request } = parseBlock(lines, [start, last]);
	if (!request) return { headersEnd: -1, multipart: false };
	let headersEnd = request.urlEndLine;
	for (const line of [...request.headers.map((h) => h.line), ...spreadLines(lines, request, last)]) if (line > headersEnd) headersEnd = line;
	const multipart = request.headers.some((h) => h.name.toLowerCase() === 'content-type' && /^multipart\//i.test(h.value));
	return { request, headersEnd, multipart };
}

/** Whether `text` can be a request line: it starts with a method or looks like a URL. */
export function isRequestLine(text: string): boolean {
	return METHOD_LINE.test(text) || URL_LINE.test(text);
}

/**
 * The last line of a multi-line part that opens on line `i` and is not a request: a
 * pre-request script `< {% … %}`, an httpYac script `{{ … }}`, a comment `/* … *\/`, a GraphQL
 * `fragment … { … }`. Undefined when line `i` opens none of them.
 */
function skipPart(lines: readonly Line[], i: number, last: number): number | undefined {
	const text = lines[i]!.text;
	const until = (done: (t: string) => boolean, from = i): number => {
		for (let j = from; j <= last; j++) if (done(lines[j]!.text)) return j;
		return last;
	};
	const trimmed = text.trim();
	if (/^<\s*\{%/.test(trimmed)) return until((t) => t.includes('%}'));
	if (trimmed.startsWith('/*')) return until((t) => t.includes('*/'));
	if (/^\{\{/.test(trimmed) && !URL_LINE.test(text)) {
		// `{{ code }}` on one line, or `{{` … `}}` over several.
		if (/\}\}\s*$/.test(trimmed) && trimmed.length > 2) return i;
		return until((t) => /^\s*\}\}/.test(t), i + 1);
	}
	if (/^fragment\s/i.test(trimmed)) return until((t) => BLANK.test(t));
	return undefined;
}

/** Comment and `...spread` lines of a request's header section (they are not headers). */
function spreadLines(lines: readonly Line[], request: ParsedRequest, last: number): number[] {
	const found: number[] = [];
	for (let h = request.urlEndLine + 1; h <= last; h++) {
		const text = lines[h]!.text;
		if (BLANK.test(text)) break;
		if (COMMENT.test(text) || SPREAD.test(text)) found.push(h);
		else if (!HEADER.test(text)) break;
	}
	return found;
}

/** One block's request (if it has one) and the file variables before its request line. */
export function parseBlock(lines: readonly Line[], [first, last]: [number, number]): { request?: ParsedRequest; variables: FileVariable[] } {
	const variables: FileVariable[] = [];
	let requestLine = -1;
	for (let i = first; i <= last; i++) {
		const line = lines[i]!;
		if (i === first && SEPARATOR.test(line.text)) continue;
		if (BLANK.test(line.text) || COMMENT.test(line.text)) continue;
		const skipped = skipPart(lines, i, last);
		if (skipped !== undefined) {
			i = skipped;
			continue;
		}
		const variable = parseVariable(line, i);
		if (variable) {
			variables.push(variable);
			continue;
		}
		if (DIRECTIVE.test(line.text) || SCRIPT_FILE.test(line.text)) continue;
		if (!isRequestLine(line.text)) break; // not a request: this block has none we can edit
		requestLine = i;
		break;
	}
	if (requestLine < 0) return { variables };
	let urlEndLine = requestLine;
	for (let j = requestLine + 1; j <= last; j++) {
		const text = lines[j]!.text;
		if (CONTINUATION.test(text) || (INDENTED.test(text) && !HEADER.test(text))) urlEndLine = j;
		else break;
	}
	const headers: Header[] = [];
	for (let h = urlEndLine + 1; h <= last; h++) {
		const lineText = lines[h]!.text;
		if (BLANK.test(lineText)) break;
		if (COMMENT.test(lineText) || SPREAD.test(lineText)) continue;
		const match = HEADER.exec(lineText);
		if (!match) break;
		headers.push({ line: h, indent: match[1]!, name: match[2]!, value: match[3]!.trim() });
	}
	return { request: { blockStart: first, blockEnd: last, requestLine, urlEndLine, headers }, variables };
}

export function parseRestFile(text: string): ParsedFile {
	return parseBlocks(parseLayout(text));
}

/** Every block of a layout. */
export function parseBlocks(layout: Layout): ParsedFile {
	const requests: ParsedRequest[] = [];
	const variables: FileVariable[] = [];
	for (const block of layout.blocks) {
		const parsed = parseBlock(layout.lines, block);
		variables.push(...parsed.variables);
		if (parsed.request) requests.push(parsed.request);
	}
	return { ...layout, requests, variables };
}

/** The index of the block holding `line`. */
export function blockAt(blocks: ReadonlyArray<[number, number]>, line: number): number {
	let low = 0;
	let high = blocks.length - 1;
	while (low < high) {
		const mid = (low + high + 1) >> 1;
		if (blocks[mid]![0] <= line) low = mid;
		else high = mid - 1;
	}
	return low;
}

/** The line holding `offset` (an offset at a line's end belongs to that line). */
export function lineAt(lines: readonly Line[], offset: number): number {
	let low = 0;
	let high = lines.length - 1;
	while (low < high) {
		const mid = (low + high + 1) >> 1;
		if (lines[mid]!.start <= offset) low = mid;
		else high = mid - 1;
	}
	return low;
}

/** The request whose block holds `offset`, if that block has a request. A `###` line belongs to the request below it. */
export function requestAt(file: ParsedFile, offset: number): ParsedRequest | undefined {
	const line = lineAt(file.lines, offset);
	// The last request starting at or before the line (requests are in file order).
	let low = 0;
	let high = file.requests.length - 1;
	while (low < high) {
		const mid = (low + high + 1) >> 1;
		if (file.requests[mid]!.blockStart <= line) low = mid;
		else high = mid - 1;
	}
	const request = file.requests[low];
	return request && request.blockStart <= line && line <= request.blockEnd ? request : undefined;
}

/** The distinct requests holding the given offsets (cursors), in the order of the first cursor in each. */
export function requestsAt(file: ParsedFile, offsets: readonly number[]): ParsedRequest[] {
	return [...new Set(offsets.map((o) => requestAt(file, o)).filter((r) => r !== undefined))];
}

/** The header on `line`, if `line` is a request's header line. */
export function headerOnLine(file: ParsedFile, line: number): Header | undefined {
	return requestAt(file, file.lines[line]?.start ?? -1)?.headers.find((h) => h.line === line);
}
