// What the Live Tracking page is sent, and when: at most ten posts a second however many frames came in
// between (a thousand devices at one update a second each is a thousand frames a second), each holding the
// devices that changed since the page's last one, or all of them when the page holds none (first shown,
// or shown again after a tab switch). Pure: the clock, the fleet and the post are handed in.
import type { Clock } from '../util/clock';
import type { Fleet, FleetView } from './fleet';

/** At most this often a post to the page (ten a second). */
export const POST_INTERVAL_MS = 100;
/**
 * The least wait before a post, even after a quiet spell: a service sends its fleet's updates together,
 * and the frames of one such burst (read in a few milliseconds) go in one post rather than the first alone
 * at once and the rest a full interval later.
 */
export const BURST_MS = 16;

export interface PageFeedDeps {
	clock: Clock;
	fleet: Pick<Fleet, 'view'>;
	/** The state line as the page shows it (the panel words it). */
	state(): object;
	/** Sends one message to the page. */
	post(message: { type: 'view'; state: object; fleet: FleetView }): void;
}

export class PageFeed {
	private timer: unknown;
	private lastPostAt = Number.NEGATIVE_INFINITY;
	/** The fleet version the page holds (undefined: it holds nothing). */
	private pageVersion: number | undefined;
	private disposed = false;

	constructor(private readonly deps: PageFeedDeps) { }

	/** Something changed: a post goes out BURST_MS from now, or POST_INTERVAL_MS after the last one if later. */
	changed(): void {
		if (this.timer !== undefined || this.disposed) return;
		const wait = Math.max(BURST_MS, this.lastPostAt + POST_INTERVAL_MS - this.deps.clock.now());
		this.timer = this.deps.clock.setTimeout(() => {
			this.timer = undefined;
			this.postNow();
		}, wait);
	}

	/** The page holds nothing now (it was hidden and is shown again): everything, at once. */
	pageReset(): void {
		this.pageVersion = undefined;
		this.postNow();
	}

	/** Posts the state and what the page does not have yet. */
	postNow(): void {
		if (this.disposed) return;
		this.lastPostAt = this.deps.clock.now();
		const fleet = this.deps.fleet.view(this.pageVersion);
		this.pageVersion = fleet.version;
		this.deps.post({ type: 'view', state: this.deps.state(), fleet });
	}

	dispose(): void {
		this.disposed = true;
		this.deps.clock.clearTimeout(this.timer);
		this.timer = undefined;
	}
}
