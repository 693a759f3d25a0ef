// How the pure core words things a person reads without importing `vscode`: it takes a
// `Translate` function; the VS Code layer passes `vscode.l10n.t`, tests use the default.

/** Translates a message with `{0}`-style placeholders; `vscode.l10n.t` fits. */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** Substitutes `{0}`, `{1}`… without translating. */
export const untranslated: Translate = (message, ...args) =>
	message.replace(/\{(\d+)\}/g, (whole, index: string) => {
		const value = args[Number(index)];
		return value === undefined ? whole : String(value);
	});
