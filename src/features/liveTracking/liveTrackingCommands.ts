// Live Tracking's commands, in extension.js: which account, its portal host, its live token and when it
// changes. The panel, the socket and the protocol load on first use (livePanel.ts → dist/liveTracking.js).
import vscode = require('../../system/vscodeApi');
import { Command } from '../../commands';
import type { Services } from '../../services';
import type { LiveToken } from '../../core/liveTracking/connection';
import type { Session } from '../../core/sessions/types';
import { isSafeToken } from '../../core/util/tokenGrammar';
import { maskSecret, redact } from '../../core/util/redact';
import { sessionSecrets } from '../../core/util/redactingLog';
import { resolveAccount } from '../accounts/accountPicker';
import { accountPlatformHosts } from '../accounts/accountPlatformHosts';
import { registerCommand } from '../commands/registerCommand';
import { notify } from '../messages/notify';
import { liveSession } from '../shared/freshToken';
import type { LivePanelDeps, LivePanelSnapshot } from './livePanel';
import { shareLiveLocation } from './shareLocation';

type LivePanels = typeof import('./livePanel');

export interface LiveTracking extends vscode.Disposable {
	/** What each open panel shows (tests read it); empty before the first panel. */
	snapshots(): LivePanelSnapshot[];
}

export function registerLiveTracking(services: Services): LiveTracking {
	let panels: LivePanels | undefined;

	const depsFor = (session: Session, portal: string): LivePanelDeps => {
		const { account } = session;
		const tokenOf = (): LiveToken | undefined => {
			const current = services.store.get(account.id);
			const token = current?.tokens?.accessToken;
			return token && current.state === 'valid' && isSafeToken(token) ? { accessToken: token, instanceId: account.instanceId ?? '' } : undefined;
		};
		return {
			accountId: account.id,
			accountLabel: account.label,
			socketUrl: `${portal.replace(/^http/i, 'ws')}/realtime/api/v1/ws/realtime`,
			token: async () => (await liveSession(services, account.id)) ? tokenOf() : undefined,
			masked: (text) => redact(text, sessionSecrets(services.store.list())),
			// An expired token waits for its refresh (the connection keeps its state); no session stops it.
			onTokenChanged: (listener) => services.store.onDidChange(() => {
				if (services.store.get(account.id)?.state !== 'expired') listener(tokenOf());
			}),
			extraCertificates: () => services.config.proxy().extraCertificates ?? [],
			clock: services.clock,
			log: services.log,
			// The account as it is when the person asks (renamed, marked production, logged out since the panel opened).
			share: (deviceToken) => {
				const now = services.store.get(account.id);
				if (!now?.tokens) {
					void notify('warning', vscode.l10n.t('{0} needs a new login before it can share a location.', account.label));
					return Promise.resolve(undefined);
				}
				return shareLiveLocation(services, now, portal, deviceToken);
			},
			mask: maskSecret,
			logIn: () => void vscode.commands.executeCommand(Command.loginAgain, { accountId: account.id }),
		};
	};

	const portalOf = (session: Session): string | undefined => accountPlatformHosts(services.config, session.account)?.portal;

	const disposables = [
		registerCommand(services, Command.openLiveTracking, async (arg) => {
			const session = await resolveAccount(services, arg, { pick: true, placeHolder: vscode.l10n.t('Track the devices of which account?') });
			if (!session) return undefined;
			// Said before anything connects: the realtime service takes an admin's token for an instance.
			const needs = liveTrackingNeeds(session);
			if (needs) {
				void notify('warning', needs);
				return undefined;
			}
			const portal = portalOf(session);
			if (!portal) {
				void notify('warning', vscode.l10n.t('{0} is on a service that is not a platform this extension knows, so it has no live-tracking host. Set telematicsAuth.platformHosts to name its portal host.', session.account.label));
				return undefined;
			}
			panels ??= await import('./livePanel');
			panels.openLivePanel(depsFor(session, portal));
			return { accountId: session.account.id };
		}),
		registerCommand(services, Command.shareLiveLocation, async (arg) => {
			const session = await resolveAccount(services, arg, { pick: true, placeHolder: vscode.l10n.t('Share a live location from which account?') });
			if (!session) return undefined;
			const portal = portalOf(session);
			if (!portal) return undefined;
			const deviceToken = deviceTokenArg(arg) ?? session.tokens?.deviceToken;
			const hours = typeof arg === 'object' && arg !== null ? (arg as { expiresInHours?: unknown }).expiresInHours : undefined;
			return shareLiveLocation(services, session, portal, deviceToken, typeof hours === 'number' ? hours : undefined);
		}),
	];
	return {
		snapshots: () => panels?.livePanelSnapshots() ?? [],
		dispose: () => {
			for (const d of disposables) d.dispose();
			panels?.closeLivePanels();
		},
	};
}

/** What the account lacks for Live Tracking, in words; undefined when the realtime service takes it. */
function liveTrackingNeeds(session: Session): string | undefined {
	if (session.account.kind !== 'admin') return vscode.l10n.t('Live Tracking needs an admin account: the realtime service takes an admin\'s token, with its API InstanceID. {0} is a user account; log in as an admin (Telematics: Log In as Admin…).', session.account.label);
	if (!session.account.instanceId) return vscode.l10n.t('Live Tracking needs the API InstanceID of the instance to watch, and {0} was logged in without one. Log in again as an admin with the API InstanceID.', session.account.label);
	return undefined;
}

function deviceTokenArg(arg: unknown): string | undefined {
	const value = typeof arg === 'object' && arg !== null ? (arg as { deviceToken?: unknown }).deviceToken : undefined;
	return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
}
