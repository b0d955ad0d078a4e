// Organisations probed as an attacker (docs/product.md#organisations): an admin cannot move the
// organisation's money to a personal account, cannot change their own role; the invitation mail commits
// with its token; the activity log keeps no NRIC/FIN in full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { PATHS } from '../../src/shared/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { topup } from './market-helpers';
import { addMember, expectOrgRefused, GENEROUS, makeOrg, TRADE_PASSWORD, write } from './org-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(GENEROUS);
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems])).toBe(true);
  await s?.close();
});

describe("the organisation's payout account is the company's", () => {
  it("an admin who renames the organisation's account to themself cannot bind their own account", async () => {
    const org = await makeOrg(s, 'Acme Pte Ltd');
    const admin = await addMember(s, org, 'admin');
    const renamed = await write(s, PATHS.userProfile, admin.orgToken, { first_name: 'Eve', last_name: 'Mallory', mobile: '81234567', ic_number: 'S7654321F' });
    expect(renamed.code, renamed.msg).toBe(0);
    const mine = { bank_name: 'DBS', account_no: '0123456789', holder_name: 'Eve Mallory', paynow: '', password: TRADE_PASSWORD };
    await expectOrgRefused(s, 'holder_mismatch', (lang) => write(s, PATHS.userCard, admin.orgToken, mine, { lang }));
    // A PayNow mobile number is a person's; a UEN other than the organisation's is another company's.
    for (const paynow of ['81234567', '201999999Z']) {
      await expectOrgRefused(s, 'paynow_invalid', (lang) => write(s, PATHS.userCard, admin.orgToken, { ...mine, bank_name: '', account_no: '', paynow, holder_name: 'Acme Pte Ltd' }, { lang }));
    }
    const bound = await write(s, PATHS.userCard, admin.orgToken, { ...mine, bank_name: '', account_no: '', paynow: '201912345k', holder_name: 'ACME PTE LTD' });
    expect(bound.code, bound.msg).toBe(0);
    const bank = await write(s, PATHS.userCard, admin.orgToken, { ...mine, holder_name: 'Acme Pte Ltd' });
    expect(bank.code, bank.msg).toBe(0);
  });

  it("a payout account bound before in a person's name pays nothing out", async () => {
    const org = await makeOrg(s, 'Acme Pte Ltd');
    await topup(s, org.id, 100_000);
    await s.db.updateTable('users').set({ first_name: 'Eve', last_name: 'Mallory' }).where('id', '=', org.id).execute();
    const now = s.clock.now();
    await s.db.insertInto('bank_accounts').values({ user_id: org.id, bank_name: 'DBS', account_no: '0123456789', holder_name: 'Eve Mallory', paynow: '81234567', created_at: now, updated_at: now }).execute();
    const buyer = await addMember(s, org, 'buyer');
    for (const method of ['bank', 'paynow']) {
      await expectOrgRefused(s, 'bank_incorrect', (lang) => write(s, PATHS.walletWithdraw, buyer.orgToken, { amount: 10_000, method, password: TRADE_PASSWORD }, { lang }));
    }
  });
});

describe('a member cannot change their own role', () => {
  it('an admin who gives themself another role (buyer: trading) is refused and nothing changes', async () => {
    const org = await makeOrg(s);
    const admin = await addMember(s, org, 'admin');
    for (const role of ['buyer', 'viewer', 'admin']) {
      await expectOrgRefused(s, 'org_own_role', (lang) => write(s, PATHS.orgRole, admin.orgToken, { user_id: admin.id, role }, { lang }));
    }
    // Another admin still may.
    const other = await addMember(s, org, 'admin');
    const changed = await write(s, PATHS.orgRole, other.orgToken, { user_id: admin.id, role: 'viewer' });
    expect(changed.code, changed.msg).toBe(0);
  });
});
