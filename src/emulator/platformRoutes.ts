// The platform operations the emulator serves, as a table: operation id (from the platform description,
// src/core/platform/operations.ts) → what it answers from the demo data. The server finds the operation,
// checks the token kind and the required parameters (from the description), then calls the route. Pure
// apart from the demo data it changes.
import { randomUUID } from 'node:crypto';
import type { Operation } from '../core/platform/operations';
import type { DemoApplication, DemoInstance, DemoPlatform, DemoTrip, UserProfile } from './demoData';
import { DAY_MS, DEMO_COMPANY } from './demoData';
import { failure, ok, validation, type EnvelopeError, type TokenResult } from './envelope';
import { byDay, ecoScores, safetyScores, statistics, streaks } from './indicators';
import { drivePosition } from './realtime';
import { field } from './requests';

/** Who sends the request: an admin, a user (by DeviceToken) or an instance's headers (no token). */
export type Caller = { role: 'admin' } | { role: 'user'; deviceToken: string } | { role: 'none'; instance: DemoInstance };

export interface PlatformRequest {
	readonly op: Operation;
	readonly caller: Caller;
	/** The path's `{parameters}`, by the description's names. */
	readonly path: Readonly<Record<string, string>>;
	readonly query: URLSearchParams;
	/** The JSON body; empty for none. */
	readonly body: Readonly<Record<string, unknown>>;
	header(name: string): string | undefined;
	/** Logs a new user in (registration with `CreateAccessToken`). */
	issueUserTokens(deviceToken: string): TokenResult;
	now(): number;
}

export interface PlatformAnswer {
	status: number;
	body: object;
}

type RouteHandler = (req: PlatformRequest, data: DemoPlatform) => PlatformAnswer;

const answer = (result: unknown): PlatformAnswer => ({ status: 200, body: ok(result) });
/** A change the service confirms without a `Result`. */
const done = (): PlatformAnswer => ({ status: 200, body: { Status: 200, Title: '', Errors: [] } });
const invalid = (key: string, message: string): PlatformAnswer => ({ status: 422, body: validation([{ Key: key, Message: message }]) });
const notFound = (key: string, message: string): PlatformAnswer => ({ status: 404, body: failure(404, [{ Key: key, Message: message }]) });

/** A query parameter, its name matched without regard to case (as the service binds them). */
export function queryValue(query: URLSearchParams, name: string): string | undefined {
	const lower = name.toLowerCase();
	for (const [key, value] of query) if (key.toLowerCase() === lower) return value;
	return undefined;
}

/** A body field by its dotted path (`Identifiers.UserId`), each name matched without regard to case. */
export function bodyValue(body: Readonly<Record<string, unknown>>, name: string): unknown {
	let value: unknown = body;
	for (const part of name.split('.')) {
		if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
		value = field(value as Record<string, unknown>, part);
	}
	return value;
}

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** The required parameters (query, header, body) the request leaves out, as the service's 422 errors. */
export function missingParameters(op: Operation, req: Pick<PlatformRequest, 'query' | 'body' | 'header'>): EnvelopeError[] {
	const errors: EnvelopeError[] = [];
	for (const p of op.parameters) {
		if (!p.required || p.in === 'path') continue;
		const value = p.in === 'query' ? queryValue(req.query, p.name) : p.in === 'header' ? req.header(p.name.toLowerCase()) : bodyValue(req.body, p.name);
		if (!present(value)) errors.push({ Key: p.name, Message: `The ${p.name} field is required.` });
	}
	return errors;
}

/** A day (`YYYY-MM-DD`) or an ISO-8601 time as ms; an end day counts to its last millisecond. */
function instant(text: unknown, end: boolean): number | undefined {
	if (typeof text !== 'string') return undefined;
	const time = Date.parse(text);
	if (Number.isNaN(time)) return undefined;
	return end && /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? time + DAY_MS - 1 : time;
}

/** The period a request names (`StartDate`, `EndDate`), or the 422 for a date that does not read. */
function period(start: unknown, end: unknown): { from: number; to: number } | PlatformAnswer {
	const from = instant(start, false);
	const to = instant(end, true);
	if (from === undefined) return invalid('StartDate', 'StartDate must be a date (YYYY-MM-DD or ISO-8601).');
	if (to === undefined) return invalid('EndDate', 'EndDate must be a date (YYYY-MM-DD or ISO-8601).');
	return { from, to };
}

const isAnswer = (value: object): value is PlatformAnswer => 'status' in value;

/** The user an operation is about: the caller for a user's own operation, else `UserId` (query) or `Identifiers.UserId` (body). */
function subject(req: PlatformRequest, data: DemoPlatform): UserProfile | undefined {
	if (req.caller.role === 'user') return data.user(req.caller.deviceToken);
	const id = queryValue(req.query, 'UserId') ?? bodyValue(req.body, 'Identifiers.UserId');
	return typeof id === 'string' ? data.user(id) : undefined;
}

/** Who a user is, as indicators name it. */
const identity = (user: UserProfile) => ({ UserId: user.DeviceToken, InstanceId: user.InstanceId, AppId: user.AppId, CompanyId: user.CompanyId });

const stamp = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');

function tripView(trip: DemoTrip, user: UserProfile, options: { details: boolean; statistics: boolean; scores: boolean; imperial: boolean }): Record<string, unknown> {
	const distance = (km: number) => Math.round((options.imperial ? km / 1.609344 : km) * 1000) / 1000;
	const minutes = Math.round(((trip.end - trip.start) / 60_000) * 100) / 100;
	return {
		Id: trip.id,
		DateUpdated: stamp(trip.end + 5 * 60_000),
		Identifiers: { CompanyId: user.CompanyId, ApplicationId: user.AppId, InstanceId: user.InstanceId, UserId: user.DeviceToken, ClientId: user.ClientId },
		Data: {
			UnitSystem: options.imperial ? 'Imperial' : 'Si',
			...(options.details && {
				StartDate: stamp(trip.start),
				EndDate: stamp(trip.end),
				Addresses: { Start: { Full: trip.from }, End: { Full: trip.to } },
				TransportType: { Current: 'OriginalDriver', ConfirmNeeded: false, IsChanged: false },
				Tags: trip.tags,
			}),
		},
		...(options.statistics && {
			Statistics: {
				Mileage: distance(trip.mileageKm),
				DurationMinutes: minutes,
				AccelerationsCount: trip.accelerations,
				BrakingsCount: trip.brakings,
				CorneringsCount: trip.cornerings,
				TotalSpeedingMileage: distance(trip.speedingKm),
				PhoneUsageDurationMinutes: trip.phoneUsageMin,
				RushHours: trip.rushMin,
				NightHours: trip.nightMin,
				AverageSpeed: distance((trip.mileageKm / minutes) * 60),
				MaxSpeed: distance(trip.maxSpeedKmh),
			},
		}),
		...(options.scores && { Scores: trip.scores }),
	};
}

/** `POST /trips/get/…`: the user's trips in the period, newest first, a page at a time. */
function tripList(req: PlatformRequest, data: DemoPlatform): PlatformAnswer {
	const user = subject(req, data);
	const when = period(bodyValue(req.body, 'StartDate'), bodyValue(req.body, 'EndDate'));
	if (isAnswer(when)) return when;
	const all = user ? data.trips(user.DeviceToken, when.from, when.to) : [];
	const page = Math.max(1, Math.floor(Number(bodyValue(req.body, 'Paging.Page') ?? 1)) || 1);
	const count = Math.min(100, Math.max(1, Math.floor(Number(bodyValue(req.body, 'Paging.Count') ?? 20)) || 20));
	const admin = req.caller.role === 'admin';
	const options = {
		details: bodyValue(req.body, 'IncludeDetails') === true,
		// The user's own list has no statistics or scores: those come from the indicators.
		statistics: admin && bodyValue(req.body, 'IncludeStatistics') === true,
		scores: admin && bodyValue(req.body, 'IncludeScores') === true,
		imperial: String(bodyValue(req.body, 'UnitSystem') ?? '').toLowerCase() === 'imperial',
	};
	const trips = all.slice((page - 1) * count, page * count).map((t) => tripView(t, user!, options));
	const pages = Math.ceil(all.length / count);
	const paging = admin && bodyValue(req.body, 'Paging.IncludePagingInfo') === true
		? { PagingInfo: { HasPreviousPage: page > 1, HasNextPage: page < pages, TotalItems: all.length, TotalPages: pages, CurrentPage: page } }
		: {};
	return answer({ Trips: trips, ...paging });
}

/** `POST /trips/get/…/{tripId}`: one trip with its statistics and scores. */
function tripDetails(req: PlatformRequest, data: DemoPlatform): PlatformAnswer {
	const user = subject(req, data);
	const now = req.now();
	const trip = user ? data.trips(user.DeviceToken, 0, now).find((t) => t.id.toLowerCase() === (req.path.tripId ?? '').toLowerCase()) : undefined;
	if (!user || !trip) return notFound('tripId', 'No such trip.');
	return answer({ Trip: tripView(trip, user, { details: true, statistics: true, scores: true, imperial: false }) });
}

/** An indicator over the user's trips in the period (or all their trips when it takes no dates). */
function indicator(compute: (trips: DemoTrip[], user: UserProfile) => unknown): RouteHandler {
	return (req, data) => {
		const user = subject(req, data);
		const dated = req.op.parameters.some((p) => p.name === 'StartDate');
		const when = dated ? period(queryValue(req.query, 'StartDate'), queryValue(req.query, 'EndDate')) : { from: 0, to: req.now() };
		if (isAnswer(when)) return when;
		if (!user) return answer([]);
		const tag = queryValue(req.query, 'Tag');
		const trips = data.trips(user.DeviceToken, when.from, when.to).filter((t) => !tag || t.tags.some((x) => x.toLowerCase() === tag.toLowerCase()));
		return answer(compute(trips, user));
	};
}

const INDICATORS: Record<string, (trips: DemoTrip[], user: UserProfile) => unknown> = {
	'statistics': (trips, user) => [{ ...identity(user), ...statistics(trips) }],
	'statistics.daily': (trips, user) => byDay(trips).map(([day, list]) => ({ ...identity(user), ReportDate: day, ...statistics(list) })),
	'statistics.dates': (trips, user) => [{ ...identity(user), LatestTripDate: trips[0] ? stamp(trips[0].start) : null, LatestScoringDate: trips[0] ? `${stamp(trips[0].start).slice(0, 10)}T00:00:00` : null }],
	'statistics.uniquetags': (trips) => {
		const tags = [...new Set(trips.flatMap((t) => t.tags))].sort();
		return { UniqueTagsCount: tags.length, UniqueTagsList: tags };
	},
	'scores.safety': (trips, user) => {
		const scores = safetyScores(trips);
		return scores ? [{ ...identity(user), ...scores }] : [];
	},
	'scores.safety.daily': (trips, user) => byDay(trips).map(([day, list]) => ({ ...identity(user), CalcDate: day, ...safetyScores(list) })),
	'scores.eco': (trips, user) => {
		const scores = ecoScores(trips);
		return scores ? [{ ...identity(user), ...scores }] : [];
	},
	'scores.eco.daily': (trips, user) => byDay(trips).map(([day, list]) => ({ ...identity(user), CalcDate: day, ...ecoScores(list) })),
	'streaks': (trips, user) => streaks(trips).map((s) => ({ ...identity(user), ...s })),
};

/** The consolidated indicators over the company, an application or an instance. */
function consolidated(kind: 'safety' | 'eco' | 'statistics'): RouteHandler {
	return (req, data) => {
		const companyId = queryValue(req.query, 'CompanyId');
		const appId = queryValue(req.query, 'AppId');
		const instanceId = queryValue(req.query, 'InstanceId');
		if ([companyId, appId, instanceId].filter(present).length !== 1) return invalid('CompanyId', 'Give exactly one of CompanyId, AppId or InstanceId.');
		const when = period(queryValue(req.query, 'StartDate'), queryValue(req.query, 'EndDate'));
		if (isAnswer(when)) return when;
		const users = data.allUsers().filter((u) => (companyId ? u.CompanyId === companyId : appId ? u.AppId === appId : u.InstanceId === instanceId));
		const trips = users.flatMap((u) => data.trips(u.DeviceToken, when.from, when.to));
		const scope = { InstanceId: instanceId ?? null, AppId: appId ?? null, CompanyId: companyId ?? null };
		if (kind === 'statistics') {
			const active = new Set(trips.map((t) => t.userId)).size;
			return answer({ ...scope, TotalRegisteredUsers: users.length, ActiveUsers: active, ...statistics(trips) });
		}
		return answer({ ...scope, ...(kind === 'safety' ? safetyScores(trips) : ecoScores(trips)) });
	};
}

function pageOfUsers(req: PlatformRequest, data: DemoPlatform): PlatformAnswer {
	const ids = bodyValue(req.body, 'InstanceIds');
	if (!Array.isArray(ids)) return invalid('InstanceIds', 'InstanceIds must be an array of instance ids.');
	const pageNumber = Math.max(1, Math.floor(Number(bodyValue(req.body, 'PageNumber'))) || 1);
	const pageSize = Math.min(100, Math.max(1, Math.floor(Number(bodyValue(req.body, 'PageSize'))) || 20));
	const wanted = ids.map((id) => String(id).toLowerCase());
	const users = data.allUsers().filter((u) => wanted.includes(u.InstanceId.toLowerCase()));
	return answer({ Users: users.slice((pageNumber - 1) * pageSize, pageNumber * pageSize), TotalCount: users.length, PageNumber: pageNumber, PageSize: pageSize });
}

function findUsers(req: PlatformRequest, data: DemoPlatform): PlatformAnswer {
	const fields = ['DeviceToken', 'Email', 'Phone', 'ClientId', 'FirstName', 'LastName', 'FullName'] as const;
	const given = fields.map((name) => [name, queryValue(req.query, name)] as const).filter(([, value]) => present(value));
	if (given.length === 0) return invalid('DeviceToken', 'Give one of DeviceToken, Email, Phone, ClientId, FirstName, LastName or FullName.');
	return answer(data.allUsers().filter((u) => given.every(([name, value]) => u[name].toLowerCase() === value!.toLowerCase())));
}

function updateUser(req: PlatformRequest, data: DemoPlatform): PlatformAnswer {
	const user = data.user(req.header('userdevicetoken') ?? '');
	if (!user) return notFound('UserDeviceToken', 'No such user.');
	for (const name of ['FirstName', 'LastName', 'Email', 'Phone', 'ClientId'] as const) {
		const value = bodyValue(req.body, name);
		if (typeof value === 'string') user[name] = value;
	}
	user.FullName = `${user.FirstName} ${user.LastName}`;
	for (const name of ['Enabled', 'EnableTracking', 'EnableLogging', 'EnableRealTimeLocation'] as const) {
		const value = bodyValue(req.body, `UserFields.${name}`);
		if (typeof value === 'boolean') user.UserFields[name] = value;
	}
	return answer(user);
}

function register(req: PlatformRequest, data: DemoPlatform): PlatformAnswer {
	if (req.caller.role !== 'none') return { status: 403, body: failure(403) };
	const text = (name: string) => {
		const value = bodyValue(req.body, name);
		return typeof value === 'string' ? value : '';
	};
	const user = data.register(req.caller.instance, text('UserFields.FirstName') || 'New', text('UserFields.LastName') || 'Driver', text('UserFields.ClientId'));
	const tokens = bodyValue(req.body, 'CreateAccessToken') === true ? req.issueUserTokens(user.DeviceToken) : undefined;
	return answer({ DeviceToken: user.DeviceToken, ...(tokens && { AccessToken: tokens.AccessToken, RefreshToken: tokens.RefreshToken }) });
}

function moveUser(req: PlatformRequest, data: DemoPlatform): PlatformAnswer {
	const deviceToken = String(bodyValue(req.body, 'DeviceToken'));
	const instance = data.instanceById(String(bodyValue(req.body, 'ToInstanceId')));
	if (!instance || instance.Key !== bodyValue(req.body, 'ToInstanceKey')) return invalid('ToInstanceKey', 'ToInstanceId and ToInstanceKey do not name an instance.');
	return data.moveUser(deviceToken, instance) ? done() : notFound('DeviceToken', 'No such user.');
}

/** An instance as the accounts host lists it (its `Key` is the InstanceKey, a secret). */
function instanceView(instance: DemoInstance, data: DemoPlatform): Record<string, unknown> {
	return { ...instance, AppName: data.applicationById(instance.AppId)?.Name ?? null, CompanyId: DEMO_COMPANY.Id };
}

function applicationView(app: DemoApplication, data: DemoPlatform, withInstances: boolean): Record<string, unknown> {
	const { CompanyId: _company, ...view } = app;
	return withInstances ? { ...view, Instances: data.instances.filter((i) => i.AppId === app.Id).map(({ Id, Key, Name, Status }) => ({ Id, Key, Name, Status })) } : view;
}

const bodyText = (req: PlatformRequest, name: string): string => {
	const value = bodyValue(req.body, name);
	return typeof value === 'string' ? value : '';
};

/** Real-time tracking: a demo user's device, or a 404 (the realtime API answers plain JSON, not the envelope). */
function realtimeDevice(req: PlatformRequest, data: DemoPlatform, then: (deviceToken: string, index: number) => object): PlatformAnswer {
	const deviceToken = req.path.device_token ?? '';
	const index = data.deviceTokens().indexOf(deviceToken);
	if (index < 0) return { status: 404, body: { error: { code: 'device_not_found', message: 'No such device.' } } };
	return { status: 200, body: then(deviceToken, index) };
}

function realtimePosition(index: number, now: number): object {
	return { ...drivePosition(index, now), timestamp: new Date(now).toISOString() };
}

/** The operations the emulator serves, by the description's ids. */
export const ROUTES: Readonly<Record<string, RouteHandler>> = {
	// user service
	'registration.create': register,
	'users.me': (req, data) => {
		const user = subject(req, data);
		return user ? answer(user) : { status: 401, body: failure(401) };
	},
	'users.find': findUsers,
	'users.page': pageOfUsers,
	'users.update': updateUser,
	'users.delete': (req, data) => (data.deleteUser(req.path.DeviceToken ?? '') ? done() : notFound('DeviceToken', 'No such user.')),
	'users.changeInstance': moveUser,
	// trips
	'trips.admin.list': tripList,
	'trips.user.list': tripList,
	'trips.admin.details': tripDetails,
	'trips.user.details': tripDetails,
	// indicators, as admin and as the user
	...Object.fromEntries(Object.entries(INDICATORS).flatMap(([name, compute]) => [[`indicators.admin.${name}`, indicator(compute)], [`indicators.user.${name}`, indicator(compute)]])),
	'indicators.admin.safety.consolidated': consolidated('safety'),
	'indicators.admin.eco.consolidated': consolidated('eco'),
	'indicators.admin.statistics.consolidated': consolidated('statistics'),
	// applications and instances
	'applications.list': (req, data) => answer(req.path.CompanyId === DEMO_COMPANY.Id ? data.applications.map((a) => applicationView(a, data, false)) : []),
	'applications.create': (req, data) => {
		if (req.path.CompanyId !== DEMO_COMPANY.Id) return { status: 403, body: failure(403) };
		const app = data.addApplication(bodyText(req, 'Name'), bodyText(req, 'Description'));
		const instances = bodyValue(req.body, 'CreateDefaultGroup') === true ? [data.addInstance(app.Id, 'Common', 'Default group')] : [];
		return answer({ AppId: app.Id, Instances: instances.map(({ Id, Key }) => ({ Id, Key })) });
	},
	'applications.get': (req, data) => {
		const app = data.applicationById(req.path.AppId ?? '');
		// Not found is a 200 with no result, as the service answers.
		return answer(app ? applicationView(app, data, queryValue(req.query, 'includeInstances') === 'true') : null);
	},
	'applications.update': (req, data) => {
		const app = data.applicationById(req.path.AppId ?? '');
		if (!app) return notFound('AppId', 'No such application.');
		if (bodyText(req, 'Name')) app.Name = bodyText(req, 'Name');
		if (bodyText(req, 'Description')) app.Description = bodyText(req, 'Description');
		return done();
	},
	'applications.delete': (req, data) => {
		const app = data.applicationById(req.path.AppId ?? '');
		if (!app) return notFound('AppId', 'No such application.');
		if (data.hasUsers(data.instances.filter((i) => i.AppId === app.Id).map((i) => i.Id))) return invalid('AppToken', 'Users exist for this application.');
		data.removeApplication(app.Id);
		return done();
	},
	'instances.list': (req, data) => answer(data.instances.filter((i) => i.AppId.toLowerCase() === (req.path.AppId ?? '').toLowerCase()).map((i) => instanceView(i, data))),
	'instances.create': (req, data) => {
		const app = data.applicationById(req.path.AppId ?? '');
		if (!app) return notFound('AppId', 'No such application.');
		const instance = data.addInstance(app.Id, bodyText(req, 'Name'), bodyText(req, 'Description'));
		return answer({ Id: instance.Id, Key: instance.Key });
	},
	'instances.get': (req, data) => {
		const instance = data.instanceById(req.path.InstanceId ?? '');
		return answer(instance ? instanceView(instance, data) : null);
	},
	'instances.update': (req, data) => {
		const instance = data.instanceById(req.path.InstanceId ?? '');
		if (!instance) return notFound('InstanceId', 'No such instance.');
		const name = queryValue(req.query, 'Name');
		const description = queryValue(req.query, 'Description');
		const status = queryValue(req.query, 'Status');
		if (name) instance.Name = name;
		if (description !== undefined) instance.Description = description;
		if (status === '1' || status === '2') instance.Status = status === '1' ? 'Active' : 'Deactivated';
		return done();
	},
	'instances.delete': (req, data) => {
		const instance = data.instanceById(req.path.InstanceId ?? '');
		if (!instance) return notFound('InstanceId', 'No such instance.');
		if (data.hasUsers([instance.Id])) return invalid('InstanceId', 'Can\'t update instance, because users exists in instance.');
		data.removeInstance(instance.Id);
		return done();
	},
	// the admin's permissions
	// real-time tracking (portal host)
	'realtime.devicePosition': (req, data) => realtimeDevice(req, data, (device_token, index) => ({ device_token, position: realtimePosition(index, req.now()) })),
	'realtime.deviceTracks': (req, data) => realtimeDevice(req, data, (device_token, index) => ({
		device_token,
		tracks: [{ points: Array.from({ length: 10 }, (_, i) => realtimePosition(index, req.now() - (9 - i) * 10_000)) }],
	})),
	'realtime.deviceStats': (req, data) => realtimeDevice(req, data, (device_token, index) => ({ device_token, speed: drivePosition(index, req.now()).speed, online: true })),
	'realtime.deviceMetadata': (req, data) => realtimeDevice(req, data, (device_token) => ({ device_token, instance_id: queryValue(req.query, 'instance_id') ?? '', name: data.user(device_token)?.FirstName ?? '' })),
	'realtime.devicesMetadata': (_req, data) => ({ status: 200, body: { devices: data.deviceTokens().map((device_token) => ({ device_token })), total: data.deviceTokens().length } }),
	'realtime.shareLocation': (req, data) => {
		const deviceToken = bodyText(req, 'device_token');
		if (!data.deviceTokens().includes(deviceToken)) return { status: 404, body: { error: { code: 'device_not_found', message: 'No such device.' } } };
		const id = randomUUID();
		const shareToken = randomUUID().replace(/-/g, '');
		return { status: 201, body: { id, share_token: shareToken, share_url: `https://share.invalid/live/${shareToken}` } };
	},
	'permissions.get': (_req, data) => answer({
		Companies: [{
			Id: DEMO_COMPANY.Id,
			Name: DEMO_COMPANY.Name,
			Applications: data.applications.map((app) => ({ Id: app.Id, Name: app.Name, Instances: data.instances.filter((i) => i.AppId === app.Id).map(({ Id, Name }) => ({ Id, Name })) })),
		}],
	}),
};
