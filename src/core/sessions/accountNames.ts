// Every account's short name (`user`, `admin`, `user-2`, …): how a file, a terminal, the agent and the
// environment name an account without its token. Pure: no I/O, no `vscode`.
import type { AccountKind } from '../api/types';

/** Letters, digits, `-` and `_`, at most 32: safe in a variable name, a shell line and a file. */
const NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** Whether `name` is an account's name as written (no spaces around it). */
export function isAccountName(name: string): boolean {
	return NAME.test(name);
}

/** The shape of every variable tokenVariableFor makes, as regular-expression source (for the readers of files). */
export const TOKEN_VARIABLE_SOURCE = 'TELEMATICS_TOKEN_[A-Z0-9_]{1,64}';

/** The process-environment variable that holds a named account's live token. */
export function tokenVariableFor(name: string): string {
	return `TELEMATICS_TOKEN_${name.toUpperCase().replace(/-/g, '_')}`;
}

/** Two names clash when they make the same variable (`user-2` and `USER_2`). */
const clashes = (a: string, b: string): boolean => tokenVariableFor(a) === tokenVariableFor(b);

/** `name` checked against the grammar and the other accounts' names; the message says what to change. */
export function checkAccountName(name: string, others: readonly string[]): { ok: true; value: string } | { ok: false; message: string } {
	const value = name.trim();
	if (!NAME.test(value)) return { ok: false, message: 'A name is 1 to 32 letters, digits, "-" or "_".' };
	const taken = others.find((other) => clashes(other, value));
	if (taken !== undefined) return { ok: false, message: `"${taken}" is already an account's name (names differ by more than case and "-"/"_").` };
	return { ok: true, value };
}

/** The first free default for `kind`: `user`, then `user-2`, `user-3`, … */
export function defaultName(kind: AccountKind, taken: readonly string[]): string {
	for (let n = 1; ; n++) {
		const candidate = n === 1 ? kind : `${kind}-${n}`;
		if (!taken.some((t) => clashes(t, candidate))) return candidate;
	}
}

/**
 * Names for the accounts in their order: each keeps a stored name that is valid and not taken by an
 * earlier one, the others get the first free default. The same list gives the same names in every window.
 */
export function withNames<T extends { kind: AccountKind; name?: string }>(accounts: readonly T[]): Array<T & { name: string }> {
	const kept = accounts.map((a, i) => {
		if (typeof a.name !== 'string' || !NAME.test(a.name)) return undefined;
		return accounts.slice(0, i).some((b) => typeof b.name === 'string' && NAME.test(b.name) && clashes(b.name, a.name!)) ? undefined : a.name;
	});
	const taken = kept.filter((n): n is string => n !== undefined);
	return accounts.map((a, i) => {
		const name = kept[i] ?? defaultName(a.kind, taken);
		if (kept[i] === undefined) taken.push(name);
		return { ...a, name };
	});
}
