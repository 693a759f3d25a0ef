// The platform description and its index, loaded on first use: a bundle of its own (dist/platform.js),
// so activation never builds them. Pure: no `vscode`.

/** The catalog module (operations, lookups, search), once loaded. */
export type Platform = typeof import('./catalog');

let loaded: Promise<Platform> | undefined;

/** The catalog, loaded at the first call and kept. */
export function loadPlatform(): Promise<Platform> {
	loaded ??= import('./catalog');
	return loaded;
}
