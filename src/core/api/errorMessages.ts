// The messages people see for the API client's failures: what happened and what to do, never a token,
// a password or a raw body. Each message goes through `t` (the VS Code layer passes `vscode.l10n.t`).
import type { Failure } from './parse';
import type { AccountKind, ValidationDetail } from './types';
import { untranslated, type Translate } from '../util/translate';
import { formatSeconds, formatWait } from '../util/time';

/** What a message needs to know about the request that failed. */
export interface FailureContext {
	operation: 'login' | 'refresh';
	/** The account kind, for login. */
	accountKind?: AccountKind;
	/** `host[:port]` of the service, never the full URL. */
	host: string;
}

function checkNetwork(t: Translate): string {
	return t('Check the service URL (telematicsAuth.baseUrl) and your network/proxy settings (http.proxy).');
}

/** What to do when a proxy wants credentials. */
function proxyCredentialsHint(t: Translate): string {
	return t('Give the proxy your credentials in http.proxyAuthorization (e.g. "Basic " and the base64 of user:password), or as user:password@ in http.proxy.');
}

/** `http.proxyAuthorization` cannot go out as a header. */
export function badProxyAuthorizationMessage(t: Translate): string {
	return t('http.proxyAuthorization holds a character a header cannot carry (a line break, or a letter outside ASCII), so nothing was sent. Write it on one line, e.g. "Basic " and the base64 of user:password.');
}

function credentialsHint(kind: AccountKind | undefined, t: Translate): string {
	if (kind === 'user') return t('Check the User Group InstanceID, the device token and the User Group InstanceKey, then log in again.');
	if (kind === 'admin') return t('Check the API InstanceID, the API Login and the API Password, then log in again.');
	return t('Check the InstanceID, the device token (or API login) and the InstanceKey (or API password), then log in again.');
}

export function formatDetails(details: readonly ValidationDetail[]): string {
	return details.map((d) => (d.key ? `${d.key}: ${d.message || 'invalid'}` : d.message)).join('; ');
}

/** The message for a failure read from a response (see parse.ts). */
export function failureMessage(failure: Failure, context: FailureContext, t: Translate = untranslated): string {
	const { status } = failure;
	const login = context.operation === 'login';
	switch (failure.kind) {
		case 'badCredentials':
			return login
				? t('The service refused these credentials. {0} If you are sure they are right, try the other telematicsAuth.loginFieldsFormat setting.', credentialsHint(context.accountKind, t))
				: t('The refresh token was refused (it may have expired or been used already). Log in again.');
		case 'forbidden':
			return login
				? t('The service refused this login (403): the credentials belong to a different kind of account. Use "Log In as User" for a User Group InstanceID and device token, "Log In as Admin" for an API InstanceID and API Login.')
				: t('The service refused the refresh (403): the token belongs to a different kind of account (user vs admin). Log in again.');
		case 'validation': {
			const listed = formatDetails(failure.details);
			if (listed) return login ? t('The service rejected the login request: {0}', listed) : t('The service rejected the refresh request: {0}', listed);
			const code = String(status);
			if (failure.title) {
				return login
					? t('The service rejected the login request (HTTP {0}): {1}', code, failure.title)
					: t('The service rejected the refresh request (HTTP {0}): {1}', code, failure.title);
			}
			return login ? t('The service rejected the login request (HTTP {0}).', code) : t('The service rejected the refresh request (HTTP {0}).', code);
		}
		case 'rateLimited': {
			const wait = failure.retryAfterSeconds !== undefined ? t('Wait {0}', formatWait(failure.retryAfterSeconds, t)) : t('Wait a few minutes');
			return login
				? t('Logins are rate-limited by the service (HTTP 429). {0}, then log in again; the extension will not retry the login by itself.', wait)
				: t('The service is rate-limiting requests (HTTP 429). {0}, then try again; the extension will not retry the login by itself.', wait);
		}
		case 'serverUnavailable':
			return failure.html
				? t('The service (or a proxy in between) answered with an error page (HTTP {0}). Try again later.', String(status))
				: t('The service is unavailable (HTTP {0}). Try again later.', String(status));
		case 'network':
			return status === 407
				? t('The proxy asked for authentication (HTTP 407). {0}', proxyCredentialsHint(t))
				: t('Could not reach {0}. {1}', context.host, checkNetwork(t));
		case 'timeout':
			return t('{0} did not answer in time (HTTP {1}). Try again later, or raise telematicsAuth.requestTimeoutSeconds.', context.host, String(status));
		case 'cancelled':
			return cancelledMessage(t);
		case 'badResponse':
			if (status === 404) return t('The service answered 404 Not Found: {0} does not look like the telematics user service. Check telematicsAuth.baseUrl.', context.host);
			return failure.problem
				? t('The service answered in a form this extension does not understand (HTTP {0}: {1}). Check telematicsAuth.baseUrl.', String(status), failure.problem)
				: t('The service answered in a form this extension does not understand (HTTP {0}). Check telematicsAuth.baseUrl.', String(status));
	}
}

/**
 * A proxy refused the tunnel until it gets credentials (407), and where they go: VS Code asks on
 * the desktop, but not in a browser, and not once the person has dismissed its question.
 */
export function proxyAuthenticationMessage(host: string, proxy: string | undefined, t: Translate = untranslated): string {
	return proxy
		? t('Could not reach {0} (the proxy {1} asked for authentication). {2}', host, proxy, proxyCredentialsHint(t))
		: t('Could not reach {0} (a proxy asked for authentication). {1}', host, proxyCredentialsHint(t));
}

/** Connection-level failure: `reason` is a short phrase like `connection refused`. */
export function networkMessage(host: string, reason: string, t: Translate = untranslated): string {
	return t('Could not reach {0} ({1}). {2}', host, reason, checkNetwork(t));
}

/** No connection at all, reason unknown. */
export function unreachableMessage(host: string, t: Translate = untranslated): string {
	return t('Could not reach {0}. {1}', host, checkNetwork(t));
}

export function timeoutMessage(host: string, timeoutMs: number, t: Translate = untranslated): string {
	return t('{0} did not answer within {1} seconds. Try again later, or raise the timeout in the setting telematicsAuth.requestTimeoutSeconds.', host, formatSeconds(timeoutMs));
}

export function cancelledMessage(t: Translate = untranslated): string {
	return t('The request was cancelled.');
}

export function tooLargeMessage(host: string, limitBytes: number, t: Translate = untranslated): string {
	return t('The service answered in a form this extension does not understand (the response from {0} is larger than {1} KiB). Check telematicsAuth.baseUrl.', host, Math.round(limitBytes / 1024));
}

/** The Login answer had no refresh token. */
export function noRefreshTokenMessage(t: Translate = untranslated): string {
	return t('The service answered in a form this extension does not understand (the login answer has no refresh token). Check telematicsAuth.baseUrl.');
}

/** A token in the answer does not fit the token grammar (util/tokenGrammar.ts); nothing was stored. */
export function unsafeTokenMessage(host: string, t: Translate = untranslated): string {
	return t('The service at {0} sent a token this extension will not use (it holds characters no token has, or is too long). Nothing was stored and your sessions are unchanged. Check telematicsAuth.baseUrl.', host);
}

/**
 * The server's certificate is not trusted here. Names the issuer when known, and the fix that
 * keeps checks on: the company root in the OS store or in telematicsAuth.extraCertificates.
 */
export function untrustedCertificateMessage(host: string, issuer: string | undefined, code: string, viaProxy: string | undefined, t: Translate = untranslated): string {
	const what = issuer
		? t('the certificate of {0} is issued by "{1}", which this computer does not trust ({2})', host, issuer, code)
		: t('the certificate of {0} is not trusted by this computer ({1})', host, code);
	const proxy = viaProxy ? t(' The connection went through the proxy {0}, which may be re-signing HTTPS: check http.proxy, or trust its root certificate.', viaProxy) : '';
	return t('Could not log in securely: {0}. If your network inspects HTTPS, add your company\'s root certificate to the operating system\'s certificate store, or list its PEM file in the setting telematicsAuth.extraCertificates.{1}', what, proxy);
}
