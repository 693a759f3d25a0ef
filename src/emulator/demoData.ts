// The demo platform's data: the demo users' profiles and trips, the statistics and scores that follow from
// those trips, and the company's applications and instances. Deterministic: a user's trips on a given day
// come from a generator seeded by the user and the day, so the same day always shows the same trips, and
// the history moves with the emulator's clock (the last HISTORY_DAYS days). Pure apart from node:crypto
// (new ids and keys); the data lives in memory as long as the emulator does.
import { randomUUID } from 'node:crypto';
import type { EmulatorUser } from './config';

export const DAY_MS = 86_400_000;
/** How far back a demo user's trips go. */
export const HISTORY_DAYS = 60;

export const DEMO_COMPANY = { Id: 'demo-company', Name: 'Demo Fleet Ltd' } as const;
export const DEMO_APP_ID = 'demo-app';

export interface UserProfile {
	DeviceToken: string;
	InstanceId: string;
	AppId: string;
	CompanyId: string;
	FirstName: string;
	LastName: string;
	FullName: string;
	Email: string;
	Phone: string;
	ClientId: string;
	CreatedAt: string;
	UserFields: { Enabled: boolean; EnableTracking: boolean; EnableLogging: boolean; EnableRealTimeLocation: boolean };
}

export interface TripScores {
	Safety: number;
	Acceleration: number;
	Braking: number;
	Cornering: number;
	Speeding: number;
	PhoneUsage: number;
	Eco: number;
	EcoBrakes: number;
	EcoDepreciation: number;
	EcoFuel: number;
	EcoTyres: number;
}

export interface DemoTrip {
	id: string;
	userId: string;
	start: number;
	end: number;
	mileageKm: number;
	maxSpeedKmh: number;
	accelerations: number;
	brakings: number;
	cornerings: number;
	speedingKm: number;
	phoneUsageMin: number;
	nightMin: number;
	rushMin: number;
	tags: string[];
	from: string;
	to: string;
	scores: TripScores;
}

export interface DemoApplication {
	Id: string;
	CompanyId: string;
	Name: string;
	Description: string;
	Status: 'Active' | 'Deactivated';
	GooglePlayLink: string | null;
	AppleStoreLink: string | null;
	Environment: string | null;
}

export interface DemoInstance {
	Id: string;
	/** The InstanceKey: a secret. */
	Key: string;
	Name: string;
	Description: string;
	Status: 'Active' | 'Deactivated';
	InviteCode: string;
	AppId: string;
}

/** A 32-bit FNV-1a hash: the seed of a generator. */
function hash(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h >>> 0;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function generator(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A stable id in UUID form for `text`. */
function stableId(text: string): string {
	const hex = [0, 1, 2, 3].map((i) => hash(`${i}\n${text}`).toString(16).padStart(8, '0')).join('');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;
const between = (next: () => number, low: number, high: number): number => low + next() * (high - low);

const PLACES = ['Harbour Road 12, Demo City', 'Station Square 3, Demo City', 'Mill Lane 40, Riverside', 'Oak Avenue 7, Demo City', 'Airport Way 1, Northfield', 'Market Street 21, Riverside'];
const TAGS = ['Business', 'Private'];

/** The trips `userId` made on UTC day `day` (days since 1970-01-01), as the generator has them. */
export function tripsOnDay(userId: string, day: number): DemoTrip[] {
	const next = generator(hash(`${userId}\n${day}`));
	const roll = next();
	const count = roll < 0.35 ? 0 : roll < 0.75 ? 1 : 2;
	const trips: DemoTrip[] = [];
	let hour = between(next, 6.5, 9.5);
	for (let n = 0; n < count; n++) {
		const durationMin = between(next, 8, 55);
		const averageKmh = between(next, 28, 72);
		const start = day * DAY_MS + Math.round(hour * 3_600_000);
		const end = start + Math.round(durationMin * 60_000);
		const speeding = next() < 0.4 ? between(next, 0.2, 4) : 0;
		const phone = next() < 0.2 ? between(next, 0.5, 3) : 0;
		const brakings = Math.floor(between(next, 0, 4));
		const accelerations = Math.floor(between(next, 0, 4));
		const cornerings = Math.floor(between(next, 0, 3));
		const rush = (hour >= 7 && hour < 9.5) || (hour >= 16.5 && hour < 19) ? durationMin : 0;
		const speedingScore = Math.round(100 - speeding * 12);
		const phoneScore = Math.round(100 - phone * 15);
		const brakingScore = 100 - brakings * 8;
		const accelerationScore = 100 - accelerations * 7;
		const corneringScore = 100 - cornerings * 6;
		const safety = Math.round((speedingScore * 3 + phoneScore * 2 + brakingScore + accelerationScore + corneringScore) / 8);
		const ecoFuel = Math.round(between(next, 80, 100));
		const ecoTyres = Math.round(between(next, 85, 100));
		const ecoBrakes = 100 - brakings * 5;
		const ecoDepreciation = Math.round(between(next, 60, 95));
		trips.push({
			id: stableId(`trip\n${userId}\n${day}\n${n}`),
			userId,
			start,
			end,
			mileageKm: round((averageKmh * durationMin) / 60, 3),
			maxSpeedKmh: round(averageKmh + between(next, 15, 45)),
			accelerations,
			brakings,
			cornerings,
			speedingKm: round(speeding, 3),
			phoneUsageMin: round(phone),
			nightMin: 0,
			rushMin: round(rush),
			tags: next() < 0.5 ? [TAGS[n % 2]!] : [],
			from: PLACES[Math.floor(next() * PLACES.length)]!,
			to: PLACES[Math.floor(next() * PLACES.length)]!,
			scores: {
				Safety: safety,
				Acceleration: accelerationScore,
				Braking: brakingScore,
				Cornering: corneringScore,
				Speeding: speedingScore,
				PhoneUsage: phoneScore,
				Eco: Math.round((ecoFuel + ecoTyres + ecoBrakes + ecoDepreciation) / 4),
				EcoBrakes: ecoBrakes,
				EcoDepreciation: ecoDepreciation,
				EcoFuel: ecoFuel,
				EcoTyres: ecoTyres,
			},
		});
		hour += durationMin / 60 + between(next, 6, 9);
	}
	return trips;
}

/**
 * The platform as the demo has it: a company with one application, whose instances are the demo users'
 * groups; the users (the emulator's own list, so a deleted user can no longer log in) with their profiles
 * and trips.
 */
export class DemoPlatform {
	private readonly profiles = new Map<string, UserProfile>();
	/** When each user joined: their trips start after it (a registered user has none yet). */
	private readonly joined = new Map<string, number>();
	readonly applications: DemoApplication[];
	readonly instances: DemoInstance[];
	private created = 0;

	/** `usersNow` gives the emulator's live list of users: registering adds to it, deleting removes from it. */
	constructor(private readonly usersNow: () => EmulatorUser[], private readonly now: () => number) {
		this.applications = [{ Id: DEMO_APP_ID, CompanyId: DEMO_COMPANY.Id, Name: 'Demo Fleet App', Description: 'The demo drivers\' app', Status: 'Active', GooglePlayLink: null, AppleStoreLink: null, Environment: null }];
		this.instances = [];
		for (const user of usersNow()) {
			if (this.instances.some((i) => i.Id === user.instanceId)) continue;
			this.instances.push({ Id: user.instanceId, Key: user.instanceKey, Name: this.instances.length === 0 ? 'Demo drivers' : `Group ${this.instances.length + 1}`, Description: 'Default group', Status: 'Active', InviteCode: `DEMO${String(this.instances.length + 1).padStart(2, '0')}`, AppId: DEMO_APP_ID });
		}
	}

	/** The user with this DeviceToken (the platform's UserId), if not deleted. */
	/** The demo users' device tokens, in order: the drives Live Tracking streams. */
	deviceTokens(): string[] {
		return this.users.map((u) => u.deviceToken);
	}

	user(deviceToken: string): UserProfile | undefined {
		const user = this.users.find((u) => u.deviceToken === deviceToken);
		if (!user) return undefined;
		let profile = this.profiles.get(deviceToken);
		if (!profile) {
			const [first = 'Demo', ...rest] = (user.name ?? 'Demo User').split(' ');
			const last = rest.join(' ') || 'User';
			const index = this.users.indexOf(user) + 1;
			profile = {
				DeviceToken: user.deviceToken,
				InstanceId: user.instanceId,
				AppId: this.instanceById(user.instanceId)?.AppId ?? DEMO_APP_ID,
				CompanyId: DEMO_COMPANY.Id,
				FirstName: first,
				LastName: last,
				FullName: `${first} ${last}`,
				Email: `${first}.${last}`.toLowerCase().replace(/[^a-z0-9.]/g, '') + '@example.com',
				Phone: `+1555010${String(index).padStart(4, '0')}`,
				ClientId: `demo-client-${index}`,
				CreatedAt: new Date(this.joinedAt(deviceToken)).toISOString(),
				UserFields: { Enabled: true, EnableTracking: true, EnableLogging: false, EnableRealTimeLocation: false },
			};
			this.profiles.set(deviceToken, profile);
		}
		profile.InstanceId = user.instanceId;
		return profile;
	}

	/** Every user not deleted, in the emulator's order. */
	allUsers(): UserProfile[] {
		return this.users.map((u) => this.user(u.deviceToken)).filter((p): p is UserProfile => p !== undefined);
	}

	/** Deletes the user and their data: they can no longer log in. False when there is no such user. */
	deleteUser(deviceToken: string): boolean {
		const index = this.users.findIndex((u) => u.deviceToken === deviceToken);
		if (index < 0) return false;
		this.users.splice(index, 1);
		this.profiles.delete(deviceToken);
		return true;
	}

	/** Registers a user in an instance: a new DeviceToken, no trips yet. */
	register(instance: DemoInstance, firstName: string, lastName: string, clientId: string): UserProfile {
		const deviceToken = randomUUID();
		this.joined.set(deviceToken, this.now());
		this.users.push({ instanceId: instance.Id, deviceToken, instanceKey: instance.Key, name: `${firstName} ${lastName}` });
		const profile = this.user(deviceToken)!;
		if (clientId) profile.ClientId = clientId;
		return profile;
	}

	/** Moves a user to another instance (their login changes with it). */
	moveUser(deviceToken: string, instance: DemoInstance): boolean {
		const user = this.users.find((u) => u.deviceToken === deviceToken);
		if (!user) return false;
		user.instanceId = instance.Id;
		user.instanceKey = instance.Key;
		return true;
	}

	/** The user's trips that ended between `from` and `to` (ms), newest first. */
	trips(deviceToken: string, from: number, to: number): DemoTrip[] {
		if (!this.user(deviceToken)) return [];
		const now = this.now();
		const first = Math.max(Math.floor(from / DAY_MS), Math.floor(this.joinedAt(deviceToken) / DAY_MS) + 1, Math.floor(now / DAY_MS) - HISTORY_DAYS + 1);
		const last = Math.min(Math.floor(to / DAY_MS), Math.floor(now / DAY_MS));
		const trips: DemoTrip[] = [];
		for (let day = last; day >= first; day--) {
			for (const trip of tripsOnDay(deviceToken, day).reverse()) {
				if (trip.start >= from && trip.start <= to && trip.end <= now) trips.push(trip);
			}
		}
		return trips;
	}

	instanceById(id: string): DemoInstance | undefined {
		return this.instances.find((i) => i.Id.toLowerCase() === id.toLowerCase());
	}

	applicationById(id: string): DemoApplication | undefined {
		return this.applications.find((a) => a.Id.toLowerCase() === id.toLowerCase());
	}

	/** Whether any user belongs to one of these instances. */
	hasUsers(instanceIds: readonly string[]): boolean {
		return this.users.some((u) => instanceIds.includes(u.instanceId));
	}

	addApplication(name: string, description: string): DemoApplication {
		this.created++;
		const app: DemoApplication = { Id: stableId(`app\n${this.created}\n${name}`), CompanyId: DEMO_COMPANY.Id, Name: name, Description: description, Status: 'Active', GooglePlayLink: null, AppleStoreLink: null, Environment: null };
		this.applications.push(app);
		return app;
	}

	addInstance(appId: string, name: string, description: string): DemoInstance {
		this.created++;
		const instance: DemoInstance = { Id: stableId(`instance\n${this.created}\n${name}`), Key: randomUUID(), Name: name, Description: description, Status: 'Active', InviteCode: `DEMO${String(this.instances.length + 1).padStart(2, '0')}`, AppId: appId };
		this.instances.push(instance);
		return instance;
	}

	/** Removes an application and its instances. */
	removeApplication(id: string): void {
		const app = this.applicationById(id);
		if (!app) return;
		this.applications.splice(this.applications.indexOf(app), 1);
		for (const instance of this.instances.filter((i) => i.AppId === app.Id)) this.instances.splice(this.instances.indexOf(instance), 1);
	}

	removeInstance(id: string): void {
		const instance = this.instanceById(id);
		if (instance) this.instances.splice(this.instances.indexOf(instance), 1);
	}

	private get users(): EmulatorUser[] {
		return this.usersNow();
	}

	/** The demo users joined a little before their history starts. */
	private joinedAt(deviceToken: string): number {
		return this.joined.get(deviceToken) ?? (Math.floor(this.now() / DAY_MS) - HISTORY_DAYS - 30) * DAY_MS;
	}
}
