// One timer for everything that shows a time left (the status bar, the Accounts view, the REST
// files' lenses and warnings): each says when its text next changes, and the ticker wakes once,
// for the earliest. Pure: no `vscode`.
import type { Clock } from './clock';

/** What re-renders with time. */
export interface Ticking {
	tick(): void;
}

export class Ticker {
	/** Each owner's next tick, in the clock's milliseconds. */
	private readonly due = new Map<Ticking, number>();
	private timer: unknown;
	private timerAt: number | undefined;

	constructor(private readonly clock: Clock) {}

	/** `owner.tick()` runs `delayMs` from now; undefined: not at all. Replaces the owner's earlier wish. */
	schedule(owner: Ticking, delayMs: number | undefined): void {
		if (delayMs === undefined) this.due.delete(owner);
		else this.due.set(owner, this.clock.now() + delayMs);
		this.arm();
	}

	/** Whether `owner` has a tick to come. */
	isScheduled(owner: Ticking): boolean {
		return this.due.has(owner);
	}

	dispose(): void {
		this.due.clear();
		this.arm();
	}

	private arm(): void {
		let earliest: number | undefined;
		for (const at of this.due.values()) if (earliest === undefined || at < earliest) earliest = at;
		if (earliest === this.timerAt) return;
		if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
		this.timer = undefined;
		this.timerAt = earliest;
		if (earliest !== undefined) this.timer = this.clock.setTimeout(() => this.fire(), Math.max(0, earliest - this.clock.now()));
	}

	private fire(): void {
		this.timer = undefined;
		this.timerAt = undefined;
		const now = this.clock.now();
		const ready = [...this.due].filter(([, at]) => at <= now).map(([owner]) => owner);
		for (const owner of ready) this.due.delete(owner);
		try {
			for (const owner of ready) owner.tick(); // each may schedule its next tick
		} finally {
			this.arm();
		}
	}
}
