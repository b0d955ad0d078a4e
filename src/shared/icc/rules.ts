import * as v from 'valibot';
import { PROJECT_TYPES } from '../content-values';

// The shape of the eligibility rules file (rules.json; docs/product.md#singapore-carbon-tax): data, one
// source line per rule in English and Chinese (`source`, `source_cn`), and a version every verdict
// carries. A test parses the file with this schema, so a rules file that breaks it fails the build, not a
// member's page.

const text = v.pipe(v.string(), v.nonEmpty());
/** A rule's citation in both languages. */
const cited = { source: text, source_cn: text };
const country = v.pipe(v.string(), v.regex(/^[A-Z]{2}$/));
const year = v.pipe(v.number(), v.integer(), v.minValue(2000), v.maxValue(2100));
const isoDate = v.pipe(v.string(), v.isoDate());

const eligibilitySchema = v.strictObject({
  programmes: v.strictObject({ list: v.pipe(v.array(v.pipe(v.string(), v.nonEmpty())), v.minLength(1)), ...cited }),
  excluded_sectors: v.array(v.strictObject({ sector: v.picklist(PROJECT_TYPES), ...cited })),
  excluded_methodologies: v.array(v.strictObject({ id: v.pipe(v.string(), v.nonEmpty()), ...cited })),
  methodology_cutoff: v.nullable(v.strictObject({ date: isoDate, ...cited })),
});

export const iccRulesSchema = v.strictObject({
  version: v.pipe(v.string(), v.nonEmpty()),
  reduction_window: v.pipe(
    v.strictObject({ first_year: year, last_year: year, ...cited }),
    v.check((w) => w.first_year <= w.last_year, 'first_year after last_year'),
  ),
  implementation_agreements: v.strictObject(cited),
  authorisation: v.strictObject(cited),
  corresponding_adjustment: v.strictObject(cited),
  excluded_host_countries: v.array(v.strictObject({ country, ...cited })),
  countries: v.pipe(
    v.array(
      v.strictObject({
        country,
        name: text,
        agreement: v.strictObject({ signed: v.pipe(v.string(), v.regex(/^\d{4}(-\d{2})?$/)), ...cited }),
        eligibility: v.nullable(eligibilitySchema),
      }),
    ),
    v.check((list) => new Set(list.map((c) => c.country)).size === list.length, 'a country is listed twice'),
  ),
});

export type IccRules = v.InferOutput<typeof iccRulesSchema>;
