// Carbon footprint arithmetic (docs/product.md#carbon-footprint): hand-worked cases against the factor set in
// src/shared/footprint/factors.json, edge cases, the answers schema, and the offset rounding.
// The hand arithmetic uses the factor values written out, so a changed factor fails here on purpose:
// update the worked numbers together with the data file and docs/decisions/0009-footprint.md.
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { computeFootprint, electricityKwhPerMonth, tonsToOffset } from '../../src/shared/footprint/compute';
import FACTORS from '../../src/shared/footprint/factors.json';
import { FOOTPRINT_LIMITS, footprintAnswersSchema, type FootprintAnswers } from '../../src/shared/schemas/footprint';
import { firstIssue } from '../../src/shared/schemas/common';
import { ERRORS, isErrorKey } from '../../src/shared/errors';

/** Everything zero, one person, vegan: the smallest footprint the questionnaire can give. */
const NOTHING: FootprintAnswers = {
  electricity_input: 'kwh',
  electricity_kwh_month: 0,
  electricity_bill_cents_month: undefined,
  household_size: 1,
  car_km_week: 0,
  car_fuel: 'none',
  taxi_km_week: 0,
  bus_trips_week: 0,
  mrt_trips_week: 0,
  flights_short_year: 0,
  flights_medium_year: 0,
  flights_long_year: 0,
  diet: 'vegan',
  clothing_cents_month: 0,
  electronics_cents_month: 0,
  household_goods_cents_month: 0,
};

/** A family of four in an HDB flat, one petrol car, a few trips a year. */
const FAMILY: FootprintAnswers = {
  ...NOTHING,
  electricity_kwh_month: 400,
  household_size: 4,
  car_km_week: 100,
  car_fuel: 'petrol',
  taxi_km_week: 20,
  bus_trips_week: 10,
  mrt_trips_week: 10,
  flights_short_year: 2,
  flights_long_year: 1,
  diet: 'medium_meat',
  clothing_cents_month: 10_000,
  electronics_cents_month: 5_000,
  household_goods_cents_month: 5_000,
};

describe('the factor data', () => {
  it('gives every factor a value, unit, year and named source', () => {
    const entries = Object.entries(FACTORS.factors);
    expect(entries.length).toBeGreaterThanOrEqual(25);
    for (const [name, f] of entries) {
      expect(typeof f.value, name).toBe('number');
      expect(Number.isFinite(f.value) && f.value > 0, name).toBe(true);
      expect(f.unit.trim(), name).not.toBe('');
      expect(Number.isInteger(f.year) && f.year >= 2014 && f.year <= 2026, name).toBe(true);
      expect(f.source.trim().length, name).toBeGreaterThan(20);
    }
    expect(FACTORS.version).toMatch(/^\d{4}-\d+$/);
  });

  it('marks the figures that are estimates and says what they rest on', () => {
    const estimates = Object.entries(FACTORS.factors).filter(([, f]) => 'estimate' in f && f.estimate === true);
    expect(estimates.map(([k]) => k).sort()).toEqual(
      [
        'bus_trip_km',
        'car_electric_kwh_per_km',
        'clothing',
        'electronics',
        'flight_long_km',
        'flight_medium_km',
        'flight_short_km',
        'household_goods',
        'mrt_trip_km',
      ].sort(),
    );
    for (const [name, f] of estimates) expect((f as { basis?: string }).basis?.length ?? 0, name).toBeGreaterThan(20);
  });

  it('holds the published figures the worked cases below use', () => {
    const f = FACTORS.factors;
    expect([f.grid_electricity.value, f.grid_electricity.year]).toEqual([0.412, 2023]);
    expect(f.electricity_tariff.value).toBe(0.3258);
    expect([f.car_petrol.value, f.car_diesel.value, f.car_hybrid.value]).toEqual([0.163, 0.173, 0.128]);
    expect([f.taxi.value, f.bus.value, f.mrt.value]).toEqual([0.149, 0.104, 0.0278]);
    expect([f.flight_short.value, f.flight_medium.value, f.flight_long.value]).toEqual([0.126, 0.117, 0.117]);
    expect([f.diet_heavy_meat.value, f.diet_medium_meat.value, f.diet_low_meat.value, f.diet_pescatarian.value, f.diet_vegetarian.value, f.diet_vegan.value]).toEqual([
      10.24, 7.04, 5.37, 4.74, 4.16, 2.47,
    ]);
    expect(f.sg_average.value).toBe(10.6);
  });
});

describe('computeFootprint: hand-worked cases', () => {
  it('a family of four (kWh entered)', () => {
    // Home energy: 400 kWh/month x 12 = 4,800 kWh x 0.412 = 1,977.6 kg / 4 people = 494.4 -> 494 kg
    // Transport: car 100 km/wk x 52 = 5,200 km x 0.163 = 847.6
    //            taxi 20 km/wk x 52 = 1,040 pkm x 0.149 = 154.96
    //            bus 10 trips x 5 km x 52 = 2,600 pkm x 0.104 = 270.4
    //            MRT 10 trips x 10 km x 52 = 5,200 pkm x 0.0278 = 144.56
    //            847.6 + 154.96 + 270.4 + 144.56 = 1,417.52 -> 1,418 kg
    // Flights: 2 short returns x 2 x 1,500 km = 6,000 pkm x 0.126 = 756
    //          1 long return x 2 x 11,000 km = 22,000 pkm x 0.117 = 2,574
    //          756 + 2,574 = 3,330 kg
    // Diet: medium meat 7.04 kg/day x 365 = 2,569.6 -> 2,570 kg
    // Consumption: clothing S$100/month x 12 = S$1,200 x 0.3 = 360
    //              electronics S$50 x 12 = S$600 x 0.1 = 60
    //              household goods S$50 x 12 = S$600 x 0.3 = 180
    //              360 + 60 + 180 = 600 kg
    // Total: 494 + 1,418 + 3,330 + 2,570 + 600 = 8,412 kg = 8.4 t; 8,412 / 10,600 = 0.7936 -> 0.79
    const r = computeFootprint(FAMILY);
    expect(r.breakdown).toEqual({ home_energy: 494, transport: 1418, flights: 3330, diet: 2570, consumption: 600 });
    expect(r.total_kg).toBe(8412);
    expect(r.total_tonnes).toBe(8.4);
    expect(r.sg_average_kg).toBe(10_600);
    expect(r.ratio_to_sg_average).toBe(0.79);
    expect(r.factors_version).toBe(FACTORS.version);
  });

  it('the breakdown always adds up to the total', () => {
    const r = computeFootprint(FAMILY);
    expect(Object.values(r.breakdown).reduce((a, b) => a + b, 0)).toBe(r.total_kg);
  });

  it('a bill in S$ is turned into kWh with the SP Group tariff', () => {
    // S$130.32 / S$0.3258 per kWh = 400 kWh (0.3258 x 400 = 130.32 exactly)
    // 400 x 12 x 0.412 = 1,977.6 kg / 2 people = 988.8 -> 989 kg
    const answers: FootprintAnswers = { ...NOTHING, electricity_input: 'bill', electricity_kwh_month: undefined, electricity_bill_cents_month: 13_032, household_size: 2 };
    expect(electricityKwhPerMonth(answers)).toBeCloseTo(400, 9);
    expect(computeFootprint(answers).breakdown.home_energy).toBe(989);
    // ... the same as entering the 400 kWh directly.
    expect(computeFootprint({ ...answers, electricity_input: 'kwh', electricity_kwh_month: 400 }).breakdown.home_energy).toBe(989);
  });

  it('uses only the electricity figure the user chose', () => {
    // kWh chosen: the bill is ignored. 300 x 12 x 0.412 = 1,483.2 -> 1,483 kg (one person)
    expect(computeFootprint({ ...NOTHING, electricity_kwh_month: 300, electricity_bill_cents_month: 999_999 }).breakdown.home_energy).toBe(1483);
    // Bill chosen: the kWh are ignored. S$97.74 / 0.3258 = 300 kWh -> 1,483 kg
    expect(
      computeFootprint({ ...NOTHING, electricity_input: 'bill', electricity_kwh_month: 5000, electricity_bill_cents_month: 9774 }).breakdown.home_energy,
    ).toBe(1483);
  });

  it('divides home electricity by the household size', () => {
    // 1,000 kWh x 12 x 0.412 = 4,944 kg: 1 person 4,944; 3 people 1,648; 7 people 706.29 -> 706
    const home = (n: number) => computeFootprint({ ...NOTHING, electricity_kwh_month: 1000, household_size: n }).breakdown.home_energy;
    expect([home(1), home(3), home(7)]).toEqual([4944, 1648, 706]);
  });

  it('each car fuel per km', () => {
    // 100 km/wk x 52 = 5,200 km. Petrol x 0.163 = 847.6 -> 848; diesel x 0.173 = 899.6 -> 900;
    // hybrid x 0.128 = 665.6 -> 666; electric: 0.18 kWh/km x 0.412 kg/kWh = 0.07416 kg/km
    // x 5,200 = 385.632 -> 386.
    const car = (fuel: FootprintAnswers['car_fuel']) => computeFootprint({ ...NOTHING, car_km_week: 100, car_fuel: fuel }).breakdown.transport;
    expect([car('petrol'), car('diesel'), car('hybrid'), car('electric')]).toEqual([848, 900, 666, 386]);
  });

  it('flights by distance band, counted as return trips', () => {
    // 1 short return: 2 x 1,500 km x 0.126 = 378; 1 medium: 2 x 4,500 x 0.117 = 1,053;
    // 1 long: 2 x 11,000 x 0.117 = 2,574; all three: 378 + 1,053 + 2,574 = 4,005
    const fly = (s: number, m: number, l: number) =>
      computeFootprint({ ...NOTHING, flights_short_year: s, flights_medium_year: m, flights_long_year: l }).breakdown.flights;
    expect([fly(1, 0, 0), fly(0, 1, 0), fly(0, 0, 1), fly(1, 1, 1)]).toEqual([378, 1053, 2574, 4005]);
  });

  it('each diet per year', () => {
    // kg CO2e/day x 365: 10.24 -> 3,737.6 -> 3,738; 7.04 -> 2,569.6 -> 2,570; 5.37 -> 1,960.05 -> 1,960;
    // 4.74 -> 1,730.1 -> 1,730; 4.16 -> 1,518.4 -> 1,518; 2.47 -> 901.55 -> 902
    const diets = ['heavy_meat', 'medium_meat', 'low_meat', 'pescatarian', 'vegetarian', 'vegan'] as const;
    expect(diets.map((diet) => computeFootprint({ ...NOTHING, diet }).breakdown.diet)).toEqual([3738, 2570, 1960, 1730, 1518, 902]);
  });

  it('public transport uses the stated trip lengths', () => {
    // 7 bus trips/wk x 5 km x 52 = 1,820 pkm x 0.104 = 189.28 -> 189
    // 7 MRT trips/wk x 10 km x 52 = 3,640 pkm x 0.0278 = 101.192 -> 101
    expect(computeFootprint({ ...NOTHING, bus_trips_week: 7 }).breakdown.transport).toBe(189);
    expect(computeFootprint({ ...NOTHING, mrt_trips_week: 7 }).breakdown.transport).toBe(101);
  });
});

describe('computeFootprint: edges', () => {
  it('all zeros leaves only the diet', () => {
    // vegan 2.47 x 365 = 901.55 -> 902 kg; 902 / 10,600 = 0.085 -> 0.09
    const r = computeFootprint(NOTHING);
    expect(r.breakdown).toEqual({ home_energy: 0, transport: 0, flights: 0, diet: 902, consumption: 0 });
    expect(r.total_kg).toBe(902);
    expect(r.total_tonnes).toBe(0.9);
    expect(r.ratio_to_sg_average).toBe(0.09);
  });

  it('kilometres with no car fuel count nothing (the schema refuses that pair)', () => {
    expect(computeFootprint({ ...NOTHING, car_km_week: 500, car_fuel: 'none' }).breakdown.transport).toBe(0);
  });

  it('every answer at its maximum gives a finite whole number of kilograms', () => {
    const L = FOOTPRINT_LIMITS;
    const max: FootprintAnswers = {
      electricity_input: 'kwh',
      electricity_kwh_month: L.kwh_month,
      electricity_bill_cents_month: undefined,
      household_size: 1,
      car_km_week: L.km_week,
      car_fuel: 'diesel',
      taxi_km_week: L.km_week,
      bus_trips_week: L.trips_week,
      mrt_trips_week: L.trips_week,
      flights_short_year: L.flights_year,
      flights_medium_year: L.flights_year,
      flights_long_year: L.flights_year,
      diet: 'heavy_meat',
      clothing_cents_month: L.spend_cents_month,
      electronics_cents_month: L.spend_cents_month,
      household_goods_cents_month: L.spend_cents_month,
    };
    const r = computeFootprint(max);
    for (const kg of [r.total_kg, ...Object.values(r.breakdown)]) {
      expect(Number.isSafeInteger(kg)).toBe(true);
      expect(kg).toBeGreaterThanOrEqual(0);
    }
    // Stays far inside a 32-bit integer column and a JSON number.
    expect(r.total_kg).toBeLessThan(2 ** 31);
    // The maximum bill gives the same home energy as its kWh.
    const bill = computeFootprint({ ...max, electricity_input: 'bill', electricity_bill_cents_month: L.bill_cents_month });
    expect(bill.breakdown.home_energy).toBe(Math.round((L.bill_cents_month / 100 / 0.3258) * 12 * 0.412));
  });

  it('does not change its input', () => {
    const copy = structuredClone(FAMILY);
    computeFootprint(copy);
    expect(copy).toEqual(FAMILY);
  });
});

describe('tonsToOffset', () => {
  const project = { min_tons: 1, max_tons: 100 };

  it('rounds up to whole tons', () => {
    expect(tonsToOffset(8412, project)).toBe(9); // 8.412 t -> 9
    expect(tonsToOffset(8001, project)).toBe(9); // 8.001 t -> 9
    expect(tonsToOffset(8000, project)).toBe(8); // exactly 8 t
    expect(tonsToOffset(1, project)).toBe(1); // 0.001 t -> 1
  });

  it('never below the project minimum (a zero footprint still buys the minimum)', () => {
    expect(tonsToOffset(0, project)).toBe(1);
    expect(tonsToOffset(2500, { min_tons: 5, max_tons: 100 })).toBe(5); // 2.5 t -> 3 -> 5
    expect(tonsToOffset(5000, { min_tons: 5, max_tons: 100 })).toBe(5);
    expect(tonsToOffset(5001, { min_tons: 5, max_tons: 100 })).toBe(6);
  });

  it('never above the project maximum', () => {
    expect(tonsToOffset(250_000, project)).toBe(100);
    expect(tonsToOffset(100_000, project)).toBe(100);
    expect(tonsToOffset(100_001, project)).toBe(100);
    expect(tonsToOffset(99_001, project)).toBe(100);
    expect(tonsToOffset(12_345, { min_tons: 10, max_tons: 10 })).toBe(10);
  });

  it('takes the total of a computed result', () => {
    expect(tonsToOffset(computeFootprint(FAMILY).total_kg, { min_tons: 2, max_tons: 50 })).toBe(9);
  });
});

describe('footprintAnswersSchema', () => {
  /** The answers as a form would send them (strings for numbers are accepted too). */
  const form = {
    electricity_input: 'kwh',
    electricity_kwh_month: '400',
    household_size: '4',
    car_km_week: 100,
    car_fuel: 'petrol',
    taxi_km_week: 20,
    bus_trips_week: 10,
    mrt_trips_week: 10,
    flights_short_year: 2,
    flights_long_year: 1,
    diet: 'medium_meat',
    clothing_cents_month: 10_000,
    electronics_cents_month: 5_000,
    household_goods_cents_month: 5_000,
  };

  const issueOf = (data: unknown) => {
    const r = v.safeParse(footprintAnswersSchema, data);
    if (r.success) return null;
    return firstIssue(r.issues);
  };

  it('accepts a filled form and fills what was left out with 0', () => {
    const parsed = v.parse(footprintAnswersSchema, form);
    expect(parsed).toEqual({ ...FAMILY });
    expect(computeFootprint(parsed).total_kg).toBe(8412);
    expect(v.parse(footprintAnswersSchema, { electricity_input: 'kwh', electricity_kwh_month: 0, household_size: 1, diet: 'vegan' })).toEqual(NOTHING);
  });

  it('speaks in catalogue keys, naming the field', () => {
    expect(issueOf({ ...form, household_size: 0 })).toEqual({ key: 'footprint_household_size', field: 'household_size' });
    expect(issueOf({ ...form, household_size: FOOTPRINT_LIMITS.household_size + 1 })).toEqual({ key: 'footprint_household_size', field: 'household_size' });
    expect(issueOf({ ...form, household_size: 2.5 })).toEqual({ key: 'invalid_number', field: 'household_size' });
    expect(issueOf({ ...form, car_km_week: -1 })).toEqual({ key: 'footprint_out_of_range', field: 'car_km_week' });
    expect(issueOf({ ...form, flights_long_year: FOOTPRINT_LIMITS.flights_year + 1 })).toEqual({ key: 'footprint_out_of_range', field: 'flights_long_year' });
    expect(issueOf({ ...form, taxi_km_week: 'far' })).toEqual({ key: 'invalid_number', field: 'taxi_km_week' });
    expect(issueOf({ ...form, diet: 'carnivore' })).toEqual({ key: 'footprint_diet', field: 'diet' });
    expect(issueOf({ ...form, diet: undefined })).toEqual({ key: 'required', field: 'diet' });
    expect(issueOf({ ...form, car_fuel: 'none' })).toEqual({ key: 'footprint_car_fuel', field: 'car_fuel' });
    expect(issueOf({ ...form, car_fuel: 'steam' })).toEqual({ key: 'footprint_car_fuel', field: 'car_fuel' });
    expect(issueOf({ ...form, electricity_kwh_month: undefined })).toEqual({ key: 'footprint_electricity_required', field: 'electricity_kwh_month' });
    expect(issueOf({ ...form, electricity_input: 'bill' })).toEqual({ key: 'footprint_electricity_required', field: 'electricity_bill_cents_month' });
    expect(issueOf({ ...form, electricity_input: 'gas' })).toEqual({ key: 'footprint_electricity_required', field: 'electricity_input' });
    expect(issueOf({ ...form, electricity_kwh_month: FOOTPRINT_LIMITS.kwh_month + 1 })).toEqual({ key: 'footprint_out_of_range', field: 'electricity_kwh_month' });
  });

  it('every message key it can give is in the catalogue with en and cn', () => {
    for (const key of ['footprint_household_size', 'footprint_out_of_range', 'footprint_diet', 'footprint_car_fuel', 'footprint_electricity_required']) {
      expect(isErrorKey(key), key).toBe(true);
      const e = ERRORS[key as keyof typeof ERRORS];
      expect(e.en.length).toBeGreaterThan(10);
      expect(e.cn).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
