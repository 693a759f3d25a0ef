// "Share Live Location…": a link anyone can open, without a login, to a person's live location. It asks
// first, in a modal naming the device (masked), the account and the expiry; Cancel sends nothing.
import vscode = require('../../system/vscodeApi');
import type { Services } from '../../services';
import type { Session } from '../../core/sessions/types';
import { isProduction } from '../../core/sessions/production';
import { maskSecret } from '../../core/util/redact';
import { isLoopbackHost } from '../../core/util/url';
import { notify } from '../messages/notify';
import { showError } from '../messages/showError';
import { liveSession } from '../shared/freshToken';

export const SHARING_PATH = '/realtime/api/v1/sharing/sessions';
const EXPIRY_HOURS = [1, 4, 24] as const;

export interface ShareOutcome {
	accountId: string;
	/** Whether a link was created (false: refused, cancelled, or the service said no). */
	shared: boolean;
	status?: number;
}

/** `hours`: the expiry when the caller already chose it (one of 1, 4, 24); otherwise the person picks it. */
export async function shareLiveLocation(services: Services, session: Session, portal: string, deviceToken: string | undefined, hours?: number): Promise<ShareOutcome> {
	const { account } = session;
	const none: ShareOutcome = { accountId: account.id, shared: false };
	if (!deviceToken) {
		void notify('info', vscode.l10n.t('Open Live Tracking and choose Share on a device: {0} has no device of its own.', account.label));
		return none;
	}
	const choices = EXPIRY_HOURS.map((h) => ({ label: h === 1 ? vscode.l10n.t('1 hour') : vscode.l10n.t('{0} hours', h), hours: h }));
	const chosen = choices.find((c) => c.hours === hours) ?? await vscode.window.showQuickPick(choices, {
		title: vscode.l10n.t('Share Live Location'),
		placeHolder: vscode.l10n.t('How long may the link show the location?'),
	});
	if (!chosen) return none;
	const until = new Date(services.clock.now() + chosen.hours * 3_600_000);
	const device = maskSecret(deviceToken);
	const production = isProduction(account) ? vscode.l10n.t(' {0} is a production account: this is a real person\'s location.', account.label) : '';
	const confirmed = await services.prompts.current.confirm(
		vscode.l10n.t('Share the live location of device {0}?', device),
		vscode.l10n.t('This creates a link that anyone who has it can open, without logging in, to see where device {0} is, live, until {1} ({2}). It is sent from {3}.{4}', device, until.toISOString().replace('T', ' ').slice(0, 16) + ' UTC', chosen.label, account.label, production),
		vscode.l10n.t('Create Link'),
	);
	if (!confirmed) return none;
	const fresh = await liveSession(services, account.id);
	if (!fresh) {
		void notify('warning', vscode.l10n.t('{0} needs a new login before it can share a location.', account.label));
		return none;
	}
	try {
		const answer = await services.api.call({
			method: 'POST',
			url: `${portal}${SHARING_PATH}`,
			accessToken: fresh.tokens.accessToken,
			body: JSON.stringify({ device_token: deviceToken, instance_id: account.instanceId ?? '', expires_in_hours: chosen.hours }),
		});
		if (answer.status !== 200 && answer.status !== 201) {
			void notify('error', vscode.l10n.t('The service did not create the link (HTTP {0}).', answer.status));
			return { ...none, status: answer.status };
		}
		const link = shareUrl(answer.body);
		const copy = vscode.l10n.t('Copy Link');
		void notify('info', vscode.l10n.t('A live-location link for device {0} is ready until {1}.', device, until.toISOString().slice(0, 16).replace('T', ' ') + ' UTC'), ...(link ? [copy] : [])).then((choice) => {
			if (choice === copy && link) void vscode.env.clipboard.writeText(link);
		});
		return { accountId: account.id, shared: true, status: answer.status };
	} catch (error) {
		showError(services, error, { prefix: vscode.l10n.t('Could not create the live-location link.') });
		return none;
	}
}

/** The answer's `share_url`, only when it is an https link (http on loopback, the demo) of a sane length. */
export function shareUrl(body: string): string | undefined {
	let value: unknown;
	try {
		value = (JSON.parse(body) as { share_url?: unknown }).share_url;
	} catch {
		return undefined;
	}
	if (typeof value !== 'string' || value.length > 2048) return undefined;
	try {
		const url = new URL(value);
		const ok = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
		return ok && !url.username && !url.password ? url.href : undefined;
	} catch {
		return undefined;
	}
}
