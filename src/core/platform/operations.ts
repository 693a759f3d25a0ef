// The telematics platform's operations as data: per operation its host (by key), method, path template,
// parameters, the token it needs, whether it changes data or cannot be undone, and where the fact comes
// from. OpenAPI cannot say which token an operation needs (the vendor's documents have no security
// schemes), so that knowledge lives here. Pure data: no I/O, no `vscode`.
//
// Sources (see ../shared/notes/platform-facts.md in the project's workspace):
// - skills: the vendor's agent-skill references (Mobile-Telematics/damoov-telematics-skills, June 2026,
//   described there as checked against the live service);
// - android: the vendor's TelematicsApp-Android API interfaces;
// - python-sdk: the vendor's damoov_admin package;
// - vendor-docs: the vendor's real-time tracking pages ("WebSocket and API methods", "Location sharing").

import type { HostKey } from './hosts';

export { HOST_KEYS, type HostKey } from './hosts';

/**
 * The token an operation needs: an admin's JWT, a user's JWT, or none (it is signed with the instance's
 * `InstanceId` and `InstanceKey` headers instead); `unknown` for an operation only a host's OpenAPI
 * document names (openapiImport.ts): OpenAPI cannot say which account it needs.
 */
export type NeededToken = 'admin' | 'user' | 'none' | 'unknown';

export type ParameterPlace = 'path' | 'query' | 'header' | 'body';
export type ParameterType = 'string' | 'integer' | 'boolean' | 'date' | 'date-time' | 'array' | 'object';

export interface Parameter {
	/** As the service spells it; a body field's dotted path (`Identifiers.UserId`) nests it. */
	readonly name: string;
	readonly in: ParameterPlace;
	readonly type: ParameterType;
	readonly required: boolean;
	/** A value that reads well in a request skeleton. */
	readonly example?: string | number | boolean | readonly string[];
	readonly description: string;
}

export interface Operation {
	/** Stable id, `area.action`: what the agent names and what New Request keeps. */
	readonly id: string;
	readonly host: HostKey;
	readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	/** Path template, casing as the service has it (`{Name}` for a path parameter). */
	readonly path: string;
	readonly summary: string;
	readonly token: NeededToken;
	readonly changesData: boolean;
	/** Set when the change cannot be undone: the question names this, with the target. */
	readonly irreversible?: string;
	/** The body's content type, when there is a body. */
	readonly contentType?: string;
	readonly parameters: readonly Parameter[];
	readonly source: 'skills' | 'android' | 'python-sdk' | 'vendor-docs' | 'openapi';
}

const JSON_BODY = 'application/json';

// The real-time tracking operations' parameters.
const REALTIME_DEVICE: Parameter = { name: 'device_token', in: 'path', type: 'string', required: true, example: '00000000-0000-0000-0000-000000000000', description: "The device's DeviceToken." };
const REALTIME_INSTANCE: Parameter = { name: 'instance_id', in: 'query', type: 'string', required: true, example: '00000000-0000-0000-0000-000000000000', description: "The device's instance." };
const REALTIME_TIMEZONE: Parameter = { name: 'timezone', in: 'query', type: 'string', required: false, example: 'UTC', description: 'The time zone of the times in the answer.' };
const REALTIME_DATE_FORMAT: Parameter = { name: 'date_format', in: 'query', type: 'string', required: false, example: 'iso', description: '`unix`, `iso` or `human`.' };

// Shared parameter lists of the indicators (statistics, scores, streaks).
const USER_ID: Parameter = { name: 'UserId', in: 'query', type: 'string', required: true, example: '00000000-0000-0000-0000-000000000000', description: "The user's DeviceToken." };
const START_DATE: Parameter = { name: 'StartDate', in: 'query', type: 'date', required: true, example: '2026-11-01', description: 'First day, YYYY-MM-DD.' };
const END_DATE: Parameter = { name: 'EndDate', in: 'query', type: 'date', required: true, example: '2026-11-30', description: 'Last day, YYYY-MM-DD.' };
const TRANSPORT: Parameter = { name: 'TransportType', in: 'query', type: 'string', required: true, example: 'Driver', description: 'Whose trips: "Driver" (as the driver) or "All" (required for statistics).' };
const TAG: Parameter = { name: 'Tag', in: 'query', type: 'string', required: false, description: 'Only trips with this tag.' };
const DATES = [START_DATE, END_DATE];
const CONSOLIDATED_BY: readonly Parameter[] = [
	{ name: 'InstanceId', in: 'query', type: 'string', required: false, description: 'Consolidate over an instance (one of InstanceId, AppId, CompanyId).' },
	{ name: 'AppId', in: 'query', type: 'string', required: false, description: 'Consolidate over an application.' },
	{ name: 'CompanyId', in: 'query', type: 'string', required: false, description: 'Consolidate over a company.' },
];

const TRIP_QUERY: readonly Parameter[] = [
	{ name: 'StartDate', in: 'body', type: 'date-time', required: true, example: '2026-11-01T00:00:00Z', description: 'From, ISO-8601.' },
	{ name: 'EndDate', in: 'body', type: 'date-time', required: true, example: '2026-11-30T23:59:59Z', description: 'To, ISO-8601.' },
	{ name: 'IncludeDetails', in: 'body', type: 'boolean', required: false, example: true, description: 'Addresses, distance, duration.' },
	{ name: 'IncludeStatistics', in: 'body', type: 'boolean', required: false, example: true, description: 'Per-trip statistics.' },
	{ name: 'IncludeScores', in: 'body', type: 'boolean', required: false, example: true, description: 'Per-trip scores.' },
	{ name: 'UnitSystem', in: 'body', type: 'string', required: false, example: 'Si', description: '"Si" or "Imperial".' },
	{ name: 'SortBy', in: 'body', type: 'string', required: false, example: 'StartDateUtc', description: 'Sort field.' },
	{ name: 'Paging.Page', in: 'body', type: 'integer', required: false, example: 1, description: 'Page number, from 1.' },
	{ name: 'Paging.Count', in: 'body', type: 'integer', required: false, example: 20, description: 'Trips per page.' },
	{ name: 'Paging.IncludePagingInfo', in: 'body', type: 'boolean', required: false, example: true, description: 'Total counts in the answer.' },
];

/** One indicators operation, as admin (`UserId` in the query) or as the user (no `UserId`). */
function indicator(token: 'admin' | 'user', name: string, summary: string, extra: readonly Parameter[]): Operation {
	const area = token === 'admin' ? 'admin' : 'user';
	const prefix = token === 'admin' ? '/indicators/admin/v3/' : '/indicators/v3/';
	return {
		id: `indicators.${area}.${name.replace(/\//g, '.').toLowerCase()}`,
		host: 'api',
		method: 'GET',
		path: prefix + name,
		summary: token === 'admin' ? `${summary} of a user (admin)` : `${summary} of the signed-in user`,
		token,
		changesData: false,
		parameters: token === 'admin' ? [USER_ID, ...extra] : extra,
		source: 'skills',
	};
}

/** The indicators every user has, and the admin has per user: name, what it is, its parameters. */
const INDICATORS: ReadonlyArray<readonly [string, string, readonly Parameter[]]> = [
	['Statistics', 'Driving statistics over a period', [...DATES, TRANSPORT, TAG]],
	['Statistics/daily', 'Driving statistics per day', [...DATES, TRANSPORT, TAG]],
	['Statistics/Dates', 'The first and last days with trips', []],
	['Statistics/UniqueTags', 'The tags used on trips', [...DATES]],
	['Scores/safety', 'Safety score over a period', [...DATES, TAG]],
	['Scores/safety/daily', 'Safety score per day', [...DATES, TAG]],
	['Scores/eco', 'Eco score over a period', [...DATES, TAG]],
	['Scores/eco/daily', 'Eco score per day', [...DATES, TAG]],
	['Streaks', 'Driving streaks', []],
];

export const OPERATIONS: readonly Operation[] = [
	// --- user service (the login host) ---
	{ id: 'registration.create', host: 'user', method: 'POST', path: '/v1/Registration/create', summary: 'Register a new user in an instance (InstanceId and InstanceKey headers, no JWT)', token: 'none', changesData: true, contentType: JSON_BODY, source: 'skills', parameters: [
		{ name: 'InstanceId', in: 'header', type: 'string', required: true, description: "The instance's ID." },
		{ name: 'InstanceKey', in: 'header', type: 'string', required: true, description: "The instance's key (a secret)." },
		{ name: 'UserFields.ClientId', in: 'body', type: 'string', required: false, example: 'my-client-id', description: "Your system's id for the user." },
		{ name: 'CreateAccessToken', in: 'body', type: 'boolean', required: false, example: false, description: 'Also log the new user in.' },
	] },
	{ id: 'users.me', host: 'user', method: 'GET', path: '/v1/Management/users', summary: "The signed-in user's profile", token: 'user', changesData: false, source: 'android', parameters: [] },
	{ id: 'users.find', host: 'user', method: 'GET', path: '/v1/Management/users/find', summary: 'Find users by DeviceToken, email, phone, client id or name', token: 'admin', changesData: false, source: 'skills', parameters: [
		{ name: 'DeviceToken', in: 'query', type: 'string', required: false, description: 'The user\'s DeviceToken (give one of the search fields).' },
		{ name: 'Email', in: 'query', type: 'string', required: false, example: 'driver@example.com', description: 'E-mail address.' },
		{ name: 'Phone', in: 'query', type: 'string', required: false, description: 'Phone number.' },
		{ name: 'ClientId', in: 'query', type: 'string', required: false, description: "Your system's id for the user." },
		{ name: 'FullName', in: 'query', type: 'string', required: false, description: 'Full name.' },
		{ name: 'IncludeAccountInfo', in: 'query', type: 'boolean', required: false, example: true, description: 'Add the account info.' },
	] },
	{ id: 'users.page', host: 'user', method: 'POST', path: '/v1/Management/users/GetFilteredPage', summary: "A page of the instances' users", token: 'admin', changesData: false, contentType: 'application/json-patch+json', source: 'skills', parameters: [
		{ name: 'InstanceIds', in: 'body', type: 'array', required: true, example: ['00000000-0000-0000-0000-000000000000'], description: 'The instances to list.' },
		{ name: 'PageNumber', in: 'body', type: 'integer', required: true, example: 1, description: 'Page number, from 1.' },
		{ name: 'PageSize', in: 'body', type: 'integer', required: true, example: 20, description: 'Users per page.' },
		{ name: 'IncludeAccountInfo', in: 'body', type: 'boolean', required: false, example: true, description: 'Add the account info.' },
		{ name: 'ShowInactiveUsers', in: 'body', type: 'boolean', required: false, example: false, description: 'Include disabled users.' },
	] },
	{ id: 'users.update', host: 'user', method: 'PUT', path: '/v1/Management/users', summary: "Change a user's profile and settings", token: 'admin', changesData: true, contentType: JSON_BODY, source: 'skills', parameters: [
		{ name: 'UserDeviceToken', in: 'header', type: 'string', required: true, description: 'The user to change.' },
		{ name: 'FirstName', in: 'body', type: 'string', required: false, example: 'Ada', description: 'First name.' },
		{ name: 'UserFields.Enabled', in: 'body', type: 'boolean', required: false, example: true, description: 'The user may log in.' },
		{ name: 'UserFields.EnableTracking', in: 'body', type: 'boolean', required: false, example: true, description: 'Trips are recorded.' },
	] },
	{ id: 'users.delete', host: 'user', method: 'DELETE', path: '/v1/Management/users/{DeviceToken}', summary: 'Delete a user and all their data', token: 'admin', changesData: true, irreversible: 'Delete the user and all their data', source: 'skills', parameters: [
		{ name: 'DeviceToken', in: 'path', type: 'string', required: true, description: 'The user to delete.' },
	] },
	{ id: 'users.changeInstance', host: 'user', method: 'POST', path: '/v1/Management/users/instances/change', summary: 'Move a user to another instance', token: 'admin', changesData: true, irreversible: 'Move the user to another instance', contentType: JSON_BODY, source: 'skills', parameters: [
		{ name: 'DeviceToken', in: 'body', type: 'string', required: true, description: 'The user to move.' },
		{ name: 'ToInstanceId', in: 'body', type: 'string', required: true, description: 'The instance to move to.' },
		{ name: 'ToInstanceKey', in: 'body', type: 'string', required: true, description: "That instance's key (a secret)." },
	] },

	// --- trips (api host) ---
	{ id: 'trips.admin.list', host: 'api', method: 'POST', path: '/trips/get/admin/v1', summary: "A user's trips (admin)", token: 'admin', changesData: false, contentType: JSON_BODY, source: 'skills', parameters: [
		{ name: 'Identifiers.UserId', in: 'body', type: 'string', required: true, example: '00000000-0000-0000-0000-000000000000', description: "The user's DeviceToken." },
		...TRIP_QUERY,
	] },
	{ id: 'trips.user.list', host: 'api', method: 'POST', path: '/trips/get/v1/', summary: "The signed-in user's trips", token: 'user', changesData: false, contentType: JSON_BODY, source: 'skills', parameters: TRIP_QUERY },
	{ id: 'trips.admin.details', host: 'api', method: 'POST', path: '/trips/get/admin/v1/{tripId}', summary: "One trip's details (admin)", token: 'admin', changesData: false, contentType: JSON_BODY, source: 'skills', parameters: [
		{ name: 'tripId', in: 'path', type: 'string', required: true, description: 'The trip.' },
		{ name: 'Identifiers.UserId', in: 'body', type: 'string', required: true, example: '00000000-0000-0000-0000-000000000000', description: "The user's DeviceToken." },
		{ name: 'IncludeWaypoints', in: 'body', type: 'boolean', required: false, example: false, description: 'The route.' },
		{ name: 'IncludeEvents', in: 'body', type: 'boolean', required: false, example: true, description: 'Braking, speeding, phone use.' },
	] },
	{ id: 'trips.user.details', host: 'api', method: 'POST', path: '/trips/get/v1/{tripId}', summary: "One of the signed-in user's trips", token: 'user', changesData: false, contentType: JSON_BODY, source: 'skills', parameters: [
		{ name: 'tripId', in: 'path', type: 'string', required: true, description: 'The trip.' },
		{ name: 'IncludeWaypoints', in: 'body', type: 'boolean', required: false, example: false, description: 'The route.' },
		{ name: 'IncludeEvents', in: 'body', type: 'boolean', required: false, example: true, description: 'Braking, speeding, phone use.' },
	] },

	// --- indicators (api host) ---
	...INDICATORS.map(([name, summary, extra]) => indicator('admin', name, summary, extra)),
	...INDICATORS.map(([name, summary, extra]) => indicator('user', name === 'Statistics/Dates' ? 'Statistics/dates' : name, summary, extra)),
	{ id: 'indicators.admin.safety.consolidated', host: 'api', method: 'GET', path: '/indicators/admin/v3/Scores/safety/consolidated', summary: 'Safety score over an instance, application or company (admin)', token: 'admin', changesData: false, source: 'skills', parameters: [...CONSOLIDATED_BY, ...DATES] },
	{ id: 'indicators.admin.eco.consolidated', host: 'api', method: 'GET', path: '/indicators/admin/v3/Scores/eco/consolidated', summary: 'Eco score over an instance, application or company (admin)', token: 'admin', changesData: false, source: 'skills', parameters: [...CONSOLIDATED_BY, ...DATES] },
	{ id: 'indicators.admin.statistics.consolidated', host: 'api', method: 'GET', path: '/indicators/admin/v3/Statistics/consolidated', summary: 'Statistics over an instance, application or company (admin)', token: 'admin', changesData: false, source: 'skills', parameters: [...CONSOLIDATED_BY, ...DATES, TRANSPORT] },

	// --- applications and instances (accounts host) ---
	{ id: 'applications.list', host: 'accounts', method: 'GET', path: '/v1/companies/{CompanyId}/applications', summary: "A company's applications", token: 'admin', changesData: false, source: 'skills', parameters: [
		{ name: 'CompanyId', in: 'path', type: 'string', required: true, description: 'The company.' },
	] },
	{ id: 'applications.create', host: 'accounts', method: 'POST', path: '/v1/companies/{CompanyId}/applications', summary: 'Create an application', token: 'admin', changesData: true, contentType: JSON_BODY, source: 'skills', parameters: [
		{ name: 'CompanyId', in: 'path', type: 'string', required: true, description: 'The company.' },
		{ name: 'Name', in: 'body', type: 'string', required: true, example: 'My fleet app', description: "The application's name." },
		{ name: 'Description', in: 'body', type: 'string', required: false, example: '', description: 'What it is for.' },
	] },
	{ id: 'applications.get', host: 'accounts', method: 'GET', path: '/v1/Applications/{AppId}', summary: 'An application, with its instances', token: 'admin', changesData: false, source: 'skills', parameters: [
		{ name: 'AppId', in: 'path', type: 'string', required: true, description: 'The application.' },
		{ name: 'includeInstances', in: 'query', type: 'boolean', required: false, example: true, description: 'Add its instances (their keys are secrets).' },
	] },
	{ id: 'applications.update', host: 'accounts', method: 'PATCH', path: '/v1/Applications/applications/{AppId}', summary: 'Rename or describe an application', token: 'admin', changesData: true, contentType: JSON_BODY, source: 'skills', parameters: [
		{ name: 'AppId', in: 'path', type: 'string', required: true, description: 'The application.' },
		{ name: 'Name', in: 'body', type: 'string', required: false, example: 'My fleet app', description: 'New name.' },
	] },
	{ id: 'applications.delete', host: 'accounts', method: 'DELETE', path: '/v1/Applications/applications/{AppId}', summary: 'Delete an application', token: 'admin', changesData: true, irreversible: 'Delete the application', source: 'skills', parameters: [
		{ name: 'AppId', in: 'path', type: 'string', required: true, description: 'The application to delete.' },
	] },
	{ id: 'instances.list', host: 'accounts', method: 'GET', path: '/v1/applications/{AppId}/instances', summary: "An application's instances", token: 'admin', changesData: false, source: 'skills', parameters: [
		{ name: 'AppId', in: 'path', type: 'string', required: true, description: 'The application.' },
	] },
	{ id: 'instances.create', host: 'accounts', method: 'POST', path: '/v1/applications/{AppId}/instances', summary: 'Create an instance', token: 'admin', changesData: true, contentType: JSON_BODY, source: 'skills', parameters: [
		{ name: 'AppId', in: 'path', type: 'string', required: true, description: 'The application.' },
		{ name: 'Name', in: 'body', type: 'string', required: true, example: 'Pilot group', description: "The instance's name." },
		{ name: 'Description', in: 'body', type: 'string', required: false, example: '', description: 'What it is for.' },
	] },
	{ id: 'instances.get', host: 'accounts', method: 'GET', path: '/v1/Instances/{InstanceId}', summary: 'An instance (its Key is a secret)', token: 'admin', changesData: false, source: 'skills', parameters: [
		{ name: 'InstanceId', in: 'path', type: 'string', required: true, description: 'The instance.' },
	] },
	{ id: 'instances.update', host: 'accounts', method: 'PATCH', path: '/v1/Instances/{InstanceId}', summary: "Change an instance's name, description or status", token: 'admin', changesData: true, source: 'skills', parameters: [
		{ name: 'InstanceId', in: 'path', type: 'string', required: true, description: 'The instance.' },
		{ name: 'Name', in: 'query', type: 'string', required: false, description: 'New name.' },
		{ name: 'Description', in: 'query', type: 'string', required: false, description: 'New description.' },
		{ name: 'Status', in: 'query', type: 'string', required: false, description: 'New status.' },
	] },
	{ id: 'instances.delete', host: 'accounts', method: 'DELETE', path: '/v1/Instances/{InstanceId}', summary: 'Delete an instance', token: 'admin', changesData: true, irreversible: 'Delete the instance', source: 'skills', parameters: [
		{ name: 'InstanceId', in: 'path', type: 'string', required: true, description: 'The instance to delete.' },
	] },

	// --- the admin's permissions (portal host) ---
	{ id: 'permissions.get', host: 'portal', method: 'GET', path: '/auth/permissions', summary: "The admin's companies, applications and instances", token: 'admin', changesData: false, source: 'skills', parameters: [] },

	// --- real-time tracking (portal host; the live socket itself is Live Tracking's, not an operation) ---
	{ id: 'realtime.devicePosition', host: 'portal', method: 'GET', path: '/realtime/api/v1/devices/{device_token}/position', summary: "A device's latest position", token: 'admin', changesData: false, source: 'vendor-docs', parameters: [
		REALTIME_DEVICE, REALTIME_INSTANCE, REALTIME_TIMEZONE, REALTIME_DATE_FORMAT,
	] },
	{ id: 'realtime.deviceTracks', host: 'portal', method: 'GET', path: '/realtime/api/v1/devices/{device_token}/tracks', summary: "A device's recent tracks", token: 'admin', changesData: false, source: 'vendor-docs', parameters: [
		REALTIME_DEVICE, REALTIME_INSTANCE, REALTIME_TIMEZONE, REALTIME_DATE_FORMAT,
	] },
	{ id: 'realtime.deviceStats', host: 'portal', method: 'GET', path: '/realtime/api/v1/devices/{device_token}/stats', summary: "A device's real-time statistics", token: 'admin', changesData: false, source: 'vendor-docs', parameters: [
		REALTIME_DEVICE, REALTIME_INSTANCE,
	] },
	{ id: 'realtime.deviceMetadata', host: 'portal', method: 'GET', path: '/realtime/api/v1/devices/{device_token}/metadata', summary: "A device's metadata", token: 'admin', changesData: false, source: 'vendor-docs', parameters: [
		REALTIME_DEVICE, REALTIME_INSTANCE,
	] },
	{ id: 'realtime.devicesMetadata', host: 'portal', method: 'GET', path: '/realtime/api/v1/devices/metadata', summary: "The instance's devices and their metadata, a page at a time", token: 'admin', changesData: false, source: 'vendor-docs', parameters: [
		REALTIME_INSTANCE,
		{ name: 'limit', in: 'query', type: 'integer', required: false, example: 50, description: 'Devices per page.' },
		{ name: 'offset', in: 'query', type: 'integer', required: false, example: 0, description: 'Devices to skip.' },
	] },
	{ id: 'realtime.shareLocation', host: 'portal', method: 'POST', path: '/realtime/api/v1/sharing/sessions', summary: "Create a link anyone can open, without a login, to a device's live location", token: 'admin', changesData: true, irreversible: "a link that anyone can open, without a login, to see this device's live location until it expires", contentType: JSON_BODY, source: 'vendor-docs', parameters: [
		{ name: 'device_token', in: 'body', type: 'string', required: true, example: '00000000-0000-0000-0000-000000000000', description: 'The device whose live location the link shows.' },
		{ name: 'instance_id', in: 'body', type: 'string', required: true, example: '00000000-0000-0000-0000-000000000000', description: "The device's instance." },
		{ name: 'expires_in_hours', in: 'body', type: 'integer', required: true, example: 1, description: 'How long the link shows the location.' },
		{ name: 'recipient_name', in: 'body', type: 'string', required: false, description: 'Who the link is for.' },
		{ name: 'notes', in: 'body', type: 'string', required: false, description: 'A note shown with the location.' },
	] },
];
