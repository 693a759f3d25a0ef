// The service's response envelope: `{Result, Status, Title, Errors}`.

export interface EnvelopeError {
	Key: string;
	Message: string;
}

export interface Envelope<T> {
	Result: T | null;
	Status: number;
	Title: string;
	Errors: EnvelopeError[];
}

export interface TokenResult {
	DeviceToken?: string;
	AccessToken: { Token: string; ExpiresIn: number };
	RefreshToken: string;
}

export function ok<T>(result: T): Envelope<T> {
	return { Result: result, Status: 200, Title: '', Errors: [] };
}

const TITLES: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	413: 'Payload Too Large',
	415: 'Unsupported Media Type',
	422: 'One or more validation errors occurred.',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
};

export function failure(status: number, errors: EnvelopeError[] = []): Envelope<never> {
	return { Result: null, Status: status, Title: TITLES[status] ?? 'Error', Errors: errors };
}

export function validation(errors: EnvelopeError[]): Envelope<never> {
	return failure(422, errors);
}
