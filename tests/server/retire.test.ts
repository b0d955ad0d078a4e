// Retirement over real HTTP (docs/product.md#retirement): retire with serials and a ledger entry, the public
// certificate, every refusal in en and cn with nothing changed, the payment password's counted attempts,
// idempotent replay, 50 parallel retirements over one holding, the transparency figures (cached, ETag,
// refreshed by the live events), the operator's retirement:list and ledger:check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, checkRetirements, walletOf } from '../../src/server/ledger/ledger';
import { forgetLedgerCheck } from '../../src/server/modules/retire/service';
import { runOps } from '../../src/server/ops/registry';
import { API_BASE, PATHS } from '../../src/shared/api';
import { refusal, startTestServer, type TestServer } from '../helpers/server';
import { makeUser, orderApi } from './market-helpers';
import { expectRetireRefused, giveCredits, holder, makeRetirableProject, newKey, retireApi, retireSnapshot, TRADE_PASSWORD, withRetirementsEditable } from './retire-helpers';

let s: TestServer;
let api: ReturnType<typeof retireApi>;

beforeAll(async () => {
  s = await startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000' });
  api = retireApi(s);
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok, JSON.stringify([report.problems, report.retirement_problems, report.totals])).toBe(true);
  await s?.close();
});

describe('retire', () => {
  it('moves the tons to the project retirement account, takes contiguous serials and answers the certificate', async () => {
    const { u, pid } = await holder(s, 30, { registry_id: 'VCS-2871', vintage: 2022 });
    const res = await api.retire(u, { project_id: pid, tons: 12, beneficiary: '  Acme Pte Ltd ', reason: 'FY2026 travel' });
    expect(res.code, res.msg).toBe(0);
    const a = res.data;
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(a.id, 'base64url')).toHaveLength(16);
    expect(a.tons).toBe(12);
    expect(a.serials).toEqual([{ from: 'VCS-2871-2022-000000001', to: 'VCS-2871-2022-000000012' }]);
    expect(a.certificate_url).toBe(`${s.url}/certificate/${a.id}`);
    expect(await walletOf(s.db, u.id)).toMatchObject({ credits: 18 });
    const h = await s.db.selectFrom('credit_holdings').select('tons').where('user_id', '=', u.id).where('project_id', '=', pid).executeTakeFirstOrThrow();
    expect(h.tons).toBe(18);
    const logs = await s.db.selectFrom('fund_logs').select(['owner_id', 'account_name', 'amount', 'kind']).where('kind', '=', 'credit_retire').where('memo', 'like', `%${a.id}%`).execute();
    expect(logs).toEqual([
      { owner_id: u.id, account_name: 'credits', amount: -12, kind: 'credit_retire' },
      { owner_id: 0, account_name: `retired:${pid}`, amount: 12, kind: 'credit_retire' },
    ]);

    // The next retirement of the project continues the sequence.
    s.clock.advance(1000);
    const b = (await api.retire(u, { project_id: pid, tons: 3 })).data;
    expect(b.serials).toEqual([{ from: 'VCS-2871-2022-000000013', to: 'VCS-2871-2022-000000015' }]);

    // The public certificate, without a session.
    const cert = await api.certificate(a.id);
    expect(cert.code, cert.msg).toBe(0);
    expect(cert.data).toMatchObject({
      id: a.id,
      beneficiary: 'Acme Pte Ltd',
      reason: 'FY2026 travel',
      tons: 12,
      serials: a.serials,
      project_id: pid,
      registry: 'Verra',
      registry_id: 'VCS-2871',
      vintage: 2022,
      country: 'Malaysia',
      methodology: 'VM0007 REDD+',
      certificate_url: a.certificate_url,
    });
    expect(cert.data.retired_at).toMatch(/\+08:00$/);

    // The owner's list, newest first, paged.
    const list = await api.list(u, { page_size: 1 });
    expect(list.code).toBe(0);
    expect(list.data).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(list.data.list[0].id).toBe(b.id);
    const page2 = (await api.list(u, { page: 2, page_size: 1 })).data;
    expect(page2.list[0]).toEqual(cert.data);
    // Another user sees none of them.
    const other = await makeUser(s);
    expect((await api.list(other)).data).toMatchObject({ total: 0, list: [] });
    expect(await checkRetirements(s.db)).toEqual([]);
  });

  it('takes purchase credits first, then those of pre-sale origin', async () => {
    const { u, pid } = await holder(s, 5);
    await s.db.insertInto('credit_holdings').values({ user_id: u.id, project_id: pid, origin: 'presale', tons: 4, updated_at: s.clock.now() }).execute();
    // Keep the ledger whole: the 4 t came from the registry like any issue.
    const { post, PLATFORM } = await import('../../src/server/ledger/ledger');
    const { writeTx } = await import('../../src/server/db/tx');
    await writeTx(s.db, (tx) => post(tx, { kind: 'credit_issue', now: s.clock.now(), postings: [{ owner: PLATFORM, account: 'registry', amount: -4 }, { owner: u.id, account: 'credits', amount: 4 }] }));
    expect((await api.retire(u, { project_id: pid, tons: 7 })).code).toBe(0);
    const rows = await s.db.selectFrom('credit_holdings').select(['origin', 'tons']).where('user_id', '=', u.id).where('project_id', '=', pid).orderBy('origin').execute();
    expect(rows).toEqual([
      { origin: 'presale', tons: 2 },
      { origin: 'purchase', tons: 0 },
    ]);
  });
});

describe('refusals: code, en and cn message, nothing changed', () => {
  it('not enough credits', async () => {
    const { u, pid } = await holder(s, 5);
    await expectRetireRefused(s, 'retire_insufficient_credits', (lang) => api.retire(u, { project_id: pid, tons: 6 }, { lang }), { n: 5 });
    const stranger = await makeUser(s);
    await expectRetireRefused(s, 'retire_insufficient_credits', (lang) => api.retire(stranger, { project_id: pid, tons: 1 }, { lang }), { n: 0 });
  });

  it('tons pending sale cannot be retired', async () => {
    const { u, pid } = await holder(s, 10, {}, { grade: 1 });
    const sold = await orderApi(s).sell(u, pid, 4);
    expect(sold.code, sold.msg).toBe(0);
    await expectRetireRefused(s, 'retire_pending_sale', (lang) => api.retire(u, { project_id: pid, tons: 8 }, { lang }), { n: 4, m: 6 });
    // More than held and pending together: simply not enough.
    await expectRetireRefused(s, 'retire_insufficient_credits', (lang) => api.retire(u, { project_id: pid, tons: 11 }, { lang }), { n: 6 });
    expect((await api.retire(u, { project_id: pid, tons: 6 })).code).toBe(0);
  });

  it('a project that is not retirable', async () => {
    const { u, pid } = await holder(s, 3);
    await s.db.updateTable('projects').set({ registry_id: '' }).where('id', '=', pid).execute();
    await expectRetireRefused(s, 'retire_not_retirable', (lang) => api.retire(u, { project_id: pid, tons: 1 }, { lang }));
    await s.db.updateTable('projects').set({ registry_id: 'VCS-1', status: 'pending_review' }).where('id', '=', pid).execute();
    await expectRetireRefused(s, 'retire_not_retirable', (lang) => api.retire(u, { project_id: pid, tons: 1 }, { lang }));
    await expectRetireRefused(s, 'retire_not_retirable', (lang) => api.retire(u, { project_id: 999_999, tons: 1 }, { lang }));
  });

  it('a bad beneficiary: empty, over 100 characters, control characters', async () => {
    const { u, pid } = await holder(s, 3);
    for (const beneficiary of ['', '   ']) {
      await expectRetireRefused(s, 'retire_beneficiary_required', (lang) => api.retire(u, { project_id: pid, tons: 1, beneficiary }, { lang }));
    }
    await expectRetireRefused(s, 'retire_beneficiary_too_long', (lang) => api.retire(u, { project_id: pid, tons: 1, beneficiary: 'x'.repeat(101) }, { lang }));
    for (const beneficiary of ['Acme\nLtd', 'Acme\u0007', 'Acme\u202eLtd', '\u0085Acme', 'Acme\tLtd']) {
      await expectRetireRefused(s, 'retire_beneficiary_invalid', (lang) => api.retire(u, { project_id: pid, tons: 1, beneficiary }, { lang }));
    }
    // 100 characters of Chinese (counted as people see them) is fine.
    const res = await api.retire(u, { project_id: pid, tons: 1, beneficiary: '林'.repeat(100) });
    expect(res.code, res.msg).toBe(0);
  });

  it('a reason over 200 characters; tons not a whole number of at least 1', async () => {
    const { u, pid } = await holder(s, 3);
    await expectRetireRefused(s, 'retire_reason_too_long', (lang) => api.retire(u, { project_id: pid, tons: 1, reason: 'r'.repeat(201) }, { lang }));
    for (const tons of [0, -1, '1.5', 'abc']) {
      await expectRetireRefused(s, 'retire_tons_invalid', (lang) => api.retire(u, { project_id: pid, tons }, { lang }));
    }
    expect((await api.retire(u, { project_id: pid, tons: 1, reason: 'r'.repeat(200) })).code).toBe(0);
  });

  it('a reason with control or text-reversing characters is refused; line breaks are kept', async () => {
    const { u, pid } = await holder(s, 3);
    for (const reason of ['Trip\u202eto Bali', 'Trip\u0007', 'Trip\u200bto', 'Trip\u2028to', '\ufeffTrip']) {
      await expectRetireRefused(s, 'retire_reason_invalid', (lang) => api.retire(u, { project_id: pid, tons: 1, reason }, { lang }));
    }
    expect((await api.retire(u, { project_id: pid, tons: 1, reason: 'Family trip\nto Bali, 2026' })).code).toBe(0);
  });

  it('a wrong payment password counts down the attempts and the fifth locks, as for orders', async () => {
    const { u, pid } = await holder(s, 3);
    for (const [lang, left] of [
      ['en', 4],
      ['cn', 3],
      ['en', 2],
      ['cn', 1],
    ] as const) {
      const before = await retireSnapshot(s);
      const res = await api.retire(u, { project_id: pid, tons: 1, paypwd: 'Wrong#Pass1' }, { lang });
      expect({ code: res.code, msg: res.msg }).toEqual(refusal('project_password_incorrect', lang, { n: left }));
      expect(await retireSnapshot(s)).toEqual(before);
    }
    const fifth = await api.retire(u, { project_id: pid, tons: 1, paypwd: 'Wrong#Pass1' });
    expect(fifth.code).toBe(refusal('balance_frozen').code);
    const user = await s.db.selectFrom('users').select(['trade_locked', 'trade_fails']).where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(user.trade_locked).toBe(1);
    expect(await s.db.selectFrom('retirements').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it('a right password clears the count', async () => {
    const { u, pid } = await holder(s, 3);
    expect((await api.retire(u, { project_id: pid, tons: 1, paypwd: 'nope' })).code).toBe(refusal('project_password_incorrect').code);
    expect((await api.retire(u, { project_id: pid, tons: 1 })).code).toBe(0);
    const user = await s.db.selectFrom('users').select('trade_fails').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(user.trade_fails).toBe(0);
  });

  it('an unknown or malformed certificate id is the not-found code, nothing else', async () => {
    for (const lang of ['en', 'cn'] as const) {
      for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'nope', "'; drop table x; --", 'A'.repeat(300)]) {
        const res = await api.certificate(id, lang);
        expect({ code: res.code, msg: res.msg, data: res.data }).toEqual({ ...refusal('certificate_not_found', lang), data: null });
      }
    }
  });

  it('needs a signed-in user and an Idempotency-Key', async () => {
    const { u, pid } = await holder(s, 2);
    const guest = await s.api('POST', PATHS.creditRetire, { project_id: pid, tons: 1, beneficiary: 'x', paypwd: TRADE_PASSWORD }, { idempotencyKey: newKey() });
    expect(guest.code).toBeLessThan(0);
    const noKey = await s.api('POST', PATHS.creditRetire, { project_id: pid, tons: 1, beneficiary: 'x', paypwd: TRADE_PASSWORD }, { token: u.token });
    expect(noKey.code).toBe(refusal('invalid_request').code);
    const extra = await s.api('POST', PATHS.creditRetire, { project_id: pid, tons: 1, beneficiary: 'x', paypwd: TRADE_PASSWORD, user_id: 1 }, { token: u.token, idempotencyKey: newKey() });
    expect(extra.code).toBe(refusal('invalid_request').code);
    expect(await s.db.selectFrom('retirements').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });
});

describe('writes and retries', () => {
  it('a replayed key answers the same retirement once; another body under the key is refused', async () => {
    const { u, pid } = await holder(s, 10);
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.retire(u, { project_id: pid, tons: 2 }, { key })));
    for (const a of answers) expect(a.data).toEqual(answers[0]!.data);
    expect(await s.db.selectFrom('retirements').select('id').where('user_id', '=', u.id).execute()).toHaveLength(1);
    expect(await walletOf(s.db, u.id)).toMatchObject({ credits: 8 });
    const other = await api.retire(u, { project_id: pid, tons: 3 }, { key });
    expect(other.code).toBe(refusal('idempotency_mismatch').code);
  });

  it('50 parallel retirements over one holding never retire more than held', async () => {
    const { u, pid } = await holder(s, 20);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => api.retire(u, { project_id: pid, tons: 1, beneficiary: `B${i}` })));
    const done = answers.filter((a) => a.code === 0);
    for (const a of answers) if (a.code !== 0) expect([refusal('retire_insufficient_credits').code, refusal('too_many_requests').code]).toContain(a.code);
    expect(done.length).toBeLessThanOrEqual(20);
    expect(done.length).toBeGreaterThan(0);
    const retired = await s.db.selectFrom('retirements').select('tons').where('project_id', '=', pid).execute();
    expect(retired.reduce((n, r) => n + r.tons, 0)).toBe(done.length);
    expect(await walletOf(s.db, u.id)).toMatchObject({ credits: 20 - done.length });
    // Every serial once: 1..done, each in one certificate.
    const seqs = done.flatMap((a) => a.data.serials.map((r: { from: string }) => Number(r.from.split('-').at(-1))));
    expect(new Set(seqs).size).toBe(done.length);
    expect(Math.max(...seqs)).toBe(done.length);
    // And in parallel with more tons each: 7 x 3 t over 20 held.
    const more = await holder(s, 20);
    const big = await Promise.all(Array.from({ length: 7 }, () => api.retire(more.u, { project_id: more.pid, tons: 3 })));
    expect(big.filter((a) => a.code === 0)).toHaveLength(6);
    expect(await walletOf(s.db, more.u.id)).toMatchObject({ credits: 2 });
    expect(await checkRetirements(s.db)).toEqual([]);
  });
});

describe('transparency', () => {
  it('answers issued, sold, booked, retired and remaining per project, totals, months and the ledger check, with an ETag', async () => {
    const { u, pid } = await holder(s, 15, { total_tons: 400, remaining_tons: 400 });
    const first = await s.raw('GET', PATHS.publicTransparency);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const body = (await first.json()) as { data: { projects: Array<Record<string, number>>; totals: Record<string, number>; monthly: Array<{ month: string; tons: number }>; ledger: { ok: boolean } } };
    const row = body.data.projects.find((p) => p.id === pid)!;
    expect(row).toMatchObject({ issued: 400, sold: 15, booked: 0, retired: 0, remaining: 385 });
    for (const p of body.data.projects) expect(p.issued).toBe(p.sold! + p.booked! + p.remaining!);
    expect(body.data.monthly).toHaveLength(12);
    expect(body.data.ledger.ok).toBe(true);
    // Plain fetch for the conditional GETs (a 304 has no envelope to check against the contract).
    const conditional = (tag: string) => fetch(`${s.url}${API_BASE}${PATHS.publicTransparency}`, { headers: { 'If-None-Match': tag } });
    const again = await conditional(etag!);
    expect(again.status).toBe(304);

    const before = body.data.monthly.at(-1)!.tons;
    expect((await api.retire(u, { project_id: pid, tons: 5 })).code).toBe(0);
    // The live event feed hands the retirement's event to the response cache: the next answer has the new figure.
    let fresh: typeof body.data | undefined;
    for (let i = 0; i < 50; i++) {
      const r = await api.transparency();
      fresh = r.data;
      if (fresh!.projects.find((p) => p.id === pid)!.retired === 5) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(fresh!.projects.find((p) => p.id === pid)).toMatchObject({ retired: 5, sold: 15, remaining: 385 });
    expect(fresh!.monthly.at(-1)!.tons).toBe(before + 5);
    expect(fresh!.totals.retired).toBeGreaterThanOrEqual(5);
    const changed = await conditional(etag!);
    expect(changed.status).toBe(200);
  });

  it('counts bookings awaiting allocation as booked, out of what remains', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    const now = s.clock.now();
    const pid = await makeRetirableProject(s, { status: 'presale', presale_price: 800, total_tons: 300, remaining_tons: 300, selling_time: now + 86_400_000 * 10 });
    const booked = await orderApi(s).book(u, pid, 40);
    expect(booked.code, booked.msg).toBe(0);
    let row: Record<string, number> | undefined;
    for (let i = 0; i < 50; i++) {
      row = (await api.transparency()).data.projects.find((p: { id: number }) => p.id === pid);
      if (row?.booked === 40) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(row).toMatchObject({ issued: 300, sold: 0, booked: 40, remaining: 260, retired: 0 });
  });
});

describe('operator', () => {
  it('retirement:list shows retirements with their serial ranges', async () => {
    const { u, pid } = await holder(s, 4, { registry_id: 'GS-777', vintage: 2023 });
    const a = (await api.retire(u, { project_id: pid, tons: 4, beneficiary: 'Lim Family' })).data;
    const out = await runOps({ db: s.db, clock: s.clock }, 'retirement:list', ['--project', String(pid)], 'test');
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.text).toContain(a.id);
    expect(out.text).toContain('GS-777-2023-000000001..GS-777-2023-000000004');
    expect(out.text).toContain('"Lim Family"');
    // The same serial ranges as the certificate (one lookup serves both).
    const row = (out.data as Array<{ id: string; serials: unknown }>).find((r) => r.id === a.id);
    expect(row?.serials).toEqual(a.serials);
  });

  it('ledger:check finds a serial in two certificates, and counts that disagree', async () => {
    const { u, pid } = await holder(s, 6);
    const a = (await api.retire(u, { project_id: pid, tons: 3 })).data;
    const ctx = { db: s.db, clock: s.clock };
    expect((await runOps(ctx, 'ledger:check', [], 'test')).ok).toBe(true);
    // Tamper: a second retirement row claiming serials 2..4 (overlapping 1..3) without a ledger entry.
    const b = (await api.retire(u, { project_id: pid, tons: 1 })).data;
    await withRetirementsEditable(s, () => s.db.updateTable('retirement_serials').set({ first_seq: 2, last_seq: 2 }).where('retirement_id', '=', b.id).execute());
    const report = await runOps(ctx, 'ledger:check', [], 'test');
    expect(report.ok).toBe(false);
    if (!report.ok) expect(report.error).toMatch(/overlap/);
    await withRetirementsEditable(s, () => s.db.updateTable('retirement_serials').set({ first_seq: 4, last_seq: 4 }).where('retirement_id', '=', b.id).execute());
    // Tamper: the retirement's tons differ from its serials and the account.
    await withRetirementsEditable(s, () => s.db.updateTable('retirements').set({ tons: 4 }).where('id', '=', a.id).execute());
    const second = await runOps(ctx, 'ledger:check', [], 'test');
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.error).toMatch(/retired 5 t, serials allocated 4, retirement account 4/);
    await withRetirementsEditable(s, () => s.db.updateTable('retirements').set({ tons: 3 }).where('id', '=', a.id).execute());
    expect((await runOps(ctx, 'ledger:check', [], 'test')).ok).toBe(true);
    forgetLedgerCheck(s.db);
  });
});

// giveCredits is used by the property suite too; keep the import used here.
void giveCredits;
