// Warnings in REST files: an expired JWT, and a request that would send a logged-in account's token to another
// site; kept current on open, change (debounced), store and setting changes and the minute tick.
import vscode = require('vscode');

import { findJwts, type FoundJwt } from '../../core/restFile/jwtScan';
import { parseRestFile, type ParsedFile } from '../../core/restFile/requestParser';
import { foreignSends } from '../../core/restFile/tokenReach';
import { exposedVariables } from '../shared/exposedVariables';
import { readingsWithEnvironments } from './environmentReadings';
import { environmentsByHost, referencedNames } from '../../core/restFile/environments';
import { environmentsNote } from './tokenDestinations';
import { hostOf } from '../../core/util/url';
import { identityOf } from '../../core/restFile/tokenMatch';
import type { Services } from '../../services';
import { formatClockTime, formatElapsed } from '../../core/util/time';
import { knownTokens } from '../shared/freshToken';
import { accountPlatformHosts } from '../shared/platformHosts';
import { isHttpDocument, watchedText } from '../shared/restDocuments';
import { errorMessage } from '../../core/util/errorMessage';

const DEBOUNCE_MS = 300;
/** The code of an expired-token warning (its quick fix: quickFixes.ts). */
export const EXPIRED_TOKEN_CODE = 'expiredToken';

function expiredTokenDiagnostics(document: vscode.TextDocument, jwts: readonly FoundJwt[], now: number): vscode.Diagnostic[] {
	const diagnostics: vscode.Diagnostic[] = [];
	for (const jwt of jwts) {
		const exp = identityOf(jwt.token)?.exp;
		if (exp === undefined || exp * 1000 > now) continue;
		const range = new vscode.Range(document.positionAt(jwt.start), document.positionAt(jwt.end));
		const message = vscode.l10n.t(
			'This token expired {0} ago (at {1}). Run "Telematics: Update Tokens in File" to replace it with the current token, or "Telematics: Insert Authorization Header" in its request.',
			formatElapsed(now - exp * 1000),
			formatClockTime(exp * 1000, now),
		);
		const diagnostic = new vscode.Diagnostic(range, message, vscode.DiagnosticSeverity.Warning);
		diagnostic.source = 'Telematics Auth';
		diagnostic.code = EXPIRED_TOKEN_CODE;
		diagnostics.push(diagnostic);
	}
	return diagnostics;
}

/**
 * A warning on each request that would send a logged-in account's token to another site than its
 * service once it runs (a REST client's Send is a click away): a token of the account written in the
 * file, read through a variable or a named request, or the token telematicsAuth.exposeToken keeps.
 */
async function foreignHostDiagnostics(document: vscode.TextDocument, text: string, read: { file: ParsedFile; jwts: readonly FoundJwt[] }, services: Services): Promise<vscode.Diagnostic[]> {
	// An account's platform hosts (telematicsAuth.platformHosts) count as its service, wherever their site is.
	const accounts = knownTokens(services).map((token) => ({ ...token, platformOrigins: Object.values(accountPlatformHosts(services.config, token) ?? {}) }));
	const exposed = exposedVariables(services);
	if (accounts.length === 0) return [];
	// Variables the file does not define take their values from the clients' environments.
	const readings = await readingsWithEnvironments(read.file, document.uri);
	const sends = await foreignSends(text, accounts, exposed, { ...read, variables: readings.variables, ...(readings.outside !== undefined && { outside: readings.outside }) });
	// Which environments send each host there: read once for all the warnings of the file.
	const byHost = sends.some((send) => send.host !== undefined) ? environmentsByHost(readings.environments, referencedNames(read.file)) : new Map<string, readonly string[]>();
	return sends.flatMap((send) => {
		const account = services.store.get(send.accountId)?.account;
		if (!account) return []; // logged out while the sites were checked
		const diagnostic = new vscode.Diagnostic(document.lineAt(send.requestLine).range, send.host === undefined
			? vscode.l10n.t(
				'This file does not say where this request sends the token of {0}: its host comes from outside the file, or a REST client may read it another way. Send it only if you know it goes to {1}.',
				account.label, hostOf(account.serviceUrl))
			: vscode.l10n.t(
				'This request sends the token of {0} to {1}, not to its service ({2}). Whoever runs {1} can act as {0} until the token expires; send it only if you trust that host.',
				account.label, send.host, hostOf(account.serviceUrl),
			) + environmentsNote(byHost, send.host), vscode.DiagnosticSeverity.Warning);
		diagnostic.source = 'Telematics Auth';
		diagnostic.code = 'tokenToAnotherSite';
		return [diagnostic];
	});
}

export class TokenDiagnostics implements vscode.Disposable {
	private readonly collection = vscode.languages.createDiagnosticCollection('telematicsAuth');
	private readonly pending = new Map<string, unknown>();
	/** Per document: the latest update, so an earlier one's late warnings are dropped. */
	private readonly generations = new Map<string, number>();
	private readonly subscriptions: vscode.Disposable[] = [];

	constructor(private readonly services: Services) {
		vscode.workspace.onDidOpenTextDocument((d) => this.update(d), null, this.subscriptions);
		vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document), null, this.subscriptions);
		vscode.workspace.onDidCloseTextDocument((d) => this.clear(d), null, this.subscriptions);
		this.updateAll();
	}

	updateAll(): void {
		for (const document of vscode.workspace.textDocuments) this.update(document);
	}

	private update(document: vscode.TextDocument): void {
		if (!isHttpDocument(document) || document.isClosed) return;
		const key = document.uri.toString();
		const generation = (this.generations.get(key) ?? 0) + 1;
		this.generations.set(key, generation);
		const text = watchedText(document, this.services.log);
		if (text === undefined) return this.collection.delete(document.uri);
		// One reading of the file for both kinds of warning.
		const file = parseRestFile(text);
		const jwts = findJwts(text, file);
		const expired = expiredTokenDiagnostics(document, jwts, this.services.clock.now());
		this.collection.set(document.uri, expired);
		// The site check may load the public suffix list: its warnings follow, unless a newer update began.
		void foreignHostDiagnostics(document, text, { file, jwts }, this.services).then((foreign) => {
			if (foreign.length > 0 && this.generations.get(key) === generation && !document.isClosed) this.collection.set(document.uri, [...expired, ...foreign]);
		}, (error: unknown) => this.services.log.warn(`Could not check where the requests of a REST file go: ${errorMessage(error)}`));
	}

	private schedule(document: vscode.TextDocument): void {
		if (!isHttpDocument(document)) return;
		const key = document.uri.toString();
		const previous = this.pending.get(key);
		if (previous !== undefined) this.services.clock.clearTimeout(previous);
		this.pending.set(key, this.services.clock.setTimeout(() => {
			this.pending.delete(key);
			this.update(document);
		}, DEBOUNCE_MS));
	}

	private clear(document: vscode.TextDocument): void {
		const key = document.uri.toString();
		const previous = this.pending.get(key);
		if (previous !== undefined) this.services.clock.clearTimeout(previous);
		this.pending.delete(key);
		this.generations.delete(key);
		this.collection.delete(document.uri);
	}

	dispose(): void {
		for (const handle of this.pending.values()) this.services.clock.clearTimeout(handle);
		this.pending.clear();
		vscode.Disposable.from(...this.subscriptions).dispose();
		this.collection.dispose();
	}
}
