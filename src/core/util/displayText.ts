// Text from outside (a service's claims, a certificate's names) made safe to show on one line: control
// and bidi characters go, `$(` cannot start a status bar icon, long text is cut.

export function displayText(value: string, max = 64): string {
	const flat = value
		.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g, ' ')
		.replace(/\$\(/g, '$ (')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
