// The API client: Login and RefreshToken requests through a `Transport`, their answers turned
// into tokens or an ApiError with a message a person can act on.
import { ApiError } from './errors';
import { cancelledMessage, failureMessage, noRefreshTokenMessage, unreachableMessage, unsafeTokenMessage, type FailureContext } from './errorMessages';
import { interpretResponse } from './parse';
import type { ApiClient, HttpRequest, HttpResponse, LoginRequest, RefreshRequest, RequestOptions, RequestSettings, ServiceCall, TokenResponse, Transport } from './types';
import type { Log } from '../util/log';
import { clipText, redact } from '../util/redact';
import { isSafeToken } from '../util/tokenGrammar';
import { untranslated, type Translate } from '../util/translate';
import { withoutTrailingSlashes, displayUrl, hostOf } from '../util/url';

export const LOGIN_PATH = '/v1/Auth/Login';
export const REFRESH_PATH = '/v1/Auth/RefreshToken';

export function joinUrl(baseUrl: string, path: string): string {
	return `${withoutTrailingSlashes(baseUrl.trim())}${path}`;
}

/** The Login body. `string` format JSON-encodes LoginFields, as the newest vendor samples do. */
export function loginBody(request: LoginRequest): string {
	const fields = request.kind === 'user'
		? (request.loginFieldsFormat === 'string' ? { Devicetoken: request.login } : { deviceToken: request.login })
		: (request.loginFieldsFormat === 'string' ? { email: request.login } : { Email: request.login });
	const loginFields = request.loginFieldsFormat === 'string' ? JSON.stringify(fields) : fields;
	return JSON.stringify({ LoginFields: loginFields, Password: request.password });
}

/**
 * The Login headers. Users also send `InstanceKey` (the same value as Password), as the
 * spec's reference request does; admins do not, since their password is not an InstanceKey.
 * An admin without an API InstanceID sends no `InstanceId`, as the vendor's current samples do.
 */
export function loginHeaders(request: LoginRequest): Record<string, string> {
	return {
		...(request.instanceId && { 'InstanceId': request.instanceId }),
		...(request.kind === 'user' && { 'InstanceKey': request.password }),
		'Content-Type': 'application/json-patch+json',
		'Accept': 'application/json',
	};
}

export function refreshBody(request: RefreshRequest): string {
	return JSON.stringify({ AccessToken: request.accessToken, RefreshToken: request.refreshToken });
}

export function refreshHeaders(request: RefreshRequest): Record<string, string> {
	return {
		...(request.instanceId && { 'InstanceId': request.instanceId }),
		'Content-Type': 'application/json-patch+json',
		'Accept': 'application/json',
	};
}

/** The timeout outside VS Code (tests, benchmarks) when none is given: the setting's default. */
export const DEFAULT_TIMEOUT_MS = 30_000;
const NO_SETTINGS: RequestSettings = { requestTimeoutMs: () => DEFAULT_TIMEOUT_MS, proxy: () => ({ strictSSL: true, noProxy: [] }) };

/**
 * `t` words the error messages (the VS Code layer passes `vscode.l10n.t`). `settings`: where each
 * request's timeout and proxy come from (the VS Code layer passes its `Config`), unless the request's
 * own options name them.
 */
export function createApiClient(transport: Transport, log: Log, t: Translate = untranslated, settings: RequestSettings = NO_SETTINGS): ApiClient {
	/** A request's timeout, proxy and signal: its own where given, else the settings' as they are now. */
	function exchange(options: RequestOptions = {}): Pick<HttpRequest, 'timeoutMs' | 'proxy' | 'signal'> {
		return {
			timeoutMs: options.timeoutMs ?? settings.requestTimeoutMs(),
			proxy: options.proxy ?? settings.proxy(),
			...(options.signal && { signal: options.signal }),
		};
	}

	async function send(
		httpRequest: HttpRequest,
		/** Built only on failure: its host costs a URL parse per request. */
		context: () => FailureContext,
		secrets: string[],
	): Promise<Omit<TokenResponse, 'refreshToken'> & { refreshToken?: string }> {
		const shown = `${httpRequest.method} ${displayUrl(httpRequest.url)}`;
		const started = Date.now();
		const elapsed = (): string => `${Date.now() - started} ms`;
		const safe = (text: string): string => redact(text, secrets);
		const failed = (error: ApiError): ApiError => {
			const status = error.status !== undefined ? `${error.status} ` : '';
			log.warn(safe(`${shown} → ${status}${error.kind} (${elapsed()})`));
			return new ApiError(
				error.kind,
				safe(error.message),
				error.status,
				error.details.map((d) => ({ key: safe(d.key), message: safe(d.message) })),
				error.retryAfterSeconds,
			);
		};

		let response;
		try {
			response = await transport(httpRequest);
		} catch (e) {
			if (e instanceof ApiError) throw failed(e);
			if (httpRequest.signal?.aborted) throw failed(new ApiError('cancelled', cancelledMessage(t)));
			const name = e instanceof Error ? e.name : typeof e;
			log.error(`${shown}: unexpected ${name} from the network layer`);
			throw failed(new ApiError('network', unreachableMessage(context().host, t)));
		}

		const outcome = interpretResponse(response);
		if (!outcome.ok) {
			// Redacted first, then cut: a cut must never leave part of a secret behind.
			const f = outcome.failure;
			const details = f.details.map((d) => ({ key: clipText(safe(d.key)), message: clipText(safe(d.message)) }));
			const title = f.title === undefined ? undefined : clipText(safe(f.title));
			const clean = { ...f, details, ...(title !== undefined && { title }) };
			throw failed(new ApiError(f.kind, failureMessage(clean, context(), t), f.status, details, f.retryAfterSeconds));
		}
		// A token is stored, written into files and sent in headers: anything outside the
		// token grammar (line breaks, quotes, braces, shell characters, megabytes) is refused here.
		const tokens = outcome.tokens;
		const unsafe = [['access token', tokens.accessToken], ['refresh token', tokens.refreshToken], ['device token', tokens.deviceToken]]
			.filter(([, value]) => value !== undefined && !isSafeToken(value))
			.map(([name]) => name);
		if (unsafe.length) {
			log.warn(`${shown} → ${response.status}: refused the answer, its ${unsafe.join(' and ')} does not fit the token grammar (${elapsed()})`);
			throw new ApiError('badResponse', unsafeTokenMessage(context().host, t), response.status);
		}
		log.info(`${shown} → ${response.status} (${elapsed()})`);
		return tokens;
	}

	return {
		async login(request: LoginRequest, options?: RequestOptions): Promise<TokenResponse> {
			const url = joinUrl(request.baseUrl, LOGIN_PATH);
			const secrets = [request.password, ...(request.kind === 'user' ? [request.login] : [])];
			const context = (): FailureContext => ({ operation: 'login', accountKind: request.kind, host: hostOf(url) });
			const tokens = await send(
				{ method: 'POST', url, headers: loginHeaders(request), body: loginBody(request), ...exchange(options) },
				context,
				secrets,
			);
			if (tokens.refreshToken === undefined) {
				log.warn(`POST ${displayUrl(url)}: the answer has no refresh token`);
				throw new ApiError('badResponse', noRefreshTokenMessage(t), 200);
			}
			return { ...tokens, refreshToken: tokens.refreshToken };
		},

		async refresh(request: RefreshRequest, options?: RequestOptions): Promise<TokenResponse> {
			const url = joinUrl(request.baseUrl, REFRESH_PATH);
			const context = (): FailureContext => ({ operation: 'refresh', host: hostOf(url) });
			const tokens = await send(
				{ method: 'POST', url, headers: refreshHeaders(request), body: refreshBody(request), ...exchange(options) },
				context,
				[request.accessToken, request.refreshToken, ...(request.deviceToken ? [request.deviceToken] : [])],
			);
			if (tokens.refreshToken === undefined) {
				// No rotation in this answer: the refresh token we sent is still the one to keep.
				log.debug(`POST ${displayUrl(url)}: no new refresh token in the answer; keeping the current one`);
			}
			return { ...tokens, refreshToken: tokens.refreshToken ?? request.refreshToken };
		},

		async call(request: ServiceCall, options?: RequestOptions): Promise<HttpResponse> {
			// Host only: the agent's paths name users by their DeviceToken (a user's credential).
			const shown = `${request.method} ${hostOf(request.url)}`;
			const safe = (text: string): string => redact(text, [request.accessToken]);
			const started = Date.now();
			const headers: Record<string, string> = { Authorization: `Bearer ${request.accessToken}`, Accept: 'application/json' };
			if (request.body !== undefined) headers['Content-Type'] = 'application/json';
			try {
				const response = await transport({ method: request.method, url: request.url, headers, ...(request.body !== undefined && { body: request.body }), ...exchange(options) });
				log.info(`${shown} → ${response.status} (${Date.now() - started} ms, for the agent)`);
				return response;
			} catch (e) {
				const error = e instanceof ApiError ? e : new ApiError('network', unreachableMessage(hostOf(request.url), t));
				log.warn(safe(`${shown} → ${error.kind} (${Date.now() - started} ms, for the agent)`));
				throw new ApiError(error.kind, safe(error.message), error.status);
			}
		},
	};
}
