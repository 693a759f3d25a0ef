// The public suffix list (tldts), bundled alone as dist/publicSuffix.js: building its tables costs tens of
// milliseconds, so requestHost.ts loads it on the first host check, never at start-up.
export { getDomain } from 'tldts';
