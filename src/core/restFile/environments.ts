// The values a REST file's variables may take from its clients' environments, where the file itself does
// not define them: `http-client.env.json` and `http-client.private.env.json` (JetBrains, httpYac; each
// environment and `$shared`), httpYac's `.httpyac.json` environments, `.env`, and REST Client's
// `rest-client.environmentVariables`. The files are the opened folder's, so attacker input: read as data
// (`.env` by dotenv's own parser, the one httpYac uses), bounded, anything broken is "nothing known". Pure:
// the caller reads the files.
import { parse as parseDotenv } from 'dotenv';
import { isObject } from './envFiles';
import { targetHosts, type VariableReadings } from './requestHost';
import { OPTION_NAME } from './requestShape';
import type { ParsedFile } from './requestParser';

/** Longest environment file read; a larger one is passed over. */
export const MAX_ENVIRONMENT_FILE_CHARS = 256 * 1024;
/** Most environments read from one file, and most variables from one environment (or `.env` file); a file with more does not say. */
const MAX_ENVIRONMENTS = 64;
const MAX_VARIABLES = 512;
/**
 * The name a reading holds when its file gave more environments or variables than the check reads: the rest
 * is not read, so the readings do not say (environmentsOutside). No client reads a name with a NUL in it.
 */
const UNREAD = '\u0000unread';
/** Longest value taken (a URL, a host). */
const MAX_VALUE_CHARS = 4096;

/** Where a value comes from, for saying which environment sends a token where. */
export interface EnvironmentValue {
	/**
	 * The text; undefined where the check does not read it: a value that is not a string (an object, an array,
	 * a number, a boolean, null: httpYac fills `{{svc.url}}` in from an object, the text of a number) or a
	 * longer one than it reads. A name with such a value does not say where it sends a request.
	 */
	value: string | undefined;
	/** `prod`, `$shared`, or the file's name for `.env`. */
	environment: string;
}

/** Each name's values, each environment's value once (keyed by environment and value, so adding stays constant time however many a name gets). */
export type EnvironmentReadings = Map<string, Map<string, EnvironmentValue>>;

/** Adds a name's value; every name is kept whatever its value (a request option is one by its name, even `null`). */
function add(readings: EnvironmentReadings, name: string, value: unknown, environment: string): void {
	const text = typeof value === 'string' && value.length <= MAX_VALUE_CHARS ? value : undefined;
	const values = readings.get(name) ?? readings.set(name, new Map()).get(name)!;
	const key = JSON.stringify([environment, text ?? null]);
	// Stryker disable next-line ConditionalExpression: equivalent
	if (!values.has(key)) values.set(key, { value: text, environment });
}

/** An object of environments, each an object of variables (the JSON files' shape, and REST Client's setting). */
export function readEnvironmentObject(value: unknown, into: EnvironmentReadings = new Map()): EnvironmentReadings {
	if (!isObject(value)) return into;
	const environments = Object.entries(value);
	if (environments.length > MAX_ENVIRONMENTS) into.set(UNREAD, new Map());
	for (const [environment, variables] of environments.slice(0, MAX_ENVIRONMENTS)) {
		if (!isObject(variables)) continue;
		const entries = Object.entries(variables);
		if (entries.length > MAX_VARIABLES) into.set(UNREAD, new Map());
		for (const [name, v] of entries.slice(0, MAX_VARIABLES)) add(into, name, v, environment);
	}
	return into;
}

/** JSON text, or undefined when it is too large or not JSON. */
function parseBounded(text: string): unknown {
	if (text.length > MAX_ENVIRONMENT_FILE_CHARS) return undefined;
	try {
		// The catch's block, from here: without its return the function returns undefined all the same.
		// Stryker disable BlockStatement: equivalent
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}
// Stryker restore BlockStatement

/** `http-client.env.json` / `http-client.private.env.json`: `{ "env": { "name": "value" } }`. */
export function readHttpClientEnv(text: string, into: EnvironmentReadings = new Map()): EnvironmentReadings {
	return readEnvironmentObject(parseBounded(text), into);
}

/** `.httpyac.json`: its `environments` object (a JavaScript config is never run, so never read). */
export function readHttpyacJson(text: string, into: EnvironmentReadings = new Map()): EnvironmentReadings {
	const parsed = parseBounded(text);
	return readEnvironmentObject(isObject(parsed) ? parsed.environments : undefined, into);
}

/** `.env` (or `prod.env`, `.env.prod`): what dotenv reads in it, as the environment the file's name says. */
export function readDotenv(text: string, into: EnvironmentReadings = new Map(), environment = '.env'): EnvironmentReadings {
	if (text.length > MAX_ENVIRONMENT_FILE_CHARS) return into;
	const entries = Object.entries(parseDotenv(text));
	if (entries.length > MAX_VARIABLES) into.set(UNREAD, new Map());
	for (const [name, value] of entries.slice(0, MAX_VARIABLES)) add(into, name, value, environment);
	return into;
}

/** How many values the environments may hold in all before they say nothing for sure (a pass stays bounded). */
export const MAX_ENVIRONMENT_VALUES = 4096;

/** How many values `environments` hold. */
export function valueCount(environments: EnvironmentReadings): number {
	let count = 0;
	for (const values of environments.values()) count += values.size;
	return count;
}

/**
 * Why the environments do not say for sure where a request goes, or undefined: a name a client reads as a
 * request option (`request_proxy`, `request_rejectUnauthorized`: httpYac takes them from any environment),
 * a file with more environments or variables than the check reads, or more values than it reads in all.
 */
export function environmentsOutside(environments: EnvironmentReadings): string | undefined {
	if (environments.has(UNREAD)) return 'an environment file holds more environments or variables than the check reads';
	for (const name of environments.keys()) if (OPTION_NAME.test(name)) return `the environments set ${name}`;
	return valueCount(environments) > MAX_ENVIRONMENT_VALUES ? 'the environments hold more values than the check reads' : undefined;
}

/**
 * The file's own readings with the environments' values, for each name the clients may take from an
 * environment: every name the file does not define, and every name it defines only in a request's region
 * (httpYac keeps such a definition to its region until that region runs; `global`: the names httpYac's
 * global regions define, which win over the environments in every client). Both readings count. A name an
 * environment gives a value the check does not read (not a string) has no reading: it does not say.
 */
export function withEnvironments(file: VariableReadings, environments: EnvironmentReadings, global: ReadonlySet<string> = new Set()): VariableReadings {
	if (environments.size === 0) return file;
	const merged = new Map<string, readonly string[]>(file);
	for (const [name, values] of environments) {
		if (global.has(name)) continue;
		const read = [...values.values()].map((v) => v.value);
		// A value the check does not read: the name says nothing (no reading at all), whatever else it is given.
		merged.set(name, read.includes(undefined) ? [] : [...new Set([...(file.get(name) ?? []), ...(read as string[])])]);
	}
	return merged;
}

/** The names the `{{…}}` of a file (and so of the environments' values it reaches) may read: every word in them. */
export function referencedNames(file: ParsedFile): Set<string> {
	const names = new Set<string>();
	for (const { text } of file.lines) {
		for (let open = text.indexOf('{{'); open >= 0;) {
			const close = text.indexOf('}}', open + 2);
			if (close === -1) break;
			for (const word of text.slice(open + 2, close).match(/[\w.$-]+/g) ?? []) names.add(word);
			open = text.indexOf('{{', close + 2);
		}
	}
	return names;
}

/**
 * For each host a value of the environments is a URL or host on, the environments that give it,
 * sorted (so the question can say where a host comes from). One pass over the values: a warning on
 * every request of a file looks its host up here rather than reading them all again.
 */
export function environmentsByHost(environments: EnvironmentReadings, names?: ReadonlySet<string>): ReadonlyMap<string, readonly string[]> {
	const byHost = new Map<string, Set<string>>();
	for (const [name, values] of environments) {
		if (names && !names.has(name)) continue; // only the names the file reads
		for (const { value, environment } of values.values()) {
			if (value === undefined) continue;
			for (const host of targetHosts(value, new Map())) if (host !== undefined) (byHost.get(host) ?? byHost.set(host, new Set()).get(host)!).add(environment);
		}
	}
	return new Map([...byHost].map(([host, names]) => [host, [...names].sort()]));
}
