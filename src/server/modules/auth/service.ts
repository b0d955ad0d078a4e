import type { Deps } from '../../app';
import { AppError } from '../../lib/http';
import { hashPassword, inviteCode, sha256, sixDigitCode, verifyPassword } from '../../lib/crypto';
import { writeTx } from '../../db/tx';
import { openUserAccounts } from '../../ledger/ledger';
import { createSession, revokeUserSessions, type User } from '../session';
import { LOGIN_MAX_ATTEMPTS, VERIFICATION_CODE_TRIES, VERIFICATION_CODE_TTL_MS } from '../../../shared/constants';
import type { LoginInfo } from '../../../shared/schemas/auth';
import type { Lang } from '../../../shared/errors';

const HOUR_MS = 3600_000;

let dummy: { log2n: number; hash: Promise<string> } | null = null;
function dummyHash(log2n: number): Promise<string> {
  if (!dummy || dummy.log2n !== log2n) dummy = { log2n, hash: hashPassword('not-a-real-password-0', log2n) };
  return dummy.hash;
}
const RESEND_MS = 60_000;

async function countRecent(deps: Deps, kind: string, ip: string): Promise<number> {
  const since = deps.clock.now() - HOUR_MS;
  const row = await deps.db
    .selectFrom('rate_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', kind)
    .where('ip', '=', ip)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function noteRate(deps: Deps, kind: string, ip: string): Promise<void> {
  await deps.db.insertInto('rate_events').values({ kind, ip, created_at: deps.clock.now() }).execute();
}

function codeHash(email: string, scene: string, code: string): string {
  return sha256(`${scene}:${email}:${code}`);
}

export function loginInfo(user: User, session: { token: string; expires_at: number }): LoginInfo {
  return {
    token: session.token,
    mem_id: user.id,
    realname: [user.first_name, user.last_name].filter(Boolean).join(' '),
    account: user.email,
    mobile: user.mobile,
    avatar: user.avatar,
    type: user.type,
    expires_at: session.expires_at,
  };
}

export async function sendCode(deps: Deps, input: { email: string; scene: 'register' | 'reset' }, ip: string, lang: Lang) {
  const { email, scene } = input;
  if (scene === 'register' && !deps.config.REGISTRATION_OPEN) throw new AppError('registration_closed');
  const exists = await deps.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (scene === 'register' && exists) throw new AppError('email_exists');
  if (scene === 'reset' && !exists) throw new AppError('email_not_in_use');
  if ((await countRecent(deps, 'code', ip)) >= deps.config.CODES_PER_IP_PER_HOUR) throw new AppError('bulk_registration');
  const now = deps.clock.now();
  const last = await deps.db
    .selectFrom('verification_codes')
    .select('created_at')
    .where('email', '=', email)
    .where('scene', '=', scene)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (last && now - last.created_at < RESEND_MS) throw new AppError('code_too_soon');

  const code = sixDigitCode();
  await deps.db
    .insertInto('verification_codes')
    .values({ email, scene, code_hash: codeHash(email, scene, code), tries: 0, ip, created_at: now, expires_at: now + VERIFICATION_CODE_TTL_MS, used_at: null })
    .execute();
  await noteRate(deps, 'code', ip);
  const subject = lang === 'cn' ? `Canopy 验证码：${code}` : `Your Canopy verification code: ${code}`;
  const body =
    lang === 'cn'
      ? `您的验证码是 ${code}，10 分钟内有效。如非本人操作，请忽略此邮件。`
      : `Your verification code is ${code}. It is valid for 10 minutes. If you did not ask for it, ignore this email.`;
  await deps.mailer.send(email, subject, body);
}

/** Checks a code: 5 tries, 10 minutes, used once. A wrong try counts even when it is the last one. */
async function consumeCode(deps: Deps, email: string, scene: 'register' | 'reset', code: string): Promise<void> {
  const now = deps.clock.now();
  const row = await deps.db
    .selectFrom('verification_codes')
    .selectAll()
    .where('email', '=', email)
    .where('scene', '=', scene)
    .where('used_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row || row.expires_at <= now || row.tries >= VERIFICATION_CODE_TRIES) throw new AppError('code_incorrect');
  if (row.code_hash !== codeHash(email, scene, code)) {
    await deps.db.updateTable('verification_codes').set({ tries: row.tries + 1 }).where('id', '=', row.id).execute();
    throw new AppError('code_incorrect');
  }
  const used = await deps.db
    .updateTable('verification_codes')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw new AppError('code_incorrect');
}

export interface RegisterData {
  email: string;
  code: string;
  password: string;
  invite_code: string;
  type: 'personal' | 'corporate';
  company: string;
  uen: string;
}

export async function register(deps: Deps, input: RegisterData, ip: string): Promise<LoginInfo> {
  if (!deps.config.REGISTRATION_OPEN) throw new AppError('registration_closed');
  if ((await countRecent(deps, 'register', ip)) >= deps.config.REGISTRATIONS_PER_IP_PER_HOUR) throw new AppError('bulk_registration');
  if (await deps.db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst()) throw new AppError('email_exists');
  let invitedBy: number | null = null;
  if (input.invite_code) {
    const inviter = await deps.db.selectFrom('users').select('id').where('invite_code', '=', input.invite_code).executeTakeFirst();
    if (!inviter) throw new AppError('invite_invalid');
    invitedBy = inviter.id;
  }
  await consumeCode(deps, input.email, 'register', input.code);
  const passwordHash = await hashPassword(input.password, deps.config.SCRYPT_LOG2_N);
  const now = deps.clock.now();
  const user = await writeTx(deps.db, async (tx) => {
    if (await tx.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst()) throw new AppError('email_exists');
    let code = inviteCode();
    while (await tx.selectFrom('users').select('id').where('invite_code', '=', code).executeTakeFirst()) code = inviteCode();
    const created = await tx
      .insertInto('users')
      .values({
        email: input.email,
        password_hash: passwordHash,
        type: input.type,
        company: input.type === 'corporate' ? input.company : '',
        uen: input.type === 'corporate' ? input.uen : '',
        first_name: '',
        last_name: '',
        ic_number: '',
        mobile: '',
        avatar: '',
        invite_code: code,
        invited_by: invitedBy,
        grade: 0,
        credit_score: 'excellent',
        risk: 0,
        disabled: 0,
        login_fails: 0,
        login_locked: 0,
        withdraw_password_hash: null,
        trade_fails: 0,
        trade_locked: 0,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await openUserAccounts(tx, created.id);
    return created;
  });
  await noteRate(deps, 'register', ip);
  return loginInfo(user, await createSession(deps, user.id));
}

export async function login(deps: Deps, input: { email: string; password: string }): Promise<LoginInfo> {
  const user = await deps.db.selectFrom('users').selectAll().where('email', '=', input.email).executeTakeFirst();
  // The same answer, and about the same time, for an unknown email and a wrong password, so the form
  // does not reveal who has an account.
  if (!user) {
    await verifyPassword(input.password, await dummyHash(deps.config.SCRYPT_LOG2_N));
    throw new AppError('login_incorrect');
  }
  if (user.disabled) throw new AppError('user_disabled');
  if (user.login_locked) throw new AppError('login_locked');
  if (!(await verifyPassword(input.password, user.password_hash))) {
    const fails = await deps.db
      .updateTable('users')
      .set((eb) => ({ login_fails: eb('login_fails', '+', 1), login_locked: eb.case().when('login_fails', '>=', LOGIN_MAX_ATTEMPTS - 1).then(1).else(0).end() }))
      .where('id', '=', user.id)
      .returning(['login_fails', 'login_locked'])
      .executeTakeFirstOrThrow();
    throw new AppError(fails.login_locked ? 'login_locked' : 'login_incorrect');
  }
  if (user.login_fails > 0) await deps.db.updateTable('users').set({ login_fails: 0 }).where('id', '=', user.id).execute();
  return loginInfo(user, await createSession(deps, user.id));
}

export async function visitor(deps: Deps): Promise<LoginInfo> {
  const session = await createSession(deps, null);
  return { token: session.token, mem_id: 0, realname: '', account: '', mobile: '', avatar: '', type: 'visitor', expires_at: session.expires_at };
}

export async function resetPassword(deps: Deps, input: { email: string; code: string; password: string }): Promise<void> {
  const user = await deps.db.selectFrom('users').select(['id', 'disabled']).where('email', '=', input.email).executeTakeFirst();
  if (!user) throw new AppError('email_not_in_use');
  if (user.disabled) throw new AppError('user_disabled');
  await consumeCode(deps, input.email, 'reset', input.code);
  const hash = await hashPassword(input.password, deps.config.SCRYPT_LOG2_N);
  // DECISIONS: a login lock holds until an operator unlocks it, so a reset does not clear it. Every old
  // session ends.
  await deps.db.updateTable('users').set({ password_hash: hash, login_fails: 0, updated_at: deps.clock.now() }).where('id', '=', user.id).execute();
  await revokeUserSessions(deps, user.id);
}
