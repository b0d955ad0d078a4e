import { post, type ApiResult } from '../../lib/api';
import { PATHS } from '../../../shared/api';

// The account settings' endpoints (user/profile, user/withdpwd, user/loginpwd): one fetcher each, taking
// the Idempotency-Key of the user's intent (lib/intent-key.ts via components/forms/use-write.ts). The
// member's info they change is lib/user-info.ts (refreshUserInfo after a success).

export interface ProfileInput {
  first_name: string;
  last_name: string;
  mobile: string;
  ic_number: string;
}

export function saveProfile(input: ProfileInput, idempotencyKey: string): Promise<ApiResult<ProfileInput & { realname: string }>> {
  return post(PATHS.userProfile, { ...input }, { idempotencyKey });
}

export function setWithdrawPassword(input: { password: string; repassword: string; login_password: string }, idempotencyKey: string): Promise<ApiResult<null>> {
  return post<null>(PATHS.userWithdpwd, { ...input }, { idempotencyKey });
}

export function changeLoginPassword(input: { old_password: string; password: string; repassword: string }, idempotencyKey: string): Promise<ApiResult<null>> {
  return post<null>(PATHS.userLoginpwd, { ...input }, { idempotencyKey });
}
