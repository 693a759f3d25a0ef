// Answering one of the workbench's own modal dialogs from a test in the extension host (runIntegration.ts
// clicks it in the page): say which button to click in a dialog holding `match`, then read what it said.
import * as fs from 'node:fs';
import { until } from './until';

/** The file the integration runner watches (set in the extension host's environment). */
export const DIALOG_ANSWER_ENV = 'TELEMATICS_TEST_DIALOG_FILE';

/** Clicks `button` in the next dialog that holds `match`, while `action` runs; the dialog's text. */
export async function answerDialog<T>(match: string, button: string, action: () => Thenable<T> | Promise<T>): Promise<{ dialog: string; outcome: PromiseSettledResult<T> }> {
	const file = process.env[DIALOG_ANSWER_ENV];
	if (!file) throw new Error(`${DIALOG_ANSWER_ENV} is not set: the integration runner answers dialogs.`);
	fs.rmSync(`${file}.seen`, { force: true });
	fs.writeFileSync(file, JSON.stringify({ match, button }));
	try {
		const [outcome] = await Promise.allSettled([Promise.resolve(action())]);
		const dialog = await until('the dialog answered', () => fs.existsSync(`${file}.seen`) && fs.readFileSync(`${file}.seen`, 'utf8'), 20_000);
		return { dialog, outcome: outcome! };
	} finally {
		fs.rmSync(file, { force: true });
	}
}
