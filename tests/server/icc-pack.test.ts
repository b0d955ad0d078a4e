// The Singapore carbon-tax evidence pack (docs/product.md#singapore-carbon-tax): every purchase and
// retirement of the account in a period, as a PDF (A4, text extractable) and a CSV (UTF-8 with BOM, ISO
// dates, plain decimals); totals equal to the ledger to the cent; the SHA-256 sent with the file equals the
// file's; the public check accepts the file and refuses it with one byte changed.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../../src/server/ops/registry';
import { API_BASE, PATHS } from '../../src/shared/api';
import type { Lang } from '../../src/shared/errors';
import { ICC_RULES } from '../../src/shared/icc/current-rules';
import { ICC_REASONS } from '../../src/shared/icc/reasons';
import type { IccRules } from '../../src/shared/icc/rules';
import type { IccCap } from '../../src/shared/schemas/icc';
import { readPdf } from '../helpers/pdf';
import { refusal, startTestServer, type TestServer } from '../helpers/server';
import { giveCredits, holder, makeRetirableProject, retireApi } from './retire-helpers';
import type { MarketUser } from './market-helpers';

let s: TestServer;
let u: MarketUser;
const serials: string[] = [];

const ELIGIBLE = { host_country: 'GH', programme: 'GS', type: 'cookstove', methodology_id: 'GS-TPDDTEC', methodology_date: '2021-07-01', reduction_start: 2024, reduction_end: 2024, authorisation: 'granted', adjustment: 'granted' } as const;

beforeAll(async () => {
  s = await startTestServer();
  const h = await holder(s, 30, { ...ELIGIBLE, price: 3217 });
  u = h.u;
  const other = await makeRetirableProject(s, { host_country: 'ID', price: 1199 });
  await giveCredits(s, u, other, 7);
  await giveCredits(s, u, h.pid, 5);
  for (const body of [{ project_id: h.pid, tons: 12, icc_year: 2026 }, { project_id: other, tons: 3 }, { project_id: h.pid, tons: 4, icc_year: 2026 }]) {
    const res = await retireApi(s).retire(u, body);
    expect(res.code, res.msg).toBe(0);
    for (const r of res.data.serials as Array<{ from: string; to: string }>) serials.push(r.from === r.to ? r.from : `${r.from} to ${r.to}`);
  }
});
afterAll(async () => s?.close());

async function pack(q: Record<string, string>, token = u.token) {
  const res = await s.raw('GET', PATHS.iccPack, { headers: { Authorization: token }, query: new URLSearchParams(q).toString() });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const verify = (hash: string, lang?: Lang) => s.api('GET', PATHS.verifyPack.replace(':hash', hash), {}, { lang });
const MARCH = { from: '2026-03-01', to: '2026-03-31' };

/** The ledger's side: what the platform's sales were credited for this user's buy orders. */
async function ledgerSales(userId: number): Promise<number> {
  const rows = await s.db
    .selectFrom('fund_logs as fl')
    .innerJoin('orders as o', 'o.id', 'fl.ref_id')
    .select('fl.amount')
    .where('fl.ref_type', '=', 'order')
    .where('fl.owner_id', '=', 0)
    .where('fl.account_name', '=', 'sales')
    .where('o.user_id', '=', userId)
    .execute();
  const paid = await s.db.selectFrom('fund_logs').select('amount').where('owner_id', '=', userId).where('kind', '=', 'order_buy').where('account_name', '=', 'available').execute();
  const sales = rows.reduce((a, r) => a + Number(r.amount), 0);
  expect(sales).toBe(-paid.reduce((a, r) => a + Number(r.amount), 0));
  return sales;
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') endCell();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('the CSV pack', () => {
  it('is UTF-8 with a BOM, ISO dates, plain decimals, and totals equal to the ledger to the cent', async () => {
    const { res, bytes } = await pack({ ...MARCH, format: 'csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // TextDecoder drops the byte-order mark (checked above), as a spreadsheet does.
    const rows = parseCsv(new TextDecoder().decode(bytes));
    const head = rows[0]!;
    const col = (name: string) => head.indexOf(name);
    const purchases = rows.filter((r) => r[col('type')] === 'purchase');
    const retirements = rows.filter((r) => r[col('type')] === 'retirement');
    expect(purchases).toHaveLength(3);
    expect(retirements).toHaveLength(3);
    for (const r of [...purchases, ...retirements]) expect(r[col('date_sgt')]).toMatch(/^2026-03-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    for (const r of purchases) expect(r[col('amount_sgd')]).toMatch(/^\d+\.\d{2}$/);
    const cents = (t: string) => Math.round(Number(t) * 100);
    const total = rows.find((r) => r[col('type')] === 'total_purchases')!;
    expect(cents(total[col('amount_sgd')]!)).toBe(purchases.reduce((a, r) => a + cents(r[col('amount_sgd')]!), 0));
    expect(cents(total[col('amount_sgd')]!)).toBe(await ledgerSales(u.id));
    expect(rows.find((r) => r[col('type')] === 'total_surrendered')).toEqual(expect.arrayContaining(['2026', '16']));
    expect(rows.find((r) => r[col('type')] === 'canopy_fees')![col('amount_sgd')]).toBe('0.00');
    expect(purchases[0]![col('gst_treatment')]).toMatch(/excluded transaction.*23 November 2022/);
    // Every serial range, the verdicts with their reasons and the rules version.
    const csvSerials = retirements.flatMap((r) => r[col('serial_ranges')]!.split('; '));
    expect(csvSerials.sort()).toEqual([...serials].sort());
    const indonesian = retirements.find((r) => r[col('host_country')] === 'ID')!;
    expect(indonesian[col('icc_verdict')]).toBe('not_eligible');
    expect(indonesian[col('icc_reasons')]).toContain(ICC_REASONS.no_agreement.en);
    expect(retirements.filter((r) => r[col('icc_year')] === '2026')).toHaveLength(2);
    expect(purchases[0]![col('registry_url')]).toMatch(/^https:\/\/registry\.verra\.org\/app\/projectDetail\/VCS\/\d+$/);
  });

  it('sends its SHA-256, which the public check accepts; one byte changed is "not issued by Canopy"', async () => {
    const { res, bytes } = await pack({ ...MARCH, format: 'csv' });
    const hash = res.headers.get('x-canopy-pack-sha256')!;
    expect(hash).toBe(sha(bytes));
    const ok = await verify(hash);
    expect(ok.code, ok.msg).toBe(0);
    expect(ok.data).toMatchObject({ hash, format: 'csv', period_from: '2026-03-01', period_to: '2026-03-31', account: `Test B. (#${u.id})` });
    const changed = bytes.slice();
    changed[bytes.length - 5] = bytes[bytes.length - 5]! ^ 1;
    for (const lang of ['en', 'cn'] as const) {
      const bad = await verify(sha(changed), lang);
      expect({ code: bad.code, msg: bad.msg }).toEqual(refusal('icc_pack_not_issued', lang));
    }
    expect((await verify('not-a-hash')).code).toBe(refusal('icc_pack_not_issued').code);
    expect((await verify(hash.toUpperCase())).code).toBe(0);
  });

  it('lets no cell start a formula: project names and the account name starting with = + - @ are quoted as text', async () => {
    const h = await holder(s, 2, { name: '=HYPERLINK("http://evil.example","x")', name_cn: '+1+1', price: 500 });
    await s.db.updateTable('users').set({ company: '@SUM(A1)' }).where('id', '=', h.u.id).execute();
    const other = await makeRetirableProject(s, { name: '-2+3', price: 500 });
    await giveCredits(s, h.u, other, 1);
    expect((await retireApi(s).retire(h.u, { project_id: h.pid, tons: 1 })).code).toBe(0);
    for (const lang of ['en', 'cn'] as const) {
      const { bytes } = await pack({ ...MARCH, format: 'csv', lang }, h.u.token);
      const rows = parseCsv(new TextDecoder().decode(bytes));
      const cells = rows.flat();
      expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
      expect(cells).toContain(lang === 'en' ? `'=HYPERLINK("http://evil.example","x")` : "'+1+1");
      expect(cells).toContain(`'@SUM(A1) (#${h.u.id})`);
    }
  });

  it("names a private holder by first name and initial, a whole character even outside the BMP", async () => {
    const h = await holder(s, 0);
    await s.db.updateTable('users').set({ first_name: 'Mei', last_name: '\u{20BB7}田' }).where('id', '=', h.u.id).execute();
    const { res } = await pack({ ...MARCH, format: 'csv' }, h.u.token);
    const ok = await verify(res.headers.get('x-canopy-pack-sha256')!);
    expect(ok.data).toMatchObject({ account: `Mei \u{20BB7}. (#${h.u.id})` });
  });
});

describe('the PDF pack', () => {
  for (const lang of ['en', 'cn'] as const) {
    it(`is A4 with extractable text holding every serial range (${lang})`, async () => {
      const { res, bytes } = await pack({ ...MARCH, format: 'pdf', lang });
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('x-canopy-pack-sha256')).toBe(sha(bytes));
      const { text, width, height } = await readPdf(bytes);
      expect(Math.round(width)).toBe(595);
      expect(Math.round(height)).toBe(842);
      for (const serial of serials) for (const part of serial.split(' to ')) expect(text).toContain(part);
      expect(text).toContain(lang === 'en' ? 'Singapore carbon tax evidence pack' : '新加坡碳税证明文件包');
      expect(text).toContain(ICC_REASONS.no_agreement[lang]);
      const amount = await ledgerSales(u.id);
      expect(text).toContain(`S$${(amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
      expect((await verify(sha(bytes))).code).toBe(0);
    });
  }
});

/** Runs `run` while the server judges by a changed rules file (the server runs in this process and reads
 *  the same rules object), then puts the shipped rules back. */
async function underRules(change: (rules: IccRules) => void, run: () => Promise<void>): Promise<void> {
  const shipped = structuredClone(ICC_RULES);
  change(ICC_RULES);
  try {
    await run();
  } finally {
    Object.assign(ICC_RULES, shipped);
  }
}

/** The next rules file: Ghana's list now excludes cookstoves. */
function cookstovesExcluded(rules: IccRules): void {
  rules.version = 'test.2';
  rules.countries.find((c) => c.country === 'GH')!.eligibility!.excluded_sectors = [{ sector: 'cookstove', source: 'a test rule', source_cn: '测试规则' }];
}

describe('a surrender under rules that change later', () => {
  it('keeps the verdict, reasons and rules version of the surrender in the CSV and the PDF; other rows are judged today, and say so', async () => {
    const h = await holder(s, 6, { ...ELIGIBLE, price: 700 });
    const shipped = ICC_RULES.version;
    const surrender = await retireApi(s).retire(h.u, { project_id: h.pid, tons: 4, icc_year: 2026 });
    expect(surrender.code, surrender.msg).toBe(0);
    const plain = await retireApi(s).retire(h.u, { project_id: h.pid, tons: 1 });
    expect(plain.code, plain.msg).toBe(0);
    await underRules(cookstovesExcluded, async () => {
      const rows = parseCsv(new TextDecoder().decode((await pack({ ...MARCH, format: 'csv' }, h.u.token)).bytes));
      const col = (name: string) => rows[0]!.indexOf(name);
      const line = (ref: string) => rows.find((r) => r[col('reference')] === ref)!;
      const pick = (r: string[]) => ({ verdict: r[col('icc_verdict')], version: r[col('rules_version')], at: r[col('icc_judged')], year: r[col('icc_year')] });
      expect(pick(line(surrender.data.id as string))).toEqual({ verdict: 'eligible', version: shipped, at: 'surrender', year: '2026' });
      expect(pick(line(plain.data.id as string))).toEqual({ verdict: 'not_eligible', version: 'test.2', at: 'today', year: '' });
      expect(line(plain.data.id as string)[col('icc_reasons')]).toContain(ICC_REASONS.sector_excluded.en);
      const bought = rows.find((r) => r[col('type')] === 'purchase')!;
      expect(pick(bought)).toEqual({ verdict: 'not_eligible', version: 'test.2', at: 'today', year: '' });
      for (const lang of ['en', 'cn'] as const) {
        const { text } = await readPdf((await pack({ ...MARCH, format: 'pdf', lang }, h.u.token)).bytes);
        const words = lang === 'en' ? { ok: 'Eligible', at: 'at surrender', today: 'today', no: 'Not eligible' } : { ok: '合格', at: '注销时判定', today: '当前判定', no: '不合格' };
        const rules = lang === 'en' ? 'Eligibility rules version' : '合格规则版本';
        expect(text).toContain(`${words.ok} (${words.at}, ${rules} ${shipped})`);
        expect(text).toContain(`(${words.today}, ${rules} test.2)`);
        expect(text).toContain(ICC_REASONS.sector_excluded[lang]);
      }
      // The cap counts the tons the surrender found eligible, whatever the rules say now, once the registry
      // cancelled them; held credits are judged today.
      const cap = async () => (await s.api<IccCap>('GET', PATHS.iccCap, { year: 2026 }, { token: h.u.token })).data;
      expect(await cap()).toMatchObject({ retired_tons: 0, pending_tons: 4, held_eligible_tons: 0, rules_version: 'test.2' });
      expect((await runOps({ db: s.db, clock: s.clock }, 'registry:cancel', [surrender.data.id as string, '--reference', 'VCS-RET-4'], 'tester')).ok).toBe(true);
      expect(await cap()).toMatchObject({ retired_tons: 4, pending_tons: 0, held_eligible_tons: 0, rules_version: 'test.2' });
    });
  });
});

describe('what a pack covers', () => {
  it("holds only the account's own rows, and only the period's", async () => {
    const other = await holder(s, 0);
    const { bytes } = await pack({ ...MARCH, format: 'csv' }, other.u.token);
    const rows = parseCsv(new TextDecoder().decode(bytes));
    expect(rows.filter((r) => r[1] === 'purchase' || r[1] === 'retirement')).toEqual([]);
    const april = parseCsv(new TextDecoder().decode((await pack({ from: '2026-04-01', to: '2026-04-30', format: 'csv' })).bytes));
    expect(april.filter((r) => r[1] === 'purchase' || r[1] === 'retirement')).toEqual([]);
  });

  it('refuses a period that ends before it starts, runs past three years, or is not a date, in both languages, recording nothing; and a guest', async () => {
    const packs = async () => Number((await s.db.selectFrom('icc_packs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await packs();
    for (const lang of ['en', 'cn'] as const) {
      for (const q of [{ from: '2026-03-31', to: '2026-03-01' }, { from: '2020-01-01', to: '2026-01-01' }, { from: '2026-02-30', to: '2026-03-01' }, { from: 'x', to: '2026-03-01' }]) {
        const { bytes } = await pack({ ...q, format: 'csv', lang });
        const env = JSON.parse(new TextDecoder().decode(bytes)) as { code: number; msg: string };
        expect({ code: env.code, msg: env.msg }, JSON.stringify(q)).toEqual(refusal('icc_period_invalid', lang));
      }
    }
    const guest = await s.api('GET', PATHS.iccPack, { ...MARCH, format: 'csv' });
    expect(guest.code).not.toBe(0);
    expect(await packs()).toBe(before);
    expect(API_BASE).toBe('/h5/api');
  });
});
