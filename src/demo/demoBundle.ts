// The built-in demo service: the emulator, bundled apart (dist/demo.js) and loaded only when a
// person chooses "Try the Built-in Demo Service". It listens on loopback only.
export { DEMO_USERS, startEmulator, type RunningEmulator } from '../emulator/server';
