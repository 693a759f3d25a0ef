// The indicators the demo platform computes from a user's trips, in the service's shapes: statistics,
// safety and eco scores (over a period and per day) and streaks. Pure.
import { DAY_MS, type DemoTrip } from './demoData';

const KM_PER_MILE = 1.609344;
const round = (value: number, digits = 3): number => Math.round(value * 10 ** digits) / 10 ** digits;
const sum = (trips: readonly DemoTrip[], pick: (t: DemoTrip) => number): number => trips.reduce((total, t) => total + pick(t), 0);

export function statistics(trips: readonly DemoTrip[]): Record<string, number> {
	const km = sum(trips, (t) => t.mileageKm);
	const minutes = sum(trips, (t) => (t.end - t.start) / 60_000);
	const maxKmh = trips.reduce((max, t) => Math.max(max, t.maxSpeedKmh), 0);
	const averageKmh = minutes > 0 ? (km / minutes) * 60 : 0;
	const speedingKm = sum(trips, (t) => t.speedingKm);
	const rush = sum(trips, (t) => t.rushMin);
	const night = sum(trips, (t) => t.nightMin);
	return {
		MileageKm: round(km),
		MileageMile: round(km / KM_PER_MILE),
		TripsCount: trips.length,
		DriverTripsCount: trips.length,
		OtherTripsCount: 0,
		MaxSpeedKmh: round(maxKmh),
		MaxSpeedMileh: round(maxKmh / KM_PER_MILE),
		AverageSpeedKmh: round(averageKmh),
		AverageSpeedMileh: round(averageKmh / KM_PER_MILE),
		TotalSpeedingKm: round(speedingKm),
		TotalSpeedingMile: round(speedingKm / KM_PER_MILE),
		AccelerationsCount: sum(trips, (t) => t.accelerations),
		BrakingsCount: sum(trips, (t) => t.brakings),
		CorneringsCount: sum(trips, (t) => t.cornerings),
		PhoneUsageDurationMin: round(sum(trips, (t) => t.phoneUsageMin)),
		DrivingTime: round(minutes),
		NightDrivingTime: round(night),
		DayDrivingTime: round(minutes - night - rush),
		RushHoursDrivingTime: round(rush),
		PermissionsLevel: 100,
		TrustLevel: 100,
	};
}

/** A mileage-weighted average of the trips' scores; undefined without trips. */
function weighted(trips: readonly DemoTrip[], pick: (t: DemoTrip) => number): number {
	const km = sum(trips, (t) => t.mileageKm);
	return round(sum(trips, (t) => pick(t) * t.mileageKm) / km);
}

export function safetyScores(trips: readonly DemoTrip[]): Record<string, number> | undefined {
	if (trips.length === 0) return undefined;
	return {
		AccelerationScore: weighted(trips, (t) => t.scores.Acceleration),
		BrakingScore: weighted(trips, (t) => t.scores.Braking),
		SpeedingScore: weighted(trips, (t) => t.scores.Speeding),
		PhoneUsageScore: weighted(trips, (t) => t.scores.PhoneUsage),
		CorneringScore: weighted(trips, (t) => t.scores.Cornering),
		SafetyScore: weighted(trips, (t) => t.scores.Safety),
		PermissionsLevel: 100,
		TrustLevel: 100,
	};
}

export function ecoScores(trips: readonly DemoTrip[]): Record<string, number> | undefined {
	if (trips.length === 0) return undefined;
	return {
		EcoScoreFuel: weighted(trips, (t) => t.scores.EcoFuel),
		EcoScoreTyres: weighted(trips, (t) => t.scores.EcoTyres),
		EcoScoreBrakes: weighted(trips, (t) => t.scores.EcoBrakes),
		EcoScoreDepreciation: weighted(trips, (t) => t.scores.EcoDepreciation),
		EcoScore: weighted(trips, (t) => t.scores.Eco),
		PermissionsLevel: 100,
		TrustLevel: 100,
	};
}

/** The trips grouped by UTC day, oldest day first: `[YYYY-MM-DDT00:00:00, trips]`. */
export function byDay(trips: readonly DemoTrip[]): Array<[string, DemoTrip[]]> {
	const days = new Map<number, DemoTrip[]>();
	for (const trip of trips) {
		const day = Math.floor(trip.start / DAY_MS);
		days.set(day, [...(days.get(day) ?? []), trip]);
	}
	return [...days.entries()].sort(([a], [b]) => a - b).map(([day, list]) => [new Date(day * DAY_MS).toISOString().slice(0, 10) + 'T00:00:00', list]);
}

/**
 * The user's streaks, newest trips first in `trips`: how many trips in a row (counting back from the
 * latest) kept a perfect score, and the longest such run.
 */
export function streaks(trips: readonly DemoTrip[]): Array<Record<string, string | number>> {
	const kinds: Array<[string, (t: DemoTrip) => boolean]> = [
		['NoSpeeding', (t) => t.scores.Speeding === 100],
		['NoPhoneUsage', (t) => t.scores.PhoneUsage === 100],
	];
	return kinds.map(([kind, kept]) => {
		let current = 0;
		while (current < trips.length && kept(trips[current]!)) current++;
		let best = 0;
		let run = 0;
		for (const trip of trips) {
			run = kept(trip) ? run + 1 : 0;
			best = Math.max(best, run);
		}
		return { StreakType: kind, CurrentStreakTrips: current, BestStreakTrips: best };
	});
}
