// Hover on a JWT in a REST file: its decoded header and claims, when it expires, and whose
// it is. Decoded locally; nothing is sent anywhere.
import vscode = require('../../system/vscodeApi');
import { watchedText } from './restDocuments';
import { findJwts } from '../../core/restFile/jwtScan';
import type { Services } from '../../services';
import { decodeClaims, decodeHeader } from '../../core/sessions/token';
import { formatClockTime } from '../../core/util/time';
import { expiryPhrase, tokenInfo } from './tokenInfo';
import { markdownText } from '../../core/util/displayText';

export class TokenHoverProvider implements vscode.HoverProvider {
	constructor(private readonly services: Services) { }

	provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
		const offset = document.offsetAt(position);
		const text = watchedText(document, this.services.log);
		const jwt = text === undefined ? undefined : findJwts(text).find((j) => j.start <= offset && offset <= j.end);
		if (!jwt) return undefined;
		const now = this.services.clock.now();
		const info = tokenInfo(this.services, jwt.token, now);
		const markdown = new vscode.MarkdownString();
		markdown.appendMarkdown(`**${vscode.l10n.t('JSON Web Token')}**\n\n`);
		const owner = info.owner
			? info.isCurrent
				? vscode.l10n.t('Account: {0} (its current token)', info.owner.account.label)
				: info.newerAvailable
					? vscode.l10n.t('Account: {0} (an older token; the account holds a newer one)', info.owner.account.label)
					: vscode.l10n.t('Account: {0}', info.owner.account.label)
			: vscode.l10n.t('Not a token of a logged-in account');
		markdown.appendMarkdown(markdownText(owner));
		markdown.appendMarkdown('\n\n');
		const expiry = info.expiresAt === undefined
			? expiryPhrase(info, now)
			: info.expired
				? `${expiryPhrase(info, now)} (${formatClockTime(info.expiresAt, now)})`
				: expiryPhrase(info, now);
		markdown.appendText(expiry.charAt(0).toUpperCase() + expiry.slice(1));
		markdown.appendMarkdown(`\n\n${vscode.l10n.t('Header')}:\n`);
		markdown.appendCodeblock(JSON.stringify(decodeHeader(jwt.token) ?? {}, null, 2), 'json');
		markdown.appendMarkdown(`\n${vscode.l10n.t('Claims')}:\n`);
		markdown.appendCodeblock(JSON.stringify(decodeClaims(jwt.token) ?? {}, null, 2), 'json');
		return new vscode.Hover(markdown, new vscode.Range(document.positionAt(jwt.start), document.positionAt(jwt.end)));
	}
}
