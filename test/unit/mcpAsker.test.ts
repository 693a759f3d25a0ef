// The MCP questions name who asks as the session question does (core/agent/mcpAsker.ts): the executable as
// the system knows it first, the command line after it, labelled as the program's own claim.
import * as assert from 'node:assert/strict';
import { programLines } from '../../src/core/agent/mcpAsker';

describe('who asks through telematics-mcp, in its questions', () => {
	it('the executable first, then the command line said to be the program\'s own claim', () => {
		const lines = programLines({ executable: '/usr/bin/python3', commandLine: 'code --trusted-extension-host', terminalName: 't' }, true);
		assert.deepEqual(lines, [
			'The program, as the system knows it: /usr/bin/python3',
			'Its command line, as the program itself says (a program can set it to anything): code --trusted-extension-host',
		]);
	});

	it('a command line is never shown unlabelled, even when the system does not name the executable', () => {
		const lines = programLines({ commandLine: 'Visual Studio Code' }, true);
		assert.equal(lines[0], 'The system does not say which program asks.');
		assert.match(lines[1]!, /^Its command line, as the program itself says \(a program can set it to anything\): Visual Studio Code$/);
		assert.deepEqual(programLines(undefined, false), ['The system does not say which process asks: it could be any program running as you.']);
	});
});
