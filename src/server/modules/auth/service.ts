import { foundOrganisation } from '../org/service';
import type { Deps } from '../../env';
import { AppError, ipKey } from '../../lib/http';
import { hashPassword, inviteCode, sha256, sixDigitCode } from '../../lib/crypto';
import { argon2Params, checkIn, hashIn } from '../../lib/hash-work';
import type { LimitName } from '../../lib/limits';
import { checkCounted } from '../user/attempts';
import { writeTx } from '../../db/tx';
import { openUserAccounts } from '../../ledger/ledger';
import { createSession, endUserSessions, type User } from '../session';
import { VERIFICATION_CODE_TRIES, VERIFICATION_CODE_TTL_MS } from '../../../shared/constants';
import type { LoginInfo } from '../../../shared/schemas/auth';
import type { Lang } from '../../../shared/errors';

const RESEND_MS = 60_000;

// A fixed argon2id hash of a password nobody has: an unknown email costs the same hash as a known one,
// so the answer's timing does not reveal who has an account.
// Made once, outside the lanes (a refusal by a busy lane must never be what is cached: unknown emails
// would then answer differently from known ones).
const dummyHashes = new WeakMap<object, Promise<string>>();
function dummyHash(deps: Deps): Promise<string> {
  let h = dummyHashes.get(deps.config);
  if (!h) {
    h = hashPassword('not-a-real-password-0', argon2Params(deps.config));
    dummyHashes.set(deps.config, h);
    h.catch(() => dummyHashes.delete(deps.config));
  }
  return h;
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
  const now = deps.clock.now();
  const last = await deps.db
    .selectFrom('verification_codes')
    .select('created_at')
    .where('email', '=', email)
    .where('scene', '=', scene)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (last && now - last.created_at < RESEND_MS) throw new AppError('code_too_soon');
  // Counted only for a code that is really sent (a refusal above costs nothing).
  await deps.limits.consume([
    ['code_ip', ip],
    ['code_account', email],
  ]);

  const code = sixDigitCode();
  await deps.db
    .insertInto('verification_codes')
    .values({ email, scene, code_hash: codeHash(email, scene, code), tries: 0, ip, created_at: now, expires_at: now + VERIFICATION_CODE_TTL_MS, used_at: null })
    .execute();
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
  // The try is taken in the statement that reads the count (as for passwords): parallel guesses get at
  // most the tries left.
  const took = await deps.db
    .updateTable('verification_codes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', row.id)
    .where('tries', '<', VERIFICATION_CODE_TRIES)
    .where('used_at', 'is', null)
    .returning('tries')
    .executeTakeFirst();
  if (!took || row.code_hash !== codeHash(email, scene, code)) throw new AppError('code_incorrect');
  const used = await deps.db
    .updateTable('verification_codes')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw new AppError('code_incorrect');
}

interface RegisterData {
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
  await deps.limits.consume([['register_ip', ip]]);
  if (await deps.db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst()) throw new AppError('email_exists');
  let invitedBy: number | null = null;
  if (input.invite_code) {
    const inviter = await deps.db.selectFrom('users').select('id').where('invite_code', '=', input.invite_code).executeTakeFirst();
    if (!inviter) throw new AppError('invite_invalid');
    invitedBy = inviter.id;
  }
  await consumeCode(deps, input.email, 'register', input.code);
  const passwordHash = await hashIn(deps.config, 'anon', input.password, `ip:${ipKey(ip)}`);
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
    if (created.type === 'corporate') await foundOrganisation(tx, created, now);
    return created;
  });
  return signedIn(deps, user);
}

/** Login. Throttled per address and per account (only failures count: a right password gives its point
 *  back); the attempt is reserved atomically before the hash (see user/attempts.ts); the 5th wrong one
 *  locks the login until an operator unlocks it. Sessions already open stay: someone who only knows an
 *  email must not be able to sign its owner out everywhere (a wrong password typed INSIDE a session, in
 *  settings, ends the sessions: see user/settings.ts). */
export async function login(deps: Deps, input: { email: string; password: string }, ip: string): Promise<LoginInfo> {
  const checks: Array<[LimitName, string]> = [
    ['login_ip', ip],
    ['login_account', input.email],
  ];
  await deps.limits.consume(checks);
  // Only a password that was really evaluated and wrong keeps its point: a refusal that looked at no
  // password (disabled, locked, or a busy hash lane) gives it back.
  const refund = async (err: unknown): Promise<never> => {
    await deps.limits.reward(checks);
    throw err;
  };
  const user = await deps.db.selectFrom('users').selectAll().where('email', '=', input.email).executeTakeFirst();
  if (!user) {
    await checkIn(deps.config, 'anon', input.password, await dummyHash(deps), { owner: `ip:${ipKey(ip)}` }).catch(refund);
    throw new AppError('login_incorrect');
  }
  const refused = signInRefusal(user);
  if (refused) await refund(new AppError(refused));
  const result = await checkCounted(deps, {
    userId: user.id,
    counter: 'login',
    password: input.password,
    lane: 'anon',
    owner: `ip:${ipKey(ip)}`,
  }).catch(refund);
  if (result.outcome === 'wrong') throw new AppError('login_incorrect');
  if (result.outcome === 'locked' && result.fresh) throw new AppError('login_locked');
  if (result.outcome !== 'ok') await refund(new AppError('login_locked'));
  await deps.limits.reward(checks);
  return signedIn(deps, user);
}

/** Why a member may not sign in at all, whatever proves who she is (password or passkey), or null: a
 *  disabled account, and a login lock, which holds until an operator lifts it (docs/product.md#accounts). */
export function signInRefusal(user: User): 'user_disabled' | 'login_locked' | null {
  if (user.disabled) return 'user_disabled';
  if (user.login_locked) return 'login_locked';
  return null;
}

/** The session every sign-in of a member opens, by password or by passkey: one path, so each rule on
 *  sessions (expiry, revocation on a password change, reset or lock) holds for both. */
export async function signedIn(deps: Deps, user: User): Promise<LoginInfo> {
  return loginInfo(user, await createSession(deps, user.id));
}

/** The language a member last signed in with: their receipts are mailed in it (docs/product.md#receipts). */
export async function rememberLanguage(deps: Deps, userId: number, lang: Lang): Promise<void> {
  await deps.db.updateTable('users').set({ lang }).where('id', '=', userId).where('lang', '<>', lang).execute();
}

export async function visitor(deps: Deps): Promise<LoginInfo> {
  const session = await createSession(deps, null);
  return { token: session.token, mem_id: 0, realname: '', account: '', mobile: '', avatar: '', type: 'visitor', expires_at: session.expires_at };
}

export async function resetPassword(deps: Deps, input: { email: string; code: string; password: string }, ip: string): Promise<void> {
  await deps.limits.consume([
    ['reset_ip', ip],
    ['reset_account', input.email],
  ]);
  const user = await deps.db.selectFrom('users').select(['id', 'disabled']).where('email', '=', input.email).executeTakeFirst();
  if (!user) throw new AppError('email_not_in_use');
  if (user.disabled) throw new AppError('user_disabled');
  await consumeCode(deps, input.email, 'reset', input.code);
  const hash = await hashIn(deps.config, 'anon', input.password, `ip:${ipKey(ip)}`);
  // A login lock holds until an operator unlocks it, so a reset does not clear it
  // (docs/product.md#accounts). Every old
  // session ends, with its sockets, in the same transaction as the new password.
  const now = deps.clock.now();
  await writeTx(deps.db, async (tx, w) => {
    await tx.updateTable('users').set({ password_hash: hash, login_fails: 0, updated_at: now }).where('id', '=', user.id).execute();
    await endUserSessions(w, user.id, now);
  });
}
