// The values a REST file's variables may take from its clients' environments, where the file itself does
// not define them: `http-client.env.json` and `http-client.private.env.json` (JetBrains, httpYac; each
// environment and `$shared`), httpYac's `.httpyac.json` environments, `.env`, and REST Client's
// `rest-client.environmentVariables`. The files are the opened folder's, so attacker input: read as data,
// bounded, anything broken is "nothing known". Pure: the caller reads the files.
import { dotenvValues, isObject } from './envFiles';
import { targetHosts, type VariableReadings } from './requestHost';

/** Longest environment file read; a larger one is passed over. */
export const MAX_ENVIRONMENT_FILE_CHARS = 256 * 1024;
/** Most environments read from one file, and most variables from one environment. */
const MAX_ENVIRONMENTS = 64;
const MAX_VARIABLES = 512;
/** Longest value taken (a URL, a host). */
const MAX_VALUE_CHARS = 4096;

/** Where a value comes from, for saying which environment sends a token where. */
export interface EnvironmentValue {
	value: string;
	/** `prod`, `$shared`, or the file's name for `.env`. */
	environment: string;
}

/** Each name's values, each environment's value once (keyed by environment and value, so adding stays constant time however many a name gets). */
export type EnvironmentReadings = Map<string, Map<string, EnvironmentValue>>;

function add(readings: EnvironmentReadings, name: string, value: unknown, environment: string): void {
	if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return;
	const text = String(value);
	if (text.length > MAX_VALUE_CHARS) return;
	const values = readings.get(name) ?? readings.set(name, new Map()).get(name)!;
	const key = `${environment}\n${text}`;
	// Stryker disable next-line ConditionalExpression: setting a key again stores the same value in the same place
	if (!values.has(key)) values.set(key, { value: text, environment });
}

/** An object of environments, each an object of variables (the JSON files' shape, and REST Client's setting). */
export function readEnvironmentObject(value: unknown, into: EnvironmentReadings = new Map()): EnvironmentReadings {
	if (!isObject(value)) return into;
	for (const [environment, variables] of Object.entries(value).slice(0, MAX_ENVIRONMENTS)) {
		if (!isObject(variables)) continue;
		for (const [name, v] of Object.entries(variables).slice(0, MAX_VARIABLES)) add(into, name, v, environment);
	}
	return into;
}

/** JSON text, or undefined when it is too large or not JSON. */
function parseBounded(text: string): unknown {
	if (text.length > MAX_ENVIRONMENT_FILE_CHARS) return undefined;
	// Stryker disable BlockStatement: an empty catch returns undefined all the same
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
	// Stryker restore BlockStatement
}

/** `http-client.env.json` / `http-client.private.env.json`: `{ "env": { "name": "value" } }`. */
export function readHttpClientEnv(text: string, into: EnvironmentReadings = new Map()): EnvironmentReadings {
	return readEnvironmentObject(parseBounded(text), into);
}

/** `.httpyac.json`: its `environments` object (a JavaScript config is never run, so never read). */
export function readHttpyacJson(text: string, into: EnvironmentReadings = new Map()): EnvironmentReadings {
	const parsed = parseBounded(text);
	return readEnvironmentObject(isObject(parsed) ? parsed.environments : undefined, into);
}

/** `.env` (or `prod.env`, `.env.prod`): every `KEY=value`, as the environment the file's name says. */
export function readDotenv(text: string, into: EnvironmentReadings = new Map(), environment = '.env'): EnvironmentReadings {
	if (text.length > MAX_ENVIRONMENT_FILE_CHARS) return into;
	for (const [name, value] of (dotenvValues(text) ?? []).slice(0, MAX_VARIABLES)) add(into, name, value, environment);
	return into;
}

/**
 * The file's own readings, with the environments' values for the names the file does not define (a
 * file's own definition wins in every client).
 */
export function withEnvironments(file: VariableReadings, environments: EnvironmentReadings): VariableReadings {
	if (environments.size === 0) return file;
	const merged = new Map<string, readonly string[]>(file);
	for (const [name, values] of environments) {
		if (!merged.has(name)) merged.set(name, [...new Set([...values.values()].map((v) => v.value))]);
	}
	return merged;
}

/**
 * For each host a value of the environments is a URL or host on, the environments that give it,
 * sorted (so the question can say where a host comes from). One pass over the values: a warning on
 * every request of a file looks its host up here rather than reading them all again.
 */
export function environmentsByHost(environments: EnvironmentReadings): ReadonlyMap<string, readonly string[]> {
	const byHost = new Map<string, Set<string>>();
	for (const values of environments.values()) {
		for (const { value, environment } of values.values()) {
			for (const host of targetHosts(value, new Map())) if (host !== undefined) (byHost.get(host) ?? byHost.set(host, new Set()).get(host)!).add(environment);
		}
	}
	return new Map([...byHost].map(([host, names]) => [host, [...names].sort()]));
}

/**
 * Whether httpYac's configuration may take environments from where this reader does not look: an
 * `httpyac` section in `package.json` (a configuration as good as `.httpyac.json`, which may hold
 * anything), or an `envDirName` in `.httpyac.json` (another folder of dotenv files). Then the
 * environments say nothing for sure, and the names they would fill stay "does not say". Each file's
 * text; undefined when there is none; null when one is there but was not read (a link, too large):
 * httpYac may read it, so that too counts as looking elsewhere.
 */
export function httpyacLooksElsewhere(packageJson: string | null | undefined, httpyacJson: string | null | undefined): boolean {
	if (packageJson === null || httpyacJson === null) return true;
	if ((packageJson?.length ?? 0) > MAX_ENVIRONMENT_FILE_CHARS || (httpyacJson?.length ?? 0) > MAX_ENVIRONMENT_FILE_CHARS) return true;
	const pkg = packageJson === undefined ? undefined : parseBounded(packageJson);
	const own = httpyacJson === undefined ? undefined : parseBounded(httpyacJson);
	return (isObject(pkg) && Object.hasOwn(pkg, 'httpyac')) || (isObject(own) && Object.hasOwn(own, 'envDirName'));
}

