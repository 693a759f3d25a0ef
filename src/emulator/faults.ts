// Which fault the next request to an endpoint meets. A `count` limits a fault to that many
// requests per endpoint, after which the endpoint answers normally again.
import { DEFAULT_SLOW_MS, type EmulatorFaults, type FaultMode } from './config';

export type FaultEndpoint = 'login' | 'refresh';

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
