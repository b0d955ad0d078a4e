import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { approvalApproveSchema, approvalDecideSchema, approvalListQuery, approvalPageSchema, approvalRequestSchema, approvalThresholdsAnswerSchema, approvalThresholdsReadSchema, approvalThresholdsSchema } from '../../../shared/schemas/approval';

// The approvals endpoints (docs/product.md#approvals), for ENDPOINTS in src/server/openapi.ts.

const decideEntry = (approve: boolean): Endpoint => ({
  method: 'post',
  path: approve ? PATHS.approvalApprove : PATHS.approvalDecline,
  operationId: approve ? 'approvalApprove' : 'approvalDecline',
  tag: 'Approvals',
  summary: approve
    ? "Approve another member's waiting request (approvers and the owner) with the approver's own payment password: the retirement or withdrawal is carried out now"
    : "Decline another member's waiting request (approvers and the owner): what it held is released",
  schema: approve ? approvalApproveSchema : approvalDecideSchema,
  auth: 'user',
  idempotent: true,
  answer: approvalRequestSchema,
  answerName: 'ApprovalRequest',
  errors: approve
    ? ['org_not_member', 'approval_not_found', 'approval_own', 'approval_decided', 'trade_password_incorrect', 'withdraw_password_unset', 'account_locked', 'balance_frozen', 'retire_insufficient_credits', 'retire_not_retirable', 'insufficient_balance', 'withdraw_weekend', 'withdraw_holiday', 'withdraw_daily_limit', 'bank_incorrect']
    : ['org_not_member', 'approval_not_found', 'approval_own', 'approval_decided'],
  gives: 'the request as decided',
});

export const APPROVAL_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.approvalList,
    operationId: 'approvalList',
    tag: 'Approvals',
    summary: "The organisation's retirement and withdrawal requests, newest first (state: waiting, decided or all)",
    schema: approvalListQuery,
    auth: 'user',
    answer: approvalPageSchema,
    errors: ['org_not_member'],
    gives: '{list, total, page, page_size}',
  },
  decideEntry(true),
  decideEntry(false),
  {
    method: 'post',
    path: PATHS.approvalCancel,
    operationId: 'approvalCancel',
    tag: 'Approvals',
    summary: 'Cancel your own waiting request (its maker): what it held is released, as by a decline',
    schema: approvalDecideSchema,
    auth: 'user',
    idempotent: true,
    answer: approvalRequestSchema,
    answerName: 'ApprovalRequest',
    errors: ['org_not_member', 'org_role_forbidden', 'approval_not_found', 'approval_not_yours', 'approval_decided'],
    gives: 'the request, cancelled',
  },
  {
    method: 'get',
    path: PATHS.approvalThresholds,
    operationId: 'approvalThresholds',
    tag: 'Approvals',
    summary: "The organisation's thresholds: a member's retirement of more tons, or withdrawal of more cents, waits for an approver",
    auth: 'user',
    answer: approvalThresholdsReadSchema,
    errors: ['org_not_member'],
    gives: '{retire_tons, withdraw_cents, applies_to_you}',
  },
  {
    method: 'post',
    path: PATHS.approvalThresholds,
    operationId: 'approvalSetThresholds',
    tag: 'Approvals',
    summary: 'Set the thresholds (the owner)',
    schema: approvalThresholdsSchema,
    auth: 'user',
    idempotent: true,
    answer: approvalThresholdsAnswerSchema,
    errors: ['org_not_member', 'approval_owner_only'],
    gives: '{retire_tons, withdraw_cents}',
  },
];
