import * as v from 'valibot';
import type { ErrorKey } from '../errors';
import { epochMs, idSchema, int, intFromInput, isoTime, paged, pageSchema } from './common';

// Monthly offset plans (docs/product.md#monthly-offset): the requests the server validates with and the
// subscribe form reuses, and the plan as the API answers it.

const m = (key: ErrorKey) => key;

export const OFFSET_STATUSES = ['active', 'paused', 'cancelled'] as const;
export type OffsetStatus = (typeof OFFSET_STATUSES)[number];

const paymentPassword = v.pipe(v.string(m('required')), v.nonEmpty(m('required')), v.maxLength(200, m('too_long')));
const tons = v.pipe(intFromInput('invalid_number'), v.minValue(1, m('offset_tons_invalid')), v.maxValue(1_000_000, m('offset_tons_invalid')));
const day = v.pipe(intFromInput('offset_day_invalid'), v.minValue(1, m('offset_day_invalid')), v.maxValue(31, m('offset_day_invalid')));

/** POST offset/create: the project, tons a month, the day of the month (SGT), the payment password. */
export const offsetCreateSchema = v.object({ project_id: idSchema, tons, day, password: paymentPassword });

/** POST offset/change: new tons and day of a plan; a new consent, so the payment password again. */
export const offsetChangeSchema = v.object({ id: idSchema, tons, day, password: paymentPassword });

/** POST offset/status: pause (paused), resume (active) or cancel (cancelled, for good). */
export const offsetStatusSchema = v.object({ id: idSchema, status: v.picklist(OFFSET_STATUSES, m('invalid_request')) });

/** GET offset/lists. */
export const offsetListQuery = v.object({ ...pageSchema.entries });

export const offsetRunSchema = v.strictObject({
  month: v.pipe(v.string(), v.description('SGT month, YYYY-MM')),
  outcome: v.picklist(['placed', 'refused']),
  order_id: v.nullable(int()),
  reason_code: v.pipe(v.nullable(int()), v.description('The catalogue code of why nothing was bought')),
  reason: v.pipe(v.string(), v.description('Why nothing was bought, in English; empty when placed')),
  reason_cn: v.pipe(v.string(), v.description('The same in Chinese')),
});
export type OffsetRun = v.InferOutput<typeof offsetRunSchema>;

export const offsetPlanSchema = v.strictObject({
  id: int(),
  project_id: int(),
  project_name: v.string(),
  project_name_cn: v.string(),
  project_image: v.string(),
  tons: int(),
  day: v.pipe(int(), v.description('Day of the month (SGT), 1-31; 29-31 fall on a shorter month\'s last day')),
  status: v.picklist(OFFSET_STATUSES),
  consent_text: v.pipe(v.string(), v.description('The consent confirmed with the payment password, as shown')),
  consent_at: isoTime(),
  consent_at_ms: epochMs(),
  next_run_at: v.nullable(isoTime()),
  next_run_at_ms: v.nullable(epochMs()),
  last_run: v.nullable(offsetRunSchema),
  created_at: isoTime(),
  created_at_ms: epochMs(),
});
export type OffsetPlan = v.InferOutput<typeof offsetPlanSchema>;
export const offsetPlanPageSchema = paged(offsetPlanSchema);
export type OffsetPlanPage = v.InferOutput<typeof offsetPlanPageSchema>;
