// The emulator's stand-in for `{base_url}/swagger/index.html`: a small self-contained page
// that documents Login and RefreshToken (and can try them), and lists the platform operations the
// emulator serves with the token each needs. No external assets.
import type { Operation } from '../core/platform/operations';

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' })[c] as string);
}

const USER_BODY = `{
  "LoginFields": { "deviceToken": "demo-device-token" },
  "Password": "demo-instance-key"
}`;

const ADMIN_BODY = `{
  "LoginFields": "{\\"email\\":\\"admin@example.com\\"}",
  "Password": "demo-password"
}`;

const SUCCESS = `{
  "Result": {
    "DeviceToken": "…",
    "AccessToken": { "Token": "<jwt>", "ExpiresIn": 7200 },
    "RefreshToken": "…"
  },
  "Status": 200,
  "Title": "",
  "Errors": []
}`;

const REFRESH_BODY = `{
  "AccessToken": "<current or expired jwt>",
  "RefreshToken": "<refresh token>"
}`;

const ERROR = `{
  "Result": null,
  "Status": 422,
  "Title": "One or more validation errors occurred.",
  "Errors": [{ "Key": "InstanceId", "Message": "The InstanceId header is required." }]
}`;

const SCRIPT = `
async function send(path, headers, body, out) {
  out.textContent = '…';
  try {
    const res = await fetch(path, { method: 'POST', headers: Object.assign({ 'Content-Type': 'application/json' }, headers), body });
    out.textContent = 'HTTP ' + res.status + '\\n' + await res.text();
  } catch (e) { out.textContent = String(e); }
}
document.getElementById('login-send').onclick = () => {
  const id = document.getElementById('login-instance').value;
  send('/v1/Auth/Login', id ? { InstanceId: id } : {}, document.getElementById('login-body').value, document.getElementById('login-out'));
};
document.getElementById('refresh-send').onclick = () => {
  send('/v1/Auth/RefreshToken', {}, document.getElementById('refresh-body').value, document.getElementById('refresh-out'));
};`;

const TOKEN_WORDS: Record<Operation['token'], string> = { admin: 'admin JWT', user: 'user JWT', none: 'InstanceId + InstanceKey headers', unknown: 'either JWT' };

/** One row per operation: method, path, the token it needs, what it does. */
function operationRows(operations: readonly Operation[]): string {
	return operations.map((op) => `<tr><td><span class="method">${op.method}</span></td><td><code>${escapeHtml(op.path)}</code></td><td>${escapeHtml(op.host)}</td><td>${TOKEN_WORDS[op.token]}</td><td>${escapeHtml(op.summary)}${op.irreversible ? ' <strong>(cannot be undone)</strong>' : ''}</td></tr>`).join('\n');
}

export function swaggerPage(baseUrl: string, operations: readonly Operation[] = []): string {
	const base = escapeHtml(baseUrl);
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Telematics user service (emulator) – API</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 56rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .25rem; }
.op { border: 1px solid #49cc90; background: #f0faf5; border-radius: 4px; padding: .5rem 1rem; margin: 1rem 0; }
.method { background: #49cc90; color: #fff; font-weight: bold; padding: .1rem .5rem; border-radius: 3px; }
pre, textarea { background: #2b2b2b; color: #eee; padding: .5rem; border-radius: 3px; overflow-x: auto; font-size: .85rem; }
textarea { width: 100%; box-sizing: border-box; }
pre:empty { display: none; }
table { border-collapse: collapse; } td, th { border: 1px solid #ddd; padding: .25rem .5rem; text-align: left; }
</style>
</head>
<body>
<h1>Telematics user service <small>(local emulator)</small></h1>
<p>Base URL: <code>${base}</code>. Tokens issued here are signed with a key that lives only as long as this process.</p>

<h2>Login</h2>
<div class="op"><span class="method">POST</span> <code>/v1/Auth/Login</code></div>
<table>
<tr><th>Header</th><th>Required</th><th>Meaning</th></tr>
<tr><td><code>InstanceId</code></td><td>user: yes; admin: optional</td><td>User Group InstanceID (user) or API InstanceID (admin)</td></tr>
<tr><td><code>InstanceKey</code></td><td>no</td><td>User Group InstanceKey; must match when sent</td></tr>
</table>
<p>User body (LoginFields as an object):</p>
<pre>${escapeHtml(USER_BODY)}</pre>
<p>Admin body (LoginFields as a JSON-encoded string; the object form works too):</p>
<pre>${escapeHtml(ADMIN_BODY)}</pre>
<p>Response 200 (<code>DeviceToken</code> for users only; <code>ExpiresIn</code> in seconds):</p>
<pre>${escapeHtml(SUCCESS)}</pre>
<p>Errors: 401 bad credentials, 403 wrong kind of login for the instance, 422 validation, 429 too many logins (see <code>Retry-After</code>).</p>
<pre>${escapeHtml(ERROR)}</pre>
<p><label>InstanceId <input id="login-instance" value="demo-user-instance"></label></p>
<textarea id="login-body" rows="5">${escapeHtml(USER_BODY)}</textarea>
<p><button id="login-send">Try it</button></p>
<pre id="login-out"></pre>

<h2>Refresh token</h2>
<div class="op"><span class="method">POST</span> <code>/v1/Auth/RefreshToken</code></div>
<p>The access token may be expired; the refresh token must be the latest one issued. Both tokens are replaced: store the new refresh token, the old one is spent.</p>
<pre>${escapeHtml(REFRESH_BODY)}</pre>
<p>Response: the same envelope as Login. 401 when either token is refused.</p>
<textarea id="refresh-body" rows="4">${escapeHtml(REFRESH_BODY)}</textarea>
<p><button id="refresh-send">Try it</button></p>
<pre id="refresh-out"></pre>

<h2>Authorization</h2>
<p>Later requests carry <code>Authorization: Bearer &lt;AccessToken.Token&gt;</code>.</p>

<h2>The platform</h2>
<p>Every host of the platform (<code>user</code>, <code>api</code>, <code>accounts</code>, <code>portal</code>) is served here, on this one origin, from demo data.
A token of the wrong kind gets 403, a missing or expired one 401, as the service answers. OpenAPI document: <a href="/swagger/v1/swagger.json"><code>/swagger/v1/swagger.json</code></a>.</p>
<table>
<tr><th>Method</th><th>Path</th><th>Host</th><th>Needs</th><th>What it does</th></tr>
${operationRows(operations)}
</table>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
