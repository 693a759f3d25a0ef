// Telematics Auth's plugin for httpYac (features/httpyac/httpyacPlugin.ts binds it to VS Code; its own
// bundle, loaded once httpYac for VS Code is there). Its hooks on every file httpYac parses:
// - `provideVariables`: TELEMATICS_TOKEN (the active account) and TELEMATICS_TOKEN_<NAME> (each logged-in
//   account) are each account's *reference* (door.ts), never its token; nothing in a folder VS Code does
//   not trust (liveVariables.ts).
// - `replaceVariable`: a `{{TELEMATICS_TOKEN_<NAME>}}` no logged-in account answers is an error naming the
//   account. It runs before httpYac's first replacer (`host`) and moves none of httpYac's own (issue 68:
//   ordered before `javascript` and `xpath`, it pulled them ahead of `file` and `restClientDynamic`, and
//   `{{$processEnv X}}`, `{{$guid}}`, `{{< file}}`… failed in every file).
// - `onRequest`'s `afterLoop`, the last step before the request goes, after every script, environment and
//   config: a live token written in the request (sendCheck.ts) on its way elsewhere, through a proxy the
//   person did not set or with certificate checks off waits for the person's answer; a reference is put
//   in at the door (door.ts), or asked about when it would go anywhere else. On Cancel nothing is sent.
// Pure: no `vscode` (the words go through `t`), so tests register it in httpYac's own library.
import { liveVariables } from './liveVariables';
import { decideSend, gotOptionsRead, personProxyFrom, tokenPlaces, turnsCertificatesOff, type HeldAccount, type OutgoingRequest } from './sendCheck';
import { anywayHooks, decideDoor, doorHooks, fitsHeader, literalGuard, mintReference, withTokens, type DoorAsked, type DoorReason, type ReferenceAccount } from './door';
import type { Translate } from '../util/translate';

/** The name the plugin has in httpYac's plugin store. */
export const PLUGIN_NAME = 'telematicsAuth';

/** An account as the plugin sees it (features/httpyac/index.ts builds these from the session store). */
export interface PluginAccount {
	id: string;
	name: string;
	label: string;
	/** Its `TELEMATICS_TOKEN_<NAME>`, when it has a name. */
	variable?: string;
	active: boolean;
	/** Its live access and refresh tokens while it holds them, and its earlier ones that may still work. */
	tokens: string[];
	platformOrigins: string[];
}

/** What the plugin needs from the extension. */
export interface PluginHost {
	log: { info(message: string): void; warn(message: string): void; error(message: string): void };
	/** `TELEMATICS_TOKEN`. */
	activeVariable: string;
	accounts(): PluginAccount[];
	/** The account's access token to send now, refreshed first when due; undefined when it has none. */
	liveToken(accountId: string): Promise<string | undefined>;
	/** Whether VS Code trusts the workspace: in Restricted Mode no reference is given. */
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
export interface PluginApi {
	version?: string;
	log?: HttpyacLog;
	hooks: { provideVariables: Hook<[unknown, unknown]>; replaceVariable: Hook<[unknown, string, { variables?: Record<string, unknown> }]>; onRequest: Hook<[HttpyacRequest, { config?: { request?: unknown } }]> };
}
interface HttpyacRequest {
	protocol?: unknown;
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

/** httpYac's first variable replacer: ours runs just before it, and every other keeps its place. */
const FIRST_REPLACER = 'host';

function fits(library: unknown): library is HttpyacExports {
	const e = library as Partial<HttpyacExports> | undefined;
	return typeof e?.httpyac?.store?.pluginStore === 'object' && e.httpyac.store.pluginStore !== null && typeof e.documentStore?.clear === 'function';
}

function hooksFit(api: PluginApi): boolean {
	const { provideVariables, replaceVariable, onRequest } = api.hooks ?? {};
	return typeof provideVariables?.addHook === 'function' && typeof replaceVariable?.addHook === 'function' && typeof onRequest?.addInterceptor === 'function';
}

/**
 * Adds the plugin to httpYac's library (`library`, the exports its `activate()` returned: a parameter named
 * `exports` would hide, in tsc's CommonJS output, this module's own `exports.PLUGIN_NAME`) and has httpYac parse
 * its documents again so each gets it; undefined, said once in the log, when the API is not the one known.
 * Disposing takes it out again.
 */
export function registerPlugin(library: unknown, version: string, host: PluginHost, t: Translate): { dispose(): void } | undefined {
	const major = Number(/^(\d+)\./.exec(version)?.[1]);
	if (major !== SUPPORTED_MAJOR || !fits(library)) {
		host.log.warn(`httpYac ${version} is installed, but its API is not the one Telematics Auth knows (httpYac ${SUPPORTED_MAJOR}): httpYac gets no live tokens and its requests are not checked at Send. Use telematicsAuth.exposeToken, or the token written by Insert.`);
		return undefined;
	}
	let active = true;
	let toldHooks = false;
	const plugin = telematicsPlugin(host, t, () => active);
	library.httpyac.store.pluginStore[PLUGIN_NAME] = (api) => {
		if (!active) return;
		if (!hooksFit(api)) {
			if (!toldHooks) host.log.warn('httpYac\'s plugin hooks are not the ones Telematics Auth knows: its requests get no live tokens and are not checked at Send.');
			toldHooks = true;
			return;
		}
		plugin(api);
	};
	library.documentStore.clear();
	host.log.info(`Added the plugin to httpYac ${version}: references for the live tokens, put in at the door, and each request checked before it goes.`);
	return {
		dispose: () => {
			active = false;
			delete library.httpyac.store.pluginStore[PLUGIN_NAME];
			library.documentStore.clear();
		},
	};
}

/** `{{TELEMATICS_TOKEN}}` or `{{ TELEMATICS_TOKEN_NAME }}` in a text httpYac is about to fill in. */
const VARIABLE = /\{\{\s*(TELEMATICS_TOKEN(?:_[A-Za-z0-9_]+)?)\s*\}\}/g;

/**
 * The plugin as httpYac's plugin store takes it: `(api) => void`, adding its hooks to one file's API.
 * Its references are minted once for this plugin (this window), one an account.
 */
export function telematicsPlugin(host: PluginHost, t: Translate, isActive: () => boolean = () => true): (api: PluginApi) => void {
	const references = new Map<string, string>();
	const referenceOf = (account: Pick<PluginAccount, 'id' | 'name'>): string => {
		let reference = references.get(account.id);
		if (reference === undefined) references.set(account.id, reference = mintReference(account.name));
		return reference;
	};
	const toldAltered = new Set<string>();
	const toldUnseen = new Set<string>();
	// httpYac merges an imported file's interceptors into the request's hooks, so ours may run once a file: once a request.
	const handled = new WeakSet<object>();
	// The person's proxy from the environment as the extension host started: a script can change process.env.
	const startEnv = { HTTPS_PROXY: process.env.HTTPS_PROXY, https_proxy: process.env.https_proxy, HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };
	// Only accounts given a reference: another window's reference of an account this one gave none is not looked for.
	const referenceAccounts = (accounts: readonly PluginAccount[]): ReferenceAccount[] => accounts.filter((a) => references.has(a.id)).map((a) => ({ id: a.id, name: a.name, label: a.label, reference: referenceOf(a), platformOrigins: a.platformOrigins }));

	return (api) => {
		const httpyacLog = api.log;
		api.hooks.provideVariables.addHook(PLUGIN_NAME, async () => {
			if (!isActive()) return {};
			const accounts = host.accounts();
			return liveVariables(accounts, host.trusted(), host.activeVariable, async (id) => {
				const account = accounts.find((a) => a.id === id);
				return account && (await host.liveToken(id)) !== undefined ? referenceOf(account) : undefined;
			});
		});
		api.hooks.replaceVariable.addHook(PLUGIN_NAME, (value, _type, context) => {
			if (!isActive() || typeof value !== 'string') return value;
			for (const [, variable] of value.matchAll(VARIABLE)) {
				if (context?.variables?.[variable!] !== undefined) continue;
				const message = unansweredReference(variable!, host, t);
				host.log.warn(`httpYac: ${message}`);
				throw new Error(message);
			}
			return value;
		}, { before: [FIRST_REPLACER] });
		api.hooks.onRequest.addInterceptor({
			id: PLUGIN_NAME,
			afterLoop: async ({ args: [request, context] }) => {
				if (!isActive() || handled.has(request)) return true;
				handled.add(request);
				const outgoing = await readRequest(request, context?.config?.request);
				const personProxy = personProxyFrom(host.httpProxy(), startEnv);
				// A token written in the request (Insert, pasted, an exposed variable): today's check.
				const accounts = host.accounts();
				const held = heldAccounts(accounts);
				const places = tokenPlaces(outgoing, held);
				const decision = decideSend(outgoing, held, personProxy, places);
				const literal = places.map(({ account }) => account);
				let approved: string | undefined;
				if (decision.kind === 'ask') {
					const destination = decision.destination ?? t('an address that is not a URL');
					const names = decision.accounts.map((a) => `${a.name} (${a.label})`).join(', ');
					const lines = decision.accounts.map((a) => t('{0}: in {1}, {2}.', a.name, placesText(a.places, t), a.reasons.map((r) => reasonText(r, t)).join(', ')));
					if (!(await ask(names, destination, lines))) {
						stopped(destination, decision.accounts.map((a) => a.label), decision.accounts.flatMap((a) => a.reasons));
						return false;
					}
					host.log.info(`httpYac sent a request with ${decision.accounts.map((a) => a.name).join(', ')}'s token to ${destination} after the person said so.`);
					approved = decision.destination;
				}
				// A written token goes nowhere else on a redirect (got keeps custom headers, a 307's body, and Authorization when only the scheme changes).
				if (literal.length > 0 && request.protocol === 'HTTP') {
					const allowed = literal.flatMap((a) => a.platformOrigins);
					// Nothing approved: undefined in the list allows nothing (every origin got opens is a text).
					// Stryker disable next-line ConditionalExpression: equivalent
					if (approved) allowed.push(approved);
					addHooks(request, { beforeRequest: [literalGuard(literal.flatMap((a) => a.tokens), allowed, (origin) => t('Telematics Auth stopped a redirect to {0}: it would carry the token of {1}. Nothing was sent there.', origin, literal.map((a) => a.label).join(', ')))] });
				}
				// A reference: in at the door, or asked about.
				const door = decideDoor(outgoing, referenceAccounts(accounts), personProxy, request.protocol === 'HTTP');
				for (const account of door.altered) {
					if (toldAltered.has(account.id)) continue;
					toldAltered.add(account.id);
					const note = t('Telematics Auth: a request carries a piece or an encoding of the reference for {0} ({1}), not the token: it goes as it is, and no service takes it.', account.name, account.label);
					httpyacLog?.warn(note);
					host.log.info(note);
				}
				for (const account of door.unseen) {
					if (toldUnseen.has(account.id)) continue;
					toldUnseen.add(account.id);
					const note = t('Telematics Auth: a {0} request carries the reference for {1} ({2}), not the token: only HTTP requests get the token at the door. For the realtime service, use Live Tracking.', String(request.protocol ?? ''), account.name, account.label);
					httpyacLog?.warn(note);
					host.log.info(note);
				}
				if (door.asked.length > 0) {
					const destination = door.destination ?? t('an address that is not a URL');
					const names = door.asked.map((a) => `${a.account.name} (${a.account.label})`).join(', ');
					if (!(await ask(names, destination, door.asked.map((a) => askedLine(a, t))))) {
						stopped(destination, door.asked.map((a) => a.account.label), door.asked.flatMap((a) => a.reasons));
						return false;
					}
					const tokens = await tokensOf(door.asked.map((a) => a.account));
					if (!tokens) return false;
					putTokensIn(request, door.asked.map((a) => a.account), tokens);
					// This one request: no redirect followed, and the tokens out of what httpYac records.
					const hooks = anywayHooks(door.asked.map(({ account }) => ({ token: tokens.get(account.id)!, reference: account.reference })));
					addHooks(request, { afterResponse: [hooks.afterResponse], beforeError: [hooks.beforeError] }, { followRedirect: false });
					host.log.info(`httpYac sent a request with ${door.asked.map((a) => a.account.name).join(', ')}'s token to ${destination} after the person said so.`);
				}
				if (door.swap) {
					const tokens = await tokensOf([door.swap]);
					if (!tokens) return false;
					const hooks = doorHooks(door.swap.reference, tokens.get(door.swap.id)!, door.swap.platformOrigins, outgoing.proxy !== undefined);
					addHooks(request, { beforeRequest: [hooks.beforeRequest], beforeRedirect: [hooks.beforeRedirect], afterResponse: [hooks.afterResponse], beforeError: [hooks.beforeError] });
				}
				return true;
			},
		});

		async function ask(names: string, destination: string, lines: string[]): Promise<boolean> {
			const message = t('httpYac is about to send the token of {0} to {1}.', names, destination);
			const detail = [...lines, t('Whoever receives it can act as this account until the token expires. "Send Anyway" sends this request once; Cancel sends nothing.')].join('\n\n');
			return host.confirm(message, detail, t('Send Anyway'));
		}

		function stopped(destination: string, labels: string[], reasons: DoorReason[]): void {
			const why = t('Telematics Auth stopped the request to {0}: it carries the token of {1} ({2}), and the send was cancelled.', destination, labels.join(', '), reasons.map((r) => reasonText(r, t)).join('; '));
			httpyacLog?.error(why);
			host.log.info(why);
		}

		/** Each account's live token, fit to go in a header; undefined (said in httpYac's output) when one has none. */
		async function tokensOf(accounts: readonly ReferenceAccount[]): Promise<Map<string, string> | undefined> {
			const tokens = new Map<string, string>();
			for (const account of accounts) {
				const token = await host.liveToken(account.id);
				if (token === undefined || !fitsHeader(token)) {
					const why = t('Telematics Auth: {0} ({1}) has no live token now (logged out, or its refresh failed). Log in again; nothing was sent.', account.name, account.label);
					httpyacLog?.error(why);
					host.log.warn(why);
					return undefined;
				}
				tokens.set(account.id, token);
			}
			return tokens;
		}
	};
}

/**
 * Adds got hooks to the request's options: `beforeRequest` last (it reads the request as got opens it);
 * every other first, so ours put the reference back before any other sees the headers (httpYac logs a
 * redirect in its own `beforeRedirect`). `more`: other got options for this request.
 */
function addHooks(request: HttpyacRequest, hooks: Record<string, unknown[]>, more: Record<string, unknown> = {}): void {
	const options = (typeof request.options === 'object' && request.options !== null ? request.options : (request.options = {})) as { hooks?: Record<string, unknown[]> } & Record<string, unknown>;
	Object.assign(options, more);
	const got = options.hooks ??= {};
	for (const [name, added] of Object.entries(hooks)) {
		const list = Array.isArray(got[name]) ? got[name] : (got[name] = []);
		if (name === 'beforeRequest') list.push(...added);
		else list.unshift(...added);
	}
}

/** "Send Anyway" for references: each intact reference in the URL, the headers and a text body becomes its token, for this request. */
function putTokensIn(request: HttpyacRequest, accounts: readonly ReferenceAccount[], tokens: ReadonlyMap<string, string>): void {
	const swap = (value: unknown): unknown => (typeof value === 'string' ? withTokens(value, accounts, tokens) : Array.isArray(value) ? value.map(swap) : value);
	// swap leaves anything but a text or a list as it is.
	// Stryker disable next-line ConditionalExpression: equivalent
	if (typeof request.url === 'string') request.url = swap(request.url);
	for (const [name, value] of Object.entries(request.headers ?? {})) request.headers![name] = swap(value);
	request.body = swap(request.body);
}

/** Why `{{variable}}` has no value: the account it names is not logged in, or there is none of that name. */
function unansweredReference(variable: string, host: PluginHost, t: Translate): string {
	if (!host.trusted()) return t('{0}: this folder is not trusted, so Telematics Auth gives httpYac no token (Restricted Mode). Trust the folder to send with it. Nothing was sent.', `{{${variable}}}`);
	const accounts = host.accounts();
	if (variable === host.activeVariable) return t('{0}: no account of Telematics Auth is active and logged in. Nothing was sent.', `{{${variable}}}`);
	const account = accounts.find((a) => a.variable === variable);
	return account
		? t('{0}: the account {1} ({2}) is not logged in, or its token has expired. Log in again or refresh it in Telematics Auth. Nothing was sent.', `{{${variable}}}`, account.name, account.label)
		: t('{0}: Telematics Auth has no account named {1}. Nothing was sent.', `{{${variable}}}`, variable.slice(`${host.activeVariable}_`.length).toLowerCase());
}

function heldAccounts(accounts: readonly PluginAccount[]): HeldAccount[] {
	// An account with no token is found nowhere (tokenPlaces).
	return accounts.map((a) => ({ name: a.name, label: a.label, tokens: a.tokens, platformOrigins: a.platformOrigins }));
}

/** Text of a body part httpYac holds; undefined, or a throw, when it cannot be read to the end here (a stream). */
async function partText(part: unknown): Promise<string | undefined> {
	if (typeof part === 'string') return part;
	if (part instanceof Uint8Array) return Buffer.from(part).toString('utf8');
	if (typeof part === 'function') return partText(await (part as () => Promise<unknown>)());
	if (Array.isArray(part)) {
		const texts = await Promise.all(part.map(partText));
		return texts.some((x) => x === undefined) ? undefined : texts.join('\n');
	}
	if (typeof part === 'number' || typeof part === 'boolean') return String(part);
	// A plain object's JSON; anything else is unread (on undefined and null getPrototypeOf throws, which the caller reads as unread).
	return Object.getPrototypeOf(part) === Object.prototype ? JSON.stringify(part) : undefined;
}

/** The request in the check's terms: every header, the body read where it can be, the proxy, the certificate checks. */
async function readRequest(request: HttpyacRequest, configRequest: unknown): Promise<OutgoingRequest> {
	// Headers are read as [name, value] pairs: a text in the list would be read as two letters.
	// Stryker disable next-line ArrayDeclaration: equivalent
	const headers: Array<[string, string]> = [];
	for (const [name, value] of Object.entries(request.headers ?? {})) {
		// No value: an empty text, or any other that holds no token.
		// Stryker disable next-line StringLiteral: equivalent
		for (const one of Array.isArray(value) ? value : [value]) headers.push([name, String(one ?? '')]);
	}
	// Every body's text (the request's, then got's options'): none is an empty text, as the check reads it.
	// A text that holds no token in the list is read as nothing.
	// Stryker disable next-line ArrayDeclaration: equivalent
	const bodies: string[] = [];
	let bodyUnread = false;
	const readBody = async (part: unknown): Promise<void> => {
		let text: string | undefined;
		try {
			text = await partText(part);
		} catch {
			// A part that throws is unread: text stays undefined.
		}
		if (text === undefined) bodyUnread = true;
		else bodies.push(text);
	};
	if (request.body !== undefined && request.body !== null) await readBody(request.body);
	// No URL: no origin, and a text that holds no token.
	// Stryker disable next-line StringLiteral: equivalent
	const url = String(request.url ?? '');
	const proxy = typeof request.proxy === 'string' ? request.proxy.trim() : '';
	// got's own options, as httpYac merges them: requestGotOptions, then the request's options.
	const unreadOptions: string[] = [];
	for (const [where, options, ownHooks] of [['requestGotOptions', configRequest, false], ['options', request.options, true]] as const) {
		const read = gotOptionsRead(options, url, ownHooks);
		unreadOptions.push(...read.unread.map((key) => `${where}.${key}`));
		headers.push(...read.headers);
		if (read.hasBody) await readBody(read.body);
	}
	return {
		url,
		headers,
		body: bodies.join('\n'),
		bodyUnread,
		unreadOptions,
		proxy: proxy || undefined,
		certificatesOff: request.noRejectUnauthorized === true || turnsCertificatesOff(request) || turnsCertificatesOff(request.options) || turnsCertificatesOff(configRequest),
	};
}

function reasonText(reason: DoorReason, t: Translate): string {
	switch (reason.kind) {
		case 'otherSite': return t('to a site that is not its service');
		case 'proxy': return t('through the proxy {0}, which is not VS Code\'s http.proxy nor the environment\'s', reason.proxy);
		case 'certificatesOff': return t('with certificate checks off');
		case 'options': return t('with httpYac request options: {0}', reason.keys.join(', '));
		case 'notCredential': return t('not as the Bearer credential of the Authorization header, the one place the platform takes it');
	}
}

function placesText(places: readonly string[], t: Translate): string {
	const place: Record<string, string> = { url: t('the URL'), header: t('a header'), body: t('the body') };
	return places.map((p) => place[p] ?? p).join(', ');
}

function askedLine(asked: DoorAsked, t: Translate): string {
	return t('{0}: in {1}, {2}.', asked.account.name, placesText(asked.places, t), asked.reasons.map((r) => reasonText(r, t)).join(', '));
}
