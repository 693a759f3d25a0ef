// Plans the edits that give each request under a cursor exactly one `Authorization: Bearer …` header;
// bodies, comments, variables, `# @name` lines and response handlers are never touched.
import { DEFAULT_TOKEN_VARIABLE, planFileVariable } from './fileVariable';
import { requestsAt, type Layout, type ParsedFile, type ParsedRequest } from './requestParser';
import { deleteLine, sortEdits, type TextEdit } from './textEdit';
import { displayText } from '../util/displayText';
import { isJwtShaped, requireSafeToken } from '../util/tokenGrammar';
import { TOKEN_VARIABLE_SOURCE } from '../sessions/accountNames';

/** A REST-client variable name: what `{{name}}` and `@name =` accept in every client we support. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

export type AuthValue =
	/** The token itself in the header. */
	| { style: 'header'; token: string }
	/** `@variableName = token` near the top, `Bearer {{variableName}}` in the header. */
	| { style: 'variable'; token: string; variableName?: string }
	/** Only `Bearer {{variableName}}`: the user defines the variable elsewhere (an untracked env file). */
	| { style: 'reference'; variableName?: string }
	/**
	 * A reference a tool fills from what telematicsAuth.exposeToken keeps current: no token in the file.
	 * `variable`: one account's (`TELEMATICS_TOKEN_ADMIN`); absent, the active account's `TELEMATICS_TOKEN`.
	 */
	| { style: 'environment'; source: EnvironmentSource; variable?: string };

/** Where a tool reads the exposed token from. */
export type EnvironmentSource = 'processEnv' | 'dotenv' | 'envVariable';

/** The reference each source writes for `variable` (REST Client's `$processEnv`/`$dotenv`; httpYac's and JetBrains' env variables). */
export function environmentReference(source: EnvironmentSource, variable = 'TELEMATICS_TOKEN'): string {
	if (!EXPOSED_VARIABLE.test(variable)) throw new Error('Refused to write a variable that is not one the extension exposes.');
	return source === 'processEnv' ? `{{$processEnv ${variable}}}` : source === 'dotenv' ? `{{$dotenv ${variable}}}` : `{{${variable}}}`;
}

/** The variables exposeToken keeps: the active account's, and each named account's (core/sessions/accountNames.ts). */
const EXPOSED_VARIABLE = new RegExp(`^(?:TELEMATICS_TOKEN|${TOKEN_VARIABLE_SOURCE})$`);

/** The active account's reference each source writes. */
export const ENVIRONMENT_REFERENCES: Readonly<Record<EnvironmentSource, string>> = {
	processEnv: environmentReference('processEnv'),
	dotenv: environmentReference('dotenv'),
	envVariable: environmentReference('envVariable'),
};

/**
 * What follows `Bearer `. Checked here, where it leaves for the file: a token outside the
 * token grammar or a variable name outside the variable grammar throws, and nothing is written.
 */
export function bearerValue(value: AuthValue): string {
	if (value.style === 'header') return requireSafeToken(value.token, 'Authorization header');
	if (value.style === 'environment') return environmentReference(value.source, value.variable);
	const name = value.variableName ?? DEFAULT_TOKEN_VARIABLE;
	if (!VARIABLE_NAME.test(name)) throw new Error('Refused to write a variable name that is not a plain identifier.');
	return `{{${name}}}`;
}

/**
 * Whether an Authorization value is one this extension wrote or may replace: `Bearer` with a
 * JWT, or with one of the references it writes (`{{telematicsToken}}`, `{{TELEMATICS_TOKEN}}`,
 * `{{$processEnv TELEMATICS_TOKEN}}`, `{{$dotenv TELEMATICS_TOKEN}}`). Anything else (Basic,
 * Digest, `{{$aadToken}}`, another tool's variable or token) belongs to someone else.
 */
export function isOurAuthorization(value: string, variableName: string = DEFAULT_TOKEN_VARIABLE): boolean {
	// `(.*\S|.)\s*$` reads what `(.+?)\s*$` reads, without trying the end at every space of a long run.
	const match = /^Bearer\s+(.*\S|.)\s*$/i.exec(value.trim());
	if (!match) return false;
	const credential = match[1]!;
	return isJwtShaped(credential) || OUR_REFERENCES.has(credential) || NAMED_REFERENCE.test(credential) || credential === `{{${variableName}}}`;
}

/** A named account's reference, in any of the three sources: an Insert for another account replaces it. */
const NAMED_REFERENCE = new RegExp(`^\\{\\{(?:\\$(?:processEnv|dotenv) )?${TOKEN_VARIABLE_SOURCE}\\}\\}$`);

const OUR_REFERENCES: ReadonlySet<string> = new Set([
	`{{${DEFAULT_TOKEN_VARIABLE}}}`,
	'{{TELEMATICS_TOKEN}}',
	'{{$processEnv TELEMATICS_TOKEN}}',
	'{{$dotenv TELEMATICS_TOKEN}}',
]);

/** A request under a cursor whose Authorization belongs to someone else. */
export interface ForeignAuthorization {
	/** The request line (0-based). */
	line: number;
	/** The value's first word, for the question: `Basic`, `Digest`, `{{$aadToken}}`, … */
	scheme: string;
}

/** The requests under the cursors whose Authorization is not ours (see isOurAuthorization). */
export function foreignAuthorizations(file: ParsedFile, cursorOffsets: readonly number[], variableName: string = DEFAULT_TOKEN_VARIABLE): ForeignAuthorization[] {
	const found: ForeignAuthorization[] = [];
	for (const request of requestsAt(file, cursorOffsets)) {
		const auth = authorizationOf(request);
		if (auth && !isOurAuthorization(auth.value, variableName)) found.push({ line: request.requestLine, scheme: displayText(auth.value.split(/\s+/)[0]!, 40) });
	}
	return found;
}

function authorizationOf(request: ParsedRequest): ParsedRequest['headers'][number] | undefined {
	return request.headers.find((h) => h.name.toLowerCase() === 'authorization');
}

export interface PlanOptions {
	/** Replace an Authorization that is not ours (the person said so); default: leave that request alone. */
	replaceForeign?: boolean;
}

export function variableNameOf(value: AuthValue): string | undefined {
	return value.style === 'variable' || value.style === 'reference' ? value.variableName : undefined;
}

export function planAuthEdit(file: ParsedFile, cursorOffsets: readonly number[], value: AuthValue, options: PlanOptions = {}): TextEdit[] {
	const bearer = bearerValue(value); // throws before anything is planned
	const edits: TextEdit[] = [];
	let requests = 0;
	for (const request of requestsAt(file, cursorOffsets)) {
		const auth = authorizationOf(request);
		if (auth && !options.replaceForeign && !isOurAuthorization(auth.value, variableNameOf(value))) continue; // never silently
		requests++;
		edits.push(...planRequest(file, request, `Authorization: Bearer ${bearer}`));
	}
	if (requests && value.style === 'variable') {
		edits.push(...planFileVariable(file, value.variableName ?? DEFAULT_TOKEN_VARIABLE, value.token));
	}
	return sortEdits(edits);
}

function planRequest(file: Layout, request: ParsedRequest, header: string): TextEdit[] {
	const auth = request.headers.filter((h) => h.name.toLowerCase() === 'authorization');
	const edits: TextEdit[] = [];
	if (auth.length === 0) {
		const indent = request.headers[0]?.indent ?? '';
		const urlEnd = file.lines[request.urlEndLine]!;
		edits.push({ start: urlEnd.end, end: urlEnd.end, newText: file.eol + indent + header });
		return edits;
	}
	const [first, ...duplicates] = auth;
	const line = file.lines[first!.line]!;
	const wanted = first!.indent + header;
	if (line.text !== wanted) edits.push({ start: line.start, end: line.end, newText: wanted });
	for (const duplicate of duplicates) edits.push(deleteLine(file.lines, duplicate.line));
	return edits;
}
