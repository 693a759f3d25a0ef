// Finds JSON Web Tokens in a REST file and plans replacing them. Pure: no `vscode`.
import { decodeHeader } from '../sessions/token';
import { headerOnLine, lineAt, parseRestFile, type FileVariable, type ParsedFile } from './requestParser';
import type { TextEdit } from './textEdit';
import { JWT_SHAPE, requireSafeToken } from '../util/tokenGrammar';

export type JwtContext = 'header' | 'variable' | 'other';

export interface FoundJwt {
	start: number;
	end: number;
	token: string;
	/** On a request's header line, on a file variable line, or anywhere else (body, comment). */
	context: JwtContext;
	/** Zero-based line of the token. */
	line: number;
	/** The header's name when `context` is `header`, the variable's name when `variable`. */
	name?: string;
}

/**
 * Three base64url segments, the first starting `eyJ` (`{"`); the signature may be empty
 * (`alg: none`). Not part of a longer dotted run (JWE has five segments).
 */
const CANDIDATE = new RegExp(`(?<![A-Za-z0-9_.-])${JWT_SHAPE}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_-])`, 'g');

export function isJwt(candidate: string): boolean {
	return decodeHeader(candidate) !== undefined;
}

/** The JWTs of `text`, where each stands; `parsed`: the file `text` parses to, when the caller has it. */
export function findJwts(text: string, parsed?: ParsedFile): FoundJwt[] {
	const found: FoundJwt[] = [];
	let file = parsed;
	let variables: Map<number, FileVariable> | undefined;
	for (const match of text.matchAll(CANDIDATE)) {
		if (!isJwt(match[0])) continue;
		file ??= parseRestFile(text);
		variables ??= new Map(file.variables.map((v) => [v.line, v]));
		const start = match.index;
		const line = lineAt(file.lines, start);
		const header = headerOnLine(file, line);
		const variable = header ? undefined : variables.get(line);
		found.push({
			start,
			end: start + match[0].length,
			token: match[0],
			line,
			context: header ? 'header' : variable ? 'variable' : 'other',
			...(header ? { name: header.name } : variable ? { name: variable.name } : {}),
		});
	}
	return found;
}

/** Replaces every occurrence of each old token with its new one. Sorted, non-overlapping. */
export function planTokenUpdates(text: string, replacements: ReadonlyMap<string, string>): TextEdit[] {
	return findJwts(text)
		.filter((jwt) => replacements.has(jwt.token) && replacements.get(jwt.token) !== jwt.token)
		.map((jwt) => ({ start: jwt.start, end: jwt.end, newText: requireSafeToken(replacements.get(jwt.token)!, 'Update Tokens in File') }));
}
