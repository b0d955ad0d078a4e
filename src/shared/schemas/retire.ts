import * as v from 'valibot';
import type { ErrorKey } from '../errors';
import { epochMs, idSchema, int, intFromInput, isoTime, paged, pageSchema } from './common';
import { iccYearSchema } from './icc';

// Retirement of carbon credits (docs/product.md#retirement): the request schemas the server validates with
// and the retire form reuses, and the shapes the credit and public endpoints answer. Quantities whole tons.

const m = (key: ErrorKey) => key;

export const BENEFICIARY_MAX = 100;
export const REASON_MAX = 200;

/** Control characters (C0, C1) and format characters (bidirectional overrides and isolates, zero-width
 *  characters, the byte-order mark), and line and paragraph separators: anything that could make a printed
 *  name read differently from what was stored. */
export const CONTROL_CHARS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Counted as a person sees them (code points), so a name in Chinese or with an emoji is not cut short. */
const length = (s: string) => [...s].length;

export const beneficiarySchema = v.pipe(
  v.string(m('retire_beneficiary_required')),
  v.check((s) => !CONTROL_CHARS.test(s), m('retire_beneficiary_invalid')),
  v.trim(),
  v.nonEmpty(m('retire_beneficiary_required')),
  v.check((s) => length(s) <= BENEFICIARY_MAX, m('retire_beneficiary_too_long')),
);

export const reasonSchema = v.optional(
  v.pipe(
    v.string(m('invalid_request')),
    // Line breaks are the reader's own; other control and format characters (text-reversing marks
    // included) would print on the public certificate as something else than what was typed.
    v.check((s) => !CONTROL_CHARS.test(s.replace(/\r?\n/g, '')), m('retire_reason_invalid')),
    v.trim(),
    v.check((s) => length(s) <= REASON_MAX, m('retire_reason_too_long')),
  ),
  '',
);

const paymentPassword = v.pipe(v.string(m('required')), v.nonEmpty(m('required')), v.maxLength(200, m('too_long')));

/** POST credit/retire. */
export const retireSchema = v.object({
  project_id: idSchema,
  tons: v.pipe(intFromInput('retire_tons_invalid'), v.minValue(1, m('retire_tons_invalid')), v.maxValue(1_000_000_000, m('retire_tons_invalid'))),
  beneficiary: beneficiarySchema,
  reason: reasonSchema,
  /** true: the public certificate shows the beneficiary as "a Canopy customer" and no reason
   *  (docs/product.md#retirement); serials, project, tons and date stay public. */
  hide_beneficiary: v.optional(v.boolean(m('retire_hide_beneficiary_invalid')), false),
  paypwd: paymentPassword,
  /** Surrendered against Singapore carbon tax for this compliance year: refused unless the project's credits
   *  are eligible (docs/product.md#singapore-carbon-tax). */
  icc_year: v.optional(v.nullable(iccYearSchema), null),
});
export type RetireInput = v.InferOutput<typeof retireSchema>;

/** GET credit/retirements. */
export const retirementsQuery = v.object({ ...pageSchema.entries });

/** GET public/certificate/:id: 22 base64url characters (128 bits). */
export const CERTIFICATE_ID = /^[A-Za-z0-9_-]{22}$/;

// ---- Answers ----

export const serialRangeSchema = v.strictObject({
  from: v.pipe(v.string(), v.description('First serial: registry ID, vintage and sequence, e.g. VCS-2871-2022-000000001')),
  to: v.string(),
});
export type SerialRange = v.InferOutput<typeof serialRangeSchema>;

/** The registry's own serial ranges of the units a retirement cancels (docs/product.md#registry-cancellation). */
const registrySerialsSchema = v.pipe(
  v.array(v.string()),
  v.description("The registry units this retirement cancels, each range written as the registry writes it (e.g. Verra's 12082-384723093-384723102-VCS-VCU-...); empty for a project listed before its registry blocks"),
);

export const REGISTRY_STATUSES = ['pending', 'cancelled'] as const;

export const retireAnswerSchema = v.strictObject({
  id: v.pipe(v.string(), v.description('128 random bits, base64url: the certificate id')),
  tons: int(),
  serials: v.array(serialRangeSchema),
  registry: v.pipe(v.string(), v.description("The project's registry, where the units are cancelled")),
  registry_serials: registrySerialsSchema,
  registry_due_on: v.pipe(v.string(), v.description('YYYY-MM-DD (SGT): the day by which the units are to be cancelled on the registry')),
  certificate_url: v.string(),
  icc: v.pipe(
    v.nullable(
      v.strictObject({
        year: int(),
        taxable_tons: v.pipe(v.nullable(int()), v.description('Taxable emissions entered for the year; null when none, and the cap is not known yet')),
        cap_tons: int(),
        retired_tons: int(),
        pending_tons: int(),
        over_tons: int(),
      }),
    ),
    v.description('For a retirement surrendered for Singapore carbon tax: the year\'s cap, the tons cancelled on the registry for it (only these count), the tons still waiting to be cancelled (this one among them); over_tons > 0 is the warning that with them the year passes the cap (taxable_tons null: no emissions entered, the cap is unknown)'),
  ),
});
export type RetireAnswer = v.InferOutput<typeof retireAnswerSchema>;

export const certificateSchema = v.strictObject({
  id: v.string(),
  beneficiary: v.pipe(v.string(), v.description('Empty on the public certificate when the beneficiary is hidden (shown as "a Canopy customer"); the owner\'s own list has the name')),
  reason: v.pipe(v.string(), v.description('Empty on the public certificate when the beneficiary is hidden')),
  beneficiary_hidden: v.pipe(v.boolean(), v.description('The beneficiary and the reason are kept off the public certificate and its PDF')),
  tons: int(),
  serials: v.array(serialRangeSchema),
  project_id: int(),
  project_name: v.string(),
  project_name_cn: v.string(),
  registry: v.string(),
  registry_id: v.string(),
  standard: v.string(),
  methodology: v.string(),
  vintage: int(),
  country: v.string(),
  country_cn: v.string(),
  location: v.string(),
  location_cn: v.string(),
  retired_at: isoTime(),
  retired_at_ms: epochMs(),
  certificate_url: v.string(),
  registry_status: v.pipe(v.picklist(REGISTRY_STATUSES), v.description('pending: waiting to be cancelled on the registry; cancelled: the registry cancelled the units (registry_reference)')),
  registry_serials: registrySerialsSchema,
  registry_reference: v.pipe(v.nullable(v.string()), v.description("The registry's own retirement reference, once cancelled")),
  registry_cancelled_on: v.pipe(v.nullable(v.string()), v.description('YYYY-MM-DD: the day the registry cancelled the units')),
  registry_due_on: v.pipe(v.nullable(v.string()), v.description('YYYY-MM-DD (SGT): the day by which the units are to be cancelled on the registry')),
  registry_url: v.pipe(v.string(), v.description("The registry's public record of the project, where the cancellation can be checked; empty for a registry without one")),
});
export type Certificate = v.InferOutput<typeof certificateSchema>;

export const retirementPageSchema = paged(certificateSchema);

export const transparencyProjectSchema = v.strictObject({
  id: int(),
  name: v.string(),
  name_cn: v.string(),
  registry: v.string(),
  registry_id: v.string(),
  vintage: int(),
  country: v.string(),
  country_cn: v.string(),
  status: v.string(),
  issued: v.pipe(int(), v.description('Tons: the supply (total_tons)')),
  sold: v.pipe(int(), v.description('Tons that left the supply: purchases and allocated pre-sales')),
  booked: v.pipe(int(), v.description('Tons in pre-sale bookings awaiting allocation (reserved from the supply)')),
  retired: int(),
  remaining: v.pipe(int(), v.description('Tons still for sale: issued - sold - booked')),
  held: v.pipe(int(), v.description("Units in the platform's registry account for this project now: its registry blocks less the units cancelled (docs/product.md#registry-cancellation)")),
  cancelled: v.pipe(int(), v.description('Tons retired and cancelled on the registry (the reference recorded)')),
  waiting: v.pipe(int(), v.description('Tons retired and still waiting to be cancelled on the registry')),
});
export type TransparencyProject = v.InferOutput<typeof transparencyProjectSchema>;

export const transparencySchema = v.strictObject({
  projects: v.array(transparencyProjectSchema),
  totals: v.strictObject({ issued: int(), sold: int(), booked: int(), retired: int(), remaining: int(), held: int(), cancelled: int(), waiting: int() }),
  /** Retired tons per SGT month, oldest first (the last 12 months, zeros included). */
  monthly: v.array(v.strictObject({ month: v.pipe(v.string(), v.description('YYYY-MM in SGT')), tons: int() })),
  ledger: v.strictObject({
    ok: v.boolean(),
    checked_at: isoTime(),
    checked_at_ms: epochMs(),
    totals: v.record(v.string(), int()),
    problems: int(),
  }),
  generated_at: isoTime(),
});
export type Transparency = v.InferOutput<typeof transparencySchema>;

export { idSchema };
