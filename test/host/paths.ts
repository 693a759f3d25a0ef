// Where things live for the test host: the project root, the git-ignored cache and the user's cache.
import * as os from 'node:os';
import * as path from 'node:path';

/** The project root (this file compiles to out/test/host/paths.js). */
export const projectRoot = path.resolve(__dirname, '..', '..', '..');

/** Git-ignored folder for what the tests make once per checkout (the test CA). */
export const cacheDir = path.join(projectRoot, '.cache');

/**
 * The user's cache for what every checkout can share (code-server, a version per folder), as npm's cache
 * and Playwright's browsers are kept: a second clone on the same machine installs nothing.
 */
export const userCacheDir = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'telematics-auth-test-host');

/** Where the e2e tests write their screenshots. */
export const screenshotDir = path.join(projectRoot, 'media', 'screenshots');

/** Debian's Chromium, driven by playwright-core. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
