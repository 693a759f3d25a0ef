// A token goes only to its service: before a token is written where a request of the file would send it
// to another site, a modal question names the hosts (asked by Insert and by Update Tokens in File).
import vscode = require('vscode');
import { isSameSite } from '../../core/restFile/requestHost';
import type { AccountRecord } from '../../core/sessions/types';
import { hostOf } from '../../core/util/url';
import type { Services } from '../../services';

/** True: every host the file names for the token is the account's site, or the person said to go on. */
export async function confirmTokenHosts(services: Services, hosts: readonly (string | undefined)[], account: Pick<AccountRecord, 'label' | 'serviceUrl'>, action: string): Promise<boolean> {
	const foreign: string[] = [];
	for (const host of new Set(hosts)) {
		if (host !== undefined && !(await isSameSite(host, account.serviceUrl))) foreign.push(host);
	}
	if (foreign.length === 0) return true;
	const listed = foreign.join(', ');
	return services.prompts.current.confirm(
		vscode.l10n.t('A request in this file sends the token to {0}, not to the service of {1} ({2}).', listed, account.label, hostOf(account.serviceUrl)),
		vscode.l10n.t('Whoever runs {0} gets the token with the request and can act as {1} until it expires. Go on only if you trust that host.', listed, account.label),
		action,
	);
}
