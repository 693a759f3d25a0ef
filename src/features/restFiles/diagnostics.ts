// Warnings on expired JWTs in REST files, saying when the token expired and how to put a current one
// in; kept current on open, change (debounced), store changes and the minute tick.
import * as vscode from 'vscode';

import { findJwts } from '../../core/restFile/jwtScan';
import { identityOf } from '../../core/restFile/tokenMatch';
import type { Services } from '../../services';
import { formatClockTime, formatElapsed } from '../../core/util/time';
import { isHttpDocument } from '../shared/restDocuments';

const DEBOUNCE_MS = 300;

export function expiredTokenDiagnostics(document: vscode.TextDocument, now: number): vscode.Diagnostic[] {
	const diagnostics: vscode.Diagnostic[] = [];
	for (const jwt of findJwts(document.getText())) {
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
		diagnostic.code = 'expiredToken';
		diagnostics.push(diagnostic);
	}
	return diagnostics;
}

export class TokenDiagnostics implements vscode.Disposable {
	private readonly collection = vscode.languages.createDiagnosticCollection('telematicsAuth');
	private readonly pending = new Map<string, unknown>();
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
		this.collection.set(document.uri, expiredTokenDiagnostics(document, this.services.clock.now()));
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
		this.collection.delete(document.uri);
	}

	dispose(): void {
		for (const handle of this.pending.values()) this.services.clock.clearTimeout(handle);
		this.pending.clear();
		vscode.Disposable.from(...this.subscriptions).dispose();
		this.collection.dispose();
	}
}
