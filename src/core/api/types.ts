// Shapes shared by the API client, its transport and its callers. Pure: no `vscode` import.

export type AccountKind = 'user' | 'admin';

export type ApiErrorKind =
	| 'badCredentials' // 401: wrong InstanceID, login or password; or a refresh token that was refused
	| 'forbidden' // 403: wrong token kind (user vs admin)
	| 'validation' // 400/422 with Key/Message details
	| 'rateLimited' // 429: too many logins; never retried automatically
	| 'serverUnavailable' // 5xx, or an HTML error page
	| 'network' // connection refused, reset, DNS failure, TLS failure, proxy failure
	| 'timeout' // no answer within telematicsAuth.requestTimeoutSeconds
	| 'cancelled' // the caller aborted
	| 'badResponse'; // a response we could not understand

export interface ValidationDetail {
	key: string;
	message: string;
}

/** How `LoginFields` is written in the login body (setting `telematicsAuth.loginFieldsFormat`). */
export type LoginFieldsFormat = 'object' | 'string';

export interface LoginRequest {
	kind: AccountKind;
	/** Service base URL without a trailing slash, e.g. `https://user.telematicssdk.com`. */
	baseUrl: string;
	/** User Group InstanceID (user) or API InstanceID (admin); an admin may have none (no `InstanceId` header then). */
	instanceId?: string;
	/** The user's DeviceToken (user) or the API Login, an email (admin). */
	login: string;
	/** User Group InstanceKey (user) or API Password (admin). Secret. */
	password: string;
	loginFieldsFormat: LoginFieldsFormat;
}

export interface RefreshRequest {
	baseUrl: string;
	/** Sent as the `InstanceId` header when known; the service does not require it. */
	instanceId?: string;
	/** The current (possibly expired) access token JWT. */
	accessToken: string;
	refreshToken: string;
	/** Never sent: masked out of whatever the service answers, as the tokens sent are (an error may quote it). */
	deviceToken?: string;
}

/** What Login and RefreshToken return, parsed from the `Result` of the envelope. */
export interface TokenResponse {
	deviceToken?: string;
	accessToken: string;
	/** `AccessToken.ExpiresIn` as sent (unit disputed; see core/sessions/token.ts). */
	expiresIn?: number;
	refreshToken: string;
}

/** VS Code's `http.proxySupport`: `off` means no proxy at all, whatever else says. */
export type ProxySupport = 'off' | 'on' | 'override' | 'fallback';

export interface ProxySettings {
	/** `http.proxy`, or undefined to use the environment (HTTPS_PROXY/HTTP_PROXY/NO_PROXY). */
	proxyUrl?: string;
	/** `http.proxyStrictSSL`. */
	strictSSL: boolean;
	/** `http.noProxy`: hosts that bypass the proxy. */
	noProxy: string[];
	/** `http.proxyAuthorization`: the Proxy-Authorization value for the proxy (a secret: never logged). */
	proxyAuthorization?: string;
	/** `http.proxySupport` (default `override`). */
	proxySupport?: ProxySupport;
	/** `telematicsAuth.extraCertificates`: PEM files trusted besides Node's roots and the OS store. */
	extraCertificates?: readonly string[];
	/** `http.fetchAdditionalSupport`: false keeps VS Code's fetch from adding proxies and certificates. */
	fetchAdditionalSupport?: boolean;
}

/**
 * Where the client reads the timeout and the proxy, at each request: the extension's settings
 * (system/config.ts's `Config` is one), handed to the client once, where it is made.
 */
export interface RequestSettings {
	/** `telematicsAuth.requestTimeoutSeconds`, in ms. */
	requestTimeoutMs(): number;
	/** VS Code's proxy settings and `telematicsAuth.extraCertificates`. */
	proxy(): ProxySettings;
}

/** One request's own options; a timeout or proxy given here wins over the client's settings. */
export interface RequestOptions {
	signal?: AbortSignal;
	timeoutMs?: number;
	proxy?: ProxySettings;
}

export interface HttpRequest {
	method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	url: string;
	headers: Record<string, string>;
	body?: string;
	timeoutMs: number;
	signal?: AbortSignal;
	proxy?: ProxySettings;
}

export interface HttpResponse {
	status: number;
	headers: Record<string, string>;
	body: string;
}

/**
 * Sends one HTTP request. Network failures are thrown as `ApiError` with kind
 * `network`, `timeout` or `cancelled`; any HTTP status is returned, never thrown.
 */
export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

/** A request of the agent's (features/agentTools) on an account's service, with its bearer. */
export interface ServiceCall {
	method: HttpRequest['method'];
	/** Checked to be on the account's service (core/agent/serviceRequest.ts). */
	url: string;
	accessToken: string;
	/** JSON text. */
	body?: string;
}

export interface ApiClient {
	login(request: LoginRequest, options?: RequestOptions): Promise<TokenResponse>;
	refresh(request: RefreshRequest, options?: RequestOptions): Promise<TokenResponse>;
	/** Any status comes back as it is; a network failure, a timeout or a body over 1 MiB is an ApiError (redacted). */
	call(request: ServiceCall, options?: RequestOptions): Promise<HttpResponse>;
}
