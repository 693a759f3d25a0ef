// The references to the exposed tokens a REST file holds (`{{$processEnv TELEMATICS_TOKEN_ADMIN}}`,
// `{{$dotenv TELEMATICS_TOKEN}}`, `{{TELEMATICS_TOKEN_USER_2}}`): which variable each reads, on which
// line, for the lens that says whose token it is. One linear pass. Pure: no `vscode`.

import { TOKEN_VARIABLE_SOURCE } from '../sessions/accountNames';

/** A reference, a `$processEnv`/`$dotenv` one or a bare environment variable, to one of our variables. */
const REFERENCE = new RegExp(`\\{\\{\\s*(?:\\$(?:processEnv|dotenv)\\s+)?(${TOKEN_VARIABLE_SOURCE}|TELEMATICS_TOKEN)\\s*\\}\\}`, 'g');

export interface TokenReference {
	line: number;
	/** `TELEMATICS_TOKEN` (the active account) or `TELEMATICS_TOKEN_<NAME>`. */
	variable: string;
}

/** The first reference on each line that holds one. */
export function tokenReferences(text: string): TokenReference[] {
	const found: TokenReference[] = [];
	let line = 0;
	let counted = 0;
	for (const match of text.matchAll(REFERENCE)) {
		for (let at = text.indexOf('\n', counted); at >= 0 && at < match.index; at = text.indexOf('\n', at + 1)) line++;
		counted = match.index;
		if (found.at(-1)?.line !== line) found.push({ line, variable: match[1]! });
	}
	return found;
}
