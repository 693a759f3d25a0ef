// A token goes only where the person was asked about: before a token is written where a request of the
// file would send it to another site, or to a place the file does not say, a modal question names the
// hosts and the requests (asked by Insert and by Update Tokens in File).
import vscode = require('../../system/vscodeApi');
import { isSameSite, requestTarget, type Destination } from '../../core/restFile/requestHost';
import type { ParsedFile } from '../../core/restFile/requestParser';
import type { AccountRecord } from '../../core/sessions/types';
import { hostOf } from '../../core/util/url';
import { environmentsByHost, referencedNames, type EnvironmentReadings } from '../../core/restFile/environments';
import { displayText } from '../../core/util/displayText';
import type { Services } from '../../services';
import { accountPlatformOrigins } from '../accounts/accountPlatformHosts';

/** How much of a request's target the question quotes. */
const QUOTED_TARGET = 60;
/** How many of the requests whose destination the file does not say the question names. */
const QUOTED_REQUESTS = 10;

/**
 * True: every request the token reaches goes to the account's site, or the person said to go on.
 * A request whose destination the file does not say (a variable of an environment, a relative
 * target without a Host, a target the clients may read two ways) counts as another site.
 */
export async function confirmTokenHosts(services: Services, file: ParsedFile, destinations: readonly Destination[], account: Pick<AccountRecord, 'label' | 'serviceUrl'>, action: string, environments: EnvironmentReadings = new Map()): Promise<boolean> {
	const foreign = new Set<string>();
	const unsaid = new Set<number>();
	const hosts = new Set<string>();
	for (const { host, line } of destinations) {
		if (host === undefined) unsaid.add(line);
		else hosts.add(host);
	}
	const platform = accountPlatformOrigins(services.config, account);
	for (const host of hosts) if (!(await isSameSite(host, account.serviceUrl, platform))) foreign.add(host);
	if (foreign.size === 0 && unsaid.size === 0) return true;
	const t = vscode.l10n.t;
	const listed = [...foreign].join(', ');
	const byLine = new Map(file.requests.map((r) => [r.requestLine, r]));
	const lines = [...unsaid].sort((a, b) => a - b);
	const requests = lines.slice(0, QUOTED_REQUESTS).map((line) => {
		const target = byLine.get(line);
		const quoted = target ? requestTarget(file, target) : '';
		return t('line {0}: {1}', line + 1, quoted.length > QUOTED_TARGET ? `${quoted.slice(0, QUOTED_TARGET)}…` : quoted);
	});
	if (lines.length > QUOTED_REQUESTS) requests.push(t('and {0} more', lines.length - QUOTED_REQUESTS));
	const message = foreign.size > 0
		? t('A request in this file sends the token to {0}, not to the service of {1} ({2}).', listed, account.label, hostOf(account.serviceUrl))
		: t('This file does not say where a request that gets the token of {0} goes.', account.label);
	const byHost = foreign.size > 0 ? environmentsByHost(environments, referencedNames(file)) : new Map<string, readonly string[]>();
	const details = [
		...(foreign.size > 0 ? [t('Whoever runs {0} gets the token with the request and can act as {1} until it expires.', listed, account.label) + [...foreign].map((host) => environmentsNote(byHost, host)).join('')] : []),
		...(unsaid.size > 0 ? [t('Where these requests go is decided outside this file, or a REST client may read it another way: {0}.', requests.join('; '))] : []),
		t('Go on only if you trust where they go.'),
	];
	return services.prompts.current.confirm(message, details.join(' '), action);
}

/** ` In the environment prod, it goes to collector.example.`, or nothing when no environment gives the host (`byHost`: environmentsByHost). */
export function environmentsNote(byHost: ReadonlyMap<string, readonly string[]>, host: string): string {
	const names = byHost.get(host) ?? [];
	if (names.length === 0) return '';
	const listed = displayText(names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : ''), 200);
	return ' ' + (names.length === 1
		? vscode.l10n.t('In the environment {0}, it goes to {1}.', listed, host)
		: vscode.l10n.t('In the environments {0}, it goes to {1}.', listed, host));
}
