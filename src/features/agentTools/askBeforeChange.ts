// The tool's own question before a request that changes a production account or cannot be undone, asked
// from inside the tool (chat's auto-approve skips VS Code's confirmation, not this one). The decision is
// core/agent/changeGuard.ts; the snoozes live in this window's memory only.
import vscode = require('../../system/vscodeApi');
import { questionBefore, Snoozes } from '../../core/agent/changeGuard';
import type { AgentRequestInput } from '../../core/agent/serviceRequest';
import { asksFirst } from '../../core/agent/serviceRequest';
import { loadPlatform } from '../../core/platform/load';
import { isProduction } from '../../core/sessions/production';
import type { Session } from '../../core/sessions/types';
import { sessionSecrets } from '../../core/util/redactingLog';
import type { Services } from '../../services';

export { Snoozes };

/**
 * Asks the person, when the request needs it; undefined: send it. Otherwise what the tool tells the model
 * (the person refused; nothing was sent). The account's mark is read again first, so a mark set in another
 * window counts.
 */
export async function askBeforeChange(services: Services, snoozes: Snoozes, session: Session, input: AgentRequestInput, url: string): Promise<string | undefined> {
	if (!asksFirst(input.method)) return undefined;
	const { account } = (await services.store.reloadAccount(session.account.id)) ?? session;
	const production = isProduction(account);
	const question = questionBefore(input.method, new URL(url).pathname, { production, snoozed: snoozes.isSnoozed(account.id) }, await loadPlatform(), input.body);
	if (!question) return undefined;
	const name = account.name ?? account.label;
	const answer = await services.prompts.current.askBeforeSending({
		question, account: name, label: account.label, method: input.method, url, ...(input.body !== undefined && { body: input.body, secrets: [...sessionSecrets(services.store.list())] }),
		offerSnooze: question.kind === 'production',
	});
	const what = question.kind === 'irreversible' ? `${question.operation.name} (${question.operation.target})` : vscode.l10n.t('a changing request to the production account {0}', name);
	if (answer === 'refuse') {
		services.log.info(`The person refused the agent's ${input.method} request to ${name}; nothing was sent.`);
		return vscode.l10n.t('The person refused this request ({0}: {1} {2}). Nothing was sent. Do not send it again unless the person asks for it.', what, input.method, url);
	}
	if (answer === 'snooze') snoozes.snooze(account.id);
	services.log.info(`The person allowed the agent's ${input.method} request to ${name}${answer === 'snooze' ? ', and its changing requests for 10 minutes' : ''}.`);
	return undefined;
}
