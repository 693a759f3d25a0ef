// Which question a request of the agent gets before it is sent, and the person's snooze of the production
// question. Pure: no `vscode`; the snooze lives in memory only (never stored, never shared with another window).
import type { Platform } from '../platform/load';
import type { Clock } from '../util/clock';
import { asksFirst, type AgentMethod } from './serviceRequest';
import { irreversibleOperation, type IrreversibleOperation } from './irreversible';

/** How long "Allow for 10 Minutes" lets changing requests to one production account go without a question. */
export const SNOOZE_MS = 10 * 60_000;

/**
 * `irreversible`: the operation cannot be undone; asked on every account, never snoozed. `production`: a
 * changing request to a production account; asked unless the person snoozed it for that account.
 */
export type ChangeQuestion =
	| { kind: 'irreversible'; operation: IrreversibleOperation; production: boolean }
	| { kind: 'production' };

/** A request the agent asks to send that must be asked about first, as the Prompter asks it (core/models/prompter.ts). */
export interface SendQuestion {
	question: ChangeQuestion;
	/** The account's name and label. */
	account: string;
	label: string;
	method: string;
	url: string;
	/** The body as it will be sent, if any (shown pretty-printed, masked, cut: core/agent/questionText.ts). */
	body?: string;
	/** The secrets to mask in what is shown (every stored token). */
	secrets?: readonly string[];
	/** Whether "Allow for 10 Minutes" is offered (the production question; never an irreversible one). */
	offerSnooze: boolean;
}

/** Send it; send it and let this account's changing requests go without a question for 10 minutes; or not at all. */
export type SendAnswer = 'send' | 'snooze' | 'refuse';

/**
 * The question before `method` `path` (with `body`) to an account (`production` or not, its production
 * question `snoozed` or not), or undefined when it goes without one; `platform` knows what cannot be
 * undone. VS Code's own confirmation (prepareInvocation) comes before this, and chat's auto-approve may
 * skip it: this one is asked by the tool itself.
 */
export function questionBefore(method: AgentMethod, path: string, account: { production: boolean; snoozed: boolean }, platform: Platform, body?: string): ChangeQuestion | undefined {
	const operation = irreversibleOperation(method, path, platform, body);
	if (operation) return { kind: 'irreversible', operation, production: account.production };
	if (!asksFirst(method) || !account.production || account.snoozed) return undefined;
	return { kind: 'production' };
}

/** The snoozes of this window, by account id: each ends SNOOZE_MS after the person allowed it. */
export class Snoozes {
	private readonly until = new Map<string, number>();

	constructor(private readonly clock: Pick<Clock, 'now'>) {}

	snooze(accountId: string): void {
		this.until.set(accountId, this.clock.now() + SNOOZE_MS);
	}

	isSnoozed(accountId: string): boolean {
		if (this.clock.now() < (this.until.get(accountId) ?? -Infinity)) return true;
		this.until.delete(accountId);
		return false;
	}
}
