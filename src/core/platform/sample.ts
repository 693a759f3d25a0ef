// The walkthrough's sample request file: its text for a service and its api host. Pure: no I/O, no `vscode`.
import { platformHosts } from './hosts';
import { isSafeServiceUrl, withoutTrailingSlashes } from '../util/url';

/**
 * A first request for the active account's platform, with no token in it yet: the user's trips of the
 * last 30 days, on the platform's api host (`apiHost`; on the demo service, the service itself).
 */
export function sampleText(serviceUrl: string, apiHost: string, eol = '\n'): string {
	return [
		'# A first request with a live token (Telematics Auth sample).',
		'# Put the cursor on the POST line and run "Telematics: Insert Authorization Header",',
		'# then send it with your REST client.',
		`@baseUrl = ${withoutTrailingSlashes(serviceUrl)}`,
		`@apiHost = ${withoutTrailingSlashes(apiHost)}`,
		'',
		'###',
		'# Your trips of the last 30 days (the platform\'s api host; a user\'s token).',
		'# More operations: the service\'s Swagger page, or #telematicsOperations in chat.',
		'POST {{apiHost}}/trips/get/v1/',
		'Content-Type: application/json',
		'Accept: application/json',
		'',
		'{',
		'  "StartDate": "{{$datetime iso8601 -30 d}}",',
		'  "EndDate": "{{$datetime iso8601}}",',
		'  "IncludeDetails": true,',
		'  "Paging": { "Page": 1, "Count": 5 }',
		'}',
		'',
	].join(eol);
}

/** The sample's service and api host for `serviceUrl`: each a plain http(s) URL, else a placeholder to edit. */
export function sampleHosts(serviceUrl: string, platformHostsSetting: Readonly<Record<string, unknown>>): { serviceUrl: string; apiHost: string } {
	const service = isSafeServiceUrl(serviceUrl) ? serviceUrl : 'https://your-service.invalid';
	const api = platformHosts(service, platformHostsSetting)?.api;
	return { serviceUrl: service, apiHost: api && isSafeServiceUrl(api) ? api : service };
}
