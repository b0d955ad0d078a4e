// Receipts (docs/product.md#receipts): every purchase, booking, final payment, sale, retirement, top-up
// credited and withdrawal completed writes a numbered receipt and its mail in the event's transaction; the
// mail job sends each once; the account reads only its own receipts, as data and as a PDF whose totals are
// the ledger's. Run on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { allocatePresale } from '../../src/server/modules/order/transitions';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { sendReceiptMail } from '../../src/server/scheduler/receipt-mail';
import type { Mailer } from '../../src/server/lib/mail';
import { API_BASE, PATHS } from '../../src/shared/api';
import type { Lang } from '../../src/shared/errors';
import { formatSgd } from '../../src/shared/money';
import type { Receipt } from '../../src/shared/schemas/receipt';
import { pdfText } from '../helpers/pdf';
import { DAY, MIN, refusal, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, orderApi } from './market-helpers';
import { makeRetirableProject, retireApi } from './retire-helpers';
import { fund, newUser, ok, ops, WALLET_ENV, WITHDRAW_PASSWORD, write, type WalletUser } from './wallet-helpers';

let s: TestServer;
beforeAll(async () => {
  // Many payment passwords at once (40 parallel buys by one account): the hash lane queues them all, one
  // account's in turn (more in flight than its attempts left would be refused as a guessing burst).
  // The server's own mail job runs once at start and then not for an hour: the tests run it themselves.
  s = await startTestServer({ ...WALLET_ENV, HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000', RECEIPT_MAIL_EVERY_MS: '3600000' });
});
afterAll(async () => {
  await s?.close();
});

/** A mailer that keeps what it is asked to deliver. */
function capture(): { mailer: Mailer; sent: Array<{ to: string; subject: string; body: string }> } {
  const sent: Array<{ to: string; subject: string; body: string }> = [];
  return {
    sent,
    mailer: {
      send: () => Promise.resolve(),
      deliver: (to, subject, body) => {
        sent.push({ to, subject, body });
        return Promise.resolve(true);
      },
    },
  };
}

const receiptsApi = {
  lists: (u: { token: string }, q: Record<string, unknown> = {}) => s.api<{ list: Receipt[]; total: number }>('GET', PATHS.receiptLists, q, { token: u.token }),
  detail: (u: { token: string }, id: unknown, lang?: Lang) => s.api<Receipt>('GET', PATHS.receiptDetail, { id }, { token: u.token, lang }),
  pdf: (u: { token: string }, id: number, lang: Lang) => s.raw('GET', PATHS.receiptPdf, { headers: { Authorization: u.token }, query: `id=${id}&lang=${lang}` }),
};

/** What the ledger moved for the account in the receipt's entry: the net of its money accounts. */
async function ledgerTotal(ownerId: number, entryId: number): Promise<number> {
  const logs = await s.db.selectFrom('fund_logs').select(['account_name', 'amount', 'unit']).where('entry_id', '=', entryId).where('owner_id', '=', ownerId).execute();
  const byAccount = new Map<string, number>();
  for (const l of logs) if (l.unit === 'cents') byAccount.set(l.account_name, (byAccount.get(l.account_name) ?? 0) + Number(l.amount));
  const net = Math.abs([...byAccount.values()].reduce((a, b) => a + b, 0));
  return net > 0 ? net : Math.max(0, ...[...byAccount.values()].map(Math.abs));
}

describe('one receipt per money event', () => {
  let u: WalletUser;
  let orderId: number;
  let retirementId: string;

  it('top-up, purchase, sale, retirement, booking, final payment, withdrawal: receipts 1..7, each with its mail', async () => {
    u = await newUser(s, { tag: 'receipts' });
    const pay = { password: WITHDRAW_PASSWORD };
    await fund(s, u, 500_000);
    const pid = await makeRetirableProject(s);
    const bought = ok((await orderApi(s).buy(u, pid, 10, pay)) as never) as { id: number };
    orderId = bought.id;
    s.clock.advance(MIN);
    await runDueWork(s.running.deps); // the cycle ends: the credits are the account's
    await s.db.updateTable('users').set({ grade: 5 }).where('id', '=', u.id).execute(); // may sell back
    ok(await orderApi(s).sell(u, pid, 2, pay), 'sell');
    retirementId = (ok(await retireApi(s).retire(u, { project_id: pid, tons: 3, paypwd: WITHDRAW_PASSWORD }), 'retire') as { id: string }).id;
    const presale = await makeProject(s, { status: 'presale', price: 1200, presale_price: 1000, selling_time: s.clock.now() + 5 * DAY, end_time: s.clock.now() + 90 * DAY, cycle_value: 1, cycle_unit: 'hours' });
    const booked = ok(await orderApi(s).book(u, presale, 10, pay), 'book') as { id: number };
    await allocatePresale(s.db, presale, 1100, s.clock.now(), 72);
    ok(await orderApi(s).finalpay(u, booked.id, pay), 'finalpay');
    const w = ok(await write(s, PATHS.walletWithdraw, { amount: '10000', password: WITHDRAW_PASSWORD }, u), 'withdraw') as { id: number };
    await ops(s, 'withdrawal:complete', [String(w.id)]);

    const rows = await s.db.selectFrom('receipts').selectAll().where('owner_id', '=', u.id).orderBy('number').execute();
    expect(rows.map((r) => [Number(r.number), r.kind])).toEqual([
      [1, 'topup'],
      [2, 'purchase'],
      [3, 'sale'],
      [4, 'retirement'],
      [5, 'booking'],
      [6, 'final_payment'],
      [7, 'withdrawal'],
    ]);
    for (const r of rows) expect(Number(r.total), `${r.kind} total`).toBe(await ledgerTotal(u.id, Number(r.entry_id)));
    // The final payment's total is the allocated tons at the final price: the booking fee held, and the rest.
    expect(rows.map((r) => Number(r.total))).toEqual([500_000, 10_000, expect.any(Number), 0, 1_000, 10 * 1100, 10_250]);
    expect(Number(rows[6]!.fee)).toBe(250);
    const mail = await s.db.selectFrom('outbox').select(['to_email', 'receipt_id', 'attempted_at', 'sent_at']).where('receipt_id', 'in', rows.map((r) => r.id)).orderBy('receipt_id').execute();
    expect(mail).toEqual(rows.map((r) => ({ to_email: u.email, receipt_id: r.id, attempted_at: null, sent_at: null })));
    expect((await checkLedger(s.db)).ok).toBe(true);
  });

  it('the mail job sends each once, in the language the member signed in with', async () => {
    ok(await s.api('POST', PATHS.login, { email: u.email, password: u.password, agree: true }, { lang: 'cn' }), 'login');
    const { mailer, sent } = capture();
    const deps = { ...s.running.deps, mailer };
    await sendReceiptMail(deps);
    await sendReceiptMail(deps);
    const mine = sent.filter((m) => m.to === u.email);
    expect(mine.map((m) => m.subject)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `您的 Canopy 收据（编号 ${n}）`));
    expect(mine[1]!.body).toContain(`合计: ${formatSgd(10_000)}`);
    expect(mine[1]!.body).toContain('支付方式: 钱包余额');
    expect(mine[3]!.body).toContain(`/certificate/${retirementId}`);
    expect(mine[6]!.body).toContain(`手续费: ${formatSgd(250)}`);
    for (const m of mine) expect(m.body).toContain('202612345K');
    const unsent = await s.db.selectFrom('outbox').select('id').where('receipt_id', 'is not', null).where('sent_at', 'is', null).execute();
    expect(unsent).toEqual([]);
  });

  it('the receipts of an order, a fund-log entry and a retirement; detail and PDF in both languages, totals as the ledger', async () => {
    const ofOrder = ok(await receiptsApi.lists(u, { order_id: orderId }));
    expect(ofOrder.list.map((r) => [r.kind, r.number, r.total, r.unit_price, r.tons, r.payment_method])).toEqual([['purchase', 2, 10_000, 1000, 10, 'wallet']]);
    const ofRetirement = ok(await receiptsApi.lists(u, { retirement_id: retirementId })).list;
    expect(ofRetirement).toHaveLength(1);
    expect(ofRetirement[0]).toMatchObject({ kind: 'retirement', tons: 3, reference: retirementId, certificate_url: expect.stringContaining(`/certificate/${retirementId}`) });
    expect(ofRetirement[0]!.serials.length).toBeGreaterThan(0);
    const withdrawal = await s.db.selectFrom('receipts').select(['id', 'entry_id']).where('owner_id', '=', u.id).where('kind', '=', 'withdrawal').executeTakeFirstOrThrow();
    const ofEntry = ok(await receiptsApi.lists(u, { entry_id: Number(withdrawal.entry_id) })).list;
    expect(ofEntry.map((r) => [r.kind, r.total, r.fee, r.payment_method])).toEqual([['withdrawal', 10_250, 250, 'bank']]);
    expect(ok(await receiptsApi.lists(u)).total).toBe(7);

    const purchase = ofOrder.list[0]!;
    expect(ok(await receiptsApi.detail(u, purchase.id))).toEqual(purchase);
    expect(purchase.company).toEqual({ name: 'Canopy Pte. Ltd.', uen: '202612345K', address: expect.any(String) });
    expect(purchase.created_at).toMatch(/\+08:00$/);
    for (const [lang, total] of [
      ['en', 'Total'],
      ['cn', '合计'],
    ] as const) {
      const res = await receiptsApi.pdf(u, purchase.id, lang);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
      expect(text).toContain(`${total} ${formatSgd(await ledgerTotal(u.id, (await s.db.selectFrom('receipts').select('entry_id').where('id', '=', purchase.id).executeTakeFirstOrThrow()).entry_id))}`);
      expect(text).toContain('202612345K');
      expect(text).toContain(purchase.reference);
    }
  });

  it("another account's receipts are not found, in en and cn; junk ids are refused", async () => {
    const other = await makeUser(s);
    const mine = ok(await receiptsApi.lists(u)).list;
    for (const lang of ['en', 'cn'] as const) {
      for (const r of mine) {
        const res = await receiptsApi.detail(other, r.id, lang);
        expect({ code: res.code, msg: res.msg }).toEqual(refusal('receipt_not_found', lang));
        const pdf = await receiptsApi.pdf(other, r.id, lang);
        expect(pdf.headers.get('content-type')).toContain('application/json');
        expect(((await pdf.json()) as { code: number }).code).toBe(refusal('receipt_not_found', lang).code);
      }
    }
    expect(ok(await receiptsApi.lists(other, { order_id: orderId })).list).toEqual([]);
    expect(ok(await receiptsApi.lists(other, { retirement_id: retirementId })).list).toEqual([]);
    for (const id of ['__proto__', '-1', '0', '1e3', 'x'.repeat(5000)]) {
      expect((await receiptsApi.detail(u, id)).code).toBe(refusal('invalid_request').code);
    }
    for (const q of [{ order_id: '__proto__' }, { entry_id: '-5' }, { retirement_id: 'x'.repeat(65) }, { page_size: '100000' }]) {
      expect((await receiptsApi.lists(u, q)).code, JSON.stringify(q).slice(0, 40)).toBe(refusal('invalid_request').code);
    }
    const res = await s.raw('GET', PATHS.receiptDetail, { query: 'id=1' });
    expect(((await res.json()) as { code: number }).code).toBeLessThan(0); // no session
    expect(API_BASE).toBe('/h5/api');
  });
});

describe('the operator and the outbox', () => {
  it('outbox:resend queues again only a receipt mail claimed and never sent', async () => {
    const buyer = await makeUser(s, { cents: 50_000 });
    const row = await s.db.selectFrom('outbox').select(['id']).where('to_email', '=', buyer.email).executeTakeFirstOrThrow();
    // Not claimed yet: nothing to resend.
    await expect(ops(s, 'outbox:resend', [String(row.id)])).rejects.toThrow(/not a receipt mail claimed and unsent/);
    // Claimed by a job that died before the SMTP server answered.
    await s.db.updateTable('outbox').set({ attempted_at: s.clock.now() }).where('id', '=', row.id).execute();
    expect((await ops(s, 'outbox', [], { to: buyer.email })).text).toContain('claimed, not sent');
    const { mailer, sent } = capture();
    await sendReceiptMail({ ...s.running.deps, mailer });
    expect(sent.filter((m) => m.to === buyer.email)).toEqual([]); // at most once: a claimed mail is not sent again by itself
    expect((await ops(s, 'outbox:resend', [String(row.id)])).text).toContain('queued again');
    await sendReceiptMail({ ...s.running.deps, mailer });
    expect(sent.filter((m) => m.to === buyer.email).map((m) => m.subject)).toEqual(['Your Canopy receipt no. 1']);
    expect((await ops(s, 'outbox', [], { to: buyer.email })).text).toContain('(sent)');
    // Sent: never again from here.
    await expect(ops(s, 'outbox:resend', [String(row.id)])).rejects.toThrow(/not a receipt mail claimed and unsent/);
    const code = await s.db.insertInto('outbox').values({ to_email: buyer.email, subject: 'code', body: 'x', created_at: s.clock.now(), sent_at: null, error: null }).returning('id').executeTakeFirstOrThrow();
    await expect(ops(s, 'outbox:resend', [String(code.id)])).rejects.toThrow(/not a receipt mail/);
  });

  it('three mail jobs at once (three instances): each mail sent by exactly one of them', async () => {
    const users = await Promise.all(Array.from({ length: 20 }, () => makeUser(s, { cents: 1_000 })));
    const jobs = [capture(), capture(), capture()];
    await Promise.all(jobs.map(({ mailer }) => sendReceiptMail({ ...s.running.deps, mailer })));
    const all = jobs.flatMap(({ sent }) => sent.map((m) => m.to)).filter((to) => users.some((u) => u.email === to));
    expect(all.sort()).toEqual(users.map((u) => u.email).sort());
    expect(jobs.filter(({ sent }) => sent.length > 0).length).toBeGreaterThan(0);
  });

  it('a mail server refusing a mail: the error kept, the mail not sent again by itself', async () => {
    const buyer = await makeUser(s, { cents: 20_000 });
    const failing: Mailer = { send: () => Promise.resolve(), deliver: () => Promise.reject(new Error('550 mailbox unavailable')) };
    await sendReceiptMail({ ...s.running.deps, mailer: failing });
    const row = await s.db.selectFrom('outbox').select(['error', 'sent_at', 'attempted_at']).where('to_email', '=', buyer.email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ error: expect.stringContaining('550'), sent_at: null, attempted_at: expect.anything() });
    expect((await ops(s, 'outbox', [], { to: buyer.email })).text).toContain('not sent: Error: 550');
  });
});

describe('numbers under load', () => {
  it('40 purchases in parallel by one account are numbered 1..40 without gaps or repeats', async () => {
    const buyer = await makeUser(s, { cents: 1_000_000 });
    // makeUser's money came in as a top-up entry: that is receipt 1.
    const pid = await makeProject(s, { max_tons: 1000, monthly_limit: 10_000, total_limit: 10_000 });
    const answers = await Promise.all(Array.from({ length: 40 }, () => orderApi(s).buy(buyer, pid, 1)));
    expect(answers.map((a) => `${a.code} ${a.msg}`)).toEqual(answers.map(() => '0 ok'));
    const rows = await s.db.selectFrom('receipts').select(['number', 'kind', 'ref_id']).where('owner_id', '=', buyer.id).orderBy('number').execute();
    expect(rows.map((r) => Number(r.number))).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(new Set(rows.filter((r) => r.kind === 'purchase').map((r) => Number(r.ref_id)))).toEqual(new Set(answers.map((a) => (a.data as { id: number }).id)));
    expect((await checkLedger(s.db)).ok).toBe(true);
  });

  it('40 purchases in parallel with money for 25: the refused ones take no number, the rest run on without a gap', async () => {
    const buyer = await makeUser(s, { cents: 25 * 1000 });
    const pid = await makeProject(s, { max_tons: 1000, monthly_limit: 10_000, total_limit: 10_000, price: 1000 });
    const answers = await Promise.all(Array.from({ length: 40 }, () => orderApi(s).buy(buyer, pid, 1)));
    const bought = answers.filter((a) => a.code === 0).length;
    expect(bought).toBe(25);
    const rows = await s.db.selectFrom('receipts').select('number').where('owner_id', '=', buyer.id).orderBy('number').execute();
    expect(rows.map((r) => Number(r.number))).toEqual(Array.from({ length: bought + 1 }, (_, i) => i + 1));
    expect((await checkLedger(s.db)).ok).toBe(true);
  });

  it('two accounts buying at once each count from their own counter', async () => {
    const a = await makeUser(s, { cents: 100_000 });
    const b = await makeUser(s, { cents: 100_000 });
    const pid = await makeProject(s, { max_tons: 1000, monthly_limit: 10_000, total_limit: 10_000 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => orderApi(s).buy(i % 2 ? a : b, pid, 1)));
    for (const x of [a, b]) {
      const rows = await s.db.selectFrom('receipts').select('number').where('owner_id', '=', x.id).orderBy('number').execute();
      expect(rows.map((r) => Number(r.number))).toEqual([1, 2, 3, 4, 5, 6]);
    }
  });
});
