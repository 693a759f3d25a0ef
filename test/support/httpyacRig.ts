// httpYac 6.16.7's own library, with or without our plugin registered in its plugin store, sending files
// from a temporary folder to loopback servers: the client that acts, for the plugin's unit tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as httpyac from 'httpyac';
import { PLUGIN_NAME, telematicsPlugin, type PluginAccount, type PluginHost } from '../../src/core/httpyac/plugin';
import { untranslated } from '../../src/core/util/translate';

/** A plugin host over fixed accounts: what was asked, logged and answered. */
export interface RigHost extends PluginHost {
	/** Each question's message and detail. */
	asked: string[];
	/** Every log line. */
	logs: string[];
	/** The answers to the next questions (true: "Send Anyway"); none left: Cancel. */
	answers: boolean[];
	/** How many times a live token was asked for. */
	tokenReads: number;
}

/** A host whose accounts are `accounts`, each account's live token by id in `tokens`. */
export function rigHost(accounts: PluginAccount[], tokens: Record<string, string | undefined>, options: { trusted?: boolean; httpProxy?: string } = {}): RigHost {
	const host: RigHost = {
		asked: [],
		logs: [],
		answers: [],
		tokenReads: 0,
		log: { info: (m) => host.logs.push(m), warn: (m) => host.logs.push(m), error: (m) => host.logs.push(m) },
		activeVariable: 'TELEMATICS_TOKEN',
		accounts: () => accounts,
		liveToken: async (id) => {
			host.tokenReads++;
			return tokens[id];
		},
		trusted: () => options.trusted ?? true,
		httpProxy: () => options.httpProxy,
		confirm: async (message, detail) => {
			host.asked.push(`${message}\n${detail}`);
			return host.answers.shift() ?? false;
		},
	};
	return host;
}

/** A temporary folder to send from, with httpYac's file and IO providers in place and its log quiet. */
export class HttpyacRig {
	readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'httpyac-rig-'));
	private level: httpyac.LogLevel | undefined;
	private counter = 0;

	static async start(): Promise<HttpyacRig> {
		httpyac.cli.initFileProvider();
		await httpyac.cli.initIOProvider();
		const rig = new HttpyacRig();
		rig.level = httpyac.io.log.options.level;
		httpyac.io.log.options.level = httpyac.LogLevel.none;
		return rig;
	}

	/** Our plugin in httpYac's plugin store for every file parsed from now on, or none. */
	plugin(host: PluginHost | undefined): void {
		if (host) httpyac.store.pluginStore[PLUGIN_NAME] = telematicsPlugin(host, untranslated) as never;
		else delete httpyac.store.pluginStore[PLUGIN_NAME];
	}

	/** Writes `name` in the folder. */
	write(name: string, text: string | Buffer): string {
		const file = path.join(this.dir, name);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, text);
		return file;
	}

	/** `text` parsed as a new .http file of the folder, with the plugins in the store now. */
	async parse(text: string, config: Record<string, unknown> = {}): Promise<httpyac.HttpFile> {
		return new httpyac.store.HttpFileStore().getOrCreate(path.join(this.dir, `sent-${++this.counter}.http`), async () => text, 0, { workingDir: this.dir, config });
	}

	/** What httpYac handed its response log (the request it records with each response), since the rig started. */
	readonly logged: unknown[] = [];
	/** The file sent last (its regions hold the responses httpYac shows and keeps). */
	lastFile: httpyac.HttpFile | undefined;

	/** Sends every request of `text` with httpYac; what httpYac's own log said at error level. */
	async send(text: string, config: Record<string, unknown> = {}): Promise<string[]> {
		const httpFile = this.lastFile = await this.parse(text, config);
		const errors: string[] = [];
		const log = httpyac.io.log;
		const error = log.error.bind(log);
		log.error = (...args: unknown[]) => { errors.push(args.map(String).join(' ')); };
		try {
			await httpyac.send({ httpFile, config: { ...config, request: { timeout: 5_000 } }, logResponse: async (response: unknown) => { this.logged.push(response); } } as never);
		} catch (e) {
			errors.push(String(e));
		} finally {
			log.error = error;
		}
		return errors;
	}

	stop(): void {
		this.plugin(undefined);
		httpyac.io.log.options.level = this.level;
		fs.rmSync(this.dir, { recursive: true, force: true });
	}
}
