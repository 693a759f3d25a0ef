// Warnings in REST files: an expired JWT, and a request that would send a logged-in account's token to another
// site; kept current by documentReadings.ts (open, change, store and setting changes, the minute tick).
import vscode = require('../../system/vscodeApi');

import { findJwts, type FoundJwt } from '../../core/restFile/jwtScan';
import type { ParsedFile } from '../../core/restFile/requestParser';
import { foreignSends } from '../../core/restFile/tokenReach';
import { exposedVariables } from '../../core/exposure/exposedTokens';
import { readingsWithEnvironments } from './environmentReadings';
import { environmentsByHost, referencedNames } from '../../core/restFile/environments';
import { environmentsNote } from './tokenDestinations';
import { hostOf } from '../../core/util/url';
import { identityOf } from '../../core/restFile/tokenMatch';
import type { Services } from '../../services';
import { formatClockTime, formatElapsed } from '../../core/util/time';
import { knownTokens } from '../shared/freshToken';
import { accountPlatformOrigins } from '../accounts/accountPlatformHosts';
import type { DocumentReader, DocumentReading } from './documentReadings';
import { caughtText } from '../../core/util/caughtText';

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
	const { store, config } = services;
	const accounts = knownTokens(services).map((token) => ({ ...token, platformOrigins: accountPlatformOrigins(config, token) }));
	// The variables telematicsAuth.exposeToken keeps a token in (core/exposure/exposedTokens.ts).
	const exposed = exposedVariables(config.exposeToken() !== 'off', store.active(), store.list(), config.environmentAccounts());
	if (accounts.length === 0) return [];
	// Variables the file does not define take their values from the clients' environments.
	const readings = await readingsWithEnvironments(read.file, document.uri);
	const sends = await foreignSends(text, accounts, exposed, { ...read, variables: readings.variables, ...(readings.outside !== undefined && { outside: readings.outside }) });
	// Which environments send each host there: read once for all the warnings of the file.
	const byHost = sends.some((send) => send.host !== undefined) ? environmentsByHost(readings.environments, referencedNames(read.file)) : new Map<string, readonly string[]>();
	return sends.flatMap((send) => {
		const account = store.get(send.accountId)?.account;
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

/** The expired-token and token-to-another-site warnings of each REST document, from its one reading (documentReadings.ts). */
export class TokenDiagnostics implements vscode.Disposable, DocumentReader {
	private readonly collection = vscode.languages.createDiagnosticCollection('telematicsAuth');

	constructor(private readonly services: Services) {}

	update({ document, read, current }: DocumentReading): void {
		if (read === undefined) return this.collection.delete(document.uri);
		const { text, file } = read;
		const jwts = findJwts(text, file);
		const expired = expiredTokenDiagnostics(document, jwts, this.services.clock.now());
		this.collection.set(document.uri, expired);
		// The site check may load the public suffix list: its warnings follow, unless a newer reading began.
		void foreignHostDiagnostics(document, text, { file, jwts }, this.services).then((foreign) => {
			if (foreign.length > 0 && current()) this.collection.set(document.uri, [...expired, ...foreign]);
		}, (error: unknown) => this.services.log.warn(`Could not check where the requests of a REST file go: ${caughtText(error)}`));
	}

	clear(document: vscode.TextDocument): void {
		this.collection.delete(document.uri);
	}

	dispose(): void {
		this.collection.dispose();
	}
}
