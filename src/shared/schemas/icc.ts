import * as v from 'valibot';
import { ICC_REASON_CODES, ICC_STATUSES, ICC_VERDICTS } from '../icc/values';
import { epochMs, int, intFromInput, isoTime } from './common';

// The Singapore carbon-tax facts of a project and its verdict (docs/product.md#singapore-carbon-tax).

const year = v.pipe(v.number(), v.integer(), v.minValue(1990), v.maxValue(2100));

/** A project's facts as an operator's file or a seed file gives them: every one required, '' or
 *  'unknown' when not known. */
export const iccFactsEntries = {
  host_country: v.pipe(v.string(), v.regex(/^([A-Z]{2})?$/, 'host_country: an ISO 3166-1 alpha-2 code such as GH, or empty')),
  programme: v.pipe(v.string(), v.maxLength(40)),
  methodology_id: v.pipe(v.string(), v.maxLength(60)),
  methodology_date: v.union([v.literal(''), v.pipe(v.string(), v.isoDate('methodology_date: a date such as 2021-07-01, or empty'))]),
  reduction_start: v.nullable(year),
  reduction_end: v.nullable(year),
  authorisation: v.picklist(ICC_STATUSES),
  authorisation_ref: v.pipe(v.string(), v.maxLength(120)),
  adjustment: v.picklist(ICC_STATUSES),
  adjustment_ref: v.pipe(v.string(), v.maxLength(120)),
};

/** What an operator's project:create file may leave out: unknown until known. */
export const iccFactsOptional = {
  host_country: v.optional(iccFactsEntries.host_country, ''),
  programme: v.optional(iccFactsEntries.programme, ''),
  methodology_id: v.optional(iccFactsEntries.methodology_id, ''),
  methodology_date: v.optional(iccFactsEntries.methodology_date, ''),
  reduction_start: v.optional(iccFactsEntries.reduction_start, null),
  reduction_end: v.optional(iccFactsEntries.reduction_end, null),
  authorisation: v.optional(iccFactsEntries.authorisation, 'unknown'),
  authorisation_ref: v.optional(iccFactsEntries.authorisation_ref, ''),
  adjustment: v.optional(iccFactsEntries.adjustment, 'unknown'),
  adjustment_ref: v.optional(iccFactsEntries.adjustment_ref, ''),
};

/** The verdict as answers carry it: every reason that applies with the source line of its rule in English
 *  and Chinese, and the version of the rules file that gave it. */
export const iccJudgementSchema = v.strictObject({
  verdict: v.picklist(ICC_VERDICTS),
  reasons: v.array(
    v.strictObject({
      code: v.picklist(ICC_REASON_CODES),
      source: v.pipe(v.string(), v.description("The rule's citation in English")),
      source_cn: v.pipe(v.string(), v.description("The rule's citation in Chinese")),
    }),
  ),
  rules_version: v.string(),
});

/** The facts and the verdict on a project answer. */
export const projectIccSchema = v.strictObject({
  host_country: v.string(),
  programme: v.string(),
  methodology_id: v.string(),
  methodology_date: v.string(),
  reduction_start: v.nullable(v.number()),
  reduction_end: v.nullable(v.number()),
  authorisation: v.picklist(ICC_STATUSES),
  authorisation_ref: v.string(),
  adjustment: v.picklist(ICC_STATUSES),
  adjustment_ref: v.string(),
  ...iccJudgementSchema.entries,
});
export type ProjectIcc = v.InferOutput<typeof projectIccSchema>;

// ---- The account's cap per compliance year (docs/product.md#singapore-carbon-tax)

/** A compliance year: the tax lets eligible credits count from 2024. */
export const iccYearSchema = v.pipe(intFromInput('icc_year_invalid'), v.minValue(2024, 'icc_year_invalid'), v.maxValue(2100, 'icc_year_invalid'));

/** GET icc/cap. */
export const iccCapQuery = v.object({ year: iccYearSchema });

/** POST icc/emissions: the taxable emissions of a compliance year, whole tCO2e. */
export const iccEmissionsSchema = v.object({
  year: iccYearSchema,
  taxable_tons: v.pipe(intFromInput('icc_emissions_invalid'), v.minValue(0, 'icc_emissions_invalid'), v.maxValue(1_000_000_000, 'icc_emissions_invalid')),
});
export type IccEmissionsInput = v.InferOutput<typeof iccEmissionsSchema>;

export const iccCapSchema = v.strictObject({
  year: int(),
  taxable_tons: v.pipe(v.nullable(int()), v.description('Taxable emissions the account entered for the year; null when none')),
  cap_tons: v.pipe(int(), v.description('5% of the taxable emissions, rounded down to whole tons')),
  held_eligible_tons: v.pipe(int(), v.description('Tons the account holds of projects eligible now')),
  retired_tons: v.pipe(int(), v.description('Tons retired for Singapore carbon tax for this year and cancelled on the registry: only these count toward the cap')),
  pending_tons: v.pipe(int(), v.description('Tons surrendered for this year still waiting to be cancelled on the registry: they count once cancelled')),
  room_tons: v.pipe(int(), v.description('cap_tons - retired_tons - pending_tons, never below 0: the room left once the waiting surrenders are cancelled')),
  over_tons: v.pipe(int(), v.description('Tons surrendered for the year (cancelled or waiting) beyond the cap: they do not count')),
  rules_version: v.string(),
});
export type IccCap = v.InferOutput<typeof iccCapSchema>;

// ---- The evidence pack and its public check

const isoDay = v.pipe(v.string('icc_period_invalid'), v.isoDate('icc_period_invalid'));

/** GET icc/pack: the period in SGT calendar days, both included; the file's format and language. */
export const iccPackQuery = v.object({
  from: isoDay,
  to: isoDay,
  format: v.picklist(['pdf', 'csv'], 'invalid_request'),
});
export type IccPackQuery = v.InferOutput<typeof iccPackQuery>;

/** GET verify/pack/:hash: a SHA-256 in hex. */
export const PACK_HASH = /^[0-9a-f]{64}$/;

export const packVerdictSchema = v.strictObject({
  hash: v.string(),
  issued_at: isoTime(),
  issued_at_ms: epochMs(),
  account: v.pipe(v.string(), v.description('The account the pack was issued for: its company, or its holder\'s first name and initial, and its number')),
  format: v.picklist(['pdf', 'csv']),
  period_from: v.string(),
  period_to: v.string(),
  retirements: v.pipe(
    v.array(
      v.strictObject({
        certificate_id: v.string(),
        tons: int(),
        retired_at_ms: epochMs(),
        icc_year: v.nullable(int()),
        registry: v.string(),
        registry_serials: v.array(v.string()),
        registry_status: v.picklist(['pending', 'cancelled']),
        registry_reference: v.nullable(v.string()),
        registry_cancelled_on: v.nullable(v.string()),
      }),
    ),
    v.description("The pack's retirements, each with its registry serials and where it stands on the registry now: cancelled with the registry's reference and day, or pending (docs/product.md#registry-cancellation)"),
  ),
});
export type PackVerdict = v.InferOutput<typeof packVerdictSchema>;
