// An allowed MCP session is bound to the process the person allowed (core/agent/mcpSession.ts's
// SessionBindings, with the kernel's pid and start time from features/mcp/processIdentity.ts): two
// real processes, and a call that sends the allowed session's id from the other one is asked about again.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { SessionBindings, startTimeOf } from '../../src/core/agent/mcpSession';
import { executableOf, processIdentity } from '../../src/features/mcp/processIdentity';

const SESSION = 'a'.repeat(32);

describe('an allowed MCP session is bound to its process', () => {
	const children: ChildProcess[] = [];
	const start = (): ChildProcess => {
		const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
		children.push(child);
		return child;
	};
	after(() => {
		for (const child of children) child.kill();
	});

	it('two processes: the one allowed is answered, the other sending the same session id is not', async function () {
		if (process.platform !== 'linux') this.skip();
		const [one, two] = [start(), start()];
		const allowed = await processIdentity(one.pid);
		const other = await processIdentity(two.pid);
		assert.ok(allowed && other, 'the kernel names both');
		const bindings = new SessionBindings();
		bindings.bind(SESSION, allowed);
		assert.equal(bindings.holds(SESSION, await processIdentity(one.pid)), true);
		assert.equal(bindings.holds(SESSION, other), false, 'another process with the id asks again');
		assert.equal(bindings.holds(SESSION, undefined), false, 'a call the system cannot place asks again');
		assert.equal(bindings.holds(SESSION, { pid: allowed.pid, startTime: allowed.startTime + 1 }), false, 'a reused pid is another process');
		assert.equal(bindings.holds(SESSION, { pid: other.pid, startTime: allowed.startTime }), false, 'another process started in the same tick');
		assert.equal(bindings.holds('b'.repeat(32), allowed), false, 'another session was never allowed');
		assert.equal(await executableOf(one.pid), await executableOf(process.pid), 'the executable as the kernel knows it');
	});

	it('where the system named no process, the allowance is the session id\'s alone; cleared, nothing holds', () => {
		const bindings = new SessionBindings();
		bindings.bind(SESSION, undefined);
		assert.equal(bindings.holds(SESSION, undefined), true);
		assert.equal(bindings.holds(SESSION, { pid: 5, startTime: 9 }), true);
		bindings.clear();
		assert.equal(bindings.holds(SESSION, undefined), false);
	});

	it('reads the start time from /proc/<pid>/stat whatever the command name holds', () => {
		const rest = 'S 1 2 3 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 200';
		assert.equal(startTimeOf(`42 (node) ${rest}`), 987654);
		assert.equal(startTimeOf(`42 (a) b) 7 8) ${rest}`), 987654);
		assert.equal(startTimeOf('42 (node) S 1 2'), undefined);
		assert.equal(startTimeOf('garbage'), undefined);
		assert.equal(startTimeOf(`42 node ${rest}`), undefined, 'no command name in parentheses');
		assert.equal(startTimeOf(`) ${rest}`), 987654, 'counted from the last ")", wherever it is');
		assert.equal(startTimeOf(`42 (node)  ${rest.replaceAll(' ', ' \t')}`), 987654, 'fields apart by any white space');
		for (const field of ['-5', '0x10', '1e3', '98765432109876543210']) {
			assert.equal(startTimeOf(`42 (node) ${rest.replace('987654', field)}`), undefined, `a start time written ${field}`);
		}
	});
});
