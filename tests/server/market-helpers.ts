// Helpers of the marketplace suites: users, projects and money made directly in the database (the wallet
// API is another issue), and the order endpoints called over real HTTP.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { hashPasswordScrypt } from '../../src/server/lib/crypto';
import { writeTx } from '../../src/server/db/tx';
import { openUserAccounts, PLATFORM, post, walletOf } from '../../src/server/ledger/ledger';
import { createSession } from '../../src/server/modules/session';
import type { ProjectsTable } from '../../src/server/db/schema';
import { PATHS } from '../../src/shared/api';
import type { ErrorKey, Lang, MessageParams } from '../../src/shared/errors';
import { DAY, refusal, type Envelope, type TestServer } from '../helpers/server';
import type { Insertable } from 'kysely';
import { holdTons } from '../helpers/inventory';

export const TRADE_PASSWORD = 'Canopy#Trade2026';
export const LANGS: Lang[] = ['en', 'cn'];

// The payment password's scrypt cost is read from the stored hash. These suites are about the order
// engine, not password hashing (auth suites cover that): a cheap N keeps hundreds of verifications fast.
const tradeHashes = new Map<number, Promise<string>>();
let seq = 0;

export interface MarketUser {
  id: number;
  email: string;
  token: string;
}

export const newKey = () => `k_${randomBytes(12).toString('hex')}`;

/** A user with a payment password, a session token and (optionally) money in available. */
export async function makeUser(
  s: TestServer,
  opts: { grade?: number; risk?: boolean; cents?: number; noPassword?: boolean; scryptLog2n?: number } = {},
): Promise<MarketUser> {
  const log2n = opts.scryptLog2n ?? 12;
  if (!tradeHashes.has(log2n)) tradeHashes.set(log2n, hashPasswordScrypt(TRADE_PASSWORD, log2n));
  const hash = await tradeHashes.get(log2n)!;
  const n = ++seq;
  const email = `buyer${n}.${randomBytes(3).toString('hex')}@example.sg`;
  const now = s.clock.now();
  const id = await writeTx(s.db, async (tx) => {
    const row = await tx
      .insertInto('users')
      .values({
        email,
        password_hash: 'x',
        type: 'personal',
        company: '',
        uen: '',
        first_name: 'Test',
        last_name: `Buyer ${n}`,
        ic_number: '',
        mobile: '',
        avatar: '',
        invite_code: `M${randomBytes(4).toString('hex').toUpperCase().slice(0, 5)}`,
        invited_by: null,
        grade: opts.grade ?? 0,
        credit_score: 'excellent',
        risk: opts.risk ? 1 : 0,
        disabled: 0,
        login_fails: 0,
        login_locked: 0,
        withdraw_password_hash: opts.noPassword ? null : hash,
        trade_fails: 0,
        trade_locked: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await openUserAccounts(tx, row.id);
    return row.id;
  });
  if (opts.cents) await topup(s, id, opts.cents);
  const { token } = await createSession(s.running.deps, id);
  return { id, email, token };
}

/** Money in: a 'topup' ledger entry, platform bank -> user available. */
export async function topup(s: TestServer, userId: number, cents: number): Promise<void> {
  await writeTx(s.db, (tx) =>
    post(tx, {
      kind: 'topup',
      memo: 'test top-up',
      now: s.clock.now(),
      postings: [
        { owner: PLATFORM, account: 'bank', amount: -cents },
        { owner: userId, account: 'available', amount: cents },
      ],
    }),
  );
}

/** A project selling now (override anything). Price S$10.00/t, 1..100 t per order, cycle 1 day, yield 5%.
 *  It holds `held` tons on its registry (default: all its tons). */
export async function makeProject(s: TestServer, { held, ...o }: Partial<Insertable<ProjectsTable>> & { held?: number } = {}): Promise<number> {
  const now = s.clock.now();
  const total = o.total_tons ?? 1000;
  const row = await s.db
    .insertInto('projects')
    .values({
      name: `Test Forest ${++seq}`,
      name_cn: `测试森林 ${seq}`,
      location: 'Sabah, Malaysia',
      type: 'forestry',
      standard: 'VCS',
      status: 'in_progress',
      price: 1000,
      presale_price: null,
      min_tons: 1,
      max_tons: 100,
      total_tons: total,
      remaining_tons: total,
      selling_time: now - DAY,
      end_time: now + 60 * DAY,
      cycle_value: 1,
      cycle_unit: 'days',
      yield_bp: 500,
      required_grade: 0,
      monthly_limit: 1000,
      total_limit: 5000,
      vintage: 2025,
      company: 'Test Carbon Pte Ltd',
      registry_id: '',
      methodology: '',
      size_ha: 0,
      intro: '',
      intro_cn: '',
      image: '/img/test.jpg',
      created_at: now,
      updated_at: now,
      ...o,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const holds = held ?? total;
  if (holds > 0) await holdTons(s.db, row.id, holds, now);
  return row.id;
}

export async function walletOfUser(s: TestServer, userId: number) {
  return walletOf(s.db, userId);
}

type Call = (path: string, user: MarketUser | { token: string }, data: Record<string, unknown>, opts?: { lang?: Lang; key?: string }) => Promise<Envelope>;

export function orderApi(s: TestServer) {
  const write: Call = (path, user, data, opts = {}) => s.api('POST', path, data, { token: user.token, lang: opts.lang, idempotencyKey: opts.key ?? newKey() });
  return {
    buy: (u: MarketUser | { token: string }, project_id: number, tons: number, opts: { lang?: Lang; key?: string; password?: string } = {}) =>
      write(PATHS.orderBuy, u, { project_id, tons, password: opts.password ?? TRADE_PASSWORD }, opts),
    book: (u: MarketUser | { token: string }, project_id: number, tons: number, opts: { lang?: Lang; key?: string; password?: string } = {}) =>
      write(PATHS.orderBook, u, { project_id, tons, password: opts.password ?? TRADE_PASSWORD }, opts),
    finalpay: (u: MarketUser | { token: string }, order_id: number, opts: { lang?: Lang; key?: string; password?: string } = {}) =>
      write(PATHS.orderFinalpay, u, { order_id, password: opts.password ?? TRADE_PASSWORD }, opts),
    sell: (u: MarketUser | { token: string }, project_id: number, tons: number, opts: { lang?: Lang; key?: string; password?: string } = {}) =>
      write(PATHS.orderSell, u, { project_id, tons, password: opts.password ?? TRADE_PASSWORD }, opts),
    lists: (u: MarketUser, q: Record<string, unknown> = {}) => s.api('GET', PATHS.orderLists, q, { token: u.token }),
    detail: (u: MarketUser, id: number) => s.api('GET', '/api/order/detail', { id }, { token: u.token }),
    credits: (u: MarketUser, q: Record<string, unknown> = {}) => s.api('GET', PATHS.orderCredits, q, { token: u.token }),
    limits: (u: MarketUser, project_id: number) => s.api('GET', '/api/order/limits', { project_id }, { token: u.token }),
  };
}

/** Everything a refused order must leave as it was: money, credits, supply, orders, grades. */
export async function marketSnapshot(s: TestServer) {
  const [ledger_accounts, fund_logs, orders, projects, credit_holdings, users, idempotency] = await Promise.all([
    s.db.selectFrom('ledger_accounts').selectAll().orderBy('id').execute(),
    s.db.selectFrom('fund_logs').selectAll().orderBy('id').execute(),
    s.db.selectFrom('orders').selectAll().orderBy('id').execute(),
    s.db.selectFrom('projects').select(['id', 'status', 'remaining_tons']).orderBy('id').execute(),
    s.db.selectFrom('credit_holdings').selectAll().orderBy('user_id').orderBy('project_id').orderBy('origin').execute(),
    s.db.selectFrom('users').select(['id', 'grade', 'credit_score', 'risk', 'trade_locked']).orderBy('id').execute(),
    s.db.selectFrom('idempotency_keys').select(['id', 'state']).orderBy('id').execute(),
  ]);
  return { ledger_accounts, fund_logs, orders, projects, credit_holdings, users, idempotency };
}

/** A refusal in en and cn: code and message from the catalogue, and nothing changed. */
export async function expectRefusedBoth(s: TestServer, key: ErrorKey, call: (lang: Lang) => Promise<Envelope>, params?: MessageParams): Promise<void> {
  for (const lang of LANGS) {
    const before = await marketSnapshot(s);
    const res = await call(lang);
    expect({ code: res.code, msg: res.msg }, `${key} in ${lang}`).toEqual(refusal(key, lang, params));
    expect(await marketSnapshot(s), `state changed on ${key} (${lang})`).toEqual(before);
  }
}
