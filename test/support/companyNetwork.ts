// A company network on loopback, for unit, integration and bench alike: the emulator behind HTTPS signed
// by a company root, the same behind a root no store holds, and a CONNECT proxy to the first.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startConnectProxy, type ConnectProxy } from './connectProxy';
import { makeTestCa, startHttpsFront, type HttpsFront, type TestCa } from './testCa';

export interface CompanyNetwork {
	/** The company's root: what "the OS store" holds (its bundle is `ca.bundleFile`). */
	ca: TestCa;
	/** A root in no store ("Unknown Interceptor CA"). */
	other: TestCa;
	/** HTTPS signed by `ca`, in front of the emulator. */
	front: HttpsFront;
	/** HTTPS signed by `other`, in front of the same emulator. */
	untrusted: HttpsFront;
	/** Tunnels every CONNECT, whatever host it names, to `front`. */
	proxy: ConnectProxy;
	close(): Promise<void>;
}

/** Starts it in front of the emulator on `emulatorPort`; the roots are made in `caDir` (default: a new temp dir). */
export async function startCompanyNetwork(emulatorPort: number, caDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'company-')), 'company')): Promise<CompanyNetwork> {
	const ca = makeTestCa(caDir);
	const other = makeTestCa(path.join(path.dirname(caDir), `${path.basename(caDir)}-untrusted`), 'Unknown Interceptor CA');
	const front = await startHttpsFront(ca, emulatorPort);
	const untrusted = await startHttpsFront(other, emulatorPort);
	const proxy = await startConnectProxy(() => front.port);
	return {
		ca, other, front, untrusted, proxy,
		close: async () => {
			await proxy.close();
			await front.close();
			await untrusted.close();
		},
	};
}
