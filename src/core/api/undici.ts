// undici itself, the one part worth loading late (about 100 ms): bundled alone as dist/undici.js
// and loaded by undiciTransport.ts on the first request.
export { Agent, ProxyAgent, request } from 'undici';
