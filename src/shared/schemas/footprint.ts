import * as v from 'valibot';
import type { ErrorKey } from '../errors';
import { intFromInput, paged } from './common';

// The carbon footprint questionnaire (docs/product.md#carbon-footprint): one schema for the form, the offline
// calculator (footprint/compute.ts takes its output) and the server, which recomputes every saved result from
// it. Messages are error catalogue keys. Money is integer cents (the form converts typed dollars with
// parseSgdToCents); distances whole km; counts whole numbers.

const m = (key: ErrorKey) => key;

/** The largest answer each question accepts: generous for real households, small enough that the
 *  result stays an exact integer of kg. The household size limit is written in footprint_household_size. */
export const FOOTPRINT_LIMITS = {
  household_size: 20,
  kwh_month: 10_000, // a large landed house uses 2,000-3,000
  bill_cents_month: 500_000, // S$5,000
  km_week: 5_000,
  trips_week: 200,
  flights_year: 100, // return trips per distance band
  spend_cents_month: 5_000_000, // S$50,000
} as const;

export const ELECTRICITY_INPUTS = ['kwh', 'bill'] as const;
export const CAR_FUELS = ['none', 'petrol', 'diesel', 'hybrid', 'electric'] as const;
/** Scarborough et al. (2023)'s groups: meat per day >= 100 g, 50-99 g, < 50 g; fish-eaters; vegetarians; vegans. */
export const DIETS = ['heavy_meat', 'medium_meat', 'low_meat', 'pescatarian', 'vegetarian', 'vegan'] as const;

export type CarFuel = (typeof CAR_FUELS)[number];
export type Diet = (typeof DIETS)[number];

/** A whole number from 0 to max. */
const amount = (max: number) => v.pipe(intFromInput('invalid_number'), v.minValue(0, m('footprint_out_of_range')), v.maxValue(max, m('footprint_out_of_range')));
/** An answer that may be skipped, counting 0. */
const optionalAmount = (max: number) => v.optional(amount(max), 0);

const answerEntries = {
  /** Which of the two electricity figures the user gives; only that one is used. */
  electricity_input: v.picklist(ELECTRICITY_INPUTS, m('footprint_electricity_required')),
  /** The household's electricity per month, in kWh (from the SP bill's usage). */
  electricity_kwh_month: v.optional(amount(FOOTPRINT_LIMITS.kwh_month)),
  /** The household's electricity bill per month, in cents (incl. GST). */
  electricity_bill_cents_month: v.optional(amount(FOOTPRINT_LIMITS.bill_cents_month)),
  /** People sharing that electricity: the home's share is divided by it. */
  household_size: v.pipe(
    intFromInput('invalid_number'),
    v.minValue(1, m('footprint_household_size')),
    v.maxValue(FOOTPRINT_LIMITS.household_size, m('footprint_household_size')),
  ),
  car_km_week: optionalAmount(FOOTPRINT_LIMITS.km_week),
  car_fuel: v.optional(v.picklist(CAR_FUELS, m('footprint_car_fuel')), 'none'),
  /** Taxi and private-hire (ride-hail) km the user rides per week. */
  taxi_km_week: optionalAmount(FOOTPRINT_LIMITS.km_week),
  bus_trips_week: optionalAmount(FOOTPRINT_LIMITS.trips_week),
  /** MRT and LRT journeys per week. */
  mrt_trips_week: optionalAmount(FOOTPRINT_LIMITS.trips_week),
  /** Return trips per year by distance from Singapore: under 3,700 km, 3,700-7,000 km, over 7,000 km. */
  flights_short_year: optionalAmount(FOOTPRINT_LIMITS.flights_year),
  flights_medium_year: optionalAmount(FOOTPRINT_LIMITS.flights_year),
  flights_long_year: optionalAmount(FOOTPRINT_LIMITS.flights_year),
  diet: v.picklist(DIETS, m('footprint_diet')),
  /** Average spending per month, in cents. */
  clothing_cents_month: optionalAmount(FOOTPRINT_LIMITS.spend_cents_month),
  electronics_cents_month: optionalAmount(FOOTPRINT_LIMITS.spend_cents_month),
  household_goods_cents_month: optionalAmount(FOOTPRINT_LIMITS.spend_cents_month),
};

const answersObject = v.object(answerEntries, m('invalid_request'));

// The rules that tie answers together, as predicates both schemas below apply.
type Linked = Pick<
  v.InferOutput<typeof answersObject>,
  'electricity_input' | 'electricity_kwh_month' | 'electricity_bill_cents_month' | 'car_km_week' | 'car_fuel'
>;
const kwhGiven = (x: Linked) => x.electricity_input !== 'kwh' || x.electricity_kwh_month !== undefined;
const billGiven = (x: Linked) => x.electricity_input !== 'bill' || x.electricity_bill_cents_month !== undefined;
/** Kilometres by car need the fuel to count them. */
const fuelGiven = (x: Linked) => x.car_km_week === 0 || x.car_fuel !== 'none';

/** The questionnaire's answers: what the calculator takes and what a saved result keeps. */
export const footprintAnswersSchema = v.pipe(
  answersObject,
  v.forward(v.check((x) => kwhGiven(x), m('footprint_electricity_required')), ['electricity_kwh_month']),
  v.forward(v.check((x) => billGiven(x), m('footprint_electricity_required')), ['electricity_bill_cents_month']),
  v.forward(v.check((x) => fuelGiven(x), m('footprint_car_fuel')), ['car_fuel']),
);

/** POST /api/user/footprint: the answers, and optionally the total the client computed offline. The
 *  server never uses that total (it recomputes from the answers); it is accepted so a client may send
 *  what it showed, while any other unknown field is still refused. */
export const footprintSaveSchema = v.pipe(
  v.object({ ...answerEntries, total_kg: v.optional(v.pipe(v.number(m('invalid_number')), v.finite(m('invalid_number')))) }, m('invalid_request')),
  v.forward(v.check((x) => kwhGiven(x), m('footprint_electricity_required')), ['electricity_kwh_month']),
  v.forward(v.check((x) => billGiven(x), m('footprint_electricity_required')), ['electricity_bill_cents_month']),
  v.forward(v.check((x) => fuelGiven(x), m('footprint_car_fuel')), ['car_fuel']),
);

export type FootprintAnswers = v.InferOutput<typeof footprintAnswersSchema>;

export const FOOTPRINT_CATEGORIES = ['home_energy', 'transport', 'flights', 'diet', 'consumption'] as const;
export type FootprintCategory = (typeof FOOTPRINT_CATEGORIES)[number];

/** kg CO2e a year per category; they add up to the total. */
export const footprintBreakdownSchema = v.strictObject({
  home_energy: v.number(),
  transport: v.number(),
  flights: v.number(),
  diet: v.number(),
  consumption: v.number(),
});
export type FootprintBreakdown = Record<FootprintCategory, number>;

const resultEntries = {
  total_kg: v.pipe(v.number(), v.description('Whole kg CO2e a year: the sum of the breakdown')),
  total_tonnes: v.pipe(v.number(), v.description('To one decimal, for display')),
  breakdown: footprintBreakdownSchema,
  sg_average_kg: v.pipe(v.number(), v.description("Singapore's per-person average")),
  ratio_to_sg_average: v.pipe(v.number(), v.description('total / average, two decimals')),
  factors_version: v.pipe(v.string(), v.description('The factor set that produced it')),
};
export const footprintResultSchema = v.strictObject(resultEntries);
export type FootprintResult = v.InferOutput<typeof footprintResultSchema>;

/** The saved answers as a record holds them: the questionnaire's output (numbers, skipped answers as 0). */
const whole = () => v.pipe(v.number(), v.integer());
const storedAnswersSchema = v.strictObject({
  electricity_input: v.picklist(ELECTRICITY_INPUTS),
  electricity_kwh_month: v.optional(whole()),
  electricity_bill_cents_month: v.optional(whole()),
  household_size: whole(),
  car_km_week: whole(),
  car_fuel: v.picklist(CAR_FUELS),
  taxi_km_week: whole(),
  bus_trips_week: whole(),
  mrt_trips_week: whole(),
  flights_short_year: whole(),
  flights_medium_year: whole(),
  flights_long_year: whole(),
  diet: v.picklist(DIETS),
  clothing_cents_month: whole(),
  electronics_cents_month: whole(),
  household_goods_cents_month: whole(),
});

/** A saved result, as GET and POST /api/user/footprint answer it. */
export const footprintRecordSchema = v.strictObject({
  id: v.pipe(v.number(), v.integer()),
  answers: storedAnswersSchema,
  ...resultEntries,
  created_at: v.pipe(v.string(), v.description('ISO 8601 time in SGT (+08:00)')),
  created_at_ms: v.pipe(v.number(), v.integer(), v.description('Epoch milliseconds')),
});
export type FootprintRecord = v.InferOutput<typeof footprintRecordSchema>;
export const footprintPageSchema = paged(footprintRecordSchema);
