import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { offsetChangeSchema, offsetCreateSchema, offsetListQuery, offsetPlanPageSchema, offsetPlanSchema, offsetStatusSchema } from '../../../shared/schemas/offset';

// The monthly offset endpoints, in the shape of ENDPOINTS in src/server/openapi.ts.
const PLAN_REFUSALS = [
  'project_ended',
  'project_full',
  'project_not_started',
  'project_sales_paused',
  'below_min_tons',
  'above_max_tons',
  'grade_not_met',
  'not_found',
  'project_password_incorrect',
  'account_locked',
  'balance_frozen',
  'withdraw_password_unset',
  'risk_forbidden',
  'idempotency_mismatch',
] as const;

export const OFFSET_ENDPOINTS: Endpoint[] = [
  {
    method: 'post',
    path: PATHS.offsetCreate,
    operationId: 'offsetCreate',
    tag: 'Offsets',
    summary: 'Subscribe to a monthly offset: tons of a project in progress bought on a day of each month (SGT); the payment password once, its consent text kept with the plan',
    schema: offsetCreateSchema,
    auth: 'user',
    idempotent: true,
    answer: offsetPlanSchema,
    errors: [...PLAN_REFUSALS, 'offset_plans_limit', 'offset_day_invalid', 'offset_tons_invalid'],
    gives: 'OffsetPlan',
  },
  {
    method: 'post',
    path: PATHS.offsetChange,
    operationId: 'offsetChange',
    tag: 'Offsets',
    summary: "Change a plan's tons and day: a new consent, confirmed with the payment password",
    schema: offsetChangeSchema,
    auth: 'user',
    idempotent: true,
    answer: offsetPlanSchema,
    errors: [...PLAN_REFUSALS, 'offset_plan_not_found', 'offset_cancelled', 'offset_day_invalid', 'offset_tons_invalid'],
    gives: 'OffsetPlan',
  },
  {
    method: 'post',
    path: PATHS.offsetStatus,
    operationId: 'offsetStatus',
    tag: 'Offsets',
    summary: 'Pause (paused), resume (active) or cancel (cancelled, for good) a plan',
    schema: offsetStatusSchema,
    auth: 'user',
    idempotent: true,
    answer: offsetPlanSchema,
    errors: ['offset_plan_not_found', 'offset_cancelled', 'offset_maker_gone', 'idempotency_mismatch'],
    gives: 'OffsetPlan',
  },
  {
    method: 'get',
    path: PATHS.offsetLists,
    operationId: 'offsetLists',
    tag: 'Offsets',
    summary: "The caller's monthly offset plans, newest first, each with its last month's outcome",
    schema: offsetListQuery,
    auth: 'user',
    answer: offsetPlanPageSchema,
    gives: '{list: OffsetPlan[], total, page, page_size}',
  },
];
