import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { receiptIdQuery, receiptPageSchema, receiptSchema, receiptsQuery } from '../../../shared/schemas/receipt';

// The receipt endpoints, in the shape of ENDPOINTS in src/server/openapi.ts.
export const RECEIPT_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.receiptLists,
    operationId: 'receiptLists',
    tag: 'Receipts',
    summary: "The caller's receipts, newest first: those of an order (order_id), a fund-log entry (entry_id), a retirement (retirement_id), or all",
    schema: receiptsQuery,
    auth: 'user',
    answer: receiptPageSchema,
    gives: '{list: Receipt[], total, page, page_size}',
  },
  {
    method: 'get',
    path: PATHS.receiptDetail,
    operationId: 'receiptDetail',
    tag: 'Receipts',
    summary: "One of the caller's receipts",
    schema: receiptIdQuery,
    auth: 'user',
    answer: receiptSchema,
    errors: ['receipt_not_found'],
    gives: 'Receipt',
  },
  {
    method: 'get',
    path: PATHS.receiptPdf,
    operationId: 'receiptPdf',
    tag: 'Receipts',
    summary: "One of the caller's receipts as an A4 PDF download (lang=cn for Chinese)",
    schema: receiptIdQuery,
    auth: 'user',
    errors: ['receipt_not_found'],
    bare: ['application/pdf'],
    gives: 'application/pdf (not enveloped); a refusal is the usual envelope',
  },
];
