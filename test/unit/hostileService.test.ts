// The fault and fuzz suite (test/fuzz/hostileService.ts): 1,000 scenarios through the real client, store
// and scheduler, with a keychain that refuses writes at random; every count of what must never happen is 0.
import * as assert from 'node:assert/strict';
import { runHostileService } from '../fuzz/hostileService';

describe('a hostile or broken service (generated, 1,000 scenarios)', function () {
	this.timeout(180_000);

	it('never crashes, leaks, storms, injects a line or loses a session', async () => {
		const counts = await runHostileService(1000);
		assert.ok(counts.answers >= 2000, `${counts.answers} answers`);
		assert.deepEqual(
			{ ...counts, answers: 0 },
			{ answers: 0, crashes: 0, unhandledRejections: 0, sessionsLost: 0, secretsLeaked: 0, injectedLines: 0, refreshStorms: 0 },
		);
	});
});
