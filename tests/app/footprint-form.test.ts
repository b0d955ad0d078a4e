// The footprint questionnaire's client logic: typed text becomes the shared schema's answers
// (S$ to cents, skipped answers count 0, only the chosen electricity figure), the schema's messages land on
// the form's fields in en and cn, the offline result is the shared arithmetic's, and "Offset it" rounds up
// within the project's limits. First run: which opens land on the start screen.
import { beforeEach, describe, expect, it } from 'vitest';

import './browser-globals';

import { validate } from '../../src/app/lib/form';
import { EMPTY_FORM, footprintFormSchema, toAnswersInput, toFormValues, type FootprintFormValues } from '../../src/app/features/footprint/form-values';
import { tonnes } from '../../src/app/features/footprint/labels';
import { computeFootprint, tonsToOffset } from '../../src/shared/footprint/compute';
import { REQUIRED_FIELD_MESSAGES, errorMessage } from '../../src/shared/errors';
import { firstScreen, hasSeenStart, isFirstRun, markStartSeen, START_PATH } from '../../src/app/lib/first-run';

/** The family of four of tests/shared/footprint.test.ts, as typed into the form: 8,412 kg by hand. */
const FAMILY: FootprintFormValues = {
  ...EMPTY_FORM,
  electricity_kwh_month: '400',
  household_size: '4',
  car_fuel: 'petrol',
  car_km_week: '100',
  taxi_km_week: '20',
  bus_trips_week: '10',
  mrt_trips_week: '10',
  flights_short_year: '2',
  flights_long_year: '1',
  diet: 'medium_meat',
  clothing_cents_month: '100',
  electronics_cents_month: 'S$50.00',
  household_goods_cents_month: '50',
};

describe('the form values', () => {
  it('become the answers: S$ to cents, empty answers skipped, only the chosen electricity figure', () => {
    expect(toAnswersInput({ ...FAMILY, electricity_bill_cents_month: '120' })).toEqual({
      electricity_input: 'kwh',
      electricity_kwh_month: '400',
      household_size: '4',
      car_fuel: 'petrol',
      car_km_week: '100',
      taxi_km_week: '20',
      bus_trips_week: '10',
      mrt_trips_week: '10',
      flights_short_year: '2',
      flights_long_year: '1',
      diet: 'medium_meat',
      clothing_cents_month: 10_000,
      electronics_cents_month: 5_000,
      household_goods_cents_month: 5_000,
    });
    const bill = toAnswersInput({ ...FAMILY, electricity_input: 'bill', electricity_bill_cents_month: '97.74' });
    expect(bill.electricity_bill_cents_month).toBe(9774);
    expect(bill).not.toHaveProperty('electricity_kwh_month');
    // No car: the km are not sent (they would need a fuel).
    expect(toAnswersInput({ ...FAMILY, car_fuel: 'none' })).not.toHaveProperty('car_km_week');
  });

  it('give the hand-worked result of the shared arithmetic, offline', () => {
    const res = validate(footprintFormSchema, FAMILY, 'en');
    expect(res.ok).toBe(true);
    const result = computeFootprint(res.output!);
    expect(result.total_kg).toBe(8412);
    expect(result.breakdown).toEqual({ home_energy: 494, transport: 1418, flights: 3330, diet: 2570, consumption: 600 });
    expect(result.total_tonnes).toBe(8.4);
    expect(result.ratio_to_sg_average).toBe(0.79);
    expect(tonnes(result.breakdown.flights)).toBe('3.3');
    expect(tonnes(0)).toBe('0.0');
  });

  it('skipped answers count 0: household, diet and electricity alone are enough', () => {
    const res = validate(footprintFormSchema, { ...EMPTY_FORM, electricity_kwh_month: '0', household_size: '1', diet: 'vegan' }, 'en');
    expect(res.ok).toBe(true);
    expect(computeFootprint(res.output!).breakdown).toEqual({ home_energy: 0, transport: 0, flights: 0, diet: 902, consumption: 0 });
  });

  it('put the shared schema messages on the fields, in en and cn', () => {
    for (const lang of ['en', 'cn'] as const) {
      const empty = validate(footprintFormSchema, EMPTY_FORM, lang);
      expect(empty.ok).toBe(false);
      // An empty answer says what to enter (the `required` rule, in the field's own words).
      expect(empty.errors.household_size).toBe(REQUIRED_FIELD_MESSAGES.household_size![lang]);
      expect(empty.errors.diet).toBe(REQUIRED_FIELD_MESSAGES.diet![lang]);
      // The rules tying answers together run once each answer is well formed.
      const noKwh = validate(footprintFormSchema, { ...FAMILY, electricity_kwh_month: '' }, lang);
      expect(noKwh.errors).toEqual({ electricity_kwh_month: errorMessage('footprint_electricity_required', lang) });
      const noFuel = validate(footprintFormSchema, { ...FAMILY, car_fuel: 'none', car_km_week: '50' }, lang);
      expect(noFuel.ok).toBe(true); // km without a car are not asked, so not counted

      const bad = validate(footprintFormSchema, { ...FAMILY, household_size: '21', taxi_km_week: 'lots', clothing_cents_month: '12.345', flights_long_year: '101' }, lang);
      expect(bad.errors).toEqual({
        household_size: errorMessage('footprint_household_size', lang),
        taxi_km_week: errorMessage('invalid_number', lang),
        clothing_cents_month: errorMessage('invalid_number', lang),
        flights_long_year: errorMessage('footprint_out_of_range', lang),
      });
    }
  });

  it('come back from saved answers for another try', () => {
    const res = validate(footprintFormSchema, FAMILY, 'en');
    const again = validate(footprintFormSchema, toFormValues(res.output!), 'en');
    expect(again.output).toEqual(res.output);
  });
});

describe('offset it', () => {
  const project = { min_tons: 1, max_tons: 20 };
  it('rounds the footprint up to whole tons, within the project limits', () => {
    expect(tonsToOffset(8412, project)).toBe(9);
    expect(tonsToOffset(8000, project)).toBe(8);
    expect(tonsToOffset(120, { min_tons: 5, max_tons: 20 })).toBe(5);
    expect(tonsToOffset(45_001, project)).toBe(20);
  });
});

describe('first run', () => {
  beforeEach(() => localStorage.clear());

  it('sends a new install opening the root to the start screen, once', () => {
    expect(isFirstRun()).toBe(true);
    expect(firstScreen('/')).toBe(START_PATH);
    // A deep link is opened as asked, even on a first run.
    expect(firstScreen('/pages/project/project')).toBe('/pages/project/project');
    expect(firstScreen('/pages/index/index')).toBe('/pages/index/index');
    markStartSeen();
    expect(hasSeenStart()).toBe(true);
    expect(firstScreen('/')).toBe('/');
  });

  it('is not a first run when the device already holds a session, a language or settings of an earlier version', () => {
    for (const key of ['isLogin', 'token', 'login_info', 'language', 'base_settings']) {
      localStorage.clear();
      localStorage.setItem(key, JSON.stringify('x'));
      expect(firstScreen('/'), key).toBe('/');
    }
  });
});
