import * as v from 'valibot';
import type { RetireAnswer } from './retire';
import type { WithdrawalRecord } from './wallet';
import { epochMs, idSchema, int, intFromInput, paged, pageSchema } from './common';

// Approvals (maker-checker) of an organisation (docs/product.md#approvals): requests and answers.

/** `cancelled`: withdrawn by its maker, kept as `declined` by the maker (who can never decline their own). */
export const APPROVAL_STATUSES = ['waiting', 'approved', 'declined', 'expired', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** Declining names the request; approving also takes the approver's own payment password, since the
 *  approval moves the organisation's money or credits (docs/decisions/0038-approvals.md). */
export const approvalDecideSchema = v.strictObject({ id: idSchema });
export const approvalApproveSchema = v.strictObject({ id: idSchema, password: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(140, 'too_long')) });

export const approvalListQuery = v.object({
  ...pageSchema.entries,
  /** waiting: the requests to decide; decided: the others, newest first; '' all. */
  state: v.optional(v.picklist(['waiting', 'decided', ''], 'invalid_request'), ''),
});

const tonsLimit = v.pipe(intFromInput('invalid_request'), v.minValue(0, 'invalid_request'), v.maxValue(1_000_000_000, 'invalid_request'));

/** The owner's thresholds: a retirement of more tons, or a withdrawal of more cents, waits for an approver
 *  (0: every one). */
export const approvalThresholdsSchema = v.strictObject({ retire_tons: tonsLimit, withdraw_cents: tonsLimit });
export type ApprovalThresholds = v.InferOutput<typeof approvalThresholdsSchema>;

// ---- Answers

export const approvalThresholdsAnswerSchema = v.strictObject({
  retire_tons: v.pipe(int(), v.description("A member's retirement of more tons waits for an approver")),
  withdraw_cents: v.pipe(int(), v.description("A member's withdrawal of more cents waits for an approver (0: every one)")),
});

/** GET thresholds: they, and whether they hold the asking member (the retire screen says so before the password). */
export const approvalThresholdsReadSchema = v.strictObject({
  ...approvalThresholdsAnswerSchema.entries,
  applies_to_you: v.pipe(v.boolean(), v.description("True when the asking member's own retirements and withdrawals above these wait for an approver (false: the owner, when no one else may approve)")),
});
export type ApprovalThresholdsRead = v.InferOutput<typeof approvalThresholdsReadSchema>;

export const approvalRequestSchema = v.strictObject({
  id: int(),
  kind: v.picklist(['retire', 'withdraw']),
  status: v.picklist(APPROVAL_STATUSES),
  maker_id: int(),
  maker_email: v.string(),
  project_id: v.pipe(v.nullable(int()), v.description('A retirement: its project')),
  project_name: v.string(),
  project_name_cn: v.string(),
  tons: v.pipe(int(), v.description('A retirement: whole tons held while it waits')),
  amount: v.pipe(int(), v.description('A withdrawal: cents the organisation receives')),
  fee: v.pipe(int(), v.description('A withdrawal: its handling fee, cents; amount + fee are held while it waits')),
  beneficiary: v.string(),
  decided_by_email: v.string(),
  certificate_id: v.pipe(v.string(), v.description('An approved retirement: its certificate id, else empty')),
  withdrawal_id: v.pipe(v.nullable(int()), v.description('An approved withdrawal: its id')),
  created_at: epochMs(),
  expires_at: epochMs(),
  decided_at: v.nullable(epochMs()),
});
export type ApprovalRequest = v.InferOutput<typeof approvalRequestSchema>;

export const approvalPageSchema = paged(approvalRequestSchema);
export type ApprovalPage = v.InferOutput<typeof approvalPageSchema>;

/** What a retirement or withdrawal answers when it waits for an approver instead of being carried out. */
export const approvalSentSchema = v.strictObject({ approval: approvalRequestSchema });
export type ApprovalSent = v.InferOutput<typeof approvalSentSchema>;

/** What a retirement answers: the certificate's record, or the request waiting for an approver. */
export type RetireResult = RetireAnswer | ApprovalSent;
/** What a withdrawal answers: the withdrawal's record, or the request waiting for an approver. */
export type WithdrawResult = WithdrawalRecord | ApprovalSent;
