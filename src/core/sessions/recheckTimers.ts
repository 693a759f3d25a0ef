// "Look at this account again after 1, 5, 20 s": one timer per account along a fixed schedule,
// for what another window's writes reach this one late (an unlisted secret, a missing one).
import type { Clock } from '../util/clock';

export class RecheckTimers {
	private readonly timers = new Map<string, unknown>();
	private disposed = false;

	/** `schedule`: when each look happens, in ms after the first. */
	constructor(private readonly clock: Clock, readonly schedule: readonly number[]) {}

	/**
	 * Runs `check` at look `step` of `id`'s schedule. A first look while one is planned is dropped;
	 * `check` decides whether to plan look `step + 1` (see `hasNext`).
	 */
	plan(id: string, step: number, check: () => void): void {
		if ((step === 0 && this.timers.has(id)) || this.disposed) return;
		const delay = this.schedule[step]! - (step === 0 ? 0 : this.schedule[step - 1]!);
		this.timers.set(id, this.clock.setTimeout(() => {
			this.timers.delete(id);
			if (!this.disposed) check();
		}, delay));
	}

	/** Whether look `step` has another after it. */
	hasNext(step: number): boolean {
		return step + 1 < this.schedule.length;
	}

	stop(id: string): void {
		const timer = this.timers.get(id);
		if (timer !== undefined) this.clock.clearTimeout(timer);
		this.timers.delete(id);
	}

	dispose(): void {
		this.disposed = true;
		for (const id of [...this.timers.keys()]) this.stop(id);
	}
}
