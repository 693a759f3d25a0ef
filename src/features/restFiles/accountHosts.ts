// An account's platform hosts, from its service (the login host). Stands in until the user setting
// telematicsAuth.platformHosts arrives with features/shared/platformHosts.ts.
import type { AccountRecord } from '../../core/sessions/types';
import { platformHosts, type PlatformHosts } from '../../core/platform/hosts';

export function accountPlatformHosts(_config: unknown, account: Pick<AccountRecord, 'serviceUrl'>): PlatformHosts | undefined {
	return platformHosts(account.serviceUrl);
}
