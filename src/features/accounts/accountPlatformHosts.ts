// An account's platform hosts: its service (the login host) and the user setting
// `telematicsAuth.platformHosts`. The one place that puts the two together.
import type { AccountRecord } from '../../core/sessions/types';
import { accountHosts, type PlatformHosts } from '../../core/platform/hosts';
import type { Config } from '../../system/config';

/** Host key → origin for the account's platform; undefined when its service URL is no platform origin. */
export function accountPlatformHosts(config: Pick<Config, 'platformHosts' | 'baseUrl'>, account: Pick<AccountRecord, 'serviceUrl'>): PlatformHosts | undefined {
	return accountHosts(account.serviceUrl, config.baseUrl(), config.platformHosts());
}

/** The origins of the account's platform hosts: what the host check counts as its service, by exact origin. */
export function accountPlatformOrigins(config: Pick<Config, 'platformHosts' | 'baseUrl'>, account: Pick<AccountRecord, 'serviceUrl'>): string[] {
	return Object.values(accountPlatformHosts(config, account) ?? {});
}
