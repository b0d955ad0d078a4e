// Helpers of the organisation suites: a corporate registration (its login is the owner), members invited,
// joined and switched into the organisation's context over real HTTP.
import { expect } from 'vitest';
import { hashPasswordScrypt } from '../../src/server/lib/crypto';
import { PATHS } from '../../src/shared/api';
import type { ErrorKey, Lang, MessageParams } from '../../src/shared/errors';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { lastMail, MIN, refusal, registerUser, type Envelope, type TestServer } from '../helpers/server';
import { makeUser, newKey, topup, TRADE_PASSWORD, type MarketUser } from './market-helpers';
import { makeRetirableProject } from './retire-helpers';

/** The organisation's own payment password (the owner's login): not the members'. */
export const ORG_PASSWORD = 'Canopy#Org2026';
export const LANGS: Lang[] = ['en', 'cn'];

let seq = 0;
export const GENEROUS = {
  CODES_PER_IP_PER_HOUR: '10000',
  CODES_PER_ACCOUNT_PER_HOUR: '1000',
  REGISTRATIONS_PER_IP_PER_HOUR: '10000',
  LOGINS_PER_IP_PER_HOUR: '10000',
  LOGINS_PER_ACCOUNT_PER_HOUR: '1000',
  HASH_MAX_WAIT_MS: '60000',
  HASH_JOBS_PER_CLIENT: '1000',
};

export interface Org {
  id: number;
  email: string;
  /** The owner: the corporate login itself. */
  owner: { token: string; id: number };
}

export async function makeOrg(s: TestServer, name = 'Acme Pte Ltd'): Promise<Org> {
  const email = `org${++seq}.${process.pid}@corp.example.sg`;
  const info = await registerUser(s, email, { type: 'corporate', company: name, uen: '201912345K' });
  const hash = await hashPasswordScrypt(ORG_PASSWORD, 12);
  await s.db.updateTable('users').set({ withdraw_password_hash: hash }).where('id', '=', info.mem_id).execute();
  return { id: info.mem_id, email, owner: { token: info.token, id: info.mem_id } };
}

export function write(s: TestServer, path: string, token: string, data: Record<string, unknown>, opts: { lang?: Lang; key?: string } = {}): Promise<Envelope> {
  return s.api('POST', path, data, { token, lang: opts.lang, idempotencyKey: opts.key ?? newKey() });
}

/** The token of the last invitation mailed to `email`. */
export async function inviteToken(s: TestServer, email: string): Promise<string> {
  const mail = await lastMail(s.db, email);
  const m = mail && /token=([A-Za-z0-9_-]+)/.exec(mail.body);
  if (!m) throw new Error(`no invitation in the outbox for ${email}`);
  return m[1]!;
}

export interface Member extends MarketUser {
  /** The session acting for the organisation. */
  orgToken: string;
}

/** A personal user (payment password TRADE_PASSWORD) invited by `by`, joined, and switched into the org. */
export async function addMember(s: TestServer, org: Org, role: string, by: { token: string } = org.owner): Promise<Member> {
  const u = await makeUser(s);
  const inv = await write(s, PATHS.orgInvite, by.token, { email: u.email, role });
  expect(inv.code, inv.msg).toBe(0);
  const joined = await write(s, PATHS.orgJoin, u.token, { token: await inviteToken(s, u.email) });
  expect(joined.code, joined.msg).toBe(0);
  return { ...u, orgToken: await switchInto(s, u.token, org.id) };
}

/** An organisation with `cents` of money, a payout account, 300 t of a retirable project (S$10 a ton; `project`
 *  changes it) bought and held, a buyer and an approver. */
export async function holdingTeam(s: TestServer, cents: number, project: Parameters<typeof makeRetirableProject>[1] = {}) {
  const org = await makeOrg(s);
  const card = await write(s, PATHS.userCard, org.owner.token, { bank_name: 'DBS', account_no: '012-345678-9', holder_name: 'Acme Pte Ltd', password: ORG_PASSWORD });
  expect(card.code, card.msg).toBe(0);
  await topup(s, org.id, cents);
  const pid = await makeRetirableProject(s, { price: 1000, ...project });
  const buyer = await addMember(s, org, 'buyer');
  const approver = await addMember(s, org, 'approver');
  const bought = await write(s, PATHS.orderBuy, org.owner.token, { project_id: pid, tons: 300, password: ORG_PASSWORD });
  expect(bought.code, bought.msg).toBe(0);
  s.clock.advance(MIN);
  await runDueWork(s.running.deps);
  return { org, buyer, approver, pid, bought };
}

export async function switchInto(s: TestServer, token: string, accountId: number | null): Promise<string> {
  const res = await s.api('POST', PATHS.orgSwitch, { account_id: accountId }, { token });
  expect(res.code, res.msg).toBe(0);
  expect(res.data.mem_id).toBeGreaterThan(0);
  return res.data.token as string;
}

/** Everything a refused organisation request must leave as it was. */
export async function orgSnapshot(s: TestServer) {
  const tables = ['organisations', 'organisation_members', 'organisation_invitations', 'organisation_activity', 'ledger_accounts', 'fund_logs', 'orders', 'credit_holdings', 'withdrawals', 'topups', 'bank_accounts', 'retirements', 'approval_requests'] as const;
  const out: Record<string, unknown> = {};
  for (const t of tables) out[t] = await s.db.selectFrom(t).selectAll().execute();
  out.users = await s.db.selectFrom('users').select(['id', 'first_name', 'last_name', 'avatar', 'withdraw_password_hash', 'trade_locked']).orderBy('id').execute();
  return out;
}

/** The same refusal in en and cn, with nothing changed. */
export async function expectOrgRefused(s: TestServer, key: ErrorKey, call: (lang: Lang) => Promise<Envelope>, params?: MessageParams): Promise<void> {
  for (const lang of LANGS) {
    const before = await orgSnapshot(s);
    const res = await call(lang);
    expect({ code: res.code, msg: res.msg }, `${key} in ${lang}`).toEqual(refusal(key, lang, params));
    expect(await orgSnapshot(s), `state changed on ${key} (${lang})`).toEqual(before);
  }
}

export { TRADE_PASSWORD };
