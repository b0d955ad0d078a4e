// PayNow top-ups and bank statement reconciliation (docs/product.md#top-ups), on SQLite and PostgreSQL alike:
// the top-up answer (reference, QR, expiry) and its refusals; `ops topup:import` on the DBS CSV, MT940 and
// camt.053 fixtures: exact, wrong amount, late, double, unknown reference, twice, overlapping, dry run,
// malformed, 20 concurrent imports; `ops topup:unmatched` and `ops topup:assign`. The ledger checks after
// each.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { parsePayNowPayload, REFERENCE_PATTERN, sgtYmd } from '../../src/shared/paynow';
import type { TopupRecord } from '../../src/shared/schemas/wallet';
import { checkLedger } from '../../src/server/ledger/ledger';
import { runOps } from '../../src/server/ops/registry';
import { parseStatement } from '../../src/server/modules/wallet/statements';
import { REPO_ROOT, runCli, startTestServer, type TestServer } from '../helpers/server';
import { balances, expectRefused, newKey, newUser, ok, sgt, WALLET_ENV, walletSnapshot, write, type WalletUser } from './wallet-helpers';

const FIXTURES = path.join(REPO_ROOT, 'tests/fixtures/statements');
const fixture = (name: string) => path.join(FIXTURES, name);
const OPERATOR = 'ops-test-paynow';
const NOW = sgt(2026, 11, 23, 10); // 10:00 SGT, 23 Nov 2026: the fixtures' first day

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ ...WALLET_ENV, COMPANY_UEN: '201723769K', COMPANY_NAME: 'Canopy Test Pte Ltd', TOPUP_EXPIRY_MINUTES: '30' }, { now: NOW });
});
afterAll(async () => {
  await s?.close();
});

function topup(u: WalletUser, data: Record<string, unknown>, lang?: 'en' | 'cn') {
  return write(s, PATHS.walletTopup, data, u, { lang });
}

async function ops(name: string, args: string[]) {
  return runOps({ db: s.db, clock: s.clock, dataDir: s.dataDir }, name, args, OPERATOR);
}

interface Summary {
  matched: number;
  flagged: number;
  unmatched: number;
  already_seen: number;
  credited_cents: number;
  total_cents: number;
  lines: number;
  results: Array<{ outcome: string; flag: string; topup_id: number | null; line_id: number | null; amount: number }>;
}

async function importFile(file: string, extra: string[] = []): Promise<{ summary: Summary; text: string }> {
  const o = await ops('topup:import', [file, ...extra]);
  if (!o.ok) throw new Error(`import refused: ${o.error}`);
  return { summary: o.data as Summary, text: o.text };
}

async function topupRow(id: number) {
  return s.db.selectFrom('topups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Everything an import could change. */
async function importSnapshot() {
  const [wallet, statement_lines] = await Promise.all([walletSnapshot(s.db), s.db.selectFrom('statement_lines').selectAll().orderBy('id').execute()]);
  return { ...wallet, statement_lines };
}

async function ledgerOk() {
  const check = await checkLedger(s.db);
  expect(check.problems).toEqual([]);
  expect(check.ok).toBe(true);
}

describe('POST wallet/topup: reference, PayNow QR, expiry', () => {
  it('assigns a unique, well-formed reference and answers the QR payload and the expiry', async () => {
    const u = await newUser(s, { ready: false, tag: 'qr' });
    const a = ok(await topup(u, { amount: 12_345, method: 'paynow' })) as TopupRecord;
    const b = ok(await topup(u, { amount: 12_345, method: 'paynow' })) as TopupRecord;
    for (const r of [a, b]) {
      expect(r.reference).toMatch(REFERENCE_PATTERN);
      expect(r.reference.length).toBeLessThanOrEqual(25);
      expect(r.expires_at_ms).toBe(NOW + 30 * 60_000);
      expect(r.expires_at).toBe('2026-11-23T10:30:00.000+08:00');
      expect(r.status).toBe('pending');
      expect(r.flag).toBe('');
      const qr = parsePayNowPayload(r.paynow_qr!);
      expect(qr).toMatchObject({ uen: '201723769K', name: 'Canopy Test Pte Ltd', amountCents: 12_345, reference: r.reference, expiry: sgtYmd(NOW), editable: false });
    }
    expect(a.reference).not.toBe(b.reference);
    // The list carries the same fields: a QR shown before stays available.
    const list = ok(await s.api('GET', PATHS.walletTopups, { page: 1 }, { token: u.token })) as { list: TopupRecord[] };
    expect(list.list.find((r) => r.id === a.id)?.paynow_qr).toBe(a.paynow_qr);
    // A bank transfer has a reference and an expiry but no QR.
    const bank = ok(await topup(u, { amount: 5000, method: 'bank' })) as TopupRecord;
    expect(bank.paynow_qr).toBeNull();
    expect(bank.reference).toMatch(REFERENCE_PATTERN);
  });

  it("keeps a client's well-formed reference, read upper case without spaces", async () => {
    const u = await newUser(s, { ready: false, tag: 'qr' });
    const r = ok(await topup(u, { amount: 5000, method: 'paynow', reference: ' cnpc mjen tqrz zzz ' })) as TopupRecord;
    expect(r.reference).toBe('CNPCMJENTQRZZZZ');
    expect(parsePayNowPayload(r.paynow_qr!).reference).toBe('CNPCMJENTQRZZZZ');
  });

  it('refuses a malformed reference (2301) in en and cn, changing nothing', async () => {
    const u = await newUser(s, { ready: false, tag: 'qr' });
    for (const reference of ['CNP_1', 'CNP#1', 'Ä1', 'A'.repeat(26), 'PAYNOW', 'INCOMINGPAYNOWREF', 'FASTPAYMENTVIAPAYNOW-UEN', 'CNPABCDEFGHJKM', 'CNPABCDEFGHJKMNP', 'CNPABCDEFGHJKMI']) {
      await expectRefused(s, 'topup_reference_invalid', (lang) => topup(u, { amount: 5000, method: 'paynow', reference }, lang), { field: 'reference' });
    }
  });

  it('says the rule of a reference in 2301, "CNP" and 12 characters, in en and cn, changing nothing', async () => {
    const u = await newUser(s, { ready: false, tag: 'qr' });
    for (const lang of ['en', 'cn'] as const) {
      const before = await walletSnapshot(s.db);
      const res = await topup(u, { amount: 5000, method: 'paynow', reference: 'CNP-1' }, lang);
      expect(res.code).toBe(2301);
      expect(res.msg, lang).toContain('CNP');
      expect(res.msg, lang).toContain('12');
      expect(res.msg, lang).not.toContain('25');
      expect(res.msg, lang).not.toContain('"-"');
      expect(res.msg, lang).not.toContain('“-”');
      expect(await walletSnapshot(s.db)).toEqual(before);
    }
    // A reference the message describes is taken.
    expect(ok(await topup(u, { amount: 5000, method: 'paynow', reference: 'CNPABCDEFGHJKMN' }))).toMatchObject({ reference: 'CNPABCDEFGHJKMN' });
  });

  it('refuses a reference already used (2302) in en and cn, changing nothing', async () => {
    const u = await newUser(s, { ready: false, tag: 'qr' });
    const other = await newUser(s, { ready: false, tag: 'qr' });
    ok(await topup(u, { amount: 5000, method: 'paynow', reference: 'CNPTAKENQRZZZZZ' }));
    await expectRefused(s, 'topup_reference_taken', (lang) => topup(other, { amount: 5000, method: 'paynow', reference: 'CNPTAKENQRZZZZZ' }, lang), { field: 'reference' });
    await expectRefused(s, 'topup_reference_taken', (lang) => topup(u, { amount: 7000, method: 'bank', reference: ' cnpt aken qrzz zzz ' }, lang), { field: 'reference' });
    // The same request retried with its key is the same top-up, not a second use of the reference.
    const key = newKey();
    const first = ok(await write(s, PATHS.walletTopup, { amount: 5000, method: 'paynow', reference: 'CNPRETRYQRZZZZZ' }, u, { key })) as TopupRecord;
    const again = ok(await write(s, PATHS.walletTopup, { amount: 5000, method: 'paynow', reference: 'CNPRETRYQRZZZZZ' }, u, { key })) as TopupRecord;
    expect(again).toEqual(first);
  });

  it('refuses with the catalogue entries of the 2301-2399 block (code, en, cn)', async () => {
    const { ERRORS } = await import('../../src/shared/errors');
    expect(ERRORS.topup_reference_invalid.code).toBe(2301);
    expect(ERRORS.topup_reference_taken.code).toBe(2302);
    for (const e of [ERRORS.topup_reference_invalid, ERRORS.topup_reference_taken]) {
      expect(e.en.length).toBeGreaterThan(10);
      expect(e.cn).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});

describe('ops topup:import', () => {
  let exact: TopupRecord, amount: TopupRecord, late: TopupRecord, double: TopupRecord;
  let payer: WalletUser, other: WalletUser;

  beforeAll(async () => {
    s.clock.set(NOW);
    payer = await newUser(s, { ready: false, tag: 'payer' });
    other = await newUser(s, { ready: false, tag: 'other' });
    exact = ok(await topup(payer, { amount: 5000, method: 'paynow', reference: 'CNPEXACTQQQRZZZ' })) as TopupRecord;
    amount = ok(await topup(payer, { amount: 10_000, method: 'paynow', reference: 'CNPAMPUNTQ2ZZZZ' })) as TopupRecord;
    late = ok(await topup(other, { amount: 2500, method: 'bank', reference: 'CNPMATEQQQ3ZZZZ' })) as TopupRecord;
    double = ok(await topup(other, { amount: 3000, method: 'paynow', reference: 'CNPDPUBMEQQ4ZZZ' })) as TopupRecord;
  });

  it('a dry run with --json after it (as the CLI is typed) writes nothing either', async () => {
    const before = await importSnapshot();
    const { summary } = await importFile(fixture('dbs-ideal.csv'), ['--dry-run', '--json']);
    expect(summary).toMatchObject({ matched: 2, flagged: 3, unmatched: 1, already_seen: 0, lines: 6 });
    expect(await importSnapshot()).toEqual(before);
  });

  it('a dry run shows the summary and writes nothing', async () => {
    const before = await importSnapshot();
    const { summary, text } = await importFile(fixture('dbs-ideal.csv'), ['--dry-run']);
    expect(summary).toMatchObject({ matched: 2, flagged: 3, unmatched: 1, already_seen: 0, lines: 6 });
    expect(text).toMatch(/DRY RUN/);
    expect(await importSnapshot()).toEqual(before);
  });

  it('credits exact, wrong-amount, late and double payments; leaves the unknown line unmatched', async () => {
    s.clock.set(sgt(2026, 11, 25, 9));
    const before = { payer: await balances(s, payer), other: await balances(s, other) };
    const { summary, text } = await importFile(fixture('dbs-ideal.csv'), ['--format', 'dbs-csv']);
    expect(summary).toMatchObject({ matched: 2, flagged: 3, unmatched: 1, already_seen: 0, lines: 6, credited_cents: 5000 + 135_379 + 2500 + 3000 + 3000, total_cents: 5000 + 135_379 + 2500 + 3000 + 3000 + 7700 });
    expect(text).toMatch(/matched 2, flagged 3, unmatched 1, already seen 0; credited S\$1,488\.79, total new S\$1,565\.79/);

    // Exact: confirmed, the amount asked.
    expect(await topupRow(exact.id)).toMatchObject({ status: 'credited', flag: '', received_amount: 5000 });
    // Another amount: what came is credited, the top-up flagged.
    expect(await topupRow(amount.id)).toMatchObject({ status: 'credited', flag: 'amount', amount: 10_000, received_amount: 135_379 });
    // Booked the day after the expiry: credited, flagged late.
    expect(await topupRow(late.id)).toMatchObject({ status: 'credited', flag: 'late', received_amount: 2500 });
    // Twice under one reference: the first confirms, the second is its own top-up linked to the first.
    expect(await topupRow(double.id)).toMatchObject({ status: 'credited', flag: '', received_amount: 3000 });
    const seconds = await s.db.selectFrom('topups').selectAll().where('first_topup_id', '=', double.id).execute();
    expect(seconds).toHaveLength(1);
    expect(seconds[0]).toMatchObject({ user_id: other.id, status: 'credited', flag: 'double', amount: 3000, received_amount: 3000, reference: 'CNPDPUBMEQQ4ZZZ', ref_key: null });

    const after = { payer: await balances(s, payer), other: await balances(s, other) };
    expect(after.payer.available - before.payer.available).toBe(5000 + 135_379);
    expect(after.other.available - before.other.available).toBe(2500 + 3000 + 3000);

    // Notices in the inbox (en and cn) and live events for the screens.
    const notices = await s.db.selectFrom('notifications').selectAll().where('user_id', 'in', [payer.id, other.id]).orderBy('id').execute();
    expect(notices.map((n) => n.title)).toEqual(['Top-up credited', 'Top-up credited: different amount', 'Top-up credited', 'Top-up credited after expiry', 'Second payment credited']);
    expect(notices.every((n) => /[\u4e00-\u9fff]/.test(n.title_cn) && /[\u4e00-\u9fff]/.test(n.body_cn))).toBe(true);
    expect(notices[1]!.body).toContain('S$1,353.79');
    const events = await s.db.selectFrom('live_events').select(['user_id', 'payload']).where('user_id', '=', payer.id).execute();
    expect(events.some((e) => e.payload.includes('"invalidate"') && e.payload.includes('fundlogs'))).toBe(true);

    // Fund logs: one credit per credited line, pointing at its top-up.
    const logs = await s.db.selectFrom('fund_logs').selectAll().where('owner_id', '=', other.id).where('kind', '=', 'topup').execute();
    expect(logs.map((l) => l.amount).sort()).toEqual([2500, 3000, 3000]);

    // Each line is in the audit, by the operator.
    const audit = await s.db.selectFrom('operator_log').selectAll().where('command', '=', 'topup:import').where('actor', '=', OPERATOR).execute();
    expect(audit.filter((a) => a.target.startsWith('topup:') || a.target.startsWith('statement_line:')).length).toBe(6);
    await ledgerOk();
  });

  it('importing the same file again changes nothing and says so', async () => {
    const before = await importSnapshot();
    const { summary, text } = await importFile(fixture('dbs-ideal.csv'));
    expect(summary).toMatchObject({ matched: 0, flagged: 0, unmatched: 0, already_seen: 6, credited_cents: 0, total_cents: 0 });
    expect(text).toMatch(/every line was imported before: nothing changed/);
    expect(await importSnapshot()).toEqual(before);
    await ledgerOk();
  });

  it('an overlapping statement credits only its new lines', async () => {
    const overlap = ok(await topup(payer, { amount: 4000, method: 'paynow', reference: 'CNPPVERMAPQ5ZZZ' })) as TopupRecord;
    const { summary } = await importFile(fixture('dbs-ideal-overlap.csv'));
    expect(summary).toMatchObject({ matched: 1, flagged: 0, unmatched: 0, already_seen: 2, credited_cents: 4000 });
    expect(await topupRow(overlap.id)).toMatchObject({ status: 'credited', received_amount: 4000 });
    await ledgerOk();
  });

  it('an unknown reference waits in topup:unmatched; topup:assign credits it once', async () => {
    const listed = await ops('topup:unmatched', []);
    expect(listed.ok).toBe(true);
    const lines = (listed as { data: Array<{ id: number; amount: number; description: string }> }).data;
    const alex = lines.find((l) => l.description.includes('ALEX LOW'))!;
    expect(alex.amount).toBe(7700);
    const before = await balances(s, payer);
    const assigned = await ops('topup:assign', [String(alex.id), payer.email]);
    expect(assigned.ok).toBe(true);
    expect((await balances(s, payer)).available - before.available).toBe(7700);
    const line = await s.db.selectFrom('statement_lines').selectAll().where('id', '=', alex.id).executeTakeFirstOrThrow();
    expect(line).toMatchObject({ status: 'assigned', user_id: payer.id });
    expect(await topupRow(line.topup_id!)).toMatchObject({ status: 'credited', flag: 'manual', amount: 7700, user_id: payer.id });
    const audit = await s.db.selectFrom('operator_log').selectAll().where('target', '=', `statement_line:${alex.id}`).where('command', '=', 'topup:assign').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.before!)).toMatchObject({ status: 'unmatched' });
    expect(JSON.parse(audit.after!)).toMatchObject({ status: 'assigned' });

    // Assigned once: again is refused and changes nothing; so are a missing line or user.
    for (const args of [[String(alex.id), other.email], ['999999', payer.email], [String(alex.id), 'nobody@example.sg']]) {
      const snap = await importSnapshot();
      const o = await ops('topup:assign', args);
      expect(o.ok).toBe(false);
      expect(await importSnapshot()).toEqual(snap);
    }
    expect(((await ops('topup:unmatched', [])) as { data: unknown[] }).data.some((l) => (l as { id: number }).id === alex.id)).toBe(false);
    await ledgerOk();
  });

  it('reads MT940 and camt.053 statements the same way', async () => {
    const mt = ok(await topup(payer, { amount: 6000, method: 'paynow', reference: 'CNPMTEXACTQRZZZ' })) as TopupRecord;
    const camt = ok(await topup(other, { amount: 7000, method: 'paynow', reference: 'CNPCAMTQQQRZZZZ' })) as TopupRecord;
    const a = await importFile(fixture('dbs.mt940'), ['--format', 'mt940']);
    expect(a.summary).toMatchObject({ matched: 1, unmatched: 1, flagged: 0, lines: 2 });
    const b = await importFile(fixture('camt053.xml'));
    expect(b.summary).toMatchObject({ matched: 1, unmatched: 1, flagged: 0, lines: 2 });
    expect(await topupRow(mt.id)).toMatchObject({ status: 'credited', received_amount: 6000 });
    expect(await topupRow(camt.id)).toMatchObject({ status: 'credited', received_amount: 7000 });
    // Bank ids are the identity: the same lines again are seen.
    expect((await importFile(fixture('dbs.mt940'))).summary.already_seen).toBe(2);
    expect((await importFile(fixture('camt053.xml'))).summary.already_seen).toBe(2);
    await ledgerOk();
  });

  it('a malformed file is refused with a clear error and nothing is written', async () => {
    const bad = (name: string) => path.join(s.dataDir, name);
    const cases: Array<[string, string[], RegExp]> = [
      [fixture('dbs-malformed.csv'), [], /row 3: "31 Nov 2026" is not a date; nothing was imported/],
      [bad('no-header.csv'), ['--format', 'dbs-csv'], /no DBS header row/],
      [bad('bad-amount.csv'), [], /credit "12,34,5" is not an amount/],
      [bad('broken.xml'), ['--format', 'camt053'], /not well-formed XML/],
      [bad('usd.xml'), [], /not SGD/],
      [bad('broken.mt940'), ['--format', 'mt940'], /MT940/],
      [bad('empty.csv'), [], /empty/],
    ];
    fs.writeFileSync(path.join(s.dataDir, 'no-header.csv'), 'a,b,c\n1,2,3\n');
    fs.writeFileSync(
      path.join(s.dataDir, 'bad-amount.csv'),
      'Date,Value Date,Transaction Description 1,Transaction Description 2,Debit,Credit,Running Balance\n23 Nov 2026,23 Nov 2026,X,CNPEXACT0009,,"12,34,5",1.00\n',
    );
    fs.writeFileSync(path.join(s.dataDir, 'broken.xml'), '<Document><BkToCstmrStmt><Stmt></BkToCstmrStmt>');
    fs.writeFileSync(
      path.join(s.dataDir, 'usd.xml'),
      fs.readFileSync(fixture('camt053.xml'), 'utf8').replace('<Amt Ccy="SGD">70.00</Amt>', '<Amt Ccy="USD">70.00</Amt>').replace('CAMT-TX-0001', 'CAMT-TX-USD'),
    );
    fs.writeFileSync(path.join(s.dataDir, 'broken.mt940'), ':20:X\n:61:garbage\n');
    fs.writeFileSync(path.join(s.dataDir, 'empty.csv'), '  \n');
    for (const [file, extra, message] of cases) {
      const before = await importSnapshot();
      const o = await ops('topup:import', [file, ...extra]);
      expect(o.ok, file).toBe(false);
      if (!o.ok) {
        expect(o.exit).toBe(1);
        expect(o.error).toMatch(message);
      }
      expect(await importSnapshot()).toEqual(before);
    }
    // Bad arguments: usage errors (exit 2), nothing written.
    const missing = await ops('topup:import', [path.join(s.dataDir, 'nope.csv')]);
    expect(missing).toMatchObject({ ok: false, exit: 2 });
    const format = await ops('topup:import', [fixture('dbs-ideal.csv'), '--format', 'xls']);
    expect(format).toMatchObject({ ok: false, exit: 2 });
    const before = await importSnapshot();
    // --dry-run is a switch: before FILE it is still a dry run, and a value or a misspelling is refused.
    const early = await ops('topup:import', ['--dry-run', fixture('dbs-ideal.csv')]);
    expect(early).toMatchObject({ ok: true });
    expect(await ops('topup:import', [fixture('dbs-ideal.csv'), '--dry-run=no'])).toMatchObject({ ok: false, exit: 2, error: '--dry-run takes no value' });
    expect(await ops('topup:import', [fixture('dbs-ideal.csv'), '--dryrun'])).toMatchObject({ ok: false, exit: 2 });
    expect(await importSnapshot()).toEqual(before);
  });

  it('the parsers read the fixtures', () => {
    const dbs = parseStatement(fs.readFileSync(fixture('dbs-ideal.csv'), 'utf8'));
    expect(dbs.format).toBe('dbs-csv');
    expect(dbs.debits).toBe(1);
    expect(dbs.lines.map((l) => l.amount)).toEqual([5000, 135_379, 3000, 2500, 3000, 7700]);
    expect(dbs.lines[1]).toMatchObject({ booked_on: '2026-11-23', balance: 1_140_379, description: 'FAST PAYMENT OTHR cnpa mpun tq2z zzz LIM SIEW LAN' });
    expect(new Set(dbs.lines.map((l) => l.identity)).size).toBe(6);
    const mt = parseStatement(fs.readFileSync(fixture('dbs.mt940'), 'utf8'));
    expect(mt).toMatchObject({ format: 'mt940', debits: 1 });
    expect(mt.lines[0]).toMatchObject({ identity: 'bank:id:FT26327A0001', amount: 6000, booked_on: '2026-11-23' });
    const camt = parseStatement(fs.readFileSync(fixture('camt053.xml'), 'utf8'));
    expect(camt).toMatchObject({ format: 'camt053', debits: 1 });
    expect(camt.lines[0]).toMatchObject({ identity: 'bank:id:CAMT-TX-0001', amount: 7000, description: 'PAYNOW cnpc amtq qqrz zzz' });
  });
});

describe('reconciliation cannot be talked into crediting the wrong user (review of 28b8f33)', () => {
  const CSV_HEAD = 'Date,Value Date,Transaction Description 1,Transaction Description 2,Debit,Credit,Running Balance\n';
  let n = 0;
  const file = (name: string, body: string) => {
    const p = path.join(s.dataDir, `${++n}-${name}`);
    fs.writeFileSync(p, body);
    return p;
  };

  it('a reference that is a word every bank line carries cannot be chosen', async () => {
    const u = await newUser(s, { ready: false, tag: 'greedy' });
    for (const reference of ['PAYNOW', 'INCOMINGPAYNOWREF', 'FASTPAYMENTVIAPAYNOW-UEN']) {
      await expectRefused(s, 'topup_reference_invalid', (lang) => topup(u, { amount: 5000, method: 'paynow', reference }, lang), { field: 'reference' });
    }
  });

  it('a line naming two different top-ups is left for an operator; so is a batched camt.053 entry', async () => {
    s.clock.set(NOW);
    const a = await newUser(s, { ready: false, tag: 'two-a' });
    const b = await newUser(s, { ready: false, tag: 'two-b' });
    const ta = ok(await topup(a, { amount: 5000, method: 'paynow' })) as TopupRecord;
    const tb = ok(await topup(b, { amount: 5000, method: 'paynow' })) as TopupRecord;
    const before = { a: await balances(s, a), b: await balances(s, b) };
    const both = file('two.csv', `${CSV_HEAD}23 Nov 2026,23 Nov 2026,PAYNOW ${ta.reference},AND ${tb.reference},,50.00,900.00\n`);
    expect((await importFile(both)).summary).toMatchObject({ matched: 0, flagged: 0, unmatched: 1 });
    const batch = fs
      .readFileSync(fixture('camt053.xml'), 'utf8')
      .replace(/CAMT-TX-0001/g, 'CAMT-TX-BATCH')
      .replace('</TxDtls>', `</TxDtls><TxDtls><RmtInf><Ustrd>${ta.reference}</Ustrd></RmtInf></TxDtls>`);
    const summary = (await importFile(file('batch.xml', batch), ['--format', 'camt053'])).summary;
    expect(summary.matched + summary.flagged).toBe(0);
    expect({ a: await balances(s, a), b: await balances(s, b) }).toEqual(before);
    expect((await topupRow(ta.id)).status).toBe('pending');
    await ledgerOk();
  });

  it('the same bank transaction read from MT940 and from camt.053 is credited once; a reversal is never a credit', async () => {
    s.clock.set(NOW);
    const u = await newUser(s, { ready: false, tag: 'formats' });
    const t = ok(await topup(u, { amount: 6000, method: 'paynow' })) as TopupRecord;
    const mt = [':20:STMT-X', ':25:DBSSSGSG/0721234567', ':28C:00200/001', ':60F:C261122SGD10000,00',
      ':61:2611231123C60,00NTRFNONREF//FT-SAME-1', `:86:PAYNOW REF ${t.reference}`,
      ':61:2611231123RD60,00NTRFNONREF//FT-REV-1', `:86:REVERSAL ${t.reference}`, ':62F:C261123SGD10120,00', '-'].join('\r\n');
    const first = (await importFile(file('same.mt940', mt), ['--format', 'mt940'])).summary;
    expect(first).toMatchObject({ matched: 1, lines: 1 });
    const camt = fs.readFileSync(fixture('camt053.xml'), 'utf8').replace(/CAMT-TX-0001/g, 'FT-SAME-1').replace(/70\.00/g, '60.00');
    const again = (await importFile(file('same.xml', camt), ['--format', 'camt053'])).summary;
    expect(again.already_seen).toBeGreaterThanOrEqual(1);
    expect(again.matched + again.flagged).toBe(0);
    expect((await balances(s, u)).available).toBe(6000);
  });

  it('a DBS row with both a debit and a credit is refused, nothing written', async () => {
    const before = await importSnapshot();
    const o = await ops('topup:import', [file('both.csv', `${CSV_HEAD}23 Nov 2026,23 Nov 2026,X,Y,10.00,20.00,1.00\n`)]);
    expect(o).toMatchObject({ ok: false, exit: 1, error: expect.stringMatching(/both a debit/) });
    expect(await importSnapshot()).toEqual(before);
  });
});

describe('statements as banks write them', () => {
  const SG = (name: string) => path.join(FIXTURES, 'sg', name);
  let n = 0;
  const variant = (name: string, text: string) => {
    const p = path.join(s.dataDir, `${++n}-${name}`);
    fs.writeFileSync(p, text);
    return p;
  };

  it('DBS- and UOB-shaped exports (SWIFT envelope, wrapped :86:, two statements, no final newline, a batch split by its amounts) credit their top-ups', async () => {
    const u = await newUser(s, { ready: false, tag: 'sg-banks' });
    const make = async (day: number, reference: string, amount: number) => {
      s.clock.set(sgt(2026, 11, day, 9));
      return ok(await topup(u, { amount, method: 'paynow', reference })) as TopupRecord;
    };
    const paid = [
      await make(24, 'CNPSGDBSWRAPZZZ', 5000),
      await make(24, 'CNPSGDBSTWQZZZZ', 125_050),
      await make(25, 'CNPSGDBSTH3ZZZZ', 3000),
      await make(24, 'CNPUQBCAMTZZZZZ', 10_000),
      await make(24, 'CNPUQBSPRTTWZZZ', 5000),
      await make(25, 'CNPUQBSTRDZZZZZ', 2000),
    ];
    const before = await balances(s, u);
    s.clock.set(sgt(2026, 11, 25, 12));
    expect((await importFile(SG('dbs-multi.mt940'))).summary).toMatchObject({ lines: 3, matched: 3, flagged: 0, unmatched: 0 });
    // The batch entry whose parts carry no amounts waits for an operator.
    expect((await importFile(SG('uob.camt053.xml'))).summary).toMatchObject({ lines: 4, matched: 3, flagged: 0, unmatched: 1 });
    for (const t of paid) expect(await topupRow(t.id)).toMatchObject({ status: 'credited', received_amount: t.amount, flag: '' });
    expect((await balances(s, u)).available - before.available).toBe(paid.reduce((sum, t) => sum + t.amount, 0));
    expect((await importFile(SG('dbs-multi.mt940'))).summary).toMatchObject({ already_seen: 3 });
    await ledgerOk();
  });

  it('a file with one statement wrong is refused whole, dry run or not, saying which statement and line: nothing is written', async () => {
    // Fresh bank ids: were statement 1 imported, its lines would be new (second payments of credited references).
    const dbs = fs.readFileSync(SG('dbs-multi.mt940'), 'utf8').replace(/FT2632/g, 'FT9932');
    const uob = fs.readFileSync(SG('uob.camt053.xml'), 'utf8').replace(/UOB-2632/g, 'UOB-9932');
    const cases: Array<[string, string]> = [
      [
        variant('unbalanced.mt940', dbs.replace(':62F:C261125SGD11310,50', ':62F:C261125SGD11310,60')),
        'MT940: statement 2 (DBS261125001) does not add up: opening balance :60F: 11280.50 SGD + its 1 entries = 11310.50, but the closing balance :62F: says 11310.60; an entry is missing or misread',
      ],
      [
        variant('garbage.mt940', dbs.replace(':61:2611251125C30,NTRF', ':61:2611251125C3O,NTRF')),
        'MT940: statement 2 (DBS261125001), line 25: transaction :61: "2611251125C3O,NTRFNONREF//FT99329A0001": "3O," is not an amount',
      ],
      [variant('cut.mt940', dbs.slice(0, dbs.indexOf('TH3ZZZZ'))), 'MT940: statement 2 (DBS261125001): no closing balance (:62F: or :62M:) after line 27; the file looks cut short'],
      [
        variant('subcent.xml', uob.replace('<Amt Ccy="SGD">20.00</Amt>', '<Amt Ccy="SGD">20.001</Amt>')),
        'camt.053: statement 2 (UOB-3123456789-20261125), entry 1 (NtryRef 5): amount "20.001" has a fraction of a cent',
      ],
    ];
    for (const [file, message] of cases) {
      for (const extra of [['--dry-run'], []]) {
        const before = await importSnapshot();
        const o = await ops('topup:import', [file, ...extra]);
        expect(o).toMatchObject({ ok: false, exit: 1 });
        if (!o.ok) expect(o.error).toBe(`${path.basename(file)}: ${message}; nothing was imported`);
        expect(await importSnapshot()).toEqual(before);
      }
    }
    // The same through the operator's command line: exit 1, the message on stderr, nothing written.
    const before = await importSnapshot();
    const cli = await runCli(['topup:import', cases[0]![0], '--dry-run'], { DATA_DIR: s.dataDir }, { json: false, timeoutMs: 60_000 });
    expect(cli.code, cli.stderr).toBe(1);
    expect(cli.stderr).toContain('does not add up');
    expect(cli.stderr).not.toMatch(/Cannot read|undefined|at .*\.ts:\d+/);
    expect(await importSnapshot()).toEqual(before);
  }, 60_000);
});

describe('concurrent imports', () => {
  it('20 concurrent imports of one file (and CLI processes beside them) credit each line once', async () => {
    s.clock.set(sgt(2026, 11, 26, 9));
    const u = await newUser(s, { ready: false, tag: 'race' });
    const refs = ['CNPRACEQQQQRZZZ', 'CNPRACEQQQQ2ZZZ', 'CNPRACEQQQQ3ZZZ'];
    for (const reference of refs) ok(await topup(u, { amount: 1500, method: 'paynow', reference }));
    const file = path.join(s.dataDir, 'race.csv');
    fs.writeFileSync(
      file,
      'Date,Value Date,Transaction Description 1,Transaction Description 2,Debit,Credit,Running Balance\n' +
        refs.map((r, i) => `26 Nov 2026,26 Nov 2026,FAST PAYMENT,OTHR ${r},,15.00,"${(20_000 + 15 * (i + 1)).toLocaleString('en-US')}.00"`).join('\n') +
        '\n26 Nov 2026,26 Nov 2026,FAST PAYMENT,NO REF AT ALL,,9.99,"20,054.99"\n',
    );
    const before = await balances(s, u);
    const linesBefore = await s.db.selectFrom('statement_lines').select('id').execute();
    const cli = [0, 1].map(() => runCli(['topup:import', file], { DATA_DIR: s.dataDir }, { timeoutMs: 60_000 }));
    const results = await Promise.all(Array.from({ length: 20 }, () => importFile(file)));
    const cliResults = await Promise.all(cli);
    for (const r of cliResults) expect(r.code, r.stderr).toBe(0);
    const cliSummaries = cliResults.map((r) => (r.json as { data: Summary }).data);
    const all = [...results.map((r) => r.summary), ...cliSummaries];
    expect(all.reduce((n, x) => n + x.matched, 0)).toBe(3);
    expect(all.reduce((n, x) => n + x.unmatched, 0)).toBe(1);
    expect(all.reduce((n, x) => n + x.already_seen, 0)).toBe(22 * 4 - 4);
    expect((await balances(s, u)).available - before.available).toBe(4500);
    const linesAfter = await s.db.selectFrom('statement_lines').select('id').execute();
    expect(linesAfter.length - linesBefore.length).toBe(4);
    const logs = await s.db.selectFrom('fund_logs').selectAll().where('owner_id', '=', u.id).where('kind', '=', 'topup').execute();
    expect(logs).toHaveLength(3);
    await ledgerOk();
  }, 120_000);
});
