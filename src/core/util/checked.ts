// What a check of untrusted input gives back: the value it accepted, or a message that says what to do.
export type Checked<T = string> = { ok: true; value: T } | { ok: false; message: string };
