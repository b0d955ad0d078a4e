import * as v from 'valibot';
import { emailSchema } from './auth';
import { epochMs, idSchema, int, paged } from './common';

// Organisations, members and roles (docs/product.md#organisations): requests and answers.

export const ORG_ROLES = ['owner', 'admin', 'buyer', 'approver', 'viewer'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];
/** The roles an invitation or a role change may give: the owner is the registrant's own login. */
export const MEMBER_ROLES = ['admin', 'buyer', 'approver', 'viewer'] as const;
const memberRoleSchema = v.picklist(MEMBER_ROLES, 'invalid_request');

/** An invitation's token in the link: 43 base64url characters (32 random bytes). */
const inviteTokenSchema = v.pipe(v.string('org_invite_invalid'), v.trim(), v.regex(/^[A-Za-z0-9_-]{20,200}$/, 'org_invite_invalid'));

export const orgInviteSchema = v.strictObject({ email: emailSchema, role: memberRoleSchema });
export const orgJoinSchema = v.strictObject({ token: inviteTokenSchema });
/** GET org/invitation?token=: what the link invites to, read before joining. */
export const orgInvitationQuery = v.object({ token: inviteTokenSchema });
export const orgRoleSchema = v.strictObject({ user_id: idSchema, role: memberRoleSchema });
export const orgRemoveSchema = v.strictObject({ user_id: idSchema });
/** account_id null: back to the person's own account. */
export const orgSwitchSchema = v.strictObject({ account_id: v.nullable(idSchema) });

// ---- Answers

const orgSummarySchema = v.strictObject({
  account_id: v.pipe(int(), v.description("The organisation's account (its mem_id when acting for it)")),
  name: v.string(),
  uen: v.string(),
  role: v.picklist(ORG_ROLES),
});
export type OrgSummary = v.InferOutput<typeof orgSummarySchema>;

export const orgMineSchema = v.strictObject({
  list: v.array(orgSummarySchema),
  acting: v.pipe(v.nullable(orgSummarySchema), v.description('The organisation this session acts for, null for the own account')),
});
export type OrgMine = v.InferOutput<typeof orgMineSchema>;

const memberSchema = v.strictObject({
  user_id: int(),
  email: v.string(),
  name: v.string(),
  role: v.picklist(ORG_ROLES),
  joined_at: epochMs(),
});
export type OrgMember = v.InferOutput<typeof memberSchema>;

const invitationSchema = v.strictObject({
  id: int(),
  email: v.string(),
  role: v.picklist(MEMBER_ROLES),
  created_at: epochMs(),
  expires_at: epochMs(),
});

/** GET org/invitation: the organisation and the role an unused, unexpired invitation offers. */
export const orgInvitationSchema = v.strictObject({
  name: v.pipe(v.string(), v.description("The organisation's name")),
  uen: v.string(),
  role: v.picklist(MEMBER_ROLES),
  email: v.pipe(v.string(), v.description('The address the invitation was sent to: only it can join')),
  expires_at: epochMs(),
});
export type OrgInvitation = v.InferOutput<typeof orgInvitationSchema>;

export const orgMembersSchema = v.strictObject({
  members: v.array(memberSchema),
  invitations: v.pipe(v.array(invitationSchema), v.description('Pending, unexpired invitations (owner and admins only; empty for other roles)')),
});
export type OrgMembers = v.InferOutput<typeof orgMembersSchema>;

export const orgInviteAnswerSchema = v.strictObject({ id: int(), email: v.string(), role: v.picklist(MEMBER_ROLES), expires_at: epochMs() });
export const orgJoinAnswerSchema = orgSummarySchema;
export const orgMemberAnswerSchema = v.strictObject({ user_id: int(), role: v.nullable(v.picklist(ORG_ROLES)) });

const activitySchema = v.strictObject({
  id: int(),
  member_id: int(),
  member_email: v.string(),
  action: v.pipe(v.string(), v.description("What was done: the endpoint's name, e.g. order.buy, wallet.withdraw, org.invite")),
  detail: v.pipe(v.string(), v.description("JSON: the request's fields (secrets dropped) and what it made")),
  created_at: epochMs(),
});
export type OrgActivity = v.InferOutput<typeof activitySchema>;
export const orgActivityListSchema = paged(activitySchema);
export type OrgActivityList = v.InferOutput<typeof orgActivityListSchema>;
