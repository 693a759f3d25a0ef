// Masks secrets in text before it reaches a log, an error message or the screen.
// Pure: no `vscode` import. Belt and braces: callers should not hand secrets over at all.

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

/** A JWT: base64url of `{"` (`eyJ`) then two more base64url segments (the last may be empty). */
const JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer)\s+[^\s"',;]+/gi;
/** `"Password": "value"` (value may contain escaped quotes). */
const JSON_FIELD = new RegExp(`("(?:${SECRET_NAMES})"\\s*:\\s*")(?:\\\\.|[^"\\\\])*(")`, 'gi');
/** The same inside a JSON-encoded string: `\"Devicetoken\":\"value\"`. */
const ESCAPED_JSON_FIELD = new RegExp(`(\\\\"(?:${SECRET_NAMES})\\\\"\\s*:\\s*\\\\")(?:(?!\\\\").)*(\\\\")`, 'gi');
/** `password=value` in query strings and forms. */
const KEY_VALUE = new RegExp(`\\b((?:${SECRET_NAMES})=)[^&\\s"',;]+`, 'gi');
/** A header line: `InstanceKey: value`. */
const HEADER_LINE = new RegExp(`^([ \\t]*(?:${SECRET_NAMES})[ \\t]*:[ \\t]*)\\S.*$`, 'gim');

/** Shortest known secret we mask by value; shorter strings would mask ordinary words. */
const MIN_SECRET_LENGTH = 4;

function escapeRegExp(value: string): string {
	return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The forms a secret may take in text: as is, and JSON-escaped. */
function secretForms(knownSecrets: Iterable<string>): string[] {
	const forms = new Set<string>();
	for (const secret of knownSecrets) {
		if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
		forms.add(secret);
		forms.add(JSON.stringify(secret).slice(1, -1));
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Masks JWTs, `Bearer` values, secret-named fields (JSON, escaped JSON, `key=value`,
 * header lines) and every known secret value of at least 4 characters.
 */
export function redact(text: string, knownSecrets: Iterable<string> = []): string {
	let out = text;
	const forms = secretForms(knownSecrets);
	if (forms.length) {
		out = out.replace(new RegExp(forms.map(escapeRegExp).join('|'), 'g'), MASK);
	}
	return out
		.replace(JWT, MASK)
		.replace(BEARER, `$1 ${MASK}`)
		.replace(JSON_FIELD, `$1${MASK}$2`)
		.replace(ESCAPED_JSON_FIELD, `$1${MASK}$2`)
		.replace(KEY_VALUE, `$1${MASK}`)
		.replace(HEADER_LINE, `$1${MASK}`);
}

/** A secret for display: `demo…0001`. Values under 12 characters show nothing: `••••`. */
export function maskSecret(value: string): string {
	if (value.length < 12) return '••••';
	return `${value.slice(0, 4)}…${value.slice(-4)}`;
}
