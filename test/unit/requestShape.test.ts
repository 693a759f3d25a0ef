// The allow-list line by line (core/restFile/requestShape.ts): what a file may hold for the host check to read it
// completely, with the first line outside it and why; and the names httpYac's global regions define.
import * as assert from 'node:assert/strict';
import { parseRestFile } from '../../src/core/restFile/requestParser';
import { globalNames, outsideAllowList } from '../../src/core/restFile/requestShape';

describe('the allow-list, line by line (issue 41)', () => {
	const rows: Array<[string, string | undefined]> = [
		["/* a comment\nGET x {{ y() }}\n*/\nGET https://a.example/\n", undefined],
		["/* one line */\nGET https://a.example/\n", undefined],
		['{{base}}/x\n', undefined],
		['{{b()}}/x\n', 'line 1: an expression'],
		['GET https://a.example/\n\nx ### {{ b() }}\n', 'line 3: an expression'],
		['GET https://a.example/\n\nx}}{{a}}\n', undefined],
		['GET https://a.example/\n\n/* {{ b() }} */\n', 'line 3: an expression'],
		['GET https://a.example/\n\nfragment {{ b() }}\n', 'line 3: an expression'],
		["  /* indented\n*/\nGET https://a.example/\n", undefined],
		["x /* not a comment */\nGET https://a.example/\n", 'line 1: a line no client reads alike'],
		["fragment F on T {\n  {{ x() }}\n}\n\nGET https://a.example/\n", undefined],
		["  fragment F on T {\n  id\n}\n\nGET https://a.example/\n", undefined],
		["fragment F on T {\n  id\n}\nstray line\n\nGET https://a.example/\n", undefined],
		["xfragment F\n\nGET https://a.example/\n", 'line 1: a line no client reads alike'],
		["fragmentX F\n\nGET https://a.example/\n", 'line 1: a line no client reads alike'],
		["GET https://a.example/\n\n/* body */\n", undefined],
		["GET https://a.example/\nX: 1\n\nfragment {\n", undefined],
		["GET https://a.example/\n\n{{\n  x\n}}\n", 'line 3: a script'],
		["GET https://a.example/\nX: 1\n{{\n", 'line 3: a script'],
		["GET https://a.example/\n\n> ./h.js\n", 'line 3: a script'],
		["GET https://a.example/\n\n>> out.json\n", undefined],
		["GET https://a.example/\n\nbody ### text\n", undefined],
		["GET https://a.example/\n\n< ./body.json\n", undefined],
		["< ./script.js\nGET https://a.example/\n", 'line 1: a script'],
		["stray text\nGET https://a.example/\n", 'line 1: a line no client reads alike'],
		["GET https://a.example/\n\nok {{a}} then {{ b() }}\n", 'line 3: an expression'],
		["GET https://a.example/\n\n{{a}}{{ b() }}\n", 'line 3: a script'],
		["GET https://a.example/\n\nx {{a}} y {{b\n", 'line 3: an unclosed reference'],
		["GET https://a.example/\n\nx }} {{a}}\n", undefined],
		["GET https://a.example/\n\n}}{{ a() }}\n", 'line 3: an expression'],
		["GET https://a.example/\n\nx {{a}}}}{{ b() }}\n", 'line 3: an expression'],
		["GET https://a.example/\n# @note {{ x() }}\n", 'line 2: an expression in metadata'],
		["# @proxy http://x\nGET https://a.example/\n", 'line 1: metadata @proxy'],
		["@a = 1\n\n\n\n# @nope\nGET https://a.example/\n", 'line 5: metadata @nope'],
		// `...name` spreads headers among the headers (httpYac); in the body it is text, a GraphQL fragment spread.
		["POST https://a.example/\nContent-Type: application/json\n\nquery { x {\n  ...Parts\n} }\n", undefined],
		["POST https://a.example/\n\n...Parts\n", undefined],
		["POST https://a.example/\n...auth\n\nbody\n", 'line 2: a script'],
		["POST https://a.example/\nX: 1\n  ...auth\n\n...Parts\n", 'line 3: a script'],
		["POST https://a.example/\n\n...Parts\n> {% client.global.set('a', 1) %}\n", 'line 4: a script'],
		["...auth\nPOST https://a.example/\n", 'line 1: a script'],
		// Each form of a script line, a file line and a metadata comment, spaces and all.
		["GET https://a.example/\n\n<{% x %}\n", 'line 3: a script'],
		["GET https://a.example/\n\n<  {% x %}\n", 'line 3: a script'],
		["GET https://a.example/\n\n< {% x %}\n", 'line 3: a script'],
		["GET https://a.example/\n\n>./h.js\n", 'line 3: a script'],
		["GET https://a.example/\n\n??  js response.ok\n", 'line 3: a script'],
		["GET https://a.example/\n\n?? js response.ok\n", 'line 3: a script'],
		["GET https://a.example/\n\n{{a}} ...x\n", 'line 3: a script'],
		["import ./x.http\nGET https://a.example/\n", 'line 1: a script'],
		["proto<./h.proto\nGET https://a.example/\n", 'line 1: a script'],
		["x < y\nGET https://a.example/\n", 'line 1: a line no client reads alike'],
		["  < ./s.js\nGET https://a.example/\n", 'line 1: a script'],
		["<  ./s.js\nGET https://a.example/\n", 'line 1: a script'],
		["# see #@proxy x\nGET https://a.example/\n", undefined],
		["  # @proxy x\nGET https://a.example/\n", 'line 1: metadata @proxy'],
		["## @proxy x\nGET https://a.example/\n", 'line 1: metadata @proxy'],
		["/// @proxy x\nGET https://a.example/\n", 'line 1: metadata @proxy'],
		["# @note={{ x() }}\nGET https://a.example/\n", 'line 1: an expression in metadata'],
		["@a = \"x\"\nGET https://a.example/\n", 'line 1: a definition a client may read another way'],
		["@a ='x'\nGET https://a.example/\n", 'line 1: a definition a client may read another way'],
		["@xrequest_a = 1\nGET https://a.example/\n", undefined],
		["GET https://a.example/{{a[10]}}\n", undefined],
	];
	for (const [text, why] of rows) it(`${JSON.stringify(text)} → ${why ?? 'read completely'}`, () => assert.equal(outsideAllowList(parseRestFile(text)), why));

	it('each harmless metadata key, as the clients spell it, is inside (SECURITY.md\'s table)', () => {
		const keys = ['name', 'title', 'description', 'note', 'ref', 'forceRef', 'no-log', 'no-cookie-jar', 'no-redirect', 'no-auto-encoding', 'timeout',
			'connection-timeout', 'sleep', 'verbose', 'debug', 'save', 'openWith', 'extension', 'keepStreaming', 'no-response-view', 'noStreamingLog',
			'rateLimit', 'jwt', 'http-version', 'deprecated', 'tag', 'tags'];
		for (const key of keys) assert.equal(outsideAllowList(parseRestFile(`# @${key} x\nGET https://a.example/\n`)), undefined, key);
	});
});

describe('the names httpYac\'s global regions define (no request, no name, no ### title)', () => {
	const rows: Array<[string, string[]]> = [
		["@a = 1\n\n###\nGET https://x/\n", ['a']],
		["### setup\n@a = 1\n\n###\nGET https://x/\n", []],
		["###setup\n@a = 1\n\n###\nGET https://x/\n", []],
		["###  \n@a = 1\n\n###\nGET https://x/\n", ['a']],
		["# intro ### x\n@a = 1\n\n###\nGET https://x/\n", ['a']],
		["###\n@a = 1\n# @name s\n\n###\nGET https://x/\n", []],
		["###\n@a = 1\n  // @name s\n\n###\nGET https://x/\n", []],
		["###\n@a = 1\n##@name s\n\n###\nGET https://x/\n", []],
		["###\n@a = 1\n///  @name s\n\n###\nGET https://x/\n", []],
		["###\n@a = 1\nx # @name s\n\n###\nGET https://x/\n", ['a']],
		["###\n# @named\n@a = 1\n@b = 2\n\n###\nGET https://x/\n", ['a','b']],
		["@a = 1\n@b = 2", ['a','b']],
		["@a = 1\n# see @name x\n\n###\nGET https://x/\n", ['a']],
		// httpYac ignores an empty definition and reads the line as a request line, so its region holds a request (issue 50).
		["@a =\n\n###\nGET https://x/\n", []],
		["@a =   \n\n###\nGET https://x/\n", []],
		["@a = 1\n@b=\n\n###\nGET https://x/\n", []],
		["@a = 1\n@b =\n\n###\nGET https://x/\n", []],
		["@b =\n@a = 1\n\n###\nGET https://x/\n", []],
		["@a = 1\n\n###\n@b =\n\n###\nGET https://x/\n", ['a']],
		["@a = 0\n\n###\nGET https://x/\n", ['a']],
		// A separator after whitespace is one (httpYac), and its title names the region; `####` alone has none (issue 50).
		["  ### setup\n@a = 1\n\n###\nGET https://x/\n", []],
		["\t###setup\n@a = 1\n\n###\nGET https://x/\n", []],
		["@a = 1\n  ### setup\n@b = 2\n\n###\nGET https://x/\n", ['a']],
		["####\n@a = 1\n\n###\nGET https://x/\n", ['a']],
		["  #### \n@a = 1\n\n###\nGET https://x/\n", ['a']],
		["#### x\n@a = 1\n\n###\nGET https://x/\n", []],
	];
	for (const [text, names] of rows) it(`${JSON.stringify(text)} → ${names.join(', ') || 'none'}`, () => assert.deepEqual([...globalNames(parseRestFile(text))], names));
});
