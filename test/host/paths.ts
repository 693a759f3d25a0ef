// Where things live for the test host: the project root and the git-ignored cache.
import * as path from 'node:path';

/** The project root (this file compiles to out/test/host/paths.js). */
export const projectRoot = path.resolve(__dirname, '..', '..', '..');

/** Git-ignored folder for downloaded tools (code-server). */
export const cacheDir = path.join(projectRoot, '.cache');

/** Where the e2e tests write their screenshots. */
export const screenshotDir = path.join(projectRoot, 'media', 'screenshots');

/** Debian's Chromium, driven by playwright-core. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
