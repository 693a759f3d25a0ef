// The door for httpYac (issue 64): httpYac never holds a live token. `{{TELEMATICS_TOKEN}}` and
// `{{TELEMATICS_TOKEN_<NAME>}}` resolve to a *reference*: a JWT-shaped value unique to the account and the
// window that no service takes. Scripts, OAuth2 secrets, XPath, file imports and httpYac's records only
// ever see it. At the last step before the request goes, the reference is swapped for the live token in
// one place only: the whole Bearer credential of the Authorization header, on an HTTP request to one of
// the account's own origins, with no proxy the person did not set, certificate checks on and no got
// option the check cannot read. The swap is made by got itself, in a `beforeRequest` hook that reads the
// URL got is about to open (a redirect to another origin gets the reference back), and undone in the
// headers got hands back (`afterResponse`, `beforeRedirect`, `beforeError`), so what httpYac logs, shows
// and keeps holds the reference. An intact reference anywhere else is asked about (decideDoor); a
// reference that was cut or encoded is no token and goes as it is. Pure: no `vscode`.
import { randomBytes } from 'node:crypto';
import { hostHeaderDiffers, originOf, sendReasons, type OutgoingRequest, type SendReason, type TokenPlace } from './sendCheck';

/** An account as the door sees it: its reference and the origins its token may go to. */
export interface ReferenceAccount {
	id: string;
	name: string;
	label: string;
	reference: string;
	platformOrigins: readonly string[];
}

function base64url(text: string): string {
	// Buffer's default encoding is utf8.
	// Stryker disable next-line StringLiteral: equivalent
	return Buffer.from(text, 'utf8').toString('base64url');
}

/** Every reference's first segment: base64url of `{"alg":"none","typ":"telematics-auth-reference"}`. */
export const REFERENCE_HEADER = base64url('{"alg":"none","typ":"telematics-auth-reference"}');

/**
 * A new reference for the account named `accountName`: `header.payload.random`, in the token's grammar
 * (a JWT with no signature algorithm), so httpYac and its scripts treat it as any token; the payload says
 * what it is, the last segment (128 random bits) makes it this window's and this account's alone.
 */
export function mintReference(accountName: string, random: Buffer = randomBytes(16)): string {
	const payload = base64url(JSON.stringify({ telematicsAuth: 'reference', account: accountName, note: 'not a token: Telematics Auth puts the token in at Send' }));
	return `${REFERENCE_HEADER}.${payload}.${random.toString('base64url')}`;
}

/**
 * Whether a token may go in at the door: the token grammar's characters (util/tokenGrammar's isSafeToken,
 * written here: the httpYac plugin's bundle shares no module with the extension's), so nothing but the
 * token rides into the header.
 */
export function fitsHeader(token: string): boolean {
	return token.length <= 8 * 1024 && /^[A-Za-z0-9\-_.~+/=]+$/.test(token);
}

/** The random segment of a reference (what a piece of it most likely still holds). */
function randomPart(reference: string): string {
	return reference.slice(reference.lastIndexOf('.') + 1);
}

/** Why an intact reference is asked about: a SendReason, or it is not where the platform takes a token. */
export type DoorReason = SendReason | { kind: 'notCredential' };

export interface DoorAsked {
	account: ReferenceAccount;
	places: TokenPlace[];
	reasons: DoorReason[];
}

/** What to do with the references in a request. */
export interface DoorDecision {
	/** The account whose token goes in at the door, as the Authorization header's Bearer credential. */
	swap?: ReferenceAccount;
	/** Intact references on their way anywhere else: asked about. */
	asked: DoorAsked[];
	/** The URL's origin (undefined when the URL is none: never shown raw). */
	destination: string | undefined;
	/** Accounts of which only a piece of the reference is in the request: it goes as it is. */
	altered: ReferenceAccount[];
	/** Accounts whose reference goes whole by a protocol the door does not see (WebSocket, gRPC, MQTT, SSE): as it is. */
	unseen: ReferenceAccount[];
}

/** `Bearer <reference>`, the one form the door swaps (the scheme in any case, one space or more). */
function bearerOf(value: string, reference: string): boolean {
	const m = /^bearer +(\S+)$/i.exec(value.trim());
	return m?.[1] === reference;
}

/**
 * Where each account's reference is in `request` and what happens to it. The Authorization header's
 * value `Bearer <reference>`, the header's only value, is the door: the token goes in there when the
 * request goes to one of the account's origins, through no proxy but `personProxy`, with certificate
 * checks on and every got option read, and `http` (httpYac's HTTP protocol, the only one whose sending
 * the door sees). The reference anywhere else (URL, another header, the body, a second Authorization)
 * is asked about; a piece of it alone is reported as altered.
 */
export function decideDoor(request: OutgoingRequest, accounts: readonly ReferenceAccount[], personProxy: string | undefined, http: boolean): DoorDecision {
	const destination = originOf(request.url);
	const authorizations = request.headers.filter(([name]) => name.toLowerCase() === 'authorization');
	const decision: DoorDecision = { asked: [], destination, altered: [], unseen: [] };
	for (const account of accounts) {
		const ref = account.reference;
		const atDoor = http && authorizations.length === 1 && bearerOf(authorizations[0]![1], ref);
		const elsewhere: TokenPlace[] = [
			...(request.url.includes(ref) ? ['url' as const] : []),
			...(request.headers.some(([name, value]) => name.includes(ref) || (value.includes(ref) && !(atDoor && name.toLowerCase() === 'authorization'))) ? ['header' as const] : []),
			...(request.body?.includes(ref) ? ['body' as const] : []),
		];
		// Not HTTP: no place is the door (atDoor is false), so `elsewhere` holds every whole reference.
		if (!http) {
			if (elsewhere.length > 0) decision.unseen.push(account);
			continue;
		}
		const reasons = sendReasons(request, account.platformOrigins, personProxy);
		if (atDoor && reasons.length === 0 && elsewhere.length === 0 && decision.swap === undefined) {
			decision.swap = account;
		} else if (atDoor || elsewhere.length > 0) {
			const places: TokenPlace[] = atDoor ? ['header', ...elsewhere] : elsewhere;
			decision.asked.push({ account, places: [...new Set(places)], reasons: elsewhere.length > 0 ? [{ kind: 'notCredential' }, ...reasons] : reasons.length > 0 ? reasons : [{ kind: 'notCredential' }] });
		} else {
			const piece = randomPart(ref);
			// No body: an empty text, or any other that holds no reference.
			// Stryker disable next-line StringLiteral: equivalent
			const texts = [request.url, ...request.headers.flat(), request.body ?? ''];
			if (texts.some((text) => text.includes(piece) || text.includes(ref.slice(0, -piece.length - 1)))) decision.altered.push(account);
		}
	}
	return decision;
}

/** `text` with every intact reference of `accounts` replaced by its token (`tokens` by account id). */
export function withTokens(text: string, accounts: readonly ReferenceAccount[], tokens: ReadonlyMap<string, string>): string {
	let out = text;
	for (const account of accounts) {
		const token = tokens.get(account.id);
		if (token !== undefined) out = out.split(account.reference).join(token);
	}
	return out;
}

/** got's options as the door's hooks read them (got 11: header names in lower case, `url` a URL). */
interface GotOptions { url?: unknown; headers?: Record<string, unknown> }

/** The got hooks that put `token` in at the door and take it out of what got hands back. */
export interface DoorHooks {
	beforeRequest: (options: GotOptions) => void;
	beforeRedirect: (options: GotOptions) => void;
	afterResponse: <R>(response: R) => R;
	beforeError: <E>(error: E) => E;
}

/**
 * The door as got hooks. `beforeRequest` (the last of got's, run for every request got opens, redirects
 * included): the Authorization header becomes `Bearer <token>` when the URL got is about to open has one
 * of `origins`, and stays `Bearer <reference>` for any other. `beforeRedirect` (the first, before
 * httpYac logs the redirect), `afterResponse` and `beforeError` put the reference back in the headers
 * got keeps, which httpYac records.
 */
export function doorHooks(reference: string, token: string, origins: readonly string[], throughProxy: boolean): DoorHooks {
	const withToken = `Bearer ${token}`;
	const withReference = `Bearer ${reference}`;
	const putBack = (headers: Record<string, unknown> | undefined): void => {
		if (headers && headers.authorization === withToken) headers.authorization = withReference;
	};
	const headersOf = (o: unknown): Record<string, unknown> | undefined => {
		const headers = (o as GotOptions | undefined)?.headers;
		// Every caller takes null as no headers.
		// Stryker disable next-line ConditionalExpression: equivalent
		if (headers === null) return undefined;
		return typeof headers === 'object' ? headers : undefined;
	};
	const hooks: DoorHooks = {
		beforeRequest: (options) => {
			const headers = headersOf(options);
			const current = headers?.authorization;
			if (!headers || typeof current !== 'string' || !(current === withToken || bearerOf(current, reference))) return;
			headers.authorization = goesToItsOwn(options) ? withToken : withReference;
		},
		beforeRedirect: (options) => putBack(headersOf(options)),
		afterResponse: (response) => {
			putBack(headersOf((response as { request?: { options?: unknown } } | undefined)?.request?.options));
			return response;
		},
		beforeError: (error) => {
			putBack(headersOf((error as { options?: unknown } | undefined)?.options));
			return error;
		},
	};
	/**
	 * What got is about to open, read again as it opens it: one of the account's origins, the Host header the
	 * URL's, no agent but the person's proxy, certificate checks on, and no hook after ours that could still
	 * change the request (something that ran after the check, such as another plugin's interceptor).
	 */
	function goesToItsOwn(options: GotOptions): boolean {
		const o = options as GotOptions & { agent?: unknown; https?: { rejectUnauthorized?: unknown }; rejectUnauthorized?: unknown; request?: unknown; hooks?: { beforeRequest?: unknown[] } };
		// No URL: no origin, whatever text stands for it.
		// Stryker disable next-line StringLiteral: equivalent
		const url = o.url instanceof URL ? o.url.href : String(o.url ?? '');
		const origin = originOf(url);
		// No origin is in `origins` either.
		// Stryker disable next-line ConditionalExpression: redundant
		if (origin === undefined) return false;
		if (!origins.includes(origin)) return false;
		const headers = Object.entries(headersOf(o) ?? {}).map(([name, value]) => [name, String(value)] as [string, string]);
		if (hostHeaderDiffers({ url, headers })) return false;
		if (o.https?.rejectUnauthorized === false || o.rejectUnauthorized === false || o.request !== undefined) return false;
		const agents = typeof o.agent === 'object' && o.agent !== null ? Object.values(o.agent).filter(Boolean) : [];
		if (agents.length > 0 && !throughProxy) return false;
		const later = o.hooks?.beforeRequest;
		return !Array.isArray(later) || later[later.length - 1] === hooks.beforeRequest;
	}
	return hooks;
}

/**
 * "Send Anyway" put tokens in as text: got's hooks for that one request. A redirect is another request,
 * so none is followed; and the tokens are put back out of the headers and body got hands to httpYac's records.
 */
export function anywayHooks(swapped: ReadonlyArray<{ token: string; reference: string }>): Pick<DoorHooks, 'afterResponse' | 'beforeError'> {
	const putBack = (o: unknown): void => {
		const options = o as { headers?: Record<string, unknown>; body?: unknown } | undefined;
		const out = (text: string): string => swapped.reduce((t, { token, reference }) => t.split(token).join(reference), text);
		for (const [name, value] of Object.entries(options?.headers ?? {})) if (typeof value === 'string') options!.headers![name] = out(value);
		if (options && typeof options.body === 'string') options.body = out(options.body);
	};
	return {
		afterResponse: (response) => {
			putBack((response as { request?: { options?: unknown } } | undefined)?.request?.options);
			return response;
		},
		beforeError: (error) => {
			putBack((error as { options?: unknown } | undefined)?.options);
			return error;
		},
	};
}

/**
 * A token written in the request goes only where it was allowed to go: on every request got opens (a
 * redirect too), one that would carry one of `tokens` in a header, the URL or a text body to an origin not
 * in `allowed` fails with `stopped(origin)` instead (got keeps custom headers and a 307's body on any
 * redirect, and Authorization when only the scheme changes).
 */
export function literalGuard(tokens: readonly string[], allowed: readonly string[], stopped: (origin: string) => string): (options: GotOptions & { body?: unknown }) => void {
	return (options) => {
		const url = options.url instanceof URL ? options.url.href : String(options.url ?? '');
		const origin = originOf(url) ?? url;
		if (allowed.includes(origin)) return;
		const texts = [url, ...Object.values(options.headers ?? {}).flat().map(String)];
		if (typeof options.body === 'string') texts.push(options.body);
		if (texts.some((text) => tokens.some((token) => text.includes(token)))) throw new Error(stopped(origin));
	};
}
