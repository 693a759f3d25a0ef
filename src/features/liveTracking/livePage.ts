// The Live Tracking page: a CSP that allows only its own nonce'd script and style (nothing remote, no
// images, no connections), a map drawn as SVG from the positions alone (no tiles), and a device list.
// Every text the page shows is set with textContent; nothing it is sent becomes markup.

export interface PageLabels {
	title: string;
	devices: string;
	device: string;
	speed: string;
	updated: string;
	share: string;
	reconnect: string;
	logIn: string;
	waiting: string;
	kmh: string;
	dropped: string;
	notShown: string;
	refused: string;
	/** `{0}`: the seconds since the last device update. */
	lastUpdate: string;
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
	return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function livePage(nonce: string, labels: PageLabels): string {
	const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'none'; connect-src 'none'; font-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'`;
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">
	body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 8px 16px; }
	#state { padding: 4px 8px; border-radius: 4px; display: inline-block; margin-bottom: 8px; }
	#state[data-kind="live"] { background: var(--vscode-testing-iconPassed, #388a34); color: #fff; }
	#state[data-kind="waiting"], #state[data-kind="stopped"] { background: var(--vscode-inputValidation-warningBackground, #5a4a00); }
	#map { width: 100%; max-width: 900px; height: 420px; border: 1px solid var(--vscode-panel-border, #444); background: var(--vscode-editorWidget-background, #1e1e1e); }
	table { border-collapse: collapse; margin-top: 8px; }
	th, td { text-align: left; padding: 3px 12px 3px 0; }
	#counts { opacity: 0.8; margin-top: 6px; }
	button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 3px 10px; cursor: pointer; }
</style>
</head>
<body>
<h2 id="title"></h2>
<div><span id="state" data-kind="connecting"></span> <span id="since"></span> <button id="action" hidden></button></div>
<svg id="map" viewBox="0 0 1000 420" preserveAspectRatio="xMidYMid meet" role="img"></svg>
<h3 id="devicesTitle"></h3>
<p id="empty"></p>
<table id="devices" hidden><thead><tr><th id="hDevice"></th><th id="hSpeed"></th><th id="hUpdated"></th><th></th></tr></thead><tbody></tbody></table>
<div id="counts"></div>
<script nonce="${nonce}">
(function () {
	const LABELS = ${scriptJson(labels)};
	const vscode = acquireVsCodeApi();
	const SVG = 'http://www.w3.org/2000/svg';
	const MAX_MAP_LABELS = 50;
	const COLORS = ['#4fc1ff', '#f9826c', '#b5cea8', '#dcdcaa', '#c586c0', '#ce9178'];
	const byId = (id) => document.getElementById(id);
	byId('title').textContent = LABELS.title;
	byId('devicesTitle').textContent = LABELS.devices;
	byId('hDevice').textContent = LABELS.device;
	byId('hSpeed').textContent = LABELS.speed;
	byId('hUpdated').textContent = LABELS.updated;
	byId('empty').textContent = LABELS.waiting;
	const action = byId('action');
	let actionKind;
	action.addEventListener('click', () => { if (actionKind) vscode.postMessage({ type: actionKind }); });

	const finite = (n) => typeof n === 'number' && Number.isFinite(n);

	function drawMap(devices) {
		const map = byId('map');
		while (map.firstChild) map.removeChild(map.firstChild);
		const points = devices.flatMap((d) => d.track).filter((p) => Array.isArray(p) && finite(p[0]) && finite(p[1]));
		if (points.length === 0) return;
		let minLat = Math.min(...points.map((p) => p[0])), maxLat = Math.max(...points.map((p) => p[0]));
		let minLon = Math.min(...points.map((p) => p[1])), maxLon = Math.max(...points.map((p) => p[1]));
		const k = Math.cos(((minLat + maxLat) / 2) * Math.PI / 180) || 1;
		const spanLat = Math.max(maxLat - minLat, 0.002), spanLon = Math.max((maxLon - minLon) * k, 0.002);
		const scale = Math.min(940 / spanLon, 380 / spanLat);
		const cx = (minLon + maxLon) / 2, cy = (minLat + maxLat) / 2;
		const x = (lon) => 500 + (lon - cx) * k * scale;
		const y = (lat) => 210 - (lat - cy) * scale;
		devices.forEach((d, i) => {
			const color = COLORS[i % COLORS.length];
			const track = d.track.filter((p) => finite(p[0]) && finite(p[1]));
			if (track.length > 1) {
				const line = document.createElementNS(SVG, 'polyline');
				line.setAttribute('points', track.map((p) => x(p[1]).toFixed(1) + ',' + y(p[0]).toFixed(1)).join(' '));
				line.setAttribute('fill', 'none');
				line.setAttribute('stroke', color);
				line.setAttribute('stroke-width', '2');
				line.setAttribute('stroke-opacity', '0.6');
				map.appendChild(line);
			}
			if (!finite(d.latitude) || !finite(d.longitude)) return;
			const dot = document.createElementNS(SVG, 'circle');
			dot.setAttribute('cx', x(d.longitude).toFixed(1));
			dot.setAttribute('cy', y(d.latitude).toFixed(1));
			dot.setAttribute('r', '7');
			dot.setAttribute('fill', color);
			dot.setAttribute('data-device', String(d.id));
			map.appendChild(dot);
			if (i >= MAX_MAP_LABELS) return; // a thousand names over one map say nothing; the list has them all
			const label = document.createElementNS(SVG, 'text');
			label.setAttribute('x', (x(d.longitude) + 10).toFixed(1));
			label.setAttribute('y', (y(d.latitude) - 10).toFixed(1));
			label.setAttribute('fill', 'currentColor');
			label.setAttribute('font-size', '14');
			label.textContent = String(d.label);
			map.appendChild(label);
		});
	}

	// Rows are kept by the device's page id and updated in place: a focused Share button, or a click on
	// one, survives every update.
	const rows = new Map();
	function drawList(devices) {
		const table = byId('devices');
		const body = table.querySelector('tbody');
		table.hidden = devices.length === 0;
		byId('empty').hidden = devices.length > 0;
		const seen = new Set();
		for (const d of devices) {
			seen.add(d.id);
			let row = rows.get(d.id);
			if (!row) {
				row = document.createElement('tr');
				row.setAttribute('data-device', String(d.id));
				for (let i = 0; i < 3; i++) row.appendChild(document.createElement('td'));
				const shareCell = document.createElement('td');
				const share = document.createElement('button');
				share.textContent = LABELS.share;
				const id = d.id;
				share.addEventListener('click', () => vscode.postMessage({ type: 'share', id }));
				shareCell.appendChild(share);
				row.appendChild(shareCell);
				body.appendChild(row);
				rows.set(d.id, row);
			}
			const cells = [String(d.label), finite(d.speed) ? d.speed.toFixed(1) + ' ' + LABELS.kmh : '—', finite(d.updatedAt) ? new Date(d.updatedAt).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—'];
			cells.forEach((text, i) => { if (row.cells[i].textContent !== text) row.cells[i].textContent = text; });
		}
		for (const [id, row] of rows) if (!seen.has(id)) { row.remove(); rows.delete(id); }
	}

	// The devices the page holds, by id: a post carries all of them (full) or only those that changed.
	const devicesById = new Map();
	let lastUpdateAt;
	function showSince() {
		const since = byId('since');
		since.textContent = finite(lastUpdateAt) ? LABELS.lastUpdate.replace('{0}', String(Math.max(0, Math.round((Date.now() - lastUpdateAt) / 1000)))) : '';
	}
	setInterval(showSince, 1000);

	window.addEventListener('message', (event) => {
		const message = event.data;
		if (!message || message.type !== 'view') return;
		const state = byId('state');
		state.textContent = String(message.state.text);
		state.setAttribute('data-kind', String(message.state.kind));
		lastUpdateAt = message.state.lastUpdateAt;
		showSince();
		actionKind = message.state.action === 'reconnect' || message.state.action === 'logIn' ? message.state.action : undefined;
		action.hidden = !actionKind;
		action.textContent = actionKind === 'logIn' ? LABELS.logIn : LABELS.reconnect;
		if (message.fleet.full === true) devicesById.clear();
		for (const d of Array.isArray(message.fleet.devices) ? message.fleet.devices : []) if (d && finite(d.id)) devicesById.set(d.id, d);
		const devices = [...devicesById.values()].sort((a, b) => a.id - b.id);
		drawMap(devices);
		drawList(devices);
		const counts = [];
		if (Number(message.fleet.dropped) > 0 || Number(message.fleet.refused) > 0) counts.push(LABELS.dropped + ' ' + Number(message.fleet.dropped) + ' · ' + LABELS.refused + ' ' + Number(message.fleet.refused));
		if (Number(message.fleet.notShown) > 0) counts.push(LABELS.notShown + ' ' + Number(message.fleet.notShown));
		byId('counts').textContent = counts.join(' · ');
	});
})();
</script>
</body>
</html>`;
}
