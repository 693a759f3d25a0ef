// An object whose async methods load the real one on the first call and hand each call to it: the
// API client and the on-screen prompter live in onDemand.js, yet startup.ts hands them out at once.

/** The methods of T, each returning a promise. */
type AsyncMethods<T> = { [K in keyof T]: (...args: never[]) => Promise<unknown> };

/**
 * `load` runs at the first call of any method, once (again after it failed). `methods` names every
 * method of T (the type checker holds it to all of them).
 */
export function loadedOnFirstCall<T extends AsyncMethods<T>>(load: () => Promise<T>, methods: { readonly [K in keyof T]: true }): T {
	let loading: Promise<T> | undefined;
	const target = (): Promise<T> => {
		if (!loading) {
			loading = load();
			loading.catch(() => (loading = undefined));
		}
		return loading;
	};
	const forwarders = Object.keys(methods).map((name) => [name, async (...args: unknown[]): Promise<unknown> => {
		const real = await target();
		return Reflect.apply(real[name as keyof T], real, args) as unknown;
	}]);
	return Object.fromEntries(forwarders) as T;
}
