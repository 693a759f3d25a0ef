// VS Code's network as its desktop extension host gives it to an extension, for tests outside that host:
// VS Code's own proxy agent (@vscode/proxy-agent, the module the host loads) patched onto Node's http and
// https modules the way the host does it (the patch assigned over the module objects themselves),
// with the proxy a PAC file names and proxy sign-in answered. In the desktop, Electron evaluates the PAC
// file and VS Code asks the person to sign in; here pac-resolver evaluates it (in a QuickJS sandbox) and
// `signIn` answers. code-server cannot stand in for this part: its browser side resolves no proxy.
// The module objects themselves, as VS Code patches them (a namespace import would be a copy of getters).
// eslint-disable-next-line @typescript-eslint/no-require-imports
import http = require('node:http');
// eslint-disable-next-line @typescript-eslint/no-require-imports
import https = require('node:https');
import { createHttpPatch, createProxyResolver, LogLevel, type ProxyAgentParams } from '@vscode/proxy-agent';
import { getQuickJS } from '@tootallnate/quickjs-emscripten';
import { createPacResolver } from 'pac-resolver';

export interface VsCodeNetworkOptions {
	/** The PAC file's text: `function FindProxyForURL(url, host) { … }`. */
	pac: string;
	/** VS Code's proxy sign-in: the Proxy-Authorization for a proxy that asked (undefined: the person cancelled). */
	signIn?: (proxyUrl: string, proxyAuthenticate: string | string[] | undefined) => string | undefined;
	/** http.proxySupport (default "override", VS Code's). */
	proxySupport?: 'override' | 'fallback' | 'on' | 'off';
}

export interface VsCodeNetwork {
	/** Every URL the PAC file was asked about, in order. */
	readonly asked: string[];
	/** Every sign-in VS Code would have shown, as the proxy's challenge. */
	readonly signIns: string[];
	/** Puts Node's own http and https back. */
	uninstall(): void;
}

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** Patches Node's http and https for this process until `uninstall`. */
export async function installVsCodeNetwork(options: VsCodeNetworkOptions): Promise<VsCodeNetwork> {
	const findProxy = createPacResolver(await getQuickJS(), options.pac);
	const asked: string[] = [];
	const signIns: string[] = [];
	const params: ProxyAgentParams = {
		resolveProxy: async (url) => {
			asked.push(url);
			return findProxy(url);
		},
		getProxyURL: () => undefined,
		getProxySupport: () => options.proxySupport ?? 'override',
		getNoProxyConfig: () => [],
		isAdditionalFetchSupportEnabled: () => false,
		addCertificatesV1: () => false,
		addCertificatesV2: () => false,
		loadAdditionalCertificates: async () => [],
		lookupProxyAuthorization: async (proxyUrl, proxyAuthenticate, state: { tried?: boolean }) => {
			// As VS Code: asks once per request; a second 407 is the answer.
			if (proxyAuthenticate === undefined || state.tried) return undefined;
			state.tried = true;
			signIns.push(Array.isArray(proxyAuthenticate) ? proxyAuthenticate.join(', ') : proxyAuthenticate);
			return options.signIn?.(proxyUrl, proxyAuthenticate);
		},
		log: quiet,
		getLogLevel: () => LogLevel.Off,
		proxyResolveTelemetry: () => undefined,
		isUseHostProxyEnabled: () => true,
		env: {},
	};
	const { resolveProxyWithRequest } = createProxyResolver(params);
	const saved = [http, https].map((module) => ({ module, request: module.request, get: module.get }));
	for (const module of [http, https]) Object.assign(module, createHttpPatch(params, module, resolveProxyWithRequest));
	return {
		asked, signIns,
		uninstall: () => {
			for (const { module, request, get } of saved) Object.assign(module, { request, get });
		},
	};
}
