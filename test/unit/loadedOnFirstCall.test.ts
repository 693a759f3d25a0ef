// The stand-in startup.ts hands out for what loads later (the API client, the prompter): nothing loads
// until a method is called, then once, and each call reaches the real object with its arguments.
import * as assert from 'node:assert/strict';
import { loadedOnFirstCall } from '../../src/core/util/loadedOnFirstCall';

interface Greeter {
	greet(name: string): Promise<string>;
	count(): Promise<number>;
}

class RealGreeter implements Greeter {
	private calls = 0;
	async greet(name: string): Promise<string> {
		this.calls++;
		return `hello ${name}`;
	}
	async count(): Promise<number> {
		return this.calls;
	}
}

describe('loadedOnFirstCall', () => {
	it('loads nothing until a method is called, then once, and keeps the real object\'s state', async () => {
		let loads = 0;
		const greeter = loadedOnFirstCall<Greeter>(async () => {
			loads++;
			return new RealGreeter();
		}, { greet: true, count: true });
		assert.equal(loads, 0);
		assert.deepEqual(await Promise.all([greeter.greet('a'), greeter.greet('b')]), ['hello a', 'hello b']);
		assert.equal(await greeter.count(), 2);
		assert.equal(loads, 1);
	});

	it('passes the real method\'s failure on, and loads again after a failed load', async () => {
		let loads = 0;
		const greeter = loadedOnFirstCall<Greeter>(async () => {
			loads++;
			if (loads === 1) throw new Error('bundle missing');
			return { greet: async () => { throw new Error('refused'); }, count: async () => 7 };
		}, { greet: true, count: true });
		await assert.rejects(greeter.count(), /bundle missing/);
		assert.equal(await greeter.count(), 7);
		await assert.rejects(greeter.greet('x'), /refused/);
		assert.equal(loads, 2);
	});
});
