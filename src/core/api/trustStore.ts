// What HTTPS trusts: Node's roots, the OS certificate store, NODE_EXTRA_CA_CERTS and the PEM files of
// `telematicsAuth.extraCertificates`. Never fewer than Node's roots; checks are never turned off here.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { delimiter, dirname, join, win32 } from 'node:path';
import { getCACertificates, rootCertificates } from 'node:tls';
import { caughtText } from '../util/caughtText';

declare module 'node:tls' {
	/** The OS store's roots, from Node 22.15 (missing on Node 20 and in its types, hence optional). */
	export const getCACertificates: ((type: 'system') => string[]) | undefined;
}

/** Where the OS store lives on Linux and other Unixes (the first that exists is read). */
export const UNIX_BUNDLES = [
	'/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Arch, Gentoo
	'/etc/pki/tls/certs/ca-bundle.crt', // Fedora, RHEL, CentOS
	'/etc/ssl/ca-bundle.pem', // openSUSE
	'/etc/pki/tls/cacert.pem', // OpenELEC
	'/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem', // RHEL 7+
	'/etc/ssl/cert.pem', // Alpine, FreeBSD, OpenBSD
];

/** macOS keychains that hold trusted roots: Apple's, the admin-installed ones, the user's. */
export const MACOS_KEYCHAINS = [
	'/System/Library/Keychains/SystemRootCertificates.keychain',
	'/Library/Keychains/System.keychain',
];

/** Everything the loader touches, so each platform's path can be tested on any machine. */
export interface TrustStoreDeps {
	platform: NodeJS.Platform;
	env: NodeJS.ProcessEnv;
	readFile(file: string): Promise<string>;
	readDir(dir: string): Promise<string[]>;
	/** Runs a program (an absolute path) in its own folder and gives its standard output. */
	run(file: string, args: readonly string[]): Promise<string>;
	/** Node 22.15+ (VS Code 1.101+): the OS store as Node reads it, on every platform. */
	systemCertificates?: () => string[];
}

const systemRoots = getCACertificates;

export const nodeTrustStoreDeps: TrustStoreDeps = {
	platform: process.platform,
	env: process.env,
	readFile: (file) => readFile(file, 'utf8'),
	readDir: (dir) => readdir(dir),
	run: (file, args) => new Promise((resolve, reject) => {
		// Its own folder, not the host's working folder (which may be the workspace): Windows looks for DLLs there.
		execFile(file, [...args], { cwd: dirname(file), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 15_000, windowsHide: true }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
	}),
	...(systemRoots && { systemCertificates: () => systemRoots('system') }),
};

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every PEM certificate block in `text`, normalised to `\n` line ends. */
export function pemBlocks(text: string): string[] {
	return (text.match(PEM) ?? []).map((block) => block.replace(/\r\n?/g, '\n'));
}

/** A DER certificate in base64 (as Windows lists them) as a PEM block. */
export function derBase64ToPem(base64: string): string {
	const body = base64.replace(/\s+/g, '').match(/.{1,64}/g)?.join('\n') ?? '';
	return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;
}

/**
 * Windows PowerShell by its full path under the system folder. A bare `powershell.exe` would be looked
 * for in the working folder first (libuv's search on Windows), where a cloned folder could hold one.
 * A `SystemRoot` that is not a plain drive path is not believed.
 */
export function windowsPowerShell(env: NodeJS.ProcessEnv): string {
	const named = Object.entries(env).find(([key]) => key.toUpperCase() === 'SYSTEMROOT')?.[1]?.trim();
	const root = named && /^[A-Za-z]:\\[^"*?<>|;%]*$/.test(named) ? win32.normalize(named) : 'C:\\Windows';
	return win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
}

/** Lists the trusted roots of the Windows stores as base64 DER, one a line. */
const WINDOWS_SCRIPT = 'Get-ChildItem -Path Cert:\\LocalMachine\\Root, Cert:\\CurrentUser\\Root, Cert:\\LocalMachine\\CA | ForEach-Object { [Convert]::ToBase64String($_.RawData) }';

/**
 * The OS certificate store as PEM blocks. Node 22.15+ reads it itself; older hosts read the
 * bundle file (Linux, honouring SSL_CERT_FILE and SSL_CERT_DIR as OpenSSL does), ask
 * `security` (macOS) or PowerShell (Windows). A store that cannot be read gives [] and a reason.
 */
export async function loadSystemCertificates(deps: TrustStoreDeps = nodeTrustStoreDeps): Promise<{ certificates: string[]; source: string; problem?: string }> {
	try {
		if (deps.systemCertificates) return { certificates: deps.systemCertificates(), source: 'the OS store (Node)' };
		if (deps.platform === 'win32') {
			const out = await deps.run(windowsPowerShell(deps.env), ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_SCRIPT]);
			return { certificates: out.split(/\r?\n/).filter((l) => /^[A-Za-z0-9+/=]{100,}$/.test(l.trim())).map((l) => derBase64ToPem(l.trim())), source: 'the Windows certificate store' };
		}
		if (deps.platform === 'darwin') {
			const certificates: string[] = [];
			for (const keychain of MACOS_KEYCHAINS) {
				try {
					certificates.push(...pemBlocks(await deps.run('/usr/bin/security', ['find-certificate', '-a', '-p', keychain])));
				} catch {
					// a keychain that is missing or locked: the others still count
				}
			}
			return { certificates, source: 'the macOS keychains' };
		}
		return await unixCertificates(deps);
	} catch (error) {
		return { certificates: [], source: 'the OS store', problem: caughtText(error) };
	}
}

async function unixCertificates(deps: TrustStoreDeps): Promise<{ certificates: string[]; source: string }> {
	const file = deps.env.SSL_CERT_FILE?.trim();
	const dir = deps.env.SSL_CERT_DIR?.trim();
	const certificates: string[] = [];
	let source = '';
	for (const candidate of file ? [file] : UNIX_BUNDLES) {
		try {
			certificates.push(...pemBlocks(await deps.readFile(candidate)));
			source = candidate;
			break;
		} catch {
			// not there: try the next
		}
	}
	// A directory of single certificates (OpenSSL's hashed dir), when no bundle named one file.
	if (dir && !file) {
		for (const d of dir.split(delimiter).filter(Boolean)) {
			let names: string[] = [];
			try {
				names = await deps.readDir(d);
			} catch {
				continue;
			}
			for (const name of names.filter((n) => /\.(pem|crt)$/i.test(n))) {
				try {
					certificates.push(...pemBlocks(await deps.readFile(join(d, name))));
				} catch {
					// unreadable entry: skip
				}
			}
			source = source ? `${source} and ${d}` : d;
		}
	}
	return { certificates, source: source || 'no certificate bundle found' };
}

/** The certificates of PEM files (NODE_EXTRA_CA_CERTS, the extra-certificates setting); unreadable files are named. */
export async function loadPemFiles(files: readonly string[], deps: Pick<TrustStoreDeps, 'readFile'> = nodeTrustStoreDeps): Promise<{ certificates: string[]; problems: string[] }> {
	const certificates: string[] = [];
	const problems: string[] = [];
	for (const file of files) {
		try {
			const found = pemBlocks(await deps.readFile(file));
			if (!found.length) problems.push(`${file} holds no PEM certificate`);
			certificates.push(...found);
		} catch (error) {
			problems.push(`${file} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
		}
	}
	return { certificates, problems };
}

/**
 * Whether the person trusts more than VS Code's own list (Node's roots and the OS store): files in
 * telematicsAuth.extraCertificates, or NODE_EXTRA_CA_CERTS, which that list leaves out. Only then do
 * our requests and the socket hand VS Code's network a list of ours, with everything in it.
 */
export function trustsMoreThanVsCode(extraFiles: readonly string[], env: NodeJS.ProcessEnv): boolean {
	return extraFiles.length > 0 || !!env.NODE_EXTRA_CA_CERTS?.trim();
}

export interface TrustedRoots {
	/** Node's roots, the OS store, NODE_EXTRA_CA_CERTS and the extra files, without duplicates. */
	certificates: string[];
	/** One line for the log: what was loaded, from where, and how long it took. */
	summary: string;
	problems: string[];
}

/** Everything trusted, for undici's `connect.ca`. Node's own roots are always part of it. */
export async function loadTrustedRoots(extraFiles: readonly string[], deps: TrustStoreDeps = nodeTrustStoreDeps, now: () => number = () => performance.now()): Promise<TrustedRoots> {
	const started = now();
	const system = await loadSystemCertificates(deps);
	const nodeExtra = deps.env.NODE_EXTRA_CA_CERTS?.trim();
	const extra = await loadPemFiles([...(nodeExtra ? [nodeExtra] : []), ...extraFiles], deps);
	const all = new Set<string>(rootCertificates.map((c) => c.replace(/\r\n?/g, '\n')));
	const before = all.size;
	for (const c of [...system.certificates, ...extra.certificates]) all.add(c);
	const ms = Math.round(now() - started);
	const problems = [...(system.problem ? [`${system.source}: ${system.problem}`] : []), ...extra.problems];
	return {
		certificates: [...all],
		summary: `Trusted roots: ${before} from Node, ${system.certificates.length} from ${system.source}, ${extra.certificates.length} from extra files; ${all.size} in all, loaded in ${ms} ms.`,
		problems,
	};
}
