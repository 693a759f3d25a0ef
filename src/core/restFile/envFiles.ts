// The env files REST clients read, edited so that only our keys change: `.env` (REST Client, httpYac)
// and `http-client.private.env.json` (JetBrains, httpYac; our keys in every environment). No I/O.
import { parse as parseDotenv } from 'dotenv';
import { isSafeToken } from '../util/tokenGrammar';
import { isSafeServiceUrl } from '../util/url';
import { TOKEN_VARIABLE_SOURCE } from '../sessions/accountNames';
import { isEnvironmentName } from './environmentAccounts';

/** The variables this extension exposes. */
export const TOKEN_KEY = 'TELEMATICS_TOKEN';
export const BASE_URL_KEY = 'TELEMATICS_BASE_URL';
export const EXPOSED_KEYS: readonly string[] = [TOKEN_KEY, BASE_URL_KEY];

export type EnvFileKind = 'dotenv' | 'jetbrains';

export const ENV_FILE_NAMES: Readonly<Record<EnvFileKind, string>> = {
	dotenv: '.env',
	jetbrains: 'http-client.private.env.json',
};

/** Each named account's variable (`TELEMATICS_TOKEN_ADMIN`; core/sessions/accountNames.ts): ours by its prefix. */
const ACCOUNT_VARIABLE = new RegExp(`^${TOKEN_VARIABLE_SOURCE}$`);

/** Whether `key` is one this extension writes (and so removes when it is no longer wanted). */
export function isOurKey(key: string | undefined): boolean {
	return key !== undefined && (EXPOSED_KEYS.includes(key) || ACCOUNT_VARIABLE.test(key));
}

/** What to expose: the active account's token and service, each named account's token; or nothing (undefined: remove ours). */
export interface Exposed {
	token: string;
	baseUrl: string;
	/** `TELEMATICS_TOKEN_<NAME>` → that account's token. */
	accounts?: Readonly<Record<string, string>>;
	/**
	 * Environments bound to an account (core/restFile/environmentAccounts.ts), where `TELEMATICS_TOKEN`
	 * and `TELEMATICS_BASE_URL` are that account's; `null` when it holds no live token: they are empty
	 * there, never another account's. Only the private env file has environments.
	 */
	environments?: Readonly<Record<string, BoundValues | null>>;
}

export interface BoundValues {
	token: string;
	baseUrl: string;
}

function checked(exposed: Exposed | undefined): Exposed | undefined {
	if (!exposed) return undefined;
	if (!isSafeToken(exposed.token) || !isSafeServiceUrl(exposed.baseUrl)) throw new Error('Refused to write a value that is not a token or a service URL.');
	for (const [variable, token] of Object.entries(exposed.accounts ?? {})) {
		if (!ACCOUNT_VARIABLE.test(variable) || !isSafeToken(token)) throw new Error('Refused to write a value that is not a token under a name that is not an account\'s.');
	}
	for (const [environment, bound] of Object.entries(exposed.environments ?? {})) {
		if (!isEnvironmentName(environment) || (bound !== null && (!isSafeToken(bound.token) || !isSafeServiceUrl(bound.baseUrl)))) throw new Error('Refused to write a value that is not a token or a service URL into an environment that cannot be bound.');
	}
	return exposed;
}

/** Our keys and their values, in the order they are written; in a bound `environment`, its account's token and service. */
function ourValues(values: Exposed, environment?: string): Array<[string, string]> {
	const bound = environment !== undefined && values.environments && Object.hasOwn(values.environments, environment) ? values.environments[environment] : undefined;
	const own: BoundValues = bound === undefined ? values : bound ?? { token: '', baseUrl: '' };
	return [[TOKEN_KEY, own.token], [BASE_URL_KEY, own.baseUrl], ...Object.entries(values.accounts ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))];
}

const DOTENV_LINE = /^\s*(export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

interface DotenvLine {
	text: string;
	/** The key this line assigns; undefined for comments, blank lines and a value's later lines. */
	key?: string;
	exported: boolean;
	/** The value's opening quote is not closed on this line: it goes on over the next lines. */
	multiLine: boolean;
}

/** Whether `rest` holds the closing `quote` (a backslash escapes inside double quotes). */
function closes(rest: string, quote: string): boolean {
	for (let i = 0; i < rest.length; i++) {
		if (quote === '"' && rest[i] === '\\') i++;
		else if (rest[i] === quote) return true;
	}
	return false;
}

/** The lines with what each assigns, reading quoted values over several lines; undefined when a quote never closes. */
function dotenvLines(lines: readonly string[]): DotenvLine[] | undefined {
	const out: DotenvLine[] = [];
	let open: string | undefined;
	for (const text of lines) {
		if (open) {
			out.push({ text, exported: false, multiLine: false });
			if (closes(text, open)) open = undefined;
			continue;
		}
		const match = DOTENV_LINE.exec(text);
		const value = match?.[3] ?? '';
		const quote = value[0];
		const multiLine = (quote === '"' || quote === "'" || quote === '`') && !closes(value.slice(1), quote);
		if (multiLine) open = quote;
		out.push({ text, key: match?.[2], exported: match?.[1] !== undefined, multiLine });
	}
	return open ? undefined : out;
}

/**
 * `.env` text with our keys set to `exposed` (updated where they are, keeping `export`, else
 * appended) or removed (`undefined`). Every other line, comment, multi-line value and line ending
 * stays as it was. Undefined when the file cannot be read line by line with certainty (a quote
 * that never closes, one of our keys holding a multi-line value), or when dotenv (the parser httpYac
 * uses) would read the result as anything but the reading before with exactly our keys changed (a
 * `X='\'` that swallows our line into another key): such a file is left alone.
 */
export function updateDotenv(text: string, exposed: Exposed | undefined): string | undefined {
	const after = rewriteDotenv(text, exposed);
	if (after === undefined) return undefined;
	const expected = Object.fromEntries(Object.entries(parseDotenv(text)).filter(([key]) => !isOurKey(key)));
	if (exposed) Object.assign(expected, Object.fromEntries(ourValues(exposed)));
	return sameReading(parseDotenv(after), expected) ? after : undefined;
}

/** Whether two dotenv readings hold the same keys with the same values. */
function sameReading(a: Record<string, string>, b: Record<string, string>): boolean {
	const keys = Object.keys(a);
	return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

function rewriteDotenv(text: string, exposed: Exposed | undefined): string | undefined {
	const values = checked(exposed);
	const eol = /\r\n/.test(text) ? '\r\n' : '\n';
	const raw = text === '' ? [] : text.split(/\r?\n/);
	const trailing = raw.length > 0 && raw[raw.length - 1] === '';
	if (trailing) raw.pop();
	const lines = dotenvLines(raw);
	if (!lines || lines.some((l) => l.multiLine && isOurKey(l.key))) return undefined;
	const wanted = new Map<string, string>(values ? ourValues(values) : []);
	const out: string[] = [];
	for (const line of lines) {
		if (line.key === undefined || !isOurKey(line.key)) {
			out.push(line.text);
			continue;
		}
		const value = wanted.get(line.key);
		if (value === undefined) continue; // removed (or a duplicate of one already written)
		out.push(`${line.exported ? 'export ' : ''}${line.key}=${value}`);
		wanted.delete(line.key);
	}
	for (const [key, value] of wanted) out.push(`${key}=${value}`);
	return out.length ? out.join(eol) + eol : '';
}

/** Whether `.env` text holds anything besides our keys (so removing ours should keep the file). */
export function dotenvHasOtherContent(text: string): boolean {
	return text.split(/\r?\n/).some((line) => line.trim() !== '' && !isOurKey(DOTENV_LINE.exec(line)?.[2]));
}

/** The environment created when the private env file has none (JetBrains and httpYac need one selected). */
export const DEFAULT_ENVIRONMENT = 'telematics';

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `http-client.private.env.json` text with our keys set in `$shared` and in every environment
 * (httpYac does not merge a private file's `$shared` into the environment chosen; JetBrains
 * does), a bound environment's with its account's token (created when missing), and a
 * `telematics` environment created when there is no environment at all; or, with `undefined`,
 * removed from all of them (and an environment dropped when that empties it: it held only ours).
 * Other environments and keys stay; a file that is not a JSON object of objects is not touched
 * (undefined).
 */
export function updateJetbrainsEnv(text: string, exposed: Exposed | undefined): string | undefined {
	const values = checked(exposed);
	let json: unknown = {};
	if (text.trim() !== '') {
		try {
			json = JSON.parse(text);
		} catch {
			return undefined;
		}
	}
	if (!isObject(json) || Object.values(json).some((env) => !isObject(env))) return undefined;
	const next: Record<string, unknown> = {};
	for (const [name, env] of Object.entries(json)) {
		const copy: Record<string, unknown> = { ...(env as Record<string, unknown>) };
		const held = Object.keys(copy).length;
		for (const key of Object.keys(copy)) if (isOurKey(key)) delete copy[key];
		if (values) Object.assign(copy, Object.fromEntries(ourValues(values, name)));
		const emptied = held > 0 && Object.keys(copy).length === 0;
		if (!emptied) next[name] = copy;
	}
	if (values) {
		const ours = Object.fromEntries(ourValues(values));
		for (const environment of Object.keys(values.environments ?? {})) {
			if (!(environment in next)) next[environment] = Object.fromEntries(ourValues(values, environment));
		}
		if (!('$shared' in next)) next.$shared = { ...ours };
		if (!Object.keys(next).some((name) => !name.startsWith('$'))) next[DEFAULT_ENVIRONMENT] = { ...ours };
	}
	const eol = /\r\n/.test(text) ? '\r\n' : '\n';
	return Object.keys(next).length ? JSON.stringify(next, null, 2).replace(/\n/g, eol) + eol : '';
}
