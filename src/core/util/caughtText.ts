// What a caught value says: an Error's message, anything else as text. Whoever shows it still makes it safe for its place.

export function caughtText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
