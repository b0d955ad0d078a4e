import * as v from 'valibot';
import { epochMs, idSchema, int, isoTime, nextCursor, paged, pageSchema } from './common';
import { iccFactsOptional, projectIccSchema } from './icc';

// Value lists live in a valibot-free module so screens can import them without the schema library.
export { PROJECT_STATUSES, PUBLIC_PROJECT_STATUSES, PROJECT_TYPES } from '../content-values';
export type { ProjectStatus, ProjectType, JoinBlock } from '../content-values';
import { PROJECT_STATUSES, PUBLIC_PROJECT_STATUSES, PROJECT_TYPES, PROJECT_STANDARDS, CYCLE_UNITS } from '../content-values';

// ---- Answers: the types are inferred from these schemas, written once.

export const projectSchema = v.strictObject({
  id: int(),
  name: v.string(),
  name_cn: v.string(),
  location: v.string(),
  location_cn: v.string(),
  country: v.string(),
  country_cn: v.string(),
  type: v.picklist(PROJECT_TYPES),
  standard: v.string(),
  status: v.picklist(PROJECT_STATUSES),
  price: v.pipe(int(), v.description('Cents per ton')),
  presale_price: v.pipe(v.nullable(int()), v.description('Cents per ton; null when the project has no pre-sale')),
  min_tons: int(),
  max_tons: int(),
  total_tons: int(),
  remaining_tons: int(),
  progress: v.pipe(int(), v.description('Sold share, 0..100')),
  selling_time: isoTime(),
  selling_time_ms: epochMs(),
  end_time: isoTime(),
  end_time_ms: epochMs(),
  cycle_value: int(),
  cycle_unit: v.picklist(CYCLE_UNITS),
  yield_bp: v.pipe(int(), v.description('Earning yield in basis points')),
  required_grade: int(),
  monthly_limit: int(),
  total_limit: int(),
  company: v.string(),
  registry_id: v.string(),
  methodology: v.string(),
  vintage: int(),
  size_ha: v.number(),
  image: v.string(),
  intro: v.string(),
  intro_cn: v.string(),
  join_block: v.pipe(v.nullable(v.picklist(['not_started', 'ended', 'full', 'paused'])), v.description('Why the project cannot be joined now; null when it can. paused: a registry reconciliation found the registry holds fewer units than Canopy counts (docs/product.md#registry-cancellation)')),
  icc: v.pipe(projectIccSchema, v.description('Singapore carbon tax: the facts, the verdict with every reason and the rules version')),
  updated_at: epochMs(),
});
export type Project = v.InferOutput<typeof projectSchema>;
export const projectPageSchema = paged(projectSchema, { next_cursor: nextCursor() });

// Content carries both languages, so a cached copy reads in either language offline.
export const newsItemSchema = v.strictObject({
  id: int(),
  title: v.string(),
  title_cn: v.string(),
  summary: v.string(),
  summary_cn: v.string(),
  body: v.string(),
  body_cn: v.string(),
  image: v.string(),
  published_at: isoTime(),
  published_at_ms: epochMs(),
});
export type NewsItem = v.InferOutput<typeof newsItemSchema>;
export const newsPageSchema = paged(newsItemSchema, { next_cursor: nextCursor() });

export const faqItemSchema = v.strictObject({
  id: int(),
  question: v.string(),
  question_cn: v.string(),
  answer: v.string(),
  answer_cn: v.string(),
});
export type FaqItem = v.InferOutput<typeof faqItemSchema>;
export const faqPageSchema = paged(faqItemSchema);

export const CONTENT_PAGE_SLUGS = ['about', 'protocol', 'privacy'] as const;
export const contentPageSchema = v.strictObject({
  slug: v.picklist(CONTENT_PAGE_SLUGS),
  title: v.string(),
  title_cn: v.string(),
  body: v.string(),
  body_cn: v.string(),
  updated_at: epochMs(),
});
export type ContentPage = v.InferOutput<typeof contentPageSchema>;

export const bannerSchema = v.strictObject({
  id: int(),
  title: v.string(),
  title_cn: v.string(),
  image: v.string(),
  link: v.string(),
});
export type Banner = v.InferOutput<typeof bannerSchema>;
export const bannerPageSchema = paged(bannerSchema);

export const pageQuery = v.object({ slug: v.picklist(['about', 'protocol', 'privacy'], 'not_found') });

/** A keyset position from an answer's next_cursor (opaque; checked by the server when decoded). */
const cursorSchema = v.optional(v.pipe(v.string('invalid_request'), v.maxLength(200, 'invalid_request')), '');

export const projectListQuery = v.object({
  ...pageSchema.entries,
  cursor: cursorSchema,
  status: v.optional(v.picklist([...PUBLIC_PROJECT_STATUSES, ''], 'invalid_request'), ''),
  type: v.optional(v.picklist([...PROJECT_TYPES, ''], 'invalid_request'), ''),
  q: v.optional(v.pipe(v.string('invalid_request'), v.trim(), v.maxLength(140, 'too_long')), ''),
  icc: v.optional(v.picklist(['eligible', ''], 'invalid_request'), ''),
});

export type ProjectListQuery = v.InferOutput<typeof projectListQuery>;

export const idQuery = v.object({ id: idSchema });
export const newsListQuery = v.object({ ...pageSchema.entries, cursor: cursorSchema });

/** Operator input for project:create (FILE.json). */
export const projectCreateSchema = v.object({
  name: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(140, 'too_long')),
  name_cn: v.optional(v.string(), ''),
  location: v.pipe(v.string('required'), v.nonEmpty('required')),
  location_cn: v.optional(v.string(), ''),
  type: v.picklist(PROJECT_TYPES, 'invalid_request'),
  standard: v.picklist(PROJECT_STANDARDS, 'invalid_request'),
  status: v.optional(v.picklist(PROJECT_STATUSES, 'invalid_request'), 'pending_review'),
  price: v.pipe(v.number(), v.integer(), v.minValue(1)),
  presale_price: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), null),
  min_tons: v.pipe(v.number(), v.integer(), v.minValue(1)),
  max_tons: v.pipe(v.number(), v.integer(), v.minValue(1)),
  total_tons: v.pipe(v.number(), v.integer(), v.minValue(1)),
  selling_time: v.pipe(v.string(), v.isoTimestamp()),
  end_time: v.pipe(v.string(), v.isoTimestamp()),
  cycle_value: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 30),
  cycle_unit: v.optional(v.picklist(CYCLE_UNITS), 'days'),
  yield_bp: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000)), 0),
  required_grade: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5)), 0),
  monthly_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1000),
  total_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 5000),
  company: v.optional(v.string(), ''),
  registry: v.optional(v.string(), ''), // the registry that lists it (Verra, Gold Standard)
  registry_id: v.optional(v.string(), ''),
  methodology: v.optional(v.string(), ''),
  vintage: v.optional(v.pipe(v.number(), v.integer()), 2025),
  ...iccFactsOptional,
  country: v.optional(v.string(), ''), // named on retirement certificates
  country_cn: v.optional(v.string(), ''),
  size_ha: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  image: v.optional(v.string(), ''),
  intro: v.optional(v.string(), ''),
  intro_cn: v.optional(v.string(), ''),
});

export const newsPublishSchema = v.object({
  title: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(140, 'too_long')),
  title_cn: v.optional(v.string(), ''),
  summary: v.optional(v.string(), ''),
  summary_cn: v.optional(v.string(), ''),
  body: v.pipe(v.string('required'), v.nonEmpty('required')),
  body_cn: v.optional(v.string(), ''),
  image: v.optional(v.string(), ''),
  published_at: v.optional(v.pipe(v.string(), v.isoTimestamp())),
});
