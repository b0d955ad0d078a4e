import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { CarFuel, Diet, FootprintCategory } from '../../../shared/schemas/footprint';

export const categoryLabel: Record<FootprintCategory, MessageDescriptor> = {
  home_energy: msg`Home electricity`,
  transport: msg`Getting around`,
  flights: msg`Flights`,
  diet: msg`Food`,
  consumption: msg`Shopping`,
};

/** One colour per category, dark enough for white text and distinct for common colour blindness. */
export const categoryColour: Record<FootprintCategory, string> = {
  home_energy: '#1f6f4a',
  transport: '#0f6d8c',
  flights: '#6941c6',
  diet: '#a15c07',
  consumption: '#b42318',
};

export const fuelLabel: Record<CarFuel, MessageDescriptor> = {
  none: msg`No car`,
  petrol: msg`Petrol`,
  diesel: msg`Diesel`,
  hybrid: msg`Hybrid`,
  electric: msg`Electric`,
};

export const dietLabel: Record<Diet, MessageDescriptor> = {
  heavy_meat: msg`Meat at most meals (100 g or more a day)`,
  medium_meat: msg`Some meat (50–99 g a day)`,
  low_meat: msg`Little meat (under 50 g a day)`,
  pescatarian: msg`Fish, no other meat`,
  vegetarian: msg`Vegetarian`,
  vegan: msg`Vegan`,
};

/** kg as tonnes to one decimal with the unit: "8.4 t", "8.4 吨" (as formatTons, a bare "t" is no unit in Chinese). */
export function tonnesWithUnit(kg: number, locale: string): string {
  return `${tonnes(kg)}${locale === 'zh-Hans' ? '\u00a0吨' : '\u00a0t'}`;
}

/** kg as tonnes to one decimal: "8.4". */
export function tonnes(kg: number): string {
  return (Math.round(kg / 100) / 10).toFixed(1);
}
