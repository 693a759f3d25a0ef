// The Live Tracking panel (its own bundle, dist/liveTracking.js, loaded when it first opens): the
// connection lives here in the extension host; the webview gets positions and masked device tokens only,
// never a token. The page draws the map from the data alone (SVG, no tiles), sets every text with
// textContent, and runs only its own nonce'd script under a CSP that allows nothing remote.
// Its own bundle (dist/liveTracking.js): the one require of vscode there.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import vscode = require('vscode');
import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { LiveConnection, type ConnectionState, type LiveToken } from '../../core/liveTracking/connection';
import { Fleet, MAX_DEVICES, type FleetView } from '../../core/liveTracking/fleet';
import { watchNetwork } from '../../core/liveTracking/networkWatch';
import { PageFeed } from '../../core/liveTracking/pageFeed';
import { openWebSocket } from '../../core/api/webSocket';
import type { Clock } from '../../core/util/clock';
import type { Log } from '../../core/util/log';
import { livePage } from './livePage';

export interface LivePanelDeps {
	accountId: string;
	accountLabel: string;
	/** `wss://portal-apis.…/realtime/api/v1/ws/realtime` (ws:// on the demo). */
	socketUrl: string;
	/** A token to send now, refreshed first when due; undefined: the account needs a login. */
	token(): Promise<LiveToken | undefined>;
	/** `text` with every session's secrets masked: the errors the page and the log show. */
	masked(text: string): string;
	/** Called with the account's token whenever its session changes (a refresh, a logout, another window). */
	onTokenChanged(listener: (token: LiveToken | undefined) => void): vscode.Disposable;
	/** telematicsAuth.extraCertificates (the proxy is VS Code's own choice: core/api/webSocket.ts). */
	extraCertificates(): readonly string[];
	clock: Clock;
	log: Log;
	/** Share Live Location… for a device, as the command does (it asks first). */
	share(deviceToken: string): Promise<unknown>;
	logIn(): void;
	/** How a device token is shown: the extension's maskSecret. */
	mask(deviceToken: string): string;
}

/** What a panel shows (tests read it): the state, the last message the page was sent, and its HTML. */
export interface LivePanelSnapshot {
	accountId: string;
	state: ConnectionState['kind'];
	view: FleetView;
	/** Every message posted to the page so far, as JSON. */
	posted: string[];
	html: string;
}

const panels = new Map<string, LivePanel>();

/** Opens (or shows) the panel for the account. */
export function openLivePanel(deps: LivePanelDeps): void {
	const open = panels.get(deps.accountId);
	if (open) return open.reveal();
	panels.set(deps.accountId, new LivePanel(deps, () => panels.delete(deps.accountId)));
}

export function livePanelSnapshots(): LivePanelSnapshot[] {
	return [...panels.values()].map((p) => p.snapshot());
}

export function closeLivePanels(): void {
	for (const panel of [...panels.values()]) panel.dispose();
}

/** Messages the page sends: plain ids, never anything to trust further. */
type PageMessage = { type: 'share'; id: number } | { type: 'reconnect' } | { type: 'logIn' };

class LivePanel {
	private readonly panel: vscode.WebviewPanel;
	private readonly fleet: Fleet;
	private readonly connection: LiveConnection;
	private readonly subscriptions: vscode.Disposable[] = [];
	private readonly posted: string[] = [];
	private readonly feed: PageFeed;
	private disposed = false;

	constructor(private readonly deps: LivePanelDeps, private readonly onDispose: () => void) {
		this.fleet = new Fleet(deps.mask);
		this.feed = new PageFeed({
			clock: deps.clock,
			fleet: this.fleet,
			state: () => ({ ...pageState(this.connection.state), lastUpdateAt: this.connection.lastUpdateAt }),
			post: (message) => {
				this.posted.push(JSON.stringify(message));
				if (this.posted.length > 50) this.posted.splice(0, this.posted.length - 50);
				void this.panel.webview.postMessage(message);
			},
		});
		this.panel = vscode.window.createWebviewPanel('telematicsAuth.liveTracking', vscode.l10n.t('Live Tracking: {0}', deps.accountLabel), vscode.ViewColumn.Active, {
			enableScripts: true,
			localResourceRoots: [],
			retainContextWhenHidden: false,
		});
		const nonce = randomBytes(18).toString('base64');
		this.panel.webview.html = livePage(nonce, {
			title: vscode.l10n.t('Live Tracking: {0}', deps.accountLabel),
			devices: vscode.l10n.t('Devices'),
			device: vscode.l10n.t('Device'),
			speed: vscode.l10n.t('Speed'),
			updated: vscode.l10n.t('Last update'),
			share: vscode.l10n.t('Share…'),
			reconnect: vscode.l10n.t('Reconnect'),
			logIn: vscode.l10n.t('Log In Again…'),
			waiting: vscode.l10n.t('Waiting for the first positions…'),
			kmh: vscode.l10n.t('km/h'),
			dropped: vscode.l10n.t('Devices dropped (bad coordinates):'),
			notShown: vscode.l10n.t('Devices not shown (more than {0}):', MAX_DEVICES),
			refused: vscode.l10n.t('Frames refused:'),
			lastUpdate: vscode.l10n.t('last update {0} s ago'),
		});
		this.connection = new LiveConnection({
			clock: deps.clock,
			openSocket: (handlers) => openWebSocket(deps.socketUrl, handlers, { extraCertificates: deps.extraCertificates() }),
			token: () => deps.token(),
			masked: (text) => deps.masked(text),
		}, {
			state: (state) => {
				deps.log.info(`Live Tracking (${deps.accountLabel}): ${describeState(state)}`);
				this.feed.changed();
			},
			update: ({ devices, dropped }) => {
				this.fleet.update(devices, dropped, deps.clock.now());
				if (dropped > 0) deps.log.warn(`Live Tracking: dropped ${dropped} device(s) with coordinates that are not numbers or out of range.`);
				this.feed.changed();
			},
			refused: (reason) => {
				this.fleet.refusedFrame();
				deps.log.warn(`Live Tracking: refused a frame (${reason}).`);
				this.feed.changed();
			},
		});
		this.subscriptions.push(
			deps.onTokenChanged((token) => this.connection.tokenChanged(token)),
			this.panel.webview.onDidReceiveMessage((message: unknown) => this.received(message)),
			// A hidden page is gone (no retained context): when it shows again it gets everything at once.
			this.panel.onDidChangeViewState(({ webviewPanel }) => {
				if (!webviewPanel.visible) return;
				this.feed.pageReset();
			}),
			this.panel.onDidDispose(() => this.dispose()),
			watchNetwork({ clock: deps.clock, interfaces: networkInterfaces }, (why) => {
				deps.log.info(`Live Tracking (${deps.accountLabel}): ${why === 'slept' ? 'the machine slept' : 'the network changed'}; a connection that waits or gave up tries now.`);
				this.connection.networkChanged();
			}),
		);
		this.connection.start();
	}

	reveal(): void {
		this.panel.reveal();
	}

	snapshot(): LivePanelSnapshot {
		return { accountId: this.deps.accountId, state: this.connection.state.kind, view: this.fleet.view(), posted: [...this.posted], html: this.panel.webview.html };
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		this.connection.dispose();
		this.feed.dispose();
		for (const s of this.subscriptions) s.dispose();
		this.panel.dispose();
		this.onDispose();
	}

	private received(message: unknown): void {
		const m = message as Partial<PageMessage> | undefined;
		if (m?.type === 'reconnect') return this.connection.start();
		if (m?.type === 'logIn') return this.deps.logIn();
		if (m?.type === 'share' && typeof m.id === 'number') {
			const token = this.fleet.tokenOf(m.id); // the page has ids only, never a device token
			if (token) void this.deps.share(token);
		}
	}
}

/** The connection's state in words for the page, and which button it offers. */
function pageState(state: ConnectionState): { kind: ConnectionState['kind']; text: string; action?: 'reconnect' | 'logIn' } {
	switch (state.kind) {
		case 'connecting': return { kind: state.kind, text: vscode.l10n.t('Connecting…') };
		case 'authenticating': return { kind: state.kind, text: vscode.l10n.t('Authenticating…') };
		case 'live': return { kind: state.kind, text: vscode.l10n.t('Live') };
		case 'reauthenticating': return { kind: state.kind, text: vscode.l10n.t('Re-authenticating with the refreshed token…') };
		case 'waiting': return { kind: state.kind, text: vscode.l10n.t('Disconnected ({0}). Reconnecting in {1} s with a fresh token…', state.error ?? '', Math.round(state.retryInMs / 1000)), action: 'reconnect' };
		case 'stopped':
			if (state.reason === 'needsLogin') return { kind: state.kind, text: state.error ? vscode.l10n.t('Stopped: the service refused the token ({0}). Log in again to resume.', state.error) : vscode.l10n.t('Stopped: the account needs a new login. Log in again to resume.'), action: 'logIn' };
			if (state.reason === 'refused') return { kind: state.kind, text: vscode.l10n.t('Stopped after repeated failures ({0}). Check the account and the network, then reconnect.', state.error ?? ''), action: 'reconnect' };
			return { kind: state.kind, text: vscode.l10n.t('Stopped.') };
	}
}

function describeState(state: ConnectionState): string {
	return state.kind === 'waiting' ? `waiting ${state.retryInMs} ms (${state.error ?? ''})` : state.kind === 'stopped' ? `stopped (${state.reason})` : state.kind;
}
