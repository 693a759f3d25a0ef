// The hostile-folder suite (test/fuzz/hostileFolder.ts): generated folders on the real file system with real
// git, trusted and in Restricted Mode, and keychains that lose secrets; every count of what must never happen is 0.
import * as assert from 'node:assert/strict';
import { runHostileFolder } from '../fuzz/hostileFolder';

describe('a hostile folder (generated: 120 folders, 1,000 keychain schedules)', function () {
	this.timeout(300_000);

	it('runs no program of the folder, changes nothing outside it or in an untrusted one, renders no link, loses no session', async () => {
		const counts = await runHostileFolder(120, 1000);
		assert.ok(counts.restricted > 20 && counts.folders - counts.restricted > 20, `${counts.restricted} of ${counts.folders} in Restricted Mode`);
		assert.equal(counts.keychainScenarios, 1000);
		assert.deepEqual(
			{ ...counts, folders: 0, restricted: 0, keychainScenarios: 0 },
			{ folders: 0, restricted: 0, keychainScenarios: 0, programsRun: 0, outsideChanged: 0, secretsCopied: 0, untrustedTouched: 0, linksRendered: 0, sessionsLost: 0, logoutsUndone: 0 },
		);
	});
});
