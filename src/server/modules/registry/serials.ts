// Registry serial ranges as each registry writes them (docs/product.md#registry-inventory,
// docs/decisions/0041-registry-inventory.md). A block of credits in a registry account is one line of text:
// fixed parts that name the issuance (project, vintage, batch...) and a first and a last unit number,
// inclusive. The parser turns that text into its parts; the formatter writes any sub-range of it back the way
// the registry writes it, so a retirement's serials are the ones a registry search finds.
//
// Formats, each as the registry's public records write it:
// - Verra (VCUs): `12082-384723093-384800545-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0`:
//   issuance batch, first, last, program, unit, issuing code, credit type, country, sectoral scope (not in
//   every published example), project ID, vintage start and end (DDMMYYYY), additional-certification flag. Leading zeros, when written
//   (`0001-000001-000100-...`), are kept as written.
// - Gold Standard (VERs): `GS1-1-IN-GS2978-16-2019-19386-1-500`: registry prefix, country, project (GS + ID),
//   product segment, vintage year, issuance batch, first, last.
// - American Carbon Registry (ERTs): `ACR-US-192-2010-203-1-5000`: country, project ID, vintage, batch,
//   first, last.
// - Climate Action Reserve (CRTs): `CAR-1-US-293-1-120-CA-2006-102-1 to 29251`: unit type, country, project
//   ID, two issuance segments, state, vintage, batch, then `first to last`.
// - Puro.earth (CORCs): the certificate id `PURO_PR_CORC100+_FI_577166_2020_<issuance id>_1-100` (standard,
//   registry, credit type, country, production facility, vintage, issuance, first-last, numbers unique only
//   within the issuance), and the earlier form of two 30-digit numbers, an 18-digit GSRN of the facility and a
//   12-digit sequence: `643002406555908611000000000001-643002406555908611000000000100`.
// Isometric is not read: its public records were not available to check its serial format against, and a
// guessed format would print serials no registry search finds.

export type RegistryName = 'verra' | 'gold_standard' | 'acr' | 'car' | 'puro';

export const REGISTRY_NAMES: readonly RegistryName[] = ['verra', 'gold_standard', 'acr', 'car', 'puro'];

/** The registry's own name, as a certificate or an operator's screen says it. */
export const REGISTRY_TITLES: Record<RegistryName, string> = {
  verra: 'Verra',
  gold_standard: 'Gold Standard',
  acr: 'American Carbon Registry',
  car: 'Climate Action Reserve',
  puro: 'Puro.earth',
};

export interface SerialRange {
  registry: RegistryName;
  /** First and last unit, inclusive. */
  first: number;
  last: number;
  quantity: number;
  /** The vintage year, or `YYYY-YYYY` when a Verra monitoring period spans years; '' when the format does not say. */
  vintage: string;
  /** The fixed parts of the format: two ranges with the same registry and parts count the same units. */
  parts: Record<string, string>;
  /** Digits the unit numbers are written with when the registry pads them with zeros (0: as they come). */
  pad: number;
}

export type SerialParse = { ok: true; range: SerialRange } | { ok: false; field: string; message: string };

interface Format {
  registry: RegistryName;
  /** Does the text look like this registry's (its prefix/shape), before the details are checked? */
  claims(text: string): boolean;
  parse(text: string): SerialParse;
  write(range: SerialRange, first: string, last: string): string;
}

const refuse = (field: string, message: string): SerialParse => ({ ok: false, field, message });

/** A unit number as written: digits only, a safe integer, at least 1 (registries count from 1). */
function unit(text: string, field: 'first' | 'last'): number | string {
  if (!/^\d{1,16}$/.test(text)) return `${field} unit "${text}" is not a whole number of at most 16 digits`;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) return `${field} unit "${text}" must be from 1 to ${Number.MAX_SAFE_INTEGER}`;
  return n;
}

/** The first and last units, and the zero-padding they were written with (both padded alike, or neither). */
function units(firstText: string, lastText: string): { first: number; last: number; pad: number } | { field: string; message: string } {
  const first = unit(firstText, 'first');
  if (typeof first === 'string') return { field: 'first', message: first };
  const last = unit(lastText, 'last');
  if (typeof last === 'string') return { field: 'last', message: last };
  if (first > last) return { field: 'last', message: `last unit ${last} is before the first ${first}` };
  const padded = (t: string) => t.length > 1 && t.startsWith('0');
  let pad = 0;
  if (padded(firstText) || padded(lastText)) {
    if (firstText.length !== lastText.length) return { field: 'last', message: `first "${firstText}" and last "${lastText}" are written with different widths` };
    pad = firstText.length;
  }
  return { first, last, pad };
}

function range(registry: RegistryName, u: { first: number; last: number; pad: number }, vintage: string, parts: Record<string, string>): SerialParse {
  return { ok: true, range: { registry, first: u.first, last: u.last, quantity: u.last - u.first + 1, vintage, parts, pad: u.pad } };
}

function written(n: number, pad: number): string {
  return pad > 0 ? String(n).padStart(pad, '0') : String(n);
}

function year(text: string): string | null {
  return /^(19|20)\d\d$/.test(text) ? text : null;
}

/** A Verra vintage date, DDMMYYYY, that exists on the calendar. */
function ddmmyyyy(text: string): number | null {
  const m = /^(\d\d)(\d\d)(\d{4})$/.exec(text);
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && y >= 1990 ? t : null;
}

// The sectoral scope is left out in some published examples (Cloverly's `...-VER-US-0003-01012020-...`): read
// as written, and written back the same way.
const VERRA = /^(\d+)-(\d+)-(\d+)-(VCS)-(VCU)-(\d+)-([A-Z]+)-([A-Z]{2})-(?:(\d+)-)?(\d+)-(\d{8})-(\d{8})-([01])$/;

const verra: Format = {
  registry: 'verra',
  claims: (t) => /^\d+-\d+-\d+-VCS-/.test(t),
  parse(text) {
    const m = VERRA.exec(text);
    if (!m) return refuse('serial_range', `"${text}" is not a Verra VCU serial (batch-first-last-VCS-VCU-code-type-country-scope-project-DDMMYYYY-DDMMYYYY-flag)`);
    const u = units(m[2]!, m[3]!);
    if ('field' in u) return refuse(u.field, u.message);
    const start = ddmmyyyy(m[11]!);
    const end = ddmmyyyy(m[12]!);
    if (start === null) return refuse('vintage', `vintage start "${m[11]}" is not a date (DDMMYYYY)`);
    if (end === null) return refuse('vintage', `vintage end "${m[12]}" is not a date (DDMMYYYY)`);
    if (end < start) return refuse('vintage', `vintage end ${m[12]} is before its start ${m[11]}`);
    const [ys, ye] = [m[11]!.slice(4), m[12]!.slice(4)];
    return range('verra', u, ys === ye ? ys : `${ys}-${ye}`, {
      batch: m[1]!,
      program: m[4]!,
      unit: m[5]!,
      code: m[6]!,
      credit_type: m[7]!,
      country: m[8]!,
      scope: m[9] ?? '',
      project: m[10]!,
      vintage_start: m[11]!,
      vintage_end: m[12]!,
      flag: m[13]!,
    });
  },
  write: (r, first, last) => {
    const p = r.parts;
    return `${p.batch}-${first}-${last}-${p.program}-${p.unit}-${p.code}-${p.credit_type}-${p.country}-${p.scope ? `${p.scope}-` : ''}${p.project}-${p.vintage_start}-${p.vintage_end}-${p.flag}`;
  },
};

const GOLD = /^(GS\d+-\d+)-([A-Z]{2})-(GS\d+)-(\d+)-(\d{4})-(\d+)-(\d+)-(\d+)$/;

const goldStandard: Format = {
  registry: 'gold_standard',
  claims: (t) => /^GS\d+-\d+-/.test(t),
  parse(text) {
    const m = GOLD.exec(text);
    if (!m) return refuse('serial_range', `"${text}" is not a Gold Standard serial (GS1-1-country-GSproject-segment-vintage-batch-first-last)`);
    const u = units(m[7]!, m[8]!);
    if ('field' in u) return refuse(u.field, u.message);
    const vintage = year(m[5]!);
    if (!vintage) return refuse('vintage', `vintage "${m[5]}" is not a year`);
    return range('gold_standard', u, vintage, { prefix: m[1]!, country: m[2]!, project: m[3]!, segment: m[4]!, vintage, batch: m[6]! });
  },
  write: (r, first, last) => {
    const p = r.parts;
    return `${p.prefix}-${p.country}-${p.project}-${p.segment}-${p.vintage}-${p.batch}-${first}-${last}`;
  },
};

const ACR = /^ACR-([A-Z]{2})-(\d+)-(\d{4})-(\d+)-(\d+)-(\d+)$/;

const acr: Format = {
  registry: 'acr',
  claims: (t) => t.startsWith('ACR-'),
  parse(text) {
    const m = ACR.exec(text);
    if (!m) return refuse('serial_range', `"${text}" is not an ACR serial (ACR-country-project-vintage-batch-first-last)`);
    const u = units(m[5]!, m[6]!);
    if ('field' in u) return refuse(u.field, u.message);
    const vintage = year(m[3]!);
    if (!vintage) return refuse('vintage', `vintage "${m[3]}" is not a year`);
    return range('acr', u, vintage, { country: m[1]!, project: m[2]!, vintage, batch: m[4]! });
  },
  write: (r, first, last) => `ACR-${r.parts.country}-${r.parts.project}-${r.parts.vintage}-${r.parts.batch}-${first}-${last}`,
};

const CAR = /^CAR-(\d+)-([A-Z]{2})-(\d+)-(\d+)-(\d+)-([A-Z]{2})-(\d{4})-(\d+)-(\d+) to (\d+)$/;

const car: Format = {
  registry: 'car',
  claims: (t) => t.startsWith('CAR-'),
  parse(text) {
    const m = CAR.exec(text);
    if (!m) return refuse('serial_range', `"${text}" is not a CAR serial (CAR-type-country-project-n-n-state-vintage-batch-first to last)`);
    const u = units(m[9]!, m[10]!);
    if ('field' in u) return refuse(u.field, u.message);
    const vintage = year(m[7]!);
    if (!vintage) return refuse('vintage', `vintage "${m[7]}" is not a year`);
    return range('car', u, vintage, { unit_type: m[1]!, country: m[2]!, project: m[3]!, segment_a: m[4]!, segment_b: m[5]!, state: m[6]!, vintage, batch: m[8]! });
  },
  write: (r, first, last) => {
    const p = r.parts;
    return `CAR-${p.unit_type}-${p.country}-${p.project}-${p.segment_a}-${p.segment_b}-${p.state}-${p.vintage}-${p.batch}-${first} to ${last}`;
  },
};

const PURO = /^(PURO)_([A-Z]+)_([A-Z0-9+]+)_([A-Z]{2})_([A-Za-z0-9]+)_(\d{4})_([A-Za-z0-9-]+)_(\d+)-(\d+)$/;
const PURO_GSRN = /^(\d{18})(\d{12})-(\d{18})(\d{12})$/;

const puro: Format = {
  registry: 'puro',
  claims: (t) => t.startsWith('PURO_') || /^\d{30}-/.test(t),
  parse(text) {
    const g = PURO_GSRN.exec(text);
    if (g) {
      if (g[1] !== g[3]) return refuse('last', `first and last name different facilities (GSRN ${g[1]} and ${g[3]})`);
      const u = units(g[2]!, g[4]!);
      if ('field' in u) return refuse(u.field, u.message);
      return range('puro', u, '', { gsrn: g[1]! });
    }
    const m = PURO.exec(text);
    if (!m) return refuse('serial_range', `"${text}" is not a Puro.earth certificate id (PURO_registry_type_country_facility_vintage_issuance_first-last)`);
    const u = units(m[8]!, m[9]!);
    if ('field' in u) return refuse(u.field, u.message);
    const vintage = year(m[6]!);
    if (!vintage) return refuse('vintage', `vintage "${m[6]}" is not a year`);
    return range('puro', u, vintage, { standard: m[1]!, registry_id: m[2]!, credit_type: m[3]!, country: m[4]!, facility: m[5]!, vintage, issuance: m[7]! });
  },
  write: (r, first, last) => {
    const p = r.parts;
    // The earlier form writes each unit as the facility's GSRN and a 12-digit sequence.
    if (p.gsrn !== undefined) return `${p.gsrn}${first.padStart(12, '0')}-${p.gsrn}${last.padStart(12, '0')}`;
    return `${p.standard}_${p.registry_id}_${p.credit_type}_${p.country}_${p.facility}_${p.vintage}_${p.issuance}_${first}-${last}`;
  },
};

const FORMATS: Record<RegistryName, Format> = { verra, gold_standard: goldStandard, acr, car, puro };

export function isRegistryName(text: string): text is RegistryName {
  return (REGISTRY_NAMES as readonly string[]).includes(text);
}

/**
 * Reads a serial range as its registry writes it. With `registry`, the text must be that registry's; without,
 * the format says which. `quantity`, when given (what the operator or an export states), must equal the count
 * the range spans. A refusal names the field at fault: serial_range (not a known format), registry, first,
 * last, vintage or quantity.
 */
export function parseSerialRange(text: string, registry?: RegistryName, stated?: { quantity?: number }): SerialParse {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t === '') return refuse('serial_range', 'the serial range is empty');
  const claimed = REGISTRY_NAMES.find((name) => FORMATS[name].claims(t));
  if (registry !== undefined && claimed !== undefined && claimed !== registry) {
    return refuse('registry', `"${t}" is written as ${REGISTRY_TITLES[claimed]} writes serials, not ${REGISTRY_TITLES[registry]}`);
  }
  const format = FORMATS[registry ?? claimed ?? 'verra'];
  if (registry === undefined && claimed === undefined) {
    return refuse('serial_range', `"${t}" is not a serial range of any registry Canopy reads (${REGISTRY_NAMES.map((n) => REGISTRY_TITLES[n]).join(', ')})`);
  }
  const parsed = format.parse(t);
  if (parsed.ok && stated?.quantity !== undefined && stated.quantity !== parsed.range.quantity) {
    return refuse('quantity', `the range spans ${parsed.range.quantity} units (${parsed.range.first} to ${parsed.range.last}), not the ${stated.quantity} stated`);
  }
  return parsed;
}

/** A sub-range first..last (inclusive, inside the range) written exactly as the registry writes it:
 *  formatSerialRange(r, r.first, r.last) gives back the text r was read from. */
export function formatSerialRange(range: SerialRange, first: number, last: number): string {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || first < range.first || last > range.last || first > last) {
    throw new RangeError(`units ${first}..${last} are not a sub-range of ${range.first}..${range.last}`);
  }
  return FORMATS[range.registry].write(range, written(first, range.pad), written(last, range.pad));
}

/** The series a range belongs to: its registry and fixed parts. Two blocks of one series whose units
 *  intersect are the same credits counted twice. */
export function seriesKey(range: Pick<SerialRange, 'registry' | 'parts'>): string {
  const parts = Object.keys(range.parts)
    .sort()
    .map((k) => `${k}=${range.parts[k]}`);
  return [range.registry, ...parts].join('|');
}

/** The credits a range's fixed parts name, however they are written: numbers compared without the zeros
 *  they are padded with (GS02978 is GS2978), and Verra's sectoral scope left out (a batch has one scope, and some published
 *  serials omit it). Two ranges with the same credits key whose units intersect count the same units, even
 *  when their text (and so their seriesKey) differs. */
export function creditsKey(range: Pick<SerialRange, 'registry' | 'parts'>): string {
  const parts = Object.keys(range.parts)
    .filter((k) => !(range.registry === 'verra' && k === 'scope'))
    .sort()
    .map((k) => {
      const v = range.parts[k]!;
      return `${k}=${v.replace(/(^|\D)0+(?=\d)/g, '$1')}`;
    });
  return [range.registry, ...parts].join('|');
}

