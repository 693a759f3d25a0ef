// Renders media/icon.png (the 128×128 Marketplace icon) from media/telematics.svg, white on the brand
// colour. Run `node scripts/render-icon.js` after changing the drawing (needs Chromium); the PNG is committed.
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const root = path.resolve(__dirname, '..');
const svg = fs.readFileSync(path.join(root, 'media', 'telematics.svg'), 'utf8')
	.replace(/width="24" height="24"/, 'width="96" height="96"')
	.replace('stroke="currentColor"', 'stroke="#ffffff"')
	.replace('stroke-width="1.5"', 'stroke-width="1.6"');
const page = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:128px;height:128px;border-radius:24px;background:linear-gradient(135deg,#0b6e99,#12436b);display:flex;align-items:center;justify-content:center">${svg}</div>
</body></html>`;

(async () => {
	const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
	try {
		const tab = await browser.newPage({ viewport: { width: 128, height: 128 } });
		await tab.setContent(page);
		await tab.screenshot({ path: path.join(root, 'media', 'icon.png'), omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
	} finally {
		await browser.close();
	}
	console.log('media/icon.png written');
})().catch((e) => {
	console.error(e);
	process.exit(1);
});
