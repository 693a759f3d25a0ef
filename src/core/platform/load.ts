// The platform description and its index, loaded on first use: a bundle of its own (dist/platform.js),
// so activation never builds them. Once the platform's OpenAPI documents are read (on the person's
// command), the operations merged with them stand in for the rest of the window's life: in memory only,
// never stored. Pure: no `vscode`.
import type { Catalog } from './catalog';
import type { Operation } from './operations';

/** The catalog (operations, lookups, search), once loaded. */
export type Platform = Catalog;

let shipped: Promise<Catalog> | undefined;
let merged: Catalog | undefined;

/** The catalog: the shipped description, loaded at the first call and kept; the merged one once set. */
export function loadPlatform(): Promise<Platform> {
	if (merged) return Promise.resolve(merged);
	shipped ??= import('./catalog').then((m) => m.SHIPPED);
	return shipped;
}

/** From now on, the catalog of `operations` (the shipped ones merged with what the hosts publish); the shipped one again for undefined. */
export async function usePlatformOperations(operations: readonly Operation[] | undefined): Promise<Platform> {
	const { catalogOf, SHIPPED } = await import('./catalog');
	merged = operations && catalogOf(operations, SHIPPED);
	return merged ?? SHIPPED;
}
