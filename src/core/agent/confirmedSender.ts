// The account a request of the agent was confirmed for. prepareInvocation names an account in the question
// VS Code shows (and the MCP road asks the person with it); invoke resolves the account again, and the active
// account may have changed in between, in this window or another. So invoke sends as the account the person
// was shown, or refuses and says the active account changed. A request that changes data and has no question
// prepared for it is refused: both roads prepare before they invoke, so a missing one means it was never
// shown (or was dropped as the oldest of too many). Only requests that ask first are recorded. Pure: no
// `vscode`; memory only.

/** How many confirmations are kept; the oldest go first (a question never answered leaves one behind). */
const MAX_KEPT = 64;

/** One request as the tool received it: its input as JSON text (prepareInvocation and invoke get the same input). */
const keyOf = (input: unknown): string => {
	try {
		return JSON.stringify(input) ?? '';
	} catch {
		return '';
	}
};

export type SenderCheck =
	| { ok: true }
	/** The question named another account, or none (`confirmed` undefined). */
	| { ok: false; reason: 'changed'; confirmed: string | undefined }
	/** No question was prepared for this input (or it was dropped): nothing may be sent. */
	| { ok: false; reason: 'unprepared' };

export class ConfirmedSenders {
	/** The prepared questions, oldest first: the input's key and the account id it named (undefined: none fitted). */
	private readonly shown: { key: string; accountId: string | undefined }[] = [];

	/** prepareInvocation of a request that asks first named `accountId` (or none) for `input`. */
	remember(input: unknown, accountId: string | undefined): void {
		this.shown.push({ key: keyOf(input), accountId });
		while (this.shown.length > MAX_KEPT) this.shown.shift();
	}

	/**
	 * Whether `accountId` may send `input`, a request that asks first, now: yes when the oldest question
	 * prepared for this input named it; no (with the account it named) when it named another or none; no when
	 * no question was prepared. The confirmation is spent either way, so two questions for the same input are
	 * two sends, matched first to first.
	 */
	check(input: unknown, accountId: string): SenderCheck {
		const key = keyOf(input);
		const at = this.shown.findIndex((entry) => entry.key === key);
		if (at < 0) return { ok: false, reason: 'unprepared' };
		const [{ accountId: confirmed }] = this.shown.splice(at, 1);
		return confirmed === accountId ? { ok: true } : { ok: false, reason: 'changed', confirmed };
	}
}
