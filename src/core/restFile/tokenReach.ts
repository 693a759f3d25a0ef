// Where a token written in a REST file goes once the requests run: the request that holds it, every request
// that reads the file variable holding it or the named request holding it, and the sites it would reach.
import { findJwts, type FoundJwt } from './jwtScan';
import { anyDefinitions, fileOutsideAllowList, isSameSite, requestDestinations, variableReadings, type Destination, type VariableReadings } from './requestHost';
import { lineAt, parseRestFile, requestAt, type ParsedFile, type ParsedRequest } from './requestParser';
import { findOwner, type KnownToken } from './tokenMatch';

const WORD_CHARACTER = /[\w$]/;

/** Whether `name` stands in `text` as a whole word (no letter, digit, `_` or `$` either side). */
function holdsWord(text: string, name: string): boolean {
	for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
		const before = text[at - 1];
		const after = text[at + name.length];
		if ((before === undefined || !WORD_CHARACTER.test(before)) && (after === undefined || !WORD_CHARACTER.test(after))) return true;
	}
	return false;
}

/** What the `{{…}}` of `text` hold: a name, or an expression (httpYac runs JavaScript there). Linear in `text`. */
function references(text: string): string[] {
	const found: string[] = [];
	for (let open = text.indexOf('{{'); open >= 0;) {
		const close = text.indexOf('}}', open + 2);
		if (close === -1) break;
		found.push(text.slice(open + 2, close));
		open = text.indexOf('{{', close + 2);
	}
	return found;
}

/**
 * How many characters of references the search reads before it stops reading: past it, every reader
 * with a reference is taken as reading the token (a question or a warning too many, never one too few).
 */
export const SCAN_BUDGET = 10_000_000;

/** Runs of letters, digits, `_` and `$`: a name found as a whole word holds its own runs as whole runs. */
const WORDS = /[\w$]+/g;

/** A request's name (`# @name trips`, `// @name=trips`), which other requests read its headers by. */
// `(?:\s*=|\s)\s*` is `\s*[=\s]\s*` without three ways to split one run of spaces.
const REQUEST_NAME = /^\s*(?:#|\/\/)\s*@name(?:\s*=|\s)\s*(\S+)\s*$/;

function requestName(file: ParsedFile, request: ParsedRequest): string | undefined {
	return file.lines.slice(request.blockStart, request.requestLine).map((line) => REQUEST_NAME.exec(line.text)?.[1]).find((name) => name !== undefined);
}

/** Where a token is: in these requests, in these file variables, or in the environment. */
export interface TokenPlaces {
	requests?: readonly ParsedRequest[];
	variables?: readonly string[];
	/**
	 * The token is in the process environment too (telematicsAuth.exposeToken): a reference whose
	 * variable name is looked up elsewhere (REST Client's `{{$processEnv %name}}` and `{{$dotenv %name}}`)
	 * or computed (httpYac's `process.env[…]`) may read it, and counts as reading it.
	 */
	environment?: boolean;
	/** A token written outside every request and file variable (in a script, say). */
	elsewhere?: boolean;
}

/** References that read an environment variable whose name the file does not say. */
const INDIRECT_ENVIRONMENT = /\$(?:processEnv|dotenv)\s+%|\bprocess\.env\b(?!\s*\.)/;

/** Something that may read a name: a file variable's value, or a request's block. */
interface Reader {
	references: string[];
	taken: boolean;
	take(): void;
}

/**
 * Every request that sends what `places` hold once the requests run: the requests themselves, those
 * that read one of the variables, and those that read a named one among them (REST Client's
 * `{{trips.request.headers.Authorization}}`), through file variables built from any of these, however
 * deep. A reference holding a name as a word counts (generous on purpose: a false yes costs a
 * question).
 *
 * How: a worklist of names that carry the token. A reader (a definition's value, or a request's block)
 * is read until it is taken: taking a definition puts its name on the worklist, taking a request adds it
 * to the answer and puts its `# @name` on the worklist. For each name on the list, only the readers
 * indexed under its rarest word (an index word → readers, built once from the runs of `[\w$]` in every
 * reference) are read for the name as a whole word. So a file of thousands of requests that read each
 * other in a chain takes one pass, not one per link. Past SCAN_BUDGET characters read, every reader with
 * a reference is taken at once; so the index, the rarest-word pick and reading a reader no more once it
 * is taken decide how large a file still gets the exact answer.
 */
export function requestsSending(file: ParsedFile, places: TokenPlaces): ParsedRequest[] {
	const sending = new Set<ParsedRequest>();
	// The names that carry the token, and the worklist: a Set's walk visits what is added to it meanwhile.
	const names = new Set<string>();
	const addName = (name: string | undefined): void => {
		if (name !== undefined) names.add(name);
	};
	const addRequest = (request: ParsedRequest): void => {
		sending.add(request);
		addName(requestName(file, request));
	};
	const definitions = new Set(file.variables.map((v) => v.line));
	const blockText = (request: ParsedRequest): string => file.lines.slice(request.blockStart, request.blockEnd + 1)
		.filter((_, i) => !definitions.has(request.blockStart + i)).map((line) => line.text).join('\n');
	// Every definition a client may read: the parser's, and those it skips (in a body, under a name
	// outside its grammar), which REST Client reads all the same.
	const readers: Reader[] = [
		...anyDefinitions(file).map((variable) => ({ references: references(variable.value), taken: false, take: () => addName(variable.name) })),
		...file.requests.map((request) => ({ references: references(blockText(request)), taken: false, take: () => addRequest(request) })),
	];
	const byWord = new Map<string, Reader[]>();
	for (const reader of readers) {
		// match, not matchAll: matchAll's match objects made a warnings pass over the worst 256 KB file a third slower.
		// Stryker disable next-line ArrayDeclaration: equivalent
		for (const word of new Set(reader.references.flatMap((reference) => reference.match(WORDS) ?? []))) {
			const list = byWord.get(word);
			if (list) list.push(reader);
			else byWord.set(word, [reader]);
		}
	}
	places.requests?.forEach((request) => addRequest(request));
	places.variables?.forEach((name) => addName(name));
	const take = (reader: Reader): void => {
		reader.taken = true;
		reader.take();
	};
	if (places.environment) {
		for (const reader of readers) if (reader.references.some((reference) => INDIRECT_ENVIRONMENT.test(reference))) take(reader);
	}
	let budget = SCAN_BUDGET;
	const reads = (reader: Reader, name: string): boolean => reader.references.some((reference) => {
		budget -= reference.length;
		return holdsWord(reference, name);
	});
	for (const name of names) {
		// The readers under its rarest word (a reader that holds the name holds each of its words); all of them for a name without a word.
		const [rarest = readers] = (name.match(WORDS) ?? []).map((word) => byWord.get(word) ?? []).sort((a, b) => a.length - b.length);
		for (const reader of rarest) if (!reader.taken && reads(reader, name)) take(reader);
		if (budget < 0) {
			// Taking a reader twice adds nothing: its name is in the set, its request in the answer.
			for (const reader of readers) if (reader.references.length > 0) reader.take();
			break;
		}
	}
	return file.requests.filter((request) => sending.has(request));
}

/**
 * The requests that send what `places` hold: those requestsSending finds, or, in a file outside the
 * allow-list (requestShape.ts), every request of the file: a script or metadata there may read a token
 * anywhere (the environment's through `process.env`, or one written in the file) and hand it to any request.
 */
export function requestsReached(file: ParsedFile, places: TokenPlaces): ParsedRequest[] {
	const anyToken = places.environment === true || places.elsewhere === true || (places.requests?.length ?? 0) > 0 || (places.variables?.length ?? 0) > 0;
	return anyToken && fileOutsideAllowList(file) !== undefined ? [...file.requests] : requestsSending(file, places);
}

/** Where the tokens at `offsets` are: a file variable's value, a request, or elsewhere. */
function placesAt(file: ParsedFile, offsets: readonly number[]): { requests: ParsedRequest[]; variables: string[]; elsewhere: boolean } {
	const lines = offsets.map((offset) => lineAt(file.lines, offset));
	const variableLines = new Set(file.variables.map((v) => v.line));
	const tokenLines = new Set(lines);
	const around = offsets.filter((_, i) => !variableLines.has(lines[i]!)).map((offset) => requestAt(file, offset));
	return {
		requests: around.filter((request) => request !== undefined),
		variables: file.variables.filter((v) => tokenLines.has(v.line)).map((v) => v.name),
		elsewhere: around.includes(undefined),
	};
}

/**
 * The hosts that receive what sits at `offsets` once the requests run: in a file variable's value,
 * every request that reads the variable; elsewhere, the request around it and those that read it.
 */
export function receivingDestinationsAt(file: ParsedFile, offsets: readonly number[], variables?: VariableReadings, outside?: string): Destination[] {
	return requestDestinations(file, requestsReached(file, placesAt(file, offsets)), variables, outside);
}

/** Where each account's tokens among `jwts` start, by the account `ownerOf` names (tokens of none left out). */
export function offsetsByAccount(jwts: readonly FoundJwt[], ownerOf: (token: string) => string | undefined): Map<string, number[]> {
	const offsets = new Map<string, number[]>();
	for (const jwt of jwts) {
		const accountId = ownerOf(jwt.token);
		if (accountId === undefined) continue;
		const list = offsets.get(accountId);
		if (list) list.push(jwt.start);
		else offsets.set(accountId, [jwt.start]);
	}
	return offsets;
}

/** A logged-in account's current token and its service. */
export interface AccountToken extends KnownToken {
	serviceUrl: string;
	/** Its platform's hosts (`telematicsAuth.platformHosts`): origins that count as its service wherever their site is. */
	platformOrigins?: readonly string[];
}

/** A request that would send an account's token to another site than the account's service. */
export interface ForeignSend {
	/** The line of its request line. */
	requestLine: number;
	/** Where it goes; undefined where the file does not say (counted as another site). */
	host: string | undefined;
	accountId: string;
}

/** A variable the environment holds an account's token in (`TELEMATICS_TOKEN`, `TELEMATICS_TOKEN_ADMIN`). */
export interface ExposedVariable {
	name: string;
	accountId: string;
}

/**
 * The requests of `text` that would send a logged-in account's token to another site than its
 * service: the account's tokens written in the file (its current one or an older one) and the
 * tokens the environment holds (`exposed`: `{{$processEnv TELEMATICS_TOKEN_ADMIN}}`, `{{$dotenv …}}`,
 * `{{TELEMATICS_TOKEN}}`, each name read as a word; a reference whose variable the file does not say
 * may read any of them).
 */
// Stryker disable next-line ArrayDeclaration: equivalent
export async function foreignSends(text: string, accounts: readonly AccountToken[], exposed: readonly ExposedVariable[] = [], read?: { file: ParsedFile; jwts: readonly FoundJwt[]; variables?: VariableReadings; outside?: string }): Promise<ForeignSend[]> {
	const file = read?.file ?? parseRestFile(text);
	const variables = read?.variables ?? variableReadings(file);
	const offsets = offsetsByAccount(read?.jwts ?? findJwts(text, file), (token) => findOwner(token, accounts)?.accountId);
	// Stryker disable next-line ArrayDeclaration: equivalent
	for (const { accountId } of exposed) if (!offsets.has(accountId)) offsets.set(accountId, []);
	const sends: ForeignSend[] = [];
	for (const [accountId, at] of offsets) {
		const account = accounts.find((a) => a.accountId === accountId);
		if (account === undefined) continue;
		const written = placesAt(file, at);
		const names = exposed.filter((e) => e.accountId === accountId).map((e) => e.name);
		const places: TokenPlaces = names.length > 0 ? { ...written, variables: [...written.variables, ...names], environment: true } : written;
		const sameSite = new Map<string, boolean>(); // one look-up per host, however many requests name it
		for (const { line, host } of requestDestinations(file, requestsReached(file, places), variables, read?.outside)) {
			if (host !== undefined && !sameSite.has(host)) sameSite.set(host, await isSameSite(host, account.serviceUrl, account.platformOrigins));
			// Stryker disable next-line ConditionalExpression: equivalent
			if (host === undefined || !sameSite.get(host)) sends.push({ requestLine: line, host, accountId });
		}
	}
	return sends.sort((a, b) => a.requestLine - b.requestLine);
}
