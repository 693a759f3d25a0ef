// The allow-list of the host check: what a REST file may hold for the check to read where its requests go
// completely. Anything else that could change the destination, the proxy or the certificate check (a
// script, an import, a proxy, a metadata key not known to be harmless, a definition a client reads
// another way, an expression) makes the whole file "not say": a script in one request can rewrite
// another's target, so no request of such a file is taken as going to the service. SECURITY.md holds the
// table. Pure: no `vscode`.
import { SEPARATOR, type ParsedFile } from './requestParser';

/**
 * Metadata that changes neither where a request goes nor how (names, notes, logging, timing, cookies,
 * redirects refused), as httpYac, REST Client and JetBrains write it; compared without `-`/`_` and case.
 * `ref`/`forceRef` run another request of the same file first, which the check reads as one of its own.
 */
const HARMLESS_METADATA = new Set([
	'name', 'title', 'description', 'note', 'ref', 'forceref', 'nolog', 'nocookiejar', 'noredirect', 'noautoencoding',
	'timeout', 'connectiontimeout', 'sleep', 'verbose', 'debug', 'save', 'openwith', 'extension', 'keepstreaming',
	'noresponseview', 'nostreaminglog', 'ratelimit', 'jwt', 'httpversion', 'deprecated', 'tag', 'tags',
]);

/** A metadata comment: `# @key value`, `#@key`, `// @key=value`. */
const METADATA = /^\s*(?:#+|\/\/+)\s*@([^\s=]*)\s*=?\s*(.*)$/;
const COMMENT = /^\s*(#|\/\/)/;
const BLANK = /^\s*$/;
/** A definition every client reads alike: `@name = value`, the value not opening with a quote or another `=`. */
const DEFINITION = /^\s*@([A-Za-z_][\w.-]*)\s*=(?!=)(?!\s*["'])/;
/** A separator with a title (`### setup`, `  ### setup`; not `####` alone), which names its region in httpYac. */
const TITLED_SEPARATOR = /^\s*#{3,}(?!#)\s*\S/;
/** `@name =` with nothing after it: httpYac defines nothing (its definitions want a value). */
const EMPTY_DEFINITION = /^\s*@[^\s=]+\s*=\s*$/;
/**
 * Names a client reads as a request option (httpYac: `request_proxy`, `request_rejectUnauthorized`…) or
 * shares across files (`global.`), wherever they are given.
 */
export const OPTION_NAME = /^(request_|global\.|\$global)/i;
/** What a `{{…}}` may hold: a name (or a dotted path into a named request), or a system variable with plain arguments. */
const PLAIN_REFERENCE = /^\s*(?:[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*|\[\d+\]|\.\*)*|\$(?:guid|uuid|randomInt|timestamp|isoTimestamp|datetime|localDatetime|randomUUID|processEnv|dotenv|aadToken|aadV2Token)(?:\s+[^{}()`;=]*)?)\s*$/;
/** Lines that run code, import or hand the request elsewhere: httpYac's script blocks and hooks, JetBrains handlers, kulala's imports, body files read with their variables. */
const SCRIPT_LINE = /^\s*(\{\{|[<>]\s*\{%|>\s*[^>\s]|<@|\?\?\s*js\b|\.\.\.|(import|run)\s|proto\s*<)/i;
/** `< ./script.js` before the request line is a script; in a body it is the body's file. */
const FILE_LINE = /^\s*<\s+\S/;
/**
 * `...name`: httpYac spreads a variable into the headers only among them (its header parsers stop at the
 * first blank line); in the body it is text both clients send as is, such as a GraphQL fragment spread.
 */
const SPREAD = /^\s*\.\.\./;

/** Why the file's requests do not say where they go (the first thing outside the allow-list), or undefined. */
export function outsideAllowList(file: ParsedFile): string | undefined {
	const role = lineRoles(file);
	let inComment = false;
	let inFragment = false;
	for (let line = 0; line < file.lines.length; line++) {
		const text = file.lines[line]!.text;
		// A `/* … */` comment before a request line is text no client runs; a GraphQL `fragment` up to a blank line is a body's.
		if (role[line] === 'before' && (inComment || /^\s*\/\*/.test(text))) {
			inComment = !text.includes('*/');
			continue;
		}
		if (role[line] === 'before' && (inFragment || /^\s*fragment\s/i.test(text))) {
			inFragment = !BLANK.test(text);
			continue;
		}
		const why = lineOutside(text, role[line]!);
		if (why) return `line ${line + 1}: ${why}`;
	}
	return undefined;
}

type Role = 'before' | 'target' | 'headers' | 'body';

/** Each line's part of its request: before the request line (or a region without one), the target, its headers, its body (from the first blank line on). */
function lineRoles(file: ParsedFile): Role[] {
	const roles: Role[] = new Array<Role>(file.lines.length).fill('before');
	for (const request of file.requests) {
		for (let line = request.requestLine; line <= request.urlEndLine; line++) roles[line] = 'target';
		// Stryker disable next-line StringLiteral: equivalent
		let role: Role = 'headers';
		for (let line = request.urlEndLine + 1; line <= request.blockEnd; line++) {
			if (BLANK.test(file.lines[line]!.text)) role = 'body';
			roles[line] = role;
		}
	}
	return roles;
}

function lineOutside(text: string, role: Role): string | undefined {
	if (BLANK.test(text) || SEPARATOR.test(text)) return undefined;
	if (COMMENT.test(text)) {
		const meta = METADATA.exec(text);
		if (!meta) return undefined;
		const key = meta[1]!.replace(/[-_]/g, '').toLowerCase();
		if (!HARMLESS_METADATA.has(key)) return `metadata @${meta[1]}`;
		return meta[2]!.includes('{{') ? 'an expression in metadata' : undefined;
	}
	if (/^\s*@/.test(text)) {
		const definition = DEFINITION.exec(text);
		if (!definition) return 'a definition a client may read another way';
		if (OPTION_NAME.test(definition[1]!)) return `a request option (@${definition[1]})`;
		return expressionIn(text);
	}
	if (role === 'before') return FILE_LINE.test(text) || SCRIPT_LINE.test(text) ? 'a script' : 'a line no client reads alike';
	if (role !== 'target' && SCRIPT_LINE.test(text) && !(role === 'body' && SPREAD.test(text))) return 'a script';
	return expressionIn(text);
}

/** An expression among the `{{…}}` of `text` (code a client runs), or undefined when each is a name or a system variable. */
function expressionIn(text: string): string | undefined {
	for (let open = text.indexOf('{{'); open >= 0;) {
		const close = text.indexOf('}}', open + 2);
		// Stryker disable next-line EqualityOperator: equivalent
		if (close < 0) return 'an unclosed reference';
		if (!PLAIN_REFERENCE.test(text.slice(open + 2, close))) return 'an expression';
		// Stryker disable next-line ArithmeticOperator: equivalent
		open = text.indexOf('{{', close + 2);
	}
	return undefined;
}

/**
 * The names httpYac's global regions define (a region with no request and no name: its definitions are
 * run before every request, over the environments'). A region with an empty definition (`@name =`) is none:
 * httpYac takes that line for its request line. A name defined only in a request's region is that
 * region's; until it runs, the environments' value stands, so both count.
 */
export function globalNames(file: ParsedFile): Set<string> {
	const names = new Set<string>();
	const requestBlocks = new Set(file.requests.map((r) => r.blockStart));
	for (const [first, last] of file.blocks) {
		if (requestBlocks.has(first)) continue;
		// `### title` names the region (httpYac: the text after the whole run of `#`, trimmed), as does `# @name`.
		if (TITLED_SEPARATOR.test(file.lines[first]!.text)) continue;
		let scoped = false;
		const defined: string[] = [];
		for (let line = first; line <= last; line++) {
			const text = file.lines[line]!.text;
			// An empty definition (`@name =`) defines nothing in httpYac: it reads the line as a request line, so the region is a request's.
			if (/^\s*(#+|\/\/+)\s*@name\b/.test(text) || EMPTY_DEFINITION.test(text)) scoped = true;
			const definition = DEFINITION.exec(text);
			if (definition) defined.push(definition[1]!);
		}
		if (!scoped) for (const name of defined) names.add(name);
	}
	return names;
}
