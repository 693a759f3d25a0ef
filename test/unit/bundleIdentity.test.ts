// The extension ships as several bundles (activation, features, network), each with its own
// copy of our classes, so `instanceof` fails across them. The checks used instead must
// recognise an instance made by another copy of the class, and nothing else.
import * as assert from 'node:assert/strict';
import { ApiError, isApiError } from '../../src/core/api/errors';
import { asRedactingLog, RedactingLog } from '../../src/core/util/logger';
import { silentLog } from '../../src/core/util/log';
import { isSecretStorageError, SecretStorageError } from '../../src/platform/secretBackend';
import { createRequire } from 'node:module';

/** A fresh copy of a module, as another bundle would have it. */
function anotherCopyOf<T>(modulePath: string): T {
	const resolved = require.resolve(modulePath);
	const cached = require.cache[resolved];
	delete require.cache[resolved];
	try {
		return createRequire(__filename)(resolved) as T;
	} finally {
		if (cached) require.cache[resolved] = cached;
	}
}

describe('class checks across bundles', () => {
	it('isApiError recognises an ApiError from another copy of the class, which instanceof does not', () => {
		const other = anotherCopyOf<typeof import('../../src/core/api/errors')>('../../src/core/api/errors');
		const foreign = new other.ApiError('timeout', 'No answer within 30 s.');
		assert.equal(foreign instanceof ApiError, false, 'the copies are really different classes');
		assert.equal(isApiError(foreign), true);
		assert.equal(other.isApiError(new ApiError('network', 'x')), true);
		assert.equal(foreign.isTransient, true);
	});

	const notApiErrors: Array<[string, unknown]> = [
		['a plain Error', new Error('x')],
		['an Error that claims a kind', Object.assign(new Error('x'), { kind: 'timeout', name: 'ApiError' })],
		['a string', 'ApiError'],
		['undefined', undefined],
		['null', null],
	];
	for (const [what, value] of notApiErrors) {
		it(`isApiError is false for ${what}`, () => assert.equal(isApiError(value), false));
	}

	it('isSecretStorageError recognises one from another copy of the class, and nothing else', () => {
		const other = anotherCopyOf<typeof import('../../src/platform/secretBackend')>('../../src/platform/secretBackend');
		const foreign = new other.SecretStorageError('The keychain refused.');
		assert.equal(foreign instanceof SecretStorageError, false);
		assert.equal(isSecretStorageError(foreign), true);
		assert.equal(isSecretStorageError(new Error('The keychain refused.')), false);
	});

	it('asRedactingLog finds a RedactingLog from another copy of the class, so a login still masks its password', () => {
		const other = anotherCopyOf<typeof import('../../src/core/util/logger')>('../../src/core/util/logger');
		const lines: string[] = [];
		const sink = { ...silentLog, info: (m: string) => void lines.push(m) };
		const foreign = new other.RedactingLog(sink);
		assert.equal(foreign instanceof RedactingLog, false);
		const found = asRedactingLog(foreign);
		assert.ok(found);
		const masking = found.addSecrets(['hunter2-password']);
		found.info('sent hunter2-password');
		masking.dispose();
		assert.ok(!lines.join('\n').includes('hunter2-password'));
		assert.equal(asRedactingLog(silentLog), undefined);
	});
});
