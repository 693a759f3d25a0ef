// REST files built to be slow: the shapes that once made a pass of the warnings take seconds (issue 34),
// for the benchmark and for the integration test that keeps one open.

/** The shapes that once made a pass slow (issue 34), each of about `size` characters, holding `token`. */
export function worstShapes(size: number, token: string): Record<string, string> {
	const fill = (head: string, unit: string, tail = ''): string => head + unit.repeat(Math.max(0, Math.ceil((size - head.length - tail.length) / unit.length))) + tail;
	return {
		'an unclosed /*, then method lines, then a JWT': fill('/*\n', 'GET a\n', `${token}\n`),
		'unclosed {{ lines': fill('', '{{\nGET a\n'),
		'an unclosed < {%, then method lines': fill('GET https://x.example\n< {%\n', 'GET a\n', token),
		'small requests to other hosts, a JWT each': fill('', `GET https://h.example/a\nAuthorization: Bearer ${token}\n\n`),
		'JWTs on one request': fill('GET https://collector.example/\n\n', `${token}\n`),
		'method lines after a body line': fill('POST https://x.example\nContent-Type: text/plain\n\nhello\n', 'hello\nGET a\n', token),
		'requests reading the token through variables': fill(`@a = https://collector.example\n@t = ${token}\n`, 'GET {{a}}/{{t}}\n'),
		'a host line padded with spaces, then a word': fill(`GET https://x.example\nAuthorization: Bearer ${token}\n\n###\nlocalhost`, ' ', 'x\n'),
	};
}
