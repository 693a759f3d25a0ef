// "Load Operations from the Platform's OpenAPI…": reads `/swagger/v1/swagger.json` from each host of the
// active account's platform, with its token, through the service client (its timeout, proxy, trust store
// and 1 MiB cap; https except loopback, the platform's hosts only), checks each document as data and merges
// its operations with the shipped description (core/platform/openapiImport.ts). New Request, completion and
// the agent's tools then see them until the window closes: in memory only, never stored.
import vscode = require('../../system/vscodeApi');
import { ApiError } from '../../core/api/errors';
import { loadPlatform, usePlatformOperations } from '../../core/platform/load';
import type { HostKey } from '../../core/platform/hosts';
import type { OpenApiReading } from '../../core/platform/openapiImport';
import { hostOf } from '../../core/util/url';
import { Command } from '../../commands';
import type { Services } from '../../services';
import { resolveAccount } from '../accounts/accountPicker';
import { ensureFreshToken } from '../shared/freshToken';
import { notify, withNotificationProgress } from '../messages/notify';
import { accountPlatformHosts } from '../accounts/accountPlatformHosts';
import { registerCommand } from '../commands/registerCommand';

/** What one host's document gave: its operations, or why none. */
export interface HostOutcome {
	host: string;
	keys: HostKey[];
	/** How many operations were read, when the document was. */
	operations?: number;
	/** Why nothing was read, in words. */
	problem?: string;
}

export interface LoadOutcome {
	accountId: string;
	hosts: HostOutcome[];
	/** The ids of the operations only the documents name. */
	added: string[];
	/** How many shipped operations got details they lacked. */
	filled: number;
}

/** Why a host's answer gave no document, in words; undefined when it is one to read. */
function answerProblem(status: number): string | undefined {
	if (status === 200) return undefined;
	if (status === 404) return vscode.l10n.t('publishes no OpenAPI document');
	if (status === 401 || status === 403) return vscode.l10n.t('refused the token (HTTP {0})', status);
	return vscode.l10n.t('answered HTTP {0}', status);
}

export async function loadPlatformOperations(services: Services, arg?: unknown): Promise<LoadOutcome | undefined> {
	const session = await resolveAccount(services, arg);
	if (!session) return undefined;
	const fresh = await ensureFreshToken(services, session);
	if (!fresh) return undefined;
	const { account } = fresh;
	const [platform, reader] = await Promise.all([loadPlatform(), import('../../core/platform/openapiImport')]);
	const requests = reader.documentRequests(account.serviceUrl, accountPlatformHosts(services.config, account));
	const { api, log } = services;
	const outcome = await withNotificationProgress(vscode.l10n.t('Reading the OpenAPI documents of the platform of {0}…', account.label), async (cancel) => {
		const controller = new AbortController();
		const listener = cancel.onCancellationRequested(() => controller.abort());
		try {
			const hosts: HostOutcome[] = [];
			const documents: Array<{ keys: HostKey[]; result: OpenApiReading }> = [];
			for (const { url, keys } of requests) {
				if (controller.signal.aborted) break;
				const host = hostOf(url);
				try {
					const answer = await api.call({ method: 'GET', url, accessToken: fresh.tokens.accessToken }, { signal: controller.signal });
					const problem = answerProblem(answer.status);
					if (problem) {
						hosts.push({ host, keys, problem });
						continue;
					}
					const read = await reader.readOpenApi(answer.body);
					documents.push({ keys, result: read });
					hosts.push(read.ok ? { host, keys, operations: read.operations.length } : { host, keys, problem: vscode.l10n.t('sent a document that is not read: {0}', read.reason) });
				} catch (error) {
					hosts.push({ host, keys, problem: error instanceof ApiError ? error.message : vscode.l10n.t('could not be reached') });
				}
			}
			return { hosts, documents, cancelled: controller.signal.aborted };
		} finally {
			listener.dispose();
		}
	}, true);
	for (const h of outcome.hosts) log.info(`OpenAPI of ${h.host} (${h.keys.join(', ')}): ${h.problem ?? `${h.operations} operations read`}`);
	if (outcome.cancelled) return undefined;
	const read = outcome.documents.flatMap((d) => (d.result.ok ? [{ keys: d.keys, operations: d.result.operations }] : []));
	if (read.length === 0) {
		// What the last reading found stands: none, so the operations the extension knows.
		await usePlatformOperations(undefined);
		void notify('warning', vscode.l10n.t('No host of the platform of {0} gave an OpenAPI document: {1}. New Request and the agent offer the operations the extension knows.', account.label, outcome.hosts.map((h) => `${h.host} ${h.problem}`).join('; ')));
		return { accountId: account.id, hosts: outcome.hosts, added: [], filled: 0 };
	}
	const merged = reader.mergeOperations(platform.shipped, read);
	await usePlatformOperations(merged.operations);
	const failed = outcome.hosts.filter((h) => h.problem);
	const newRequest = vscode.l10n.t('New Request…');
	void notify('info', [
		vscode.l10n.t('Read the OpenAPI documents of {0} of {1} hosts: {2} operations added, {3} completed. New Request, completion and the agent offer them until the window closes; which account an added one needs is not known.', requests.length - failed.length, requests.length, merged.added.length, merged.filled),
		...failed.map((h) => `${h.host}: ${h.problem}.`),
	].join(' '), newRequest).then((choice) => {
		if (choice === newRequest) void vscode.commands.executeCommand(Command.newRequest);
	});
	return { accountId: account.id, hosts: outcome.hosts, added: merged.added.map((op) => op.id), filled: merged.filled };
}

export function registerPlatformOperationsCommand(services: Services): vscode.Disposable {
	return registerCommand(services, Command.loadPlatformOperations, (arg?: unknown) => loadPlatformOperations(services, arg));
}
