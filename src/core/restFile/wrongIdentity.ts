// The wrong identity, before Send: a request to a known operation of the platform that carries the token
// of an account of the other kind (the service answers a bare 403), and the accounts that would fit. Which
// account a request carries is read as the lens reads it: a named reference (`TELEMATICS_TOKEN_ADMIN`),
// `TELEMATICS_TOKEN` (the active account's, and in a bound environment that environment's account's), or
// a JWT of a logged-in account. Pure: no I/O, no `vscode`.
import type { AccountKind } from '../api/types';
import { tokenVariableFor } from '../sessions/accountNames';
import { findOwner, type KnownToken } from './tokenMatch';
import type { ParsedFile, ParsedRequest } from './requestParser';
import { requestTarget } from './requestHost';
import { isJwtShaped } from '../util/tokenGrammar';
import type { HostKey, Operation } from '../platform/operations';
import { HOST_KEYS, type PlatformHosts } from '../platform/hosts';

/** How an operation is found by its request (catalog.ts's operationFor: the catalog loads on first use, so it is handed in). */
export type OperationLookup = (method: string, host: HostKey, path: string) => Operation | undefined;

export interface IdentityAccount {
	id: string;
	/** Its short name (`admin`), which makes its variable `TELEMATICS_TOKEN_ADMIN`. */
	name?: string;
	kind: AccountKind;
	/** Its platform's hosts (platformHosts of its service). */
	hosts: PlatformHosts;
	/** Its current token, for telling whose a JWT in the file is. */
	accessToken?: string;
	expiresAt?: number;
}

export interface IdentityContext {
	accounts: readonly IdentityAccount[];
	activeId?: string;
	/** Environment → account name (telematicsAuth.environmentAccounts). */
	bindings: ReadonlyMap<string, string>;
}

/** How the request names the account it sends. */
export type Carrier = 'reference' | 'active' | 'environment' | 'token';

/** A fix: the text from `start` to `end` (document offsets) becomes `newText`, or (a token) the account's token goes there. */
export interface IdentityFix {
	accountId: string;
	start: number;
	end: number;
	/** The variable's new name; absent for a token, which the caller writes with the same questions as Insert. */
	newText?: string;
}

export interface WrongIdentity {
	requestLine: number;
	/** The Authorization header's line. */
	line: number;
	operation: Operation;
	/** The account the request sends, of the other kind. */
	sent: IdentityAccount;
	carrier: Carrier;
	/** The bound environment in which it sends that account (carrier `environment`). */
	environment?: string;
	/** One per logged-in account of the needed kind that can take its place, the active one first. */
	fixes: IdentityFix[];
}

/** The Authorization credential: `Bearer ` then a reference to one of our variables or a JWT. */
const REFERENCE = /^\{\{\s*(\$(?:processEnv|dotenv)\s+)?(TELEMATICS_TOKEN(?:_[A-Z0-9_]{1,64})?)\s*\}\}$/;
// `(.*\S|.)\s*$`, not `(.+?)\s*$`: the same credential, without trying the end at every space of a long run.
const BEARER = /^(\s*authorization\s*:\s*bearer\s+)(.*\S|.)\s*$/i;
const METHOD = /^\s*([A-Za-z]+)[ \t]+/;

/** The operation a request is, on the hosts of `accounts` (every key with the URL's origin: on the demo, one origin serves them all). */
export function operationOfRequest(file: ParsedFile, request: ParsedRequest, accounts: readonly Pick<IdentityAccount, 'hosts'>[], operationFor: OperationLookup): Operation | undefined {
	const method = METHOD.exec(file.lines[request.requestLine]!.text)?.[1]?.toUpperCase() ?? 'GET';
	const target = requestTarget(file, request);
	if (!/^https?:\/\//i.test(target) || target.includes('{{')) return undefined;
	let url: URL;
	try {
		url = new URL(target);
	} catch {
		return undefined;
	}
	for (const { hosts } of accounts) {
		for (const key of HOST_KEYS) {
			if (hosts[key] !== url.origin) continue;
			const op = operationFor(method, key, url.pathname);
			if (op) return op;
		}
	}
	return undefined;
}

/** The requests of `file` that send an account of the other kind than their operation needs. */
export function wrongIdentities(file: ParsedFile, context: IdentityContext, operationFor: OperationLookup): WrongIdentity[] {
	const { accounts } = context;
	if (accounts.length === 0) return [];
	const byVariable = new Map(accounts.flatMap((a) => a.name ? [[tokenVariableFor(a.name), a] as const] : []));
	const byName = new Map(accounts.flatMap((a) => a.name ? [[a.name, a] as const] : []));
	const active = accounts.find((a) => a.id === context.activeId);
	const known: KnownToken[] = accounts.flatMap((a) => a.accessToken ? [{ accountId: a.id, accessToken: a.accessToken, expiresAt: a.expiresAt ?? 0 }] : []);
	const found: WrongIdentity[] = [];
	for (const request of file.requests) {
		const header = request.headers.find((h) => h.name.toLowerCase() === 'authorization');
		if (!header) continue;
		const line = file.lines[header.line]!;
		const bearer = BEARER.exec(line.text);
		if (!bearer) continue;
		const credential = bearer[2]!;
		const credentialStart = line.start + bearer[1]!.length;
		// Whose token goes, and in which environment.
		const carried: Array<{ account: IdentityAccount; carrier: Carrier; environment?: string }> = [];
		let variableAt: { start: number; end: number } | undefined;
		const reference = REFERENCE.exec(credential);
		if (reference) {
			const variable = reference[2]!;
			const start = credentialStart + credential.indexOf(variable, 2 + (reference[1]?.length ?? 0));
			variableAt = { start, end: start + variable.length };
			if (variable !== 'TELEMATICS_TOKEN') {
				const account = byVariable.get(variable);
				if (account) carried.push({ account, carrier: 'reference' });
			} else {
				// A bare `{{TELEMATICS_TOKEN}}` is filled from env files, where a bound environment holds its account's token.
				if (reference[1] === undefined) {
					for (const [environment, name] of context.bindings) {
						const account = byName.get(name);
						if (account) carried.push({ account, carrier: 'environment', environment });
					}
				}
				if (active) carried.push({ account: active, carrier: 'active' });
			}
		} else if (isJwtShaped(credential)) {
			const owner = findOwner(credential, known);
			const account = owner && accounts.find((a) => a.id === owner.accountId);
			if (account) carried.push({ account, carrier: 'token' });
		}
		if (carried.length === 0) continue;
		const operation = operationOfRequest(file, request, [...new Set(carried.map((c) => c.account)), ...accounts], operationFor);
		if (!operation || operation.token === 'none' || operation.token === 'unknown') continue;
		const needed = operation.token;
		const candidates = accounts.filter((a) => a.kind === needed).sort((a, b) => Number(b.id === context.activeId) - Number(a.id === context.activeId));
		for (const { account, carrier, environment } of carried) {
			if (account.kind === needed) continue;
			const fixes: IdentityFix[] = [];
			for (const candidate of candidates) {
				if (variableAt) {
					if (candidate.name) fixes.push({ accountId: candidate.id, start: variableAt.start, end: variableAt.end, newText: tokenVariableFor(candidate.name) });
				} else {
					fixes.push({ accountId: candidate.id, start: credentialStart, end: credentialStart + credential.length });
				}
			}
			found.push({ requestLine: request.requestLine, line: header.line, operation, sent: account, carrier, ...(environment !== undefined && { environment }), fixes });
		}
	}
	return found;
}
