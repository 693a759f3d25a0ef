// undici itself, the one part worth loading late (about 100 ms): bundled alone as dist/undici.js
// and loaded by routes.ts on the first request that does not go through VS Code's fetch. (Live
// Tracking's socket is ws over VS Code's network: webSocket.ts.)
export { Agent, fetch, ProxyAgent } from 'undici';
