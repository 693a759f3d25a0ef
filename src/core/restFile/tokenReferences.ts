// The references to the exposed tokens a REST file holds (`{{$processEnv TELEMATICS_TOKEN_ADMIN}}`,
// `{{$dotenv TELEMATICS_TOKEN}}`, `{{TELEMATICS_TOKEN_USER_2}}`, and REST Client's indirection
// `{{$processEnv %telematicsToken}}`): which variable each reads, on which line, for the lens that says
// whose token it is. One linear pass. Pure: no `vscode`.

import { TOKEN_VARIABLE_SOURCE } from '../sessions/accountNames';
import { isObject } from './envFiles';

/**
 * A reference, a `$processEnv`/`$dotenv` one or a bare environment variable, to one of our variables;
 * or a `%name` one, whose variable the current REST Client environment's `name` says.
 */
const REFERENCE = new RegExp(`\\{\\{\\s*(?:(\\$(?:processEnv|dotenv)\\s+)?(${TOKEN_VARIABLE_SOURCE}|TELEMATICS_TOKEN)|\\$(?:processEnv|dotenv)\\s+%(\\w{1,64}))\\s*\\}\\}`, 'g');

/** Our variables, as REST Client's setting may name them for `%name`. */
const OUR_VARIABLE = new RegExp(`^(?:${TOKEN_VARIABLE_SOURCE}|TELEMATICS_TOKEN)$`);

export type TokenReference =
	/**
	 * `TELEMATICS_TOKEN` (the active account) or `TELEMATICS_TOKEN_<NAME>`. `environment`: a bare
	 * `{{TELEMATICS_TOKEN}}`, which a client fills from its environment (where a bound one holds another account's).
	 */
	| { line: number; variable: string; environment?: true }
	/** `%name`: the variable is the value of `name` in REST Client's current environment. */
	| { line: number; setting: string };

/** The first reference on each line that holds one. */
export function tokenReferences(text: string): TokenReference[] {
	const found: TokenReference[] = [];
	let line = 0;
	let counted = 0;
	for (const match of text.matchAll(REFERENCE)) {
		for (let at = text.indexOf('\n', counted); at >= 0 && at < match.index; at = text.indexOf('\n', at + 1)) line++;
		counted = match.index;
		if (found.at(-1)?.line === line) continue;
		if (match[2] !== undefined) found.push({ line, variable: match[2], ...(match[1] === undefined && { environment: true as const }) });
		else found.push({ line, setting: match[3]! });
	}
	return found;
}

/**
 * What `%setting` reads in each of REST Client's environments (`rest-client.environmentVariables`, an
 * environment's own value before `$shared`'s): our variable, or undefined where the value is none of
 * ours. Environments that give `setting` no value are left out; `$shared` stands alone when there is no
 * other environment (REST Client's "No Environment").
 */
export function indirectVariables(environmentVariables: unknown, setting: string): Array<{ environment: string; variable: string | undefined }> {
	if (!isObject(environmentVariables)) return [];
	const shared = isObject(environmentVariables.$shared) && Object.hasOwn(environmentVariables.$shared, setting) ? environmentVariables.$shared[setting] : undefined;
	const names = Object.keys(environmentVariables).filter((name) => name !== '$shared').slice(0, 64);
	const found: Array<{ environment: string; variable: string | undefined }> = [];
	for (const environment of names.length > 0 ? names : ['$shared']) {
		const own = environmentVariables[environment];
		const value = isObject(own) && Object.hasOwn(own, setting) ? own[setting] : shared;
		if (value === undefined) continue;
		found.push({ environment, variable: typeof value === 'string' && OUR_VARIABLE.test(value) ? value : undefined });
	}
	return found;
}
