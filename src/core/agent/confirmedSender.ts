// The account a request of the agent was confirmed for. prepareInvocation names an account in the question
// VS Code shows (and the MCP road asks the person with it); invoke resolves the account again, and the active
// account may have changed in between, in this window or another. So invoke sends as the account the person
// was shown, or refuses and says the active account changed. Pure: no `vscode`; memory only.

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

export type SenderCheck = { ok: true } | { ok: false; confirmed: string | undefined };

export class ConfirmedSenders {
	/** Input → the account id the question named (undefined: it named none, as no account fitted). */
	private readonly shown = new Map<string, string | undefined>();

	/** prepareInvocation named `accountId` (or none) for `input`. */
	remember(input: unknown, accountId: string | undefined): void {
		const key = keyOf(input);
		this.shown.delete(key);
		this.shown.set(key, accountId);
		while (this.shown.size > MAX_KEPT) this.shown.delete(this.shown.keys().next().value!);
	}

	/**
	 * Whether `accountId` may send `input` now: yes when the question named it, or when no question was
	 * prepared for this input; no (with the account the question named) when it named another or none. The
	 * confirmation is spent either way: a second invoke of the same input is checked against a new one.
	 */
	check(input: unknown, accountId: string): SenderCheck {
		const key = keyOf(input);
		if (!this.shown.has(key)) return { ok: true };
		const confirmed = this.shown.get(key);
		this.shown.delete(key);
		return confirmed === accountId ? { ok: true } : { ok: false, confirmed };
	}
}
