// What the Live Tracking page is sent and when (core/liveTracking/pageFeed.ts), on a fake clock: at most
// ten posts a second whatever the frame rate, each with only what changed, everything after the page was
// hidden and shown again, nothing after the panel closed.
import * as assert from 'node:assert/strict';
import { Fleet, type FleetView } from '../../src/core/liveTracking/fleet';
import { BURST_MS, PageFeed, POST_INTERVAL_MS } from '../../src/core/liveTracking/pageFeed';
import { createTestClock } from '../support/doubles/fakeClock';

function rig() {
	const { timers, clock } = createTestClock();
	const fleet = new Fleet((token) => `••••${token.slice(-4)}`);
	const posts: Array<{ at: number; type: string; fleet: FleetView; state: object }> = [];
	let state = { kind: 'live' };
	const feed = new PageFeed({ clock, fleet, state: () => state, post: (m) => posts.push({ at: timers.now, type: m.type, fleet: m.fleet, state: m.state }) });
	const frame = (token: string, latitude = 1) => {
		fleet.update([{ deviceToken: token, latitude, longitude: 2 }], 0, timers.now);
		feed.changed();
	};
	return { timers, fleet, feed, posts, frame, setState: (s: { kind: string }) => (state = s) };
}

describe('Live Tracking page feed (fake clock)', () => {
	it(`a thousand frames a second reach the page as at most ${1000 / POST_INTERVAL_MS} posts, none later than ${POST_INTERVAL_MS} ms after its frame`, () => {
		const r = rig();
		for (let ms = 0; ms < 1000; ms++) {
			r.frame(`device-${String(ms % 1000).padStart(4, '0')}`, ms / 1000);
			r.timers.tick(1);
		}
		r.timers.tick(POST_INTERVAL_MS);
		assert.ok(r.posts.length <= 1000 / POST_INTERVAL_MS + 1, `${r.posts.length} posts`);
		for (let i = 1; i < r.posts.length; i++) assert.ok(r.posts[i]!.at - r.posts[i - 1]!.at >= POST_INTERVAL_MS, 'ten a second at most');
		// Device n (id n + 1) had its one frame at START + n ms: the first post holding it is at most 100 ms later.
		const start = r.posts[0]!.at;
		const firstPost = new Map<number, number>();
		for (const p of r.posts) for (const d of p.fleet.devices) if (!firstPost.has(d.id)) firstPost.set(d.id, p.at - start);
		assert.equal(firstPost.size, 1000, 'every device reached the page');
		for (const [id, at] of firstPost) assert.ok(at - (id - 1) <= POST_INTERVAL_MS, `device ${id} posted ${at - (id - 1)} ms after its frame`);
	});

	it('a burst of frames goes in one post; the first post holds everything; the next ones only what changed; after the page was hidden, everything at once', () => {
		const r = rig();
		r.frame('device-a');
		r.timers.tick(BURST_MS - 1);
		r.frame('device-b');
		assert.equal(r.posts.length, 0, 'a burst is still coming in');
		r.timers.tick(1);
		assert.deepEqual(r.posts.map((p) => [p.fleet.full, p.fleet.devices.map((d) => d.label)]), [[true, ['••••ce-a', '••••ce-b']]]);
		r.timers.tick(POST_INTERVAL_MS);
		r.frame('device-b', 3);
		r.timers.tick(POST_INTERVAL_MS);
		assert.deepEqual(r.posts.map((p) => [p.fleet.full, p.fleet.devices.map((d) => d.label)]).at(-1), [false, ['••••ce-b']]);
		r.feed.pageReset();
		assert.deepEqual(r.posts.map((p) => [p.fleet.full, p.fleet.devices.length]).at(-1), [true, 2], 'at once, not at the next frame');
	});

	it('a state change alone is posted; a closed panel posts nothing more', () => {
		const r = rig();
		r.setState({ kind: 'waiting' });
		r.feed.changed();
		r.timers.tick(BURST_MS);
		assert.deepEqual(r.posts.map((p) => [p.type, p.state]), [['view', { kind: 'waiting' }]], 'the page reads a "view" message');
		r.frame('device-a');
		assert.equal(r.timers.countTimers(), 1, 'a post is due');
		r.feed.dispose();
		assert.equal(r.timers.countTimers(), 0, 'a closed panel leaves no timer behind');
		r.timers.tick(10 * POST_INTERVAL_MS);
		r.feed.pageReset();
		assert.equal(r.posts.length, 1);
	});
});
