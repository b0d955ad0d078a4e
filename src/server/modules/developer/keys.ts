import { randomBytes } from 'node:crypto';
import type { Deps } from '../../env';
import type { Tx, WriteScope } from '../../db/tx';
import { writeTx, type EffectRecord } from '../../db/tx';
import { sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/http';
import { PLATFORM, openUserAccounts, postAhead, walletOf } from '../../ledger/ledger';
import { roleCan, type Acting, type User } from '../session';
import { verifyTradePassword } from '../user/trade-password';
import { API_KEYS_MAX, API_KEY_SCOPES, SANDBOX_FUNDING_CENTS, type ApiKey, type ApiKeyCreateInput, type ApiKeyMode, type ApiKeyScope } from '../../../shared/schemas/developer';

// API keys (docs/product.md#integrators, docs/decisions/0043-integrators-api.md). A key is `ck_<mode>_`
// and 32 random bytes (base64url); only its SHA-256 is stored, and a request's key is found by that hash.
// The prefix (the mode and the secret's first 8 characters) names it in lists. A key acts for the account
// it was made on: a test key on that account's sandbox, a live key on its live money.

const SECRET_BYTES = 32;
const PREFIX_SECRET_CHARS = 8;
/** last_used_at and last_used_ip are written at most this often per key, so reads do not each write. */
const LAST_USED_EVERY_MS = 60_000;
const HOUR_MS = 3_600_000;

/** The owner of a sandbox's own ledger accounts: the account's id negated, never a user's id. */
export const sandboxOwner = (accountId: number): number => -accountId;

export interface ApiKeyRow {
  id: number;
  account_id: number;
  created_by: number;
  name: string;
  mode: ApiKeyMode;
  prefix: string;
  scopes: ApiKeyScope[];
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

function newSecret(mode: ApiKeyMode): { key: string; prefix: string; hash: string } {
  const key = `ck_${mode}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { key, prefix: key.slice(0, `ck_${mode}_`.length + PREFIX_SECRET_CHARS), hash: sha256(key) };
}

/** The person who makes the key: the member acting for an organisation, or the account itself. */
const makerOf = (user: User, acting: Acting | null): number => acting?.member.id ?? user.id;

/** Opens the account's sandbox with its play money, once: the first test key does it. */
export async function openSandbox(w: WriteScope, accountId: number, now: number): Promise<void> {
  const owner = sandboxOwner(accountId);
  const open = await w.tx.selectFrom('ledger_accounts').select('id').where('owner_id', '=', owner).where('name', '=', 'available').executeTakeFirst();
  if (open) return;
  await openUserAccounts(w.tx, owner);
  await fundSandbox(w, accountId, now);
}

/** S$10,000.00 more play money, from the platform's sandbox_bank: live accounts never move. */
export async function fundSandbox(w: WriteScope, accountId: number, now: number): Promise<void> {
  await postAhead(w, {
    kind: 'sandbox_funding',
    ref_type: 'sandbox',
    ref_id: accountId,
    memo: 'Sandbox play money',
    now,
    postings: [
      { owner: PLATFORM, account: 'sandbox_bank', amount: -SANDBOX_FUNDING_CENTS },
      { owner: sandboxOwner(accountId), account: 'available', amount: SANDBOX_FUNDING_CENTS },
    ],
  });
}

async function activeKeys(tx: Tx, accountId: number, now: number): Promise<number> {
  const row = await tx
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Writes a key's activity row when the account is an organisation's (its log; a person has none). */
async function keyActivity(tx: Tx, acting: Acting | null, action: string, fields: Record<string, unknown>, now: number): Promise<void> {
  if (!acting) return;
  await tx
    .insertInto('organisation_activity')
    .values({ account_id: acting.accountId, member_id: acting.member.id, action, detail: JSON.stringify({ request: fields, result: {} }), created_at: now })
    .execute();
}

async function insertKey(w: WriteScope, accountId: number, createdBy: number, k: { name: string; mode: ApiKeyMode; scopes: readonly ApiKeyScope[]; expires_at: number | null }, now: number) {
  if ((await activeKeys(w.tx, accountId, now)) >= API_KEYS_MAX) throw new AppError('api_keys_full', { n: API_KEYS_MAX });
  const secret = newSecret(k.mode);
  const scopes = API_KEY_SCOPES.filter((s) => k.scopes.includes(s));
  const row = await w.tx
    .insertInto('api_keys')
    .values({ account_id: accountId, created_by: createdBy, name: k.name, mode: k.mode, prefix: secret.prefix, secret_hash: secret.hash, scopes: JSON.stringify(scopes), created_at: now, expires_at: k.expires_at, revoked_at: null, last_used_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (k.mode === 'test') await openSandbox(w, accountId, now);
  return { id: Number(row.id), prefix: secret.prefix, mode: k.mode, key: secret.key };
}

/** The scopes that move an account's live money or credits. */
const TRADE_SCOPES: readonly ApiKeyScope[] = ['buy', 'retire'];

/** Whether a key of this mode and these scopes trades for real: what only a member who may trade makes. */
export const tradesLive = (mode: ApiKeyMode, scopes: readonly ApiKeyScope[]): boolean => mode === 'live' && scopes.some((x) => TRADE_SCOPES.includes(x));

/** A live key that buys or retires stands for its maker's payment password on the organisation's money: an
 *  admin manages keys but may not trade (docs/decisions/0037-organisations.md), so such a key is the owner's
 *  to make; refused before the password, so nothing is counted. */
function assertMayTrade(acting: Acting | null, mode: ApiKeyMode, scopes: readonly ApiKeyScope[]): void {
  if (acting && tradesLive(mode, scopes) && !roleCan(acting.role, 'trade')) throw new AppError('api_key_trade_forbidden');
}

/** A new key, after the maker's payment password (counted toward its lock as a payment's is). */
export async function createKey(deps: Deps, user: User, acting: Acting | null, input: ApiKeyCreateInput) {
  const now = deps.clock.now();
  if (input.expires_at !== null && input.expires_at <= now) throw new AppError('api_key_expiry_invalid');
  assertMayTrade(acting, input.mode, input.scopes);
  await verifyTradePassword(deps, user, input.password, 'project_password_incorrect');
  return writeTx(deps.db, async (tx, w) => {
    const made = await insertKey(w, user.id, makerOf(user, acting), input, now);
    await keyActivity(tx, acting, 'developer.keys', { name: input.name, mode: input.mode, scopes: input.scopes.join(' '), prefix: made.prefix }, now);
    return made;
  });
}

/** A new key like the old one; the old one ends after `overlapHours` (sooner if it ended sooner). */
export async function rotateKey(deps: Deps, user: User, acting: Acting | null, input: { id: number; overlap_hours: number; password: string }) {
  // The new key is the rotating member's: she may rotate only what she may make (read again in the write).
  const current = await liveKeyOf(deps.db, user.id, input.id, deps.clock.now());
  assertMayTrade(acting, current.mode, JSON.parse(current.scopes) as ApiKeyScope[]);
  await verifyTradePassword(deps, user, input.password, 'project_password_incorrect');
  return writeTx(deps.db, async (tx, w) => {
    const now = deps.clock.now();
    const old = await liveKeyOf(tx, user.id, input.id, now);
    const ends = now + input.overlap_hours * HOUR_MS;
    await tx
      .updateTable('api_keys')
      .set({ expires_at: old.expires_at !== null && old.expires_at < ends ? old.expires_at : ends })
      .where('id', '=', old.id)
      .execute();
    const scopes = JSON.parse(old.scopes) as ApiKeyScope[];
    assertMayTrade(acting, old.mode, scopes);
    const made = await insertKey(w, user.id, makerOf(user, acting), { name: old.name, mode: old.mode, scopes, expires_at: old.expires_at }, now);
    await keyActivity(tx, acting, 'developer.keys.rotate', { id: old.id, prefix: old.prefix, new_prefix: made.prefix, overlap_hours: input.overlap_hours }, now);
    return made;
  });
}

async function liveKeyOf(tx: Tx | Deps['db'], accountId: number, id: number, now: number) {
  const row = await tx.selectFrom('api_keys').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw new AppError('api_key_not_found');
  if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) throw new AppError('api_key_revoked');
  return row;
}

/** Ends a key: its next request is refused. Its activity row is the idempotent write's own (one per
 *  Idempotency-Key, as every write's); the export names the key by its id. */
export async function revokeKey(deps: Deps, user: User, id: number, record: EffectRecord): Promise<null> {
  return writeTx(deps.db, async (tx) => {
    const now = deps.clock.now();
    const row = await liveKeyOf(tx, user.id, id, now);
    await tx.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', row.id).execute();
    return null;
  }, record);
}

const statusOf = (k: { revoked_at: number | null; expires_at: number | null }, now: number): ApiKey['status'] =>
  k.revoked_at !== null ? 'revoked' : k.expires_at !== null && k.expires_at <= now ? 'expired' : 'active';

/** The account's keys, newest first, and its sandbox balances. */
export async function listKeys(deps: Deps, accountId: number) {
  const now = deps.clock.now();
  const rows = await deps.db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.created_by')
    .selectAll('api_keys')
    .select('users.email as creator')
    .where('api_keys.account_id', '=', accountId)
    .orderBy('api_keys.id', 'desc')
    .execute();
  const wallet = await walletOf(deps.db, sandboxOwner(accountId));
  return {
    list: rows.map(
      (r): ApiKey => ({
        id: Number(r.id),
        name: r.name,
        mode: r.mode,
        prefix: r.prefix,
        scopes: JSON.parse(r.scopes) as ApiKeyScope[],
        status: statusOf(r, now),
        created_by: r.creator,
        created_at: r.created_at,
        expires_at: r.expires_at,
        revoked_at: r.revoked_at,
        last_used_at: r.last_used_at,
        last_used_ip: r.last_used_ip,
      }),
    ),
    sandbox: { available: wallet.available, credits: wallet.credits },
  };
}

/** The key of a request and the account it acts for, or null: unknown, revoked, expired, or its account
 *  disabled. Marks it used (time and address) at most once a minute. */
export async function findKey(deps: Deps, secret: string, ip: string): Promise<{ key: ApiKeyRow; account: User; makerTrades: boolean } | null> {
  if (!/^ck_(test|live)_[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  const now = deps.clock.now();
  const row = await deps.db.selectFrom('api_keys').selectAll().where('secret_hash', '=', sha256(secret)).executeTakeFirst();
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return null;
  const account = await deps.db.selectFrom('users').selectAll().where('id', '=', row.account_id).executeTakeFirst();
  if (!account || account.disabled) return null;
  // An organisation's key works while its maker may still manage keys there: the secret is hers, and a
  // member removed (or given a role without `manage`) takes no working key with her.
  // The maker's role now: a key ends with her `manage`; its live buys and retirements stop with her `trade`.
  let makerTrades = true;
  if (account.type === 'corporate' && row.created_by !== account.id) {
    const maker = await deps.db.selectFrom('organisation_members').select('role').where('account_id', '=', account.id).where('user_id', '=', row.created_by).executeTakeFirst();
    if (!maker || !roleCan(maker.role, 'manage')) return null;
    makerTrades = roleCan(maker.role, 'trade');
  }
  if (row.last_used_at === null || now - row.last_used_at > LAST_USED_EVERY_MS || row.last_used_ip !== ip) {
    await deps.db.updateTable('api_keys').set({ last_used_at: now, last_used_ip: ip }).where('id', '=', row.id).execute();
  }
  return {
    key: { id: Number(row.id), account_id: row.account_id, created_by: row.created_by, name: row.name, mode: row.mode, prefix: row.prefix, scopes: JSON.parse(row.scopes) as ApiKeyScope[], expires_at: row.expires_at, revoked_at: row.revoked_at, last_used_at: row.last_used_at },
    account,
    makerTrades,
  };
}

/** More play money for the account's sandbox (the Developers button, and POST /v1/sandbox/topup): its
 *  balances after it. */
export async function topupSandbox(deps: Deps, accountId: number, record?: EffectRecord): Promise<{ available: number; credits: number }> {
  return writeTx(
    deps.db,
    async (tx, w) => {
      const now = deps.clock.now();
      const owner = sandboxOwner(accountId);
      const open = await tx.selectFrom('ledger_accounts').select('id').where('owner_id', '=', owner).where('name', '=', 'available').executeTakeFirst();
      if (open) await fundSandbox(w, accountId, now);
      else await openSandbox(w, accountId, now);
      const wallet = await walletOf(tx, owner);
      return { available: wallet.available, credits: wallet.credits };
    },
    record,
  );
}
