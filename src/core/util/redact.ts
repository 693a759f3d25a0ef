// Masks secrets in text before it reaches a log, an error message or the screen.
// Pure: no `vscode` import. Belt and braces: callers should not hand secrets over at all.

import { JWT_SHAPE } from './tokenGrammar';

const MASK = '***';

/** Field names whose values are secrets, in any casing. Longer names first. */
const SECRET_NAMES = [
	'client_secret',
	'refresh_token',
	'access_token',
	'RefreshToken',
	'AccessToken',
	'DeviceToken',
	'InstanceKey',
	'id_token',
	'Password',
	'Secret',
	'Token',
].join('|');

/** A JWT anywhere in the text. */
const JWT = new RegExp(`\\b${JWT_SHAPE}`, 'g');
/** One glued to the characters before it (`abceyJ…`), where `\b` finds no start: long parts only, so a word such as `keyJson.a.b` stays. */
const GLUED_JWT_AT = /eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/y;
/** A run of the characters of a JWT's part. */
const PART_RUN = /[A-Za-z0-9_-]+/g;

/**
 * Masks each glued JWT, trying only the first `eyJ` of each run of part characters: a later `eyJ` in
 * the same run reaches the same `.`, with less before it, so it matches only where the first does.
 * Searched from every `eyJ`, a service's answer of one long run of them (a megabyte) held the extension
 * host for an hour.
 */
function maskGluedJwts(text: string): string {
	let out = '';
	let done = 0;
	PART_RUN.lastIndex = 0;
	for (let run = PART_RUN.exec(text); run; run = PART_RUN.exec(text)) {
		const first = run[0].indexOf('eyJ');
		// Only saves a search: a run without `eyJ` has no match below either, and one that starts with it was
		// masked by JWT already (`\b` holds at a run's start).
		// Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent
		if (first < 0) continue;
		GLUED_JWT_AT.lastIndex = run.index + first;
		const jwt = GLUED_JWT_AT.exec(text);
		if (!jwt) continue;
		out += text.slice(done, jwt.index) + MASK;
		done = jwt.index + jwt[0].length;
		PART_RUN.lastIndex = done;
	}
	return out + text.slice(done);
}
const BEARER = /\b(Bearer)\s+[^\s"',;]+/gi;
/** `"Password": "value"` (value may contain escaped quotes). */
const JSON_FIELD = new RegExp(`("(?:${SECRET_NAMES})"\\s*:\\s*")(?:\\\\.|[^"\\\\])*(")`, 'gi');
/** The same inside a JSON-encoded string: `\"Devicetoken\":\"value\"`. */
const ESCAPED_JSON_FIELD = new RegExp(`(\\\\"(?:${SECRET_NAMES})\\\\"\\s*:\\s*\\\\")(?:(?!\\\\").)*(\\\\")`, 'gi');
/** `password=value` in query strings and forms. */
const KEY_VALUE = new RegExp(`\\b((?:${SECRET_NAMES})=)[^&\\s"',;]+`, 'gi');
/** A header line: `InstanceKey: value`. */
const HEADER_LINE = new RegExp(`^([ \\t]*(?:${SECRET_NAMES})[ \\t]*:[ \\t]*)\\S.*$`, 'gim');

/**
 * An instance's `"Key"` (any casing) is its InstanceKey, a secret, but the service's error entries also
 * have a `"Key"`: the name of the field in error (`InstanceId`, `Identifiers.UserId`, `Paging[0].Count`).
 * Only such a name stays; every other value is masked (a UUID, anything with `-`, a run of 16 hex digits).
 */
const KEY_FIELD = /("key"\s*:\s*")((?:\\.|[^"\\])*)(")/gi;
const ESCAPED_KEY_FIELD = /(\\"key\\"\s*:\s*\\")((?:(?!\\").)*)(\\")/gi;
const FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$.[\]]{0,79}$/;
const maskKey = (_: string, before: string, value: string, after: string): string =>
	FIELD_NAME.test(value) && !/[0-9a-f]{16}/i.test(value) ? `${before}${value}${after}` : `${before}${MASK}${after}`;

/** Shortest known secret we mask by value; shorter strings would mask ordinary words. */
const MIN_SECRET_LENGTH = 4;

function escapeRegExp(value: string): string {
	return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The forms a secret may take in text: as is, JSON-escaped, URL-encoded (form and path
 * style), and base64 (standard and URL-safe, with and without padding).
 */
function secretForms(knownSecrets: Iterable<string>): string[] {
	const forms = new Set<string>();
	for (const secret of knownSecrets) {
		if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
		const bytes = Buffer.from(secret);
		const base64 = bytes.toString('base64');
		const encoded = encodeURIComponent(secret);
		for (const form of [
			secret,
			JSON.stringify(secret).slice(1, -1),
			encoded,
			encoded.replace(/%20/g, '+'),
			base64,
			// Stryker disable next-line Regex: equivalent
			base64.replace(/=+$/, ''),
			bytes.toString('base64url'),
		]) forms.add(form);
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Masks JWTs, `Bearer` values, secret-named fields (JSON, escaped JSON, `key=value`,
 * header lines), an instance's `"Key"` (its InstanceKey) and every known secret value of at least 4
 * characters.
 */
// Stryker disable next-line ArrayDeclaration: equivalent
export function redact(text: string, knownSecrets: Iterable<string> = []): string {
	let out = text;
	const forms = secretForms(knownSecrets);
	if (forms.length) {
		// Case-insensitive: percent-encoders differ in hex case; masking a look-alike is harmless.
		out = out.replace(new RegExp(forms.map(escapeRegExp).join('|'), 'gi'), MASK);
	}
	return maskGluedJwts(out.replace(JWT, MASK))
		.replace(BEARER, `$1 ${MASK}`)
		.replace(JSON_FIELD, `$1${MASK}$2`)
		.replace(ESCAPED_JSON_FIELD, `$1${MASK}$2`)
		.replace(KEY_FIELD, maskKey)
		.replace(ESCAPED_KEY_FIELD, maskKey)
		.replace(KEY_VALUE, `$1${MASK}`)
		.replace(HEADER_LINE, `$1${MASK}`);
}

/** Longest text an error message or log line carries from a response, after redaction. */
export const MAX_CLIP = 300;

/** Cuts `text` to `max` characters with an ellipsis. Call it on redacted text only. */
export function clipText(text: string, max: number = MAX_CLIP): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A secret for display: at most its last 4 characters, `••••0001`; values under 12
 * characters show none of theirs: `••••`.
 */
export function maskSecret(value: string): string {
	if (value.length < 12) return '••••';
	return `••••${value.slice(-4)}`;
}
