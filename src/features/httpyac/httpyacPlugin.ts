// Telematics Auth's plugin for httpYac (its own bundle, dist/httpyac.js: index.ts loads it once httpYac
// for VS Code is there). Two hooks of every file httpYac parses:
// - `provideVariables`: TELEMATICS_TOKEN (the active account) and TELEMATICS_TOKEN_<NAME> (each logged-in
//   account), read when httpYac sends, refreshed first when due; nothing written, nothing in any environment;
//   nothing in a folder VS Code does not trust (core/httpyac/liveVariables.ts).
//   A `{{TELEMATICS_TOKEN_<NAME>}}` no logged-in account answers is an error naming the account.
// - the last step before the request goes (`onRequest`'s `afterLoop`): the request as httpYac will send it,
//   after every script, environment and config, goes through core/httpyac/sendCheck.ts; a live token on
//   its way elsewhere, through a proxy the person did not set or with certificate checks off waits for the
//   person's answer, and on Cancel nothing is sent.
// Its own bundle (dist/httpyac.js): the one require of vscode there.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import vscode = require('vscode');
import { liveVariables } from '../../core/httpyac/liveVariables';
import { decideSend, gotOptionsRead, personProxyFrom, turnsCertificatesOff, type HeldAccount, type OutgoingRequest, type SendDecision, type SendReason } from '../../core/httpyac/sendCheck';

/** The name the plugin has in httpYac's plugin store. */
export const PLUGIN_NAME = 'telematicsAuth';

/** An account as the plugin sees it (index.ts builds these from the session store). */
export interface PluginAccount {
	id: string;
	name: string;
	label: string;
	/** Its `TELEMATICS_TOKEN_<NAME>`, when it has a name. */
	variable?: string;
	active: boolean;
	/** Its live access and refresh tokens while it holds them. */
	tokens: string[];
	platformOrigins: string[];
}

/** What the plugin needs from the extension (index.ts). */
export interface PluginHost {
	log: { info(message: string): void; warn(message: string): void; error(message: string): void };
	/** `TELEMATICS_TOKEN`. */
	activeVariable: string;
	accounts(): PluginAccount[];
	/** The account's access token to send now, refreshed first when due; undefined when it has none. */
	liveToken(accountId: string): Promise<string | undefined>;
	/** Whether VS Code trusts the workspace: in Restricted Mode no token is given. */
	trusted(): boolean;
	/** VS Code's `http.proxy` (the person's proxy is it, else the extension host's HTTPS_PROXY/HTTP_PROXY: personProxyFrom). */
	httpProxy(): string | undefined;
	/** A modal question; true only when the person chose `action`. */
	confirm(message: string, detail: string, action: string): Promise<boolean>;
}

// The parts of httpYac's API the plugin uses (httpyac 6: models/hooks.ts, store/pluginStore.ts; hookpoint).
interface Hook<A extends unknown[]> {
	addHook(id: string, action: (...args: A) => unknown, options?: { before?: string[] }): void;
	addInterceptor(interceptor: { id: string; afterLoop?: (context: { args: A }) => Promise<boolean> }): void;
}
interface HttpyacLog { error(...args: unknown[]): void; warn(...args: unknown[]): void; info(...args: unknown[]): void }
interface PluginApi {
	version?: string;
	log?: HttpyacLog;
	hooks: { provideVariables: Hook<[unknown, unknown]>; replaceVariable: Hook<[unknown, string, { variables?: Record<string, unknown> }]>; onRequest: Hook<[HttpyacRequest, { config?: { request?: unknown } }]> };
}
interface HttpyacRequest {
	url?: unknown;
	headers?: Record<string, unknown>;
	body?: unknown;
	proxy?: unknown;
	noRejectUnauthorized?: unknown;
	options?: unknown;
	https?: unknown;
	rejectUnauthorized?: unknown;
}
interface HttpyacExports {
	httpyac: { store: { pluginStore: Record<string, (api: PluginApi) => void> } };
	documentStore: { clear(): void };
}

/** httpYac for VS Code's major version the plugin was written for and tested with (6.16.7). */
const SUPPORTED_MAJOR = 6;

function fits(exports: unknown): exports is HttpyacExports {
	const e = exports as Partial<HttpyacExports> | undefined;
	return typeof e?.httpyac?.store?.pluginStore === 'object' && e.httpyac.store.pluginStore !== null && typeof e.documentStore?.clear === 'function';
}

function hooksFit(api: PluginApi): boolean {
	const { provideVariables, replaceVariable, onRequest } = api.hooks ?? {};
	return typeof provideVariables?.addHook === 'function' && typeof replaceVariable?.addHook === 'function' && typeof onRequest?.addInterceptor === 'function';
}

/**
 * Adds the plugin to httpYac's library (`exports`, what its `activate()` returned) and has httpYac parse
 * its documents again so each gets it; undefined, said once in the log, when the API is not the one known.
 */
export function registerPlugin(exports: unknown, version: string, host: PluginHost): vscode.Disposable | undefined {
	const major = Number(/^(\d+)\./.exec(version)?.[1]);
	if (major !== SUPPORTED_MAJOR || !fits(exports)) {
		host.log.warn(`httpYac ${version} is installed, but its API is not the one Telematics Auth knows (httpYac ${SUPPORTED_MAJOR}): httpYac gets no live tokens and its requests are not checked at Send. Use telematicsAuth.exposeToken, or the token written by Insert.`);
		return undefined;
	}
	let active = true;
	let toldHooks = false;
	exports.httpyac.store.pluginStore[PLUGIN_NAME] = (api) => {
		if (!active) return;
		if (!hooksFit(api)) {
			if (!toldHooks) host.log.warn('httpYac\'s plugin hooks are not the ones Telematics Auth knows: its requests get no live tokens and are not checked at Send.');
			toldHooks = true;
			return;
		}
		addHooks(api, host, () => active);
	};
	exports.documentStore.clear();
	host.log.info(`Added the plugin to httpYac ${version}: live tokens at Send, and each request checked before it goes.`);
	return new vscode.Disposable(() => {
		active = false;
		delete exports.httpyac.store.pluginStore[PLUGIN_NAME];
		exports.documentStore.clear();
	});
}

/** `{{TELEMATICS_TOKEN}}` or `{{ TELEMATICS_TOKEN_NAME }}` in a text httpYac is about to fill in. */
const REFERENCE = /\{\{\s*(TELEMATICS_TOKEN(?:_[A-Za-z0-9_]+)?)\s*\}\}/g;

function addHooks(api: PluginApi, host: PluginHost, isActive: () => boolean): void {
	const httpyacLog = api.log;
	api.hooks.provideVariables.addHook(PLUGIN_NAME, async () => isActive() ? liveVariables(host.accounts(), host.trusted(), host.activeVariable, host.liveToken) : {});
	// Before httpYac's own replacers, which would only say "not defined".
	api.hooks.replaceVariable.addHook(PLUGIN_NAME, (value, _type, context) => {
		if (!isActive() || typeof value !== 'string') return value;
		for (const [, variable] of value.matchAll(REFERENCE)) {
			if (variable === undefined || context?.variables?.[variable] !== undefined) continue;
			const message = unansweredReference(variable, host);
			host.log.warn(`httpYac: ${message}`);
			throw new Error(message);
		}
		return value;
	}, { before: ['xpath', 'javascript', 'intellijDynamic', 'intellijProjectContext', 'name'] });
	api.hooks.onRequest.addInterceptor({
		id: PLUGIN_NAME,
		afterLoop: async ({ args: [request, context] }) => {
			if (!isActive()) return true;
			const outgoing = await readRequest(request, context?.config?.request);
			const decision = decideSend(outgoing, heldAccounts(host), personProxyFrom(host.httpProxy(), process.env));
			if (decision.kind === 'send') return true;
			const destination = decision.destination ?? vscode.l10n.t('an address that is not a URL');
			const { message, detail } = questionText(decision);
			if (await host.confirm(message, detail, vscode.l10n.t('Send Anyway'))) {
				host.log.info(`httpYac sent a request with ${decision.accounts.map((a) => a.name).join(', ')}'s token to ${destination} after the person said so.`);
				return true;
			}
			const why = vscode.l10n.t('Telematics Auth stopped the request to {0}: it carries the token of {1} ({2}), and the send was cancelled.', destination, decision.accounts.map((a) => a.label).join(', '), decision.accounts.flatMap((a) => a.reasons).map(reasonText).join('; '));
			httpyacLog?.error(why);
			host.log.info(why);
			return false;
		},
	});
}

/** Why `{{variable}}` has no value: the account it names is not logged in, or there is none of that name. */
function unansweredReference(variable: string, host: PluginHost): string {
	if (!host.trusted()) return vscode.l10n.t('{0}: this folder is not trusted, so Telematics Auth gives httpYac no token (Restricted Mode). Trust the folder to send with it. Nothing was sent.', `{{${variable}}}`);
	const accounts = host.accounts();
	if (variable === host.activeVariable) return vscode.l10n.t('{0}: no account of Telematics Auth is active and logged in. Nothing was sent.', `{{${variable}}}`);
	const account = accounts.find((a) => a.variable === variable);
	return account
		? vscode.l10n.t('{0}: the account {1} ({2}) is not logged in, or its token has expired. Log in again or refresh it in Telematics Auth. Nothing was sent.', `{{${variable}}}`, account.name, account.label)
		: vscode.l10n.t('{0}: Telematics Auth has no account named {1}. Nothing was sent.', `{{${variable}}}`, variable.slice(`${host.activeVariable}_`.length).toLowerCase());
}

function heldAccounts(host: PluginHost): HeldAccount[] {
	return host.accounts().filter((a) => a.tokens.length > 0).map((a) => ({ name: a.name, label: a.label, tokens: a.tokens, platformOrigins: a.platformOrigins }));
}

/** Text of a body part httpYac holds; undefined when it cannot be read to the end here (a stream). */
async function partText(part: unknown): Promise<string | undefined> {
	if (typeof part === 'string') return part;
	if (part instanceof Uint8Array) return Buffer.from(part).toString('utf8');
	if (typeof part === 'function') return partText(await (part as () => Promise<unknown>)());
	if (Array.isArray(part)) {
		const texts = await Promise.all(part.map(partText));
		return texts.some((t) => t === undefined) ? undefined : texts.join('\n');
	}
	if (typeof part === 'number' || typeof part === 'boolean') return String(part);
	if (part && typeof part === 'object' && Object.getPrototypeOf(part) === Object.prototype) return JSON.stringify(part);
	return undefined;
}

/** The request in the check's terms: every header, the body read where it can be, the proxy, the certificate checks. */
async function readRequest(request: HttpyacRequest, configRequest: unknown): Promise<OutgoingRequest> {
	const headers: Array<[string, string]> = [];
	for (const [name, value] of Object.entries(request.headers ?? {})) {
		for (const one of Array.isArray(value) ? value : [value]) headers.push([name, one === undefined || one === null ? '' : String(one)]);
	}
	let body: string | undefined;
	let bodyUnread = false;
	if (request.body !== undefined && request.body !== null) {
		try {
			body = await partText(request.body);
		} catch {
			body = undefined;
		}
		bodyUnread = body === undefined;
	}
	const url = typeof request.url === 'string' ? request.url : String(request.url ?? '');
	// got's own options, as httpYac merges them: requestGotOptions, then the request's options.
	const unreadOptions: string[] = [];
	for (const [where, options, ownHooks] of [['requestGotOptions', configRequest, false], ['options', request.options, true]] as const) {
		const read = gotOptionsRead(options, url, ownHooks);
		unreadOptions.push(...read.unread.map((key) => `${where}.${key}`));
		headers.push(...read.headers);
		if (read.hasBody) {
			let text: string | undefined;
			try {
				text = await partText(read.body);
			} catch {
				text = undefined;
			}
			if (text === undefined) bodyUnread = true;
			else body = body === undefined ? text : `${body}\n${text}`;
		}
	}
	return {
		url,
		headers,
		body,
		bodyUnread,
		unreadOptions,
		proxy: typeof request.proxy === 'string' && request.proxy.trim() ? request.proxy.trim() : undefined,
		certificatesOff: request.noRejectUnauthorized === true || turnsCertificatesOff(request) || turnsCertificatesOff(request.options) || turnsCertificatesOff(configRequest),
	};
}

function reasonText(reason: SendReason): string {
	switch (reason.kind) {
		case 'otherSite': return vscode.l10n.t('to a site that is not its service');
		case 'proxy': return vscode.l10n.t('through the proxy {0}, which is not VS Code\'s http.proxy nor the environment\'s', reason.proxy);
		case 'certificatesOff': return vscode.l10n.t('with certificate checks off');
		case 'options': return vscode.l10n.t('with httpYac request options: {0}', reason.keys.join(', '));
	}
}

function questionText(decision: Extract<SendDecision, { kind: 'ask' }>): { message: string; detail: string } {
	const names = decision.accounts.map((a) => `${a.name} (${a.label})`).join(', ');
	const message = vscode.l10n.t('httpYac is about to send the token of {0} to {1}.', names, decision.destination ?? vscode.l10n.t('an address that is not a URL'));
	const place = { url: vscode.l10n.t('the URL'), header: vscode.l10n.t('a header'), body: vscode.l10n.t('the body') };
	const lines = decision.accounts.map((a) => vscode.l10n.t('{0}: in {1}, {2}.', a.name, a.places.map((p) => place[p]).join(', '), a.reasons.map(reasonText).join(', ')));
	const detail = [
		...lines,
		vscode.l10n.t('Whoever receives it can act as this account until the token expires. "Send Anyway" sends this request once; Cancel sends nothing.'),
	].join('\n\n');
	return { message, detail };
}
