// What the plugin adds to a request httpYac sends (issue 64): the check at Send and the door, on a request
// to the service with a 1 MB JSON body and the reference as its Bearer credential, timed inside the process
// (the interceptor as httpYac calls it) against the same request through an interceptor that does nothing.
// 21 runs each, alternating, after 5 warm-up runs; the median and the spread (min-max) of each.
import { performance } from 'node:perf_hooks';
import { telematicsPlugin, type PluginApi } from '../../src/core/httpyac/plugin';
import { untranslated } from '../../src/core/util/translate';
import { median, round, type BenchRow } from './types';

const SERVICE = 'https://user.telematicssdk.com';
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLW9mLXRoZS11c2Vy';
const RUNS = 21;
const WARM_UP = 5;

type AfterLoop = (context: { args: [Record<string, unknown>, { config?: { request?: unknown } }] }) => Promise<boolean>;

/** The plugin's hooks as httpYac would take them: its variables and its afterLoop interceptor. */
function pluginHooks(): { variables: () => Promise<Record<string, string>>; afterLoop: AfterLoop } {
	let variables: (() => Promise<Record<string, string>>) | undefined;
	let afterLoop: AfterLoop | undefined;
	const hook = { addHook: () => undefined, addInterceptor: () => undefined };
	const api = {
		hooks: {
			provideVariables: { ...hook, addHook: (_id: string, action: () => Promise<Record<string, string>>) => { variables = action; } },
			replaceVariable: hook,
			onRequest: { ...hook, addInterceptor: (i: { afterLoop: AfterLoop }) => { afterLoop = i.afterLoop; } },
		},
	} as unknown as PluginApi;
	telematicsPlugin({
		log: { info: () => undefined, warn: () => undefined, error: () => undefined },
		activeVariable: 'TELEMATICS_TOKEN',
		accounts: () => [{ id: 'u', name: 'user', label: 'User', variable: 'TELEMATICS_TOKEN_USER', active: true, tokens: [TOKEN, `${TOKEN}-earlier`], platformOrigins: [SERVICE] }],
		liveToken: async () => TOKEN,
		trusted: () => true,
		httpProxy: () => undefined,
		confirm: async () => false,
	}, untranslated)(api);
	return { variables: variables!, afterLoop: afterLoop! };
}

/** A 1 MB JSON body of trip points. */
function body(): string {
	const points: string[] = [];
	let size = 2;
	for (let i = 0; size < 1024 * 1024; i++) {
		const point = `{"t":${1_700_000_000 + i},"lat":${(52 + i / 1e6).toFixed(6)},"lon":${(13 + i / 1e6).toFixed(6)},"speed":${i % 120}}`;
		points.push(point);
		size += point.length + 1;
	}
	return `[${points.join(',')}]`;
}

export async function benchHttpyacDoor(): Promise<BenchRow[]> {
	const { variables, afterLoop } = pluginHooks();
	const reference = (await variables()).TELEMATICS_TOKEN!;
	const text = body();
	const request = (): Record<string, unknown> => ({ protocol: 'HTTP', method: 'POST', url: `${SERVICE}/v1/Trips`, headers: { Authorization: `Bearer ${reference}`, 'Content-Type': 'application/json' }, body: text, options: { hooks: { beforeRequest: [() => undefined], beforeRedirect: [() => undefined] } } });
	const nothing: AfterLoop = async () => true;
	const plugin: number[] = [];
	const reference_: number[] = [];
	for (let run = 0; run < WARM_UP + RUNS; run++) {
		for (const [interceptor, samples] of (run % 2 ? [[nothing, reference_], [afterLoop, plugin]] : [[afterLoop, plugin], [nothing, reference_]]) as Array<[AfterLoop, number[]]>) {
			const args: [Record<string, unknown>, object] = [request(), { config: {} }];
			const started = performance.now();
			const sent = await interceptor({ args } as never);
			const took = performance.now() - started;
			if (!sent) throw new Error('the plugin stopped a request to its own service');
			if (run >= WARM_UP) samples.push(took);
		}
	}
	const spread = (s: number[]): string => `${round(Math.min(...s), 3)}-${round(Math.max(...s), 3)}`;
	const added = median(plugin) - median(reference_);
	return [
		{ name: `httpYac at Send, 1 MB body: the check and the door (median of ${RUNS}, spread ${spread(plugin)} ms)`, value: round(median(plugin), 3), unit: 'ms' },
		{ name: `httpYac at Send, 1 MB body: an interceptor that does nothing (spread ${spread(reference_)} ms)`, value: round(median(reference_), 3), unit: 'ms' },
		{ name: 'httpYac at Send, 1 MB body: added by the plugin', value: round(added, 3), unit: 'ms', target: '≤ 1' },
	];
}
