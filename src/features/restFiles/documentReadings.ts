// One reading of each open REST file for the warnings that read it (where tokens go, the wrong identity):
// on open, on change (debounced per document), on demand (a store, setting or minute change); parsed once
// per reading and handed to each, which drops a late answer once a newer reading began. Close clears them.
import vscode = require('../../system/vscodeApi');
import { parseRestFile, type ParsedFile } from '../../core/restFile/requestParser';
import type { Services } from '../../services';
import { isRestDocument } from '../../core/restFile/restDocument';
import { watchedText } from './restDocuments';

const DEBOUNCE_MS = 300;

/** A REST document as read once: its text and parse, or none past the watched size. */
export interface DocumentReading {
	readonly document: vscode.TextDocument;
	/** Undefined past MAX_WATCHED_CHARS: the warnings leave the file alone. */
	readonly read: { readonly text: string; readonly file: ParsedFile } | undefined;
	/** Whether this is still the document's latest reading (an answer that comes late is dropped otherwise). */
	current(): boolean;
}

/** What reads the documents: shows its warnings for a reading, and forgets a closed document. */
export interface DocumentReader {
	update(reading: DocumentReading): void;
	clear(document: vscode.TextDocument): void;
}

export class DocumentReadings implements vscode.Disposable {
	private readonly pending = new Map<string, unknown>();
	/** Per document: the latest reading's number. */
	private readonly generations = new Map<string, number>();
	private readonly subscriptions: vscode.Disposable[] = [];

	constructor(private readonly services: Services, private readonly readers: readonly DocumentReader[]) {
		vscode.workspace.onDidOpenTextDocument((d) => this.update(d), null, this.subscriptions);
		vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document), null, this.subscriptions);
		vscode.workspace.onDidCloseTextDocument((d) => this.clear(d), null, this.subscriptions);
		this.updateAll();
	}

	updateAll(): void {
		for (const document of vscode.workspace.textDocuments) this.update(document);
	}

	private update(document: vscode.TextDocument): void {
		if (!isRestDocument(document) || document.isClosed) return;
		const key = document.uri.toString();
		const generation = (this.generations.get(key) ?? 0) + 1;
		this.generations.set(key, generation);
		const text = watchedText(document, this.services.log);
		const reading: DocumentReading = {
			document,
			read: text === undefined ? undefined : { text, file: parseRestFile(text) },
			current: () => this.generations.get(key) === generation && !document.isClosed,
		};
		for (const reader of this.readers) reader.update(reading);
	}

	private schedule(document: vscode.TextDocument): void {
		if (!isRestDocument(document)) return;
		const key = document.uri.toString();
		const previous = this.pending.get(key);
		if (previous !== undefined) this.services.clock.clearTimeout(previous);
		this.pending.set(key, this.services.clock.setTimeout(() => {
			this.pending.delete(key);
			this.update(document);
		}, DEBOUNCE_MS));
	}

	private clear(document: vscode.TextDocument): void {
		const key = document.uri.toString();
		const previous = this.pending.get(key);
		if (previous !== undefined) this.services.clock.clearTimeout(previous);
		this.pending.delete(key);
		this.generations.delete(key);
		for (const reader of this.readers) reader.clear(document);
	}

	dispose(): void {
		for (const handle of this.pending.values()) this.services.clock.clearTimeout(handle);
		this.pending.clear();
		vscode.Disposable.from(...this.subscriptions).dispose();
	}
}
