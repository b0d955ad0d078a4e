import * as v from 'valibot';
import { idSchema, pageSchema } from './common';

// Value lists live in a valibot-free module so screens can import them without the schema library.
export { PROJECT_STATUSES, PUBLIC_PROJECT_STATUSES, PROJECT_TYPES, PROJECT_STANDARDS, CYCLE_UNITS } from '../content-values';
export type { ProjectStatus, ProjectType, JoinBlock } from '../content-values';
import { PROJECT_STATUSES, PUBLIC_PROJECT_STATUSES, PROJECT_TYPES, PROJECT_STANDARDS, CYCLE_UNITS, type ProjectStatus, type ProjectType, type JoinBlock } from '../content-values';

export interface Project {
  id: number;
  name: string;
  name_cn: string;
  location: string;
  type: ProjectType;
  standard: string;
  status: ProjectStatus;
  price: number; // cents per ton
  presale_price: number | null;
  min_tons: number;
  max_tons: number;
  total_tons: number;
  remaining_tons: number;
  progress: number; // 0..100, sold share
  selling_time: string;
  selling_time_ms: number;
  end_time: string;
  end_time_ms: number;
  cycle_value: number;
  cycle_unit: (typeof CYCLE_UNITS)[number];
  yield_bp: number; // earning yield in basis points
  required_grade: number;
  monthly_limit: number;
  total_limit: number;
  company: string;
  registry_id: string;
  methodology: string;
  vintage: number;
  size_ha: number;
  image: string;
  intro: string;
  intro_cn: string;
  join_block: JoinBlock;
  updated_at: number;
}

// Content carries both languages, so a cached copy reads in either language offline.
export interface NewsItem {
  id: number;
  title: string;
  title_cn: string;
  summary: string;
  summary_cn: string;
  body: string;
  body_cn: string;
  image: string;
  published_at: string;
  published_at_ms: number;
}

export interface FaqItem {
  id: number;
  question: string;
  question_cn: string;
  answer: string;
  answer_cn: string;
}

export interface ContentPage {
  slug: 'about' | 'protocol' | 'privacy';
  title: string;
  title_cn: string;
  body: string;
  body_cn: string;
  updated_at: number;
}

export interface Banner {
  id: number;
  title: string;
  title_cn: string;
  image: string;
  link: string;
}

export const pageQuery = v.object({ slug: v.picklist(['about', 'protocol', 'privacy'], 'not_found') });

/** A keyset position from an answer's next_cursor (opaque; checked by the server when decoded). */
const cursorSchema = v.optional(v.pipe(v.string('invalid_request'), v.maxLength(200, 'invalid_request')), '');

export const projectListQuery = v.object({
  ...pageSchema.entries,
  cursor: cursorSchema,
  status: v.optional(v.picklist([...PUBLIC_PROJECT_STATUSES, ''], 'invalid_request'), ''),
  type: v.optional(v.picklist([...PROJECT_TYPES, ''], 'invalid_request'), ''),
  q: v.optional(v.pipe(v.string('invalid_request'), v.trim(), v.maxLength(140, 'too_long')), ''),
});

export const idQuery = v.object({ id: idSchema });
export const newsListQuery = v.object({ ...pageSchema.entries, cursor: cursorSchema });

/** Operator input for project:create (FILE.json). */
export const projectCreateSchema = v.object({
  name: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(140, 'too_long')),
  name_cn: v.optional(v.string(), ''),
  location: v.pipe(v.string('required'), v.nonEmpty('required')),
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
  registry_id: v.optional(v.string(), ''),
  methodology: v.optional(v.string(), ''),
  vintage: v.optional(v.pipe(v.number(), v.integer()), 2025),
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
