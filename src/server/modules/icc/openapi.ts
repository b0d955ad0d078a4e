import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { iccCapQuery, iccCapSchema, iccEmissionsSchema } from '../../../shared/schemas/icc';

// The Singapore carbon-tax endpoints (routes.ts), for ENDPOINTS in src/server/openapi.ts.
export const ICC_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.iccCap,
    operationId: 'iccCap',
    tag: 'Carbon tax',
    summary: "The account's 5% cap for a compliance year: taxable emissions, cap, eligible tons held, tons retired for the year, room left",
    schema: iccCapQuery,
    auth: 'user',
    answer: iccCapSchema,
    errors: ['icc_year_invalid'],
    gives: 'IccCap',
  },
  {
    method: 'post',
    path: PATHS.iccEmissions,
    operationId: 'iccEmissions',
    tag: 'Carbon tax',
    summary: 'Enter (or replace) the taxable emissions of a compliance year, whole tCO2e',
    schema: iccEmissionsSchema,
    auth: 'user',
    idempotent: true,
    answer: iccCapSchema,
    errors: ['icc_year_invalid', 'icc_emissions_invalid', 'idempotency_mismatch'],
    gives: 'IccCap',
  },
];
