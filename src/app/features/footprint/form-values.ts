import * as v from 'valibot';
import { parseSgdToCents } from '../../../shared/money';
import { footprintAnswersSchema, type CarFuel, type Diet } from '../../../shared/schemas/footprint';

// The questionnaire's fields as typed (text), turned into the shared schema's answers: counts and km as
// whole numbers, money as S$ typed and cents sent. A field left empty is an answer skipped (0), except the
// required ones, which the schema names. Field names are the schema's, so its messages land on the field.

export type ElectricityInput = 'kwh' | 'bill';

export interface FootprintFormValues {
  [field: string]: string;
  electricity_input: ElectricityInput;
  electricity_kwh_month: string;
  electricity_bill_cents_month: string; // typed in S$
  household_size: string;
  car_km_week: string;
  car_fuel: CarFuel;
  taxi_km_week: string;
  bus_trips_week: string;
  mrt_trips_week: string;
  flights_short_year: string;
  flights_medium_year: string;
  flights_long_year: string;
  diet: Diet | '';
  clothing_cents_month: string; // S$
  electronics_cents_month: string; // S$
  household_goods_cents_month: string; // S$
}

export const EMPTY_FORM: FootprintFormValues = {
  electricity_input: 'kwh',
  electricity_kwh_month: '',
  electricity_bill_cents_month: '',
  household_size: '',
  car_km_week: '',
  car_fuel: 'none',
  taxi_km_week: '',
  bus_trips_week: '',
  mrt_trips_week: '',
  flights_short_year: '',
  flights_medium_year: '',
  flights_long_year: '',
  diet: '',
  clothing_cents_month: '',
  electronics_cents_month: '',
  household_goods_cents_month: '',
};

const COUNT_FIELDS = [
  'electricity_kwh_month',
  'household_size',
  'car_km_week',
  'taxi_km_week',
  'bus_trips_week',
  'mrt_trips_week',
  'flights_short_year',
  'flights_medium_year',
  'flights_long_year',
] as const;
export const MONEY_FIELDS = ['electricity_bill_cents_month', 'clothing_cents_month', 'electronics_cents_month', 'household_goods_cents_month'] as const;

/** The schema's input for these values: text trimmed, S$ to cents; a value that is not a number stays text
 *  so the schema refuses it with its own message. */
export function toAnswersInput(values: FootprintFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = { electricity_input: values.electricity_input, car_fuel: values.car_fuel };
  if (values.diet) out.diet = values.diet;
  for (const f of COUNT_FIELDS) {
    const text = values[f].trim().replace(/[,\s]/g, '');
    if (text !== '') out[f] = text;
  }
  for (const f of MONEY_FIELDS) {
    const text = values[f].trim();
    if (text === '') continue;
    out[f] = parseSgdToCents(text) ?? text;
  }
  // Only the electricity figure the user chose counts; the other one is not sent.
  if (values.electricity_input === 'kwh') delete out.electricity_bill_cents_month;
  else delete out.electricity_kwh_month;
  // No car: its km are not asked.
  if (values.car_fuel === 'none') delete out.car_km_week;
  return out;
}

/** What the form validates: its text values, through toAnswersInput, by the shared answers schema. */
export const footprintFormSchema = v.pipe(
  v.custom<FootprintFormValues>((x) => typeof x === 'object' && x !== null),
  v.transform(toAnswersInput),
  footprintAnswersSchema,
);

/** Back from saved answers to the form (to edit a past result). */
export function toFormValues(answers: v.InferOutput<typeof footprintAnswersSchema>): FootprintFormValues {
  const text = (n: number | undefined) => (n === undefined || n === 0 ? '' : String(n));
  const sgd = (cents: number | undefined) => (cents === undefined || cents === 0 ? '' : (cents / 100).toFixed(cents % 100 === 0 ? 0 : 2));
  return {
    electricity_input: answers.electricity_input,
    electricity_kwh_month: answers.electricity_kwh_month === undefined ? '' : String(answers.electricity_kwh_month),
    electricity_bill_cents_month: answers.electricity_bill_cents_month === undefined ? '' : sgd(answers.electricity_bill_cents_month) || '0',
    household_size: String(answers.household_size),
    car_km_week: text(answers.car_km_week),
    car_fuel: answers.car_fuel,
    taxi_km_week: text(answers.taxi_km_week),
    bus_trips_week: text(answers.bus_trips_week),
    mrt_trips_week: text(answers.mrt_trips_week),
    flights_short_year: text(answers.flights_short_year),
    flights_medium_year: text(answers.flights_medium_year),
    flights_long_year: text(answers.flights_long_year),
    diet: answers.diet,
    clothing_cents_month: sgd(answers.clothing_cents_month),
    electronics_cents_month: sgd(answers.electronics_cents_month),
    household_goods_cents_month: sgd(answers.household_goods_cents_month),
  };
}
