// The variables httpYac's plugin answers at Send (features/httpyac/httpyacPlugin.ts): TELEMATICS_TOKEN
// (the active account) and TELEMATICS_TOKEN_<NAME> (each logged-in account), and none at all in a
// folder VS Code does not trust (Restricted Mode), as the exposure withholds tokens there. Pure.

/** An account as the variables need it. */
export interface VariableAccount {
	id: string;
	/** Its `TELEMATICS_TOKEN_<NAME>`, when it has a name. */
	variable?: string;
	active: boolean;
}

/** `{ variable: token }` for every logged-in account, and `activeVariable` for the active one; empty when not `trusted`. */
export async function liveVariables(
	accounts: readonly VariableAccount[],
	trusted: boolean,
	activeVariable: string,
	liveToken: (accountId: string) => Promise<string | undefined>,
): Promise<Record<string, string>> {
	const variables: Record<string, string> = {};
	if (!trusted) return variables;
	for (const account of accounts) {
		if (!account.variable && !account.active) continue;
		const token = await liveToken(account.id);
		if (token === undefined) continue;
		if (account.variable) variables[account.variable] = token;
		if (account.active) variables[activeVariable] = token;
	}
	return variables;
}
