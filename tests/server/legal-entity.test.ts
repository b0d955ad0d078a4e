// One legal entity (docs/product.md#legal-entity): COMPANY_NAME, COMPANY_UEN and COMPANY_ADDRESS are set once
// and every place that names the seller reads them: the PayNow QR a bank app shows, the receipt (data, PDF
// and mail), baseconfig and the About page. Run on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendReceiptMail } from '../../src/server/scheduler/receipt-mail';
import { ConfigError, loadConfig } from '../../src/server/config';
import { up } from '../../src/server/db/migrations/033-page-company';
import type { Mailer } from '../../src/server/lib/mail';
import { PATHS } from '../../src/shared/api';
import { parsePayNowPayload } from '../../src/shared/paynow';
import type { Receipt } from '../../src/shared/schemas/receipt';
import type { ContentPage } from '../../src/shared/schemas/content';
import { pdfText } from '../helpers/pdf';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, ok, ops, WALLET_ENV, write } from './wallet-helpers';

const ENTITY = { name: 'Harbour Carbon Pte. Ltd.', uen: '201912345A', address: '8 Shenton Way, #30-01, Singapore 068811' };

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    ...WALLET_ENV,
    SEED_DEMO: 'true',
    RECEIPT_MAIL_EVERY_MS: '3600000',
    COMPANY_NAME: ENTITY.name,
    COMPANY_UEN: ENTITY.uen,
    COMPANY_ADDRESS: ENTITY.address,
  });
});
afterAll(async () => {
  await s?.close();
});

describe('one legal entity', () => {
  it('the PayNow QR, the receipt, its PDF and its mail name the configured company and UEN', async () => {
    const u = await newUser(s, { tag: 'entity' });
    const topup = ok(await write(s, PATHS.walletTopup, { amount: 20_000, method: 'paynow' }, u), 'topup') as { id: number; paynow_qr: string };
    const qr = parsePayNowPayload(topup.paynow_qr);
    expect({ name: qr.name, uen: qr.uen }).toEqual({ name: ENTITY.name, uen: ENTITY.uen });

    await ops(s, 'topup:confirm', [String(topup.id)]);
    const receipts = ok(await s.api<{ list: Receipt[] }>('GET', PATHS.receiptLists, {}, { token: u.token })).list;
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.company).toEqual(ENTITY);
    expect(receipts[0]!.company.name).toBe(qr.name);

    for (const lang of ['en', 'cn'] as const) {
      const res = await s.raw('GET', PATHS.receiptPdf, { headers: { Authorization: u.token }, query: `id=${receipts[0]!.id}&lang=${lang}` });
      const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
      expect(text).toContain(ENTITY.name);
      expect(text).toContain(ENTITY.uen);
    }

    const sent: Array<{ to: string; body: string }> = [];
    const mailer: Mailer = { send: () => Promise.resolve(), deliver: (to, _subject, body) => (sent.push({ to, body }), Promise.resolve(true)) };
    await sendReceiptMail({ ...s.running.deps, mailer });
    const mine = sent.filter((m) => m.to === u.email);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body).toContain(`${ENTITY.name}`);
    expect(mine[0]!.body).toContain(ENTITY.uen);
    expect(mine[0]!.body).not.toContain('Canopy Pte. Ltd.');
    expect(mine[0]!.body).not.toContain('Canopy Carbon Pte. Ltd.');
  });

  it('baseconfig and the About, terms and privacy pages name the same company, in en and cn', async () => {
    const base = ok(await s.api<{ company: { name: string; uen: string; address: string } }>('GET', PATHS.baseconfig));
    expect(base.company).toEqual(ENTITY);
    for (const slug of ['about', 'protocol', 'privacy']) {
      const page = ok(await s.api<ContentPage>('GET', PATHS.page, { slug }));
      for (const body of [page.body, page.body_cn]) {
        expect(body, slug).toContain(ENTITY.name);
        expect(body, slug).not.toMatch(/Canopy (Carbon )?Pte\. Ltd\.|\{company_/);
      }
    }
    const about = ok(await s.api<ContentPage>('GET', PATHS.page, { slug: 'about' }));
    for (const body of [about.body, about.body_cn]) {
      expect(body).toContain(ENTITY.uen);
      expect(body).toContain(ENTITY.address);
    }
  });

  it('the old PayNow payee keys are refused at start-up, naming the key that replaces them', () => {
    expect(() => loadConfig({ PAYNOW_NAME: 'Other Pte. Ltd.' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYNOW_NAME: 'Other Pte. Ltd.' })).toThrow(/PAYNOW_NAME.*COMPANY_NAME/);
    expect(() => loadConfig({ PAYNOW_UEN: '201912345A' })).toThrow(/PAYNOW_UEN.*COMPANY_UEN/);
    // The QR carries the name, and a bank app shows at most 25 printable ASCII characters of it.
    expect(() => loadConfig({ COMPANY_NAME: 'A Very Long Company Name Pte. Ltd.' })).toThrow(/COMPANY_NAME/);
  });
});

describe('migration 033', () => {
  it('turns the demo name written out in seeded pages into the placeholder; other text stays as written', async () => {
    const before = await s.db.selectFrom('pages').select(['slug', 'body', 'body_cn']).where('slug', '=', 'about').executeTakeFirstOrThrow();
    await s.db
      .updateTable('pages')
      .set({ body: 'Run by Canopy Pte. Ltd. in Singapore.', body_cn: '由Canopy Pte. Ltd.运营。' })
      .where('slug', '=', 'about')
      .execute();
    await s.db.updateTable('pages').set({ body: 'Run by Other Holdings Pte. Ltd.' }).where('slug', '=', 'privacy').execute();
    await up(s.db as never);
    const rows = await s.db.selectFrom('pages').select(['slug', 'body', 'body_cn']).where('slug', 'in', ['about', 'privacy']).orderBy('slug').execute();
    expect(rows.map((r) => [r.slug, r.body])).toEqual([
      ['about', 'Run by {company_name} in Singapore.'],
      ['privacy', 'Run by Other Holdings Pte. Ltd.'],
    ]);
    expect(rows[0]!.body_cn).toBe('由{company_name}运营。');
    await s.db.updateTable('pages').set({ body: before.body, body_cn: before.body_cn }).where('slug', '=', 'about').execute();
  });
});
