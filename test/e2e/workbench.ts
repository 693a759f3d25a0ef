// Drives the VS Code workbench in Chromium as a person would, through VS Code's own DOM (1.100): palette,
// quick inputs, status bar (item id `<extension id>.<item id>`), notifications, views and editors.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { screenshotDir } from '../host/paths';
import { until } from '../support/until';

export const EXTENSION_ID = 'telematics-tools.telematics-auth';
export const STATUS_ITEM_SELECTOR = `.statusbar-item[id="${EXTENSION_ID}.telematicsAuth.status"]`;

const QUICK_INPUT = '.quick-input-widget';
export const QUICK_INPUT_BOX = `${QUICK_INPUT} .quick-input-box input`;

export interface Notification {
	text: string;
	severity: 'error' | 'warning' | 'info';
}

function matches(text: string, expected: string | RegExp): boolean {
	return typeof expected === 'string' ? text.includes(expected) : expected.test(text);
}

/** `until` with an acceptance test, polling every 200 ms (the workbench's pace). */
export function waitFor<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
	return until(what, read, { accept, timeoutMs, everyMs: 200 });
}

/** The windows open now, for a failed test's report (runE2e). */
export const openWorkbenches = new Set<Workbench>();

export class Workbench {
	constructor(readonly page: Page) {
		openWorkbenches.add(this);
		page.on('close', () => openWorkbenches.delete(this));
	}

	/** Opens the workbench at `url` and waits until our extension's status bar item shows. */
	async open(url: string): Promise<void> {
		await this.page.goto(url);
		await this.ready();
	}

	/** Waits for the workbench and the extension's status bar item (the extension activated). */
	async ready(timeoutMs = 90_000): Promise<void> {
		await this.page.waitForSelector('.monaco-workbench', { timeout: timeoutMs });
		await this.page.waitForSelector(STATUS_ITEM_SELECTOR, { timeout: timeoutMs });
	}

	async reload(): Promise<void> {
		await this.page.reload();
		await this.ready();
	}

	// --- command palette and quick inputs -----------------------------------------------

	/** Opens the command palette (F1) and types `title`, leaving the palette open. */
	async typeCommand(title: string): Promise<void> {
		// A view that opens meanwhile (another extension's response panel) may take the focus and close the
		// palette between F1 and typing: then it is opened again, as a person would.
		for (let attempt = 1; ; attempt++) {
			await this.closeQuickInput();
			await this.page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 }, force: true }).catch(() => undefined);
			await this.page.keyboard.press('F1');
			try {
				await this.page.waitForSelector(QUICK_INPUT_BOX, { state: 'visible', timeout: 10_000 });
				await this.page.fill(QUICK_INPUT_BOX, `>${title}`, { timeout: 10_000 });
				break;
			} catch (error) {
				if (attempt === 3) throw error;
			}
		}
		await waitFor(`the command "${title}" in the palette`, () => this.quickPickRows(), (rows) => rows.some((r) => r.startsWith(title)));
	}

	/** Runs a command from the command palette by its full title, e.g. `Telematics: Log In as User…`. */
	async runCommand(title: string): Promise<void> {
		await this.typeCommand(title);
		await this.chooseRow(title);
	}

	/** Clicks the quick pick row whose label starts with `title`. */
	async chooseRow(title: string): Promise<void> {
		const rows = await waitFor(`a row "${title}"`, () => this.quickPickRows(), (r) => r.some((row) => row.startsWith(title)));
		const index = rows.findIndex((r) => r.startsWith(title));
		await this.page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`).nth(index).click();
	}

	/** The labels of the rows the quick pick shows now. */
	async quickPickRows(): Promise<string[]> {
		return this.page.$$eval(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, (rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent ?? ''));
	}

	/** Everything the quick input shows (title, prompt, message, rows) while it is visible. */
	async quickInputText(): Promise<string> {
		const widget = this.page.locator(QUICK_INPUT);
		if (!(await widget.isVisible())) return '';
		return widget.innerText();
	}

	/** Waits until the quick input shows `expected` (a step's title or prompt). */
	async waitForQuickInput(expected: string | RegExp, timeoutMs = 90_000): Promise<string> {
		return waitFor(`the quick input to show ${String(expected)}`, () => this.quickInputText(), (text) => matches(text, expected), timeoutMs);
	}

	/** Answers the step that shows `expected` with `value` and Enter. */
	async answer(expected: string | RegExp, value: string): Promise<void> {
		await this.waitForQuickInput(expected);
		await this.page.fill(QUICK_INPUT_BOX, value);
		await this.page.press(QUICK_INPUT_BOX, 'Enter');
	}

	/** Accepts the step that shows `expected` as it is (e.g. the prefilled service URL). */
	async accept(expected: string | RegExp): Promise<void> {
		await this.waitForQuickInput(expected);
		await this.page.press(QUICK_INPUT_BOX, 'Enter');
	}

	/** What is typed in the quick input's box now. */
	async quickInputValue(): Promise<string> {
		return this.page.inputValue(QUICK_INPUT_BOX);
	}

	/** Whether the quick input's box hides what is typed (a password step). */
	async quickInputIsPassword(): Promise<boolean> {
		return (await this.page.getAttribute(QUICK_INPUT_BOX, 'type')) === 'password';
	}

	/** The Back button in the quick input's title bar, if it shows one. */
	quickInputBack(): Locator {
		return this.page.locator(`${QUICK_INPUT} .quick-input-titlebar .codicon-quick-input-back`);
	}

	async closeQuickInput(): Promise<void> {
		if (await this.page.locator(QUICK_INPUT).isVisible()) await this.page.keyboard.press('Escape');
	}

	// --- status bar ---------------------------------------------------------------------

	statusItem(): Locator {
		return this.page.locator(STATUS_ITEM_SELECTOR);
	}

	/** The status bar item's visible text (icons are drawn, not text) and its screen-reader label. */
	async status(): Promise<{ text: string; ariaLabel: string }> {
		const item = this.statusItem();
		const text = ((await item.textContent()) ?? '').replace(/\s+/g, ' ').trim();
		const ariaLabel = (await item.getAttribute('aria-label')) ?? '';
		return { text, ariaLabel };
	}

	/** Hovers the status bar item and returns its tooltip's text once shown. */
	async hoverStatus(): Promise<string> {
		await this.statusItem().hover();
		return waitFor('the status bar tooltip', async () => {
			const hover = this.page.locator('.monaco-hover, .workbench-hover').first();
			return (await hover.isVisible()) ? hover.innerText() : '';
		}, (t) => t.trim().length > 0, 90_000);
	}

	async waitForStatus(expected: string | RegExp, timeoutMs = 90_000): Promise<{ text: string; ariaLabel: string }> {
		return waitFor(`the status bar to show ${String(expected)}`, () => this.status(), (s) => matches(s.text, expected), timeoutMs);
	}

	// --- notifications ------------------------------------------------------------------

	/** The notifications on screen now (toasts), newest last. */
	async notifications(): Promise<Notification[]> {
		return this.page.$$eval('.notifications-toasts .notification-toast .notification-list-item', (items) => items.map((item) => {
			const icon = item.querySelector('.notification-list-item-icon');
			const cls = icon?.className ?? '';
			const severity = cls.includes('error') ? 'error' : cls.includes('warning') ? 'warning' : 'info';
			const message = item.querySelector('.notification-list-item-message')?.textContent ?? item.textContent ?? '';
			return { text: message.trim(), severity } as { text: string; severity: 'error' | 'warning' | 'info' };
		}));
	}

	async waitForNotification(expected: string | RegExp, timeoutMs = 90_000): Promise<Notification> {
		const list = await waitFor(`a notification ${String(expected)}`, () => this.notifications(), (ns) => ns.some((n) => matches(n.text, expected)), timeoutMs);
		return list.find((n) => matches(n.text, expected))!;
	}

	/** Closes every notification toast (Escape on each, via the command). */
	async clearNotifications(): Promise<void> {
		await this.runCommand('Notifications: Clear All Notifications');
		await waitFor('the notifications to close', () => this.notifications(), (ns) => ns.length === 0, 10_000).catch(() => undefined);
	}

	// --- dialogs ------------------------------------------------------------------------

	/** The modal dialog's text (message and detail) once it matches `expected`. */
	async waitForDialog(expected: RegExp, timeoutMs = 90_000): Promise<string> {
		const box = this.page.locator('.monaco-dialog-box');
		return waitFor(`a dialog ${String(expected)}`, async () => ((await box.count()) ? box.first().innerText() : ''), (text) => expected.test(text), timeoutMs);
	}

	/** Clicks the modal dialog's button named `label`. */
	async clickDialogButton(label: string): Promise<void> {
		await this.page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: label }).first().click();
	}

	// --- views and editors --------------------------------------------------------------

	/** Opens a view container from the activity bar by its title, e.g. `Telematics`. */
	async openActivity(title: string): Promise<void> {
		const item = this.page.locator(`.activitybar .action-item a[aria-label^="${title}"], .activitybar .action-item[aria-label^="${title}"]`).first();
		await item.waitFor({ state: 'visible', timeout: 90_000 });
		const expanded = await this.page.locator(`.activitybar .action-item.checked a[aria-label^="${title}"], .activitybar .action-item.checked[aria-label^="${title}"]`).count();
		if (!expanded) await item.click();
	}

	/** The labels (aria-labels) of the rows a tree view shows. */
	async treeRows(): Promise<string[]> {
		return this.page.$$eval('.part.sidebar .monaco-list-row', (rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent ?? ''));
	}

	/**
	 * Opens a workspace file from the Explorer (Quick Open's file search needs ripgrep, which
	 * this offline code-server install leaves out).
	 */
	async openFile(name: string): Promise<void> {
		await this.closeQuickInput();
		await this.runCommand('View: Show Explorer');
		const row = this.page.locator(`.explorer-folders-view .monaco-list-row:has-text("${name}")`).first();
		await row.waitFor({ state: 'visible', timeout: 90_000 });
		await row.dblclick();
		await this.page.waitForSelector(`.tabs-container .tab.active:has-text("${name}")`, { timeout: 90_000 });
		await this.page.waitForSelector('.editor-instance .monaco-editor .view-lines');
	}

	/**
	 * Saves the active editor with File: Save from the palette, which acts on the active editor wherever the
	 * keyboard's focus is (a Ctrl+S pressed as a menu or widget closes can go to it, and was lost on a busy
	 * machine), and waits until its tab is no longer marked dirty: the save done.
	 */
	async save(): Promise<void> {
		await this.runCommand('File: Save');
		await waitFor('the active editor saved', () => this.page.locator('.tabs-container .tab.active.dirty').count(), (n) => n === 0);
	}

	/**
	 * What the window shows now, for a failed test's report: the active tab, the modal dialog, the quick
	 * input and the notifications (a dialog left open, or an error toast, explains most later failures).
	 */
	async describe(): Promise<string> {
		const shown = async (selector: string) => (await this.page.locator(selector).allInnerTexts().catch(() => [] as string[])).map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
		const tab = await this.page.locator('.tabs-container .tab.active').first().getAttribute('class', { timeout: 2_000 }).then((c) => (c ?? '').includes('dirty') ? ' (dirty)' : '', () => '');
		return [
			`active tab: ${(await shown('.tabs-container .tab.active .label-name'))[0] ?? '(none)'}${tab}`,
			`dialog: ${(await shown('.monaco-dialog-box')).join(' | ') || '(none)'}`,
			`quick input: ${(await this.quickInputText().catch(() => '')).replace(/\s+/g, ' ') || '(closed)'}`,
			`notifications: ${(await this.notifications().catch(() => [])).map((n) => `[${n.severity}] ${n.text}`).join(' | ') || '(none)'}`,
		].join('\n');
	}

	/** The active editor's text as drawn (fine for small files that fit on screen). */
	async editorText(): Promise<string> {
		return this.page.locator('.editor-instance .monaco-editor .view-lines').first().innerText();
	}

	/** Puts the cursor at the start of line `line` (1-based) in the active editor (Go to Line, `:N`). */
	async goToLine(line: number): Promise<void> {
		await this.closeQuickInput();
		await this.page.keyboard.press('F1');
		await this.page.waitForSelector(QUICK_INPUT_BOX, { state: 'visible' });
		await this.page.fill(QUICK_INPUT_BOX, `:${line}`);
		await this.page.press(QUICK_INPUT_BOX, 'Enter');
		await waitFor(`the cursor on line ${line}`, () => this.page.locator('.statusbar-item[id="status.editor.selection"]').innerText(), (t) => t.includes(`Ln ${line},`), 90_000);
	}

	/** Clicks the start of the editor line holding `text` and shows the hover there (Ctrl+K Ctrl+I); its text once it matches. */
	async hoverAtLine(text: string, expected: RegExp): Promise<string> {
		const line = this.page.locator('.editor-instance .monaco-editor .view-line', { hasText: text }).first();
		return this.hoverShowing(`the hover on the line of ${text}`, async () => {
			await line.click({ position: { x: 2, y: 5 } });
			await this.page.keyboard.press('Control+K');
			await this.page.keyboard.press('Control+I');
		}, expected);
	}

	/**
	 * Opens a hover with `open` until it shows `expected`. A hover shows what the providers and markers
	 * hold when it opens and does not grow when a warning arrives later (a busy machine computes the
	 * warnings after the first hover), so it is closed and opened again, as a person would, while waiting.
	 */
	async hoverShowing(what: string, open: () => Promise<void>, expected: RegExp): Promise<string> {
		let openedAt = 0;
		return waitFor(what, async () => {
			const shown = (await this.page.locator('.monaco-hover').allInnerTexts()).join(' ').replace(/\s+/g, ' ');
			if (!expected.test(shown) && Date.now() - openedAt >= 2_000) {
				await this.page.keyboard.press('Escape');
				await this.page.mouse.move(5, 5);
				await open();
				openedAt = Date.now();
			}
			return shown;
		}, (t) => expected.test(t), 120_000);
	}

	// --- integrated terminals -----------------------------------------------------------

	/** Opens a new integrated terminal and waits until its shell takes a line (typeInTerminal). */
	async openTerminal(dir: string): Promise<void> {
		const before = await this.page.locator('.terminal-wrapper .xterm').count();
		await this.runCommand('Terminal: Create New Terminal');
		await waitFor('a new terminal', () => this.page.locator('.terminal-wrapper .xterm').count(), (n) => n > before, 60_000);
		await this.typeInTerminal(dir, '');
	}

	/**
	 * Types `line` into the active terminal and waits until its shell has started it. A key typed while the
	 * login shell starts, or while it handles Ctrl+C, can be lost, so the line begins with an `echo` into a
	 * marker file of `dir`, and the rest runs only if that `echo` did (`&&`): until a marker arrives, the line
	 * is cleared (Ctrl+C) and typed again. A line whose marker arrived is not typed again.
	 */
	async typeInTerminal(dir: string, line: string): Promise<void> {
		const xterm = this.page.locator('.terminal-wrapper.active .xterm').first();
		await xterm.waitFor({ state: 'visible', timeout: 60_000 });
		const marker = (n: number) => path.join(dir, `.started-${process.pid}-${n}`);
		let typed = 0;
		let typedAt = 0;
		await waitFor(`the shell to start ${JSON.stringify(line || 'a line')}`, async () => {
			for (let n = 1; n <= typed; n++) if (fs.existsSync(marker(n))) return true;
			if (Date.now() - typedAt >= 5_000) {
				await xterm.click();
				if (typed) await this.page.keyboard.press('Control+C');
				// A leading space keeps the line out of bash's history.
				await this.page.keyboard.type(` echo > '${marker(++typed)}'${line ? ` && ${line}` : ''}\n`);
				typedAt = Date.now();
			}
			return false;
		}, (started) => started, 120_000);
		for (let n = 1; n <= typed; n++) fs.rmSync(marker(n), { force: true });
	}

	/** The CodeLens texts shown in the active editor. */
	async codeLenses(): Promise<string[]> {
		return this.page.$$eval('.editor-instance .monaco-editor .codelens-decoration', (els) => els.map((e) => (e.textContent ?? '').trim()));
	}

	// --- screenshots --------------------------------------------------------------------

	/** Saves a screenshot of the window to media/screenshots/<name>. */
	async screenshot(name: string, locator?: Locator): Promise<string> {
		fs.mkdirSync(screenshotDir, { recursive: true });
		const file = path.join(screenshotDir, name);
		await this.page.waitForTimeout(500); // let fade-ins (notifications, hovers) finish
		if (locator) await locator.screenshot({ path: file });
		else await this.page.screenshot({ path: file });
		return file;
	}
}
