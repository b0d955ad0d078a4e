import FACTORS from './factors.json';
import type { Project } from '../schemas/content';
import type { CarFuel, Diet, FootprintAnswers, FootprintBreakdown, FootprintResult } from '../schemas/footprint';

// The carbon footprint arithmetic (docs/product.md#carbon-footprint): pure, so the client computes offline
// and the server recomputes every saved result from the answers alone. Every factor comes from factors.json
// (value, unit, year, source); docs/decisions/0009-footprint.md explains the choices. Answers must have
// passed footprintAnswersSchema.

export type FootprintFactors = typeof FACTORS;
export const FOOTPRINT_FACTORS: FootprintFactors = FACTORS;

/** Weekly answers become yearly ones with 52 weeks; daily diet figures with 365 days. */
const WEEKS_PER_YEAR = 52;
const DAYS_PER_YEAR = 365;
const MONTHS_PER_YEAR = 12;

/** The household's electricity in kWh a month: as entered, or the bill divided by the SP tariff. */
export function electricityKwhPerMonth(answers: FootprintAnswers, factors: FootprintFactors = FACTORS): number {
  if (answers.electricity_input === 'bill') {
    return (answers.electricity_bill_cents_month ?? 0) / 100 / factors.factors.electricity_tariff.value;
  }
  return answers.electricity_kwh_month ?? 0;
}

/** kg CO2e per km driven, by fuel; an electric car's grid electricity at Singapore's emission factor. */
function carKgPerKm(fuel: CarFuel, f: FootprintFactors['factors']): number {
  switch (fuel) {
    case 'petrol':
      return f.car_petrol.value;
    case 'diesel':
      return f.car_diesel.value;
    case 'hybrid':
      return f.car_hybrid.value;
    case 'electric':
      return f.car_electric_kwh_per_km.value * f.grid_electricity.value;
    case 'none':
      return 0;
  }
}

function dietKgPerDay(diet: Diet, f: FootprintFactors['factors']): number {
  switch (diet) {
    case 'heavy_meat':
      return f.diet_heavy_meat.value;
    case 'medium_meat':
      return f.diet_medium_meat.value;
    case 'low_meat':
      return f.diet_low_meat.value;
    case 'pescatarian':
      return f.diet_pescatarian.value;
    case 'vegetarian':
      return f.diet_vegetarian.value;
    case 'vegan':
      return f.diet_vegan.value;
  }
}

/** The yearly footprint in kg CO2e, by category (each rounded to whole kg; the total is their sum, so
 *  the breakdown always adds up), and the comparison with Singapore's per-person average. */
export function computeFootprint(answers: FootprintAnswers, factors: FootprintFactors = FACTORS): FootprintResult {
  const f = factors.factors;

  // Home: the household's electricity, shared equally by the people living there.
  const homeKg = (electricityKwhPerMonth(answers, factors) * MONTHS_PER_YEAR * f.grid_electricity.value) / answers.household_size;

  // Ground transport: km a week (bus and MRT as trips x an average trip length) x 52 weeks.
  const transportKg =
    answers.car_km_week * WEEKS_PER_YEAR * carKgPerKm(answers.car_fuel, f) +
    answers.taxi_km_week * WEEKS_PER_YEAR * f.taxi.value +
    answers.bus_trips_week * f.bus_trip_km.value * WEEKS_PER_YEAR * f.bus.value +
    answers.mrt_trips_week * f.mrt_trip_km.value * WEEKS_PER_YEAR * f.mrt.value;

  // Flights: return trips a year, so twice the band's typical one-way distance.
  const flightsKg =
    answers.flights_short_year * 2 * f.flight_short_km.value * f.flight_short.value +
    answers.flights_medium_year * 2 * f.flight_medium_km.value * f.flight_medium.value +
    answers.flights_long_year * 2 * f.flight_long_km.value * f.flight_long.value;

  const dietKg = dietKgPerDay(answers.diet, f) * DAYS_PER_YEAR;

  // Spending: cents a month -> S$ a year x kg per S$.
  const consumptionKg =
    (answers.clothing_cents_month / 100) * MONTHS_PER_YEAR * f.clothing.value +
    (answers.electronics_cents_month / 100) * MONTHS_PER_YEAR * f.electronics.value +
    (answers.household_goods_cents_month / 100) * MONTHS_PER_YEAR * f.household_goods.value;

  const breakdown: FootprintBreakdown = {
    home_energy: Math.round(homeKg),
    transport: Math.round(transportKg),
    flights: Math.round(flightsKg),
    diet: Math.round(dietKg),
    consumption: Math.round(consumptionKg),
  };
  const total_kg = breakdown.home_energy + breakdown.transport + breakdown.flights + breakdown.diet + breakdown.consumption;
  const sg_average_kg = Math.round(f.sg_average.value * 1000);
  return {
    total_kg,
    total_tonnes: Math.round(total_kg / 100) / 10,
    breakdown,
    sg_average_kg,
    ratio_to_sg_average: Math.round((total_kg / sg_average_kg) * 100) / 100,
    factors_version: factors.version,
  };
}

/** Whole tons to buy to offset `totalKg` (kg CO2e) with a project: rounded up, then held within the
 *  project's per-order limits. A footprint below the minimum still buys the minimum (nobody can buy
 *  less); one above the maximum buys the maximum, and the rest needs another order. */
export function tonsToOffset(totalKg: number, project: Pick<Project, 'min_tons' | 'max_tons'>): number {
  // Integer arithmetic on kg, so an exact 8,000 kg is 8 t, never 9 through a float's noise.
  const needed = Math.ceil(Math.max(0, Math.round(totalKg)) / 1000);
  return Math.min(project.max_tons, Math.max(project.min_tons, needed));
}
