// undici itself, the one part worth loading late (about 100 ms): bundled alone as dist/undici.js
// and loaded by routes.ts on the first request that does not go through VS Code's fetch, and by
// webSocket.ts when Live Tracking opens its socket.
export { Agent, fetch, ProxyAgent, WebSocket } from 'undici';
