import * as assert from 'node:assert/strict';
import { RedactingLog, sessionSecrets } from '../../src/core/util/redactingLog';
import type { Log } from '../../src/core/util/log';

function recorder(): Log & { lines: string[] } {
	const lines: string[] = [];
	const push = (m: string) => void lines.push(m);
	return { lines, trace: push, debug: push, info: push, warn: push, error: push };
}

describe('RedactingLog', () => {
	it('masks the secrets of stored sessions, read at each line', () => {
		const sink = recorder();
		const log = new RedactingLog(sink);
		let sessions = [{ tokens: { accessToken: 'opaque-access-1', refreshToken: 'refresh-abc-1', deviceToken: 'device-xyz-1' } }];
		log.setSecretSource(() => sessionSecrets(sessions));
		log.info('got opaque-access-1 / refresh-abc-1 for device-xyz-1');
		sessions = [{ tokens: { accessToken: 'opaque-access-2', refreshToken: 'refresh-abc-2', deviceToken: 'device-xyz-1' } }];
		log.warn('rotated to refresh-abc-2');
		assert.deepEqual(sink.lines, ['got *** / *** for ***', 'rotated to ***']);
	});

	it('masks credentials of a login in progress until released', () => {
		const sink = recorder();
		const log = new RedactingLog(sink);
		const masking = log.addSecrets(['my-instance-key', undefined, '']);
		log.error('rejected my-instance-key');
		masking.dispose();
		log.error('later my-instance-key');
		assert.deepEqual(sink.lines, ['rejected ***', 'later my-instance-key']);
	});

	it('keeps the last lines, redacted, for tests', () => {
		const log = new RedactingLog(recorder(), 3);
		for (let i = 1; i <= 5; i++) log.info(`line ${i} Bearer abc.def`);
		assert.deepEqual(log.recent(), ['[info] line 3 Bearer ***', '[info] line 4 Bearer ***', '[info] line 5 Bearer ***']);
	});

	it('still logs when the secret source throws', () => {
		const sink = recorder();
		const log = new RedactingLog(sink);
		log.setSecretSource(() => { throw new Error('not loaded'); });
		log.info('hello');
		assert.deepEqual(sink.lines, ['hello']);
	});

	it('neither redacts nor writes a line below the channel\'s level, and writes nothing when the channel is off', () => {
		const sink = { ...recorder(), logLevel: 3 };
		let secretReads = 0;
		const log = new RedactingLog(sink);
		log.setSecretSource(() => { secretReads++; return ['opaque-access-1']; });
		log.debug('planned opaque-access-1');
		assert.equal(secretReads, 0, 'the debug line was redacted for nobody');
		log.info('got opaque-access-1');
		sink.logLevel = 2;
		log.debug('planned opaque-access-1');
		sink.logLevel = 0;
		log.error('failed opaque-access-1');
		assert.deepEqual(sink.lines, ['got ***', 'planned ***']);
	});

	it('keeps lines below the channel\'s level for the tests, redacted', () => {
		const sink = Object.assign(recorder(), { logLevel: 4 });
		const log = new RedactingLog(sink, 10);
		log.setSecretSource(() => ['opaque-access-1']);
		log.debug('planned opaque-access-1');
		assert.deepEqual(sink.lines, []);
		assert.deepEqual(log.recent(), ['[debug] planned ***']);
	});
});
