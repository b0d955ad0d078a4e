import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { iccCapQuery, iccCapSchema, iccEmissionsSchema, iccPackQuery, packVerdictSchema } from '../../../shared/schemas/icc';

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
    errors: ['icc_year_invalid', 'icc_emissions_invalid', 'idempotency_mismatch', 'org_role_forbidden'],
    gives: 'IccCap',
  },
  {
    method: 'get',
    path: PATHS.iccPack,
    operationId: 'iccPack',
    tag: 'Carbon tax',
    summary: "The account's evidence pack for a period of SGT days: every purchase and retirement, verdicts, serials, totals, GST; PDF (A4) or CSV (UTF-8 with BOM), lang=cn for Chinese",
    schema: iccPackQuery,
    auth: 'user',
    errors: ['icc_period_invalid'],
    bare: ['application/pdf', 'text/csv'],
    gives: 'the file (not enveloped), its SHA-256 in the X-Canopy-Pack-Sha256 header; a refusal is the usual envelope',
  },
  {
    method: 'get',
    path: PATHS.verifyPack,
    operationId: 'verifyPack',
    tag: 'Carbon tax',
    summary: 'Whether Canopy issued an evidence pack with this SHA-256 (hex): when, for which account, which period (no session)',
    auth: 'none',
    answer: packVerdictSchema,
    errors: ['icc_pack_not_issued'],
    gives: 'PackVerdict',
  },
];
