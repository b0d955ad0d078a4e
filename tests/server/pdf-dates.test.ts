// Dates in the PDFs a reader keeps (docs/product.md#units-time-and-money): the receipt and the retirement
// certificate write "2 Mar 2026, 10:01 am" / "2026年3月2日 10:01", never ISO 8601.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import type { Receipt } from '../../src/shared/schemas/receipt';
import { pdfText } from '../helpers/pdf';
import { startTestServer, type TestServer } from '../helpers/server';
import { holder, retireApi } from './retire-helpers';
import type { MarketUser } from './market-helpers';

let s: TestServer;
let u: MarketUser;
let certificate = '';
beforeAll(async () => {
  s = await startTestServer();
  const h = await holder(s, 2);
  u = h.u;
  const res = await retireApi(s).retire(u, { project_id: h.pid, tons: 1 });
  expect(res.code, res.msg).toBe(0);
  certificate = res.data.id as string;
});
afterAll(async () => s?.close());

async function textOf(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  return pdfText(new Uint8Array(await res.arrayBuffer()));
}

const WORDS = { en: /\b2 Mar 2026, ([1-9]|1[0-2]):\d{2} (am|pm)\b/, cn: /2026年3月2日 \d{2}:\d{2}/ } as const;
const ISO = /\b\d{4}-\d{2}-\d{2}\b/;

describe('PDF dates', () => {
  for (const lang of ['en', 'cn'] as const) {
    it(`the receipt and the certificate write their date in words (${lang})`, async () => {
      const receipts = await s.api<{ list: Receipt[] }>('GET', PATHS.receiptLists, { page: 1, page_size: 20 }, { token: u.token });
      expect(receipts.data.list.length).toBeGreaterThan(0);
      for (const r of receipts.data.list) {
        const text = await textOf(await s.raw('GET', PATHS.receiptPdf, { headers: { Authorization: u.token }, query: `id=${r.id}&lang=${lang}` }));
        expect(text).toMatch(WORDS[lang]);
        expect(text).not.toMatch(ISO);
      }
      const path = PATHS.publicCertificatePdf.replace(':id', encodeURIComponent(certificate));
      const text = await textOf(await fetch(`${s.url}${API_BASE}${path}?lang=${lang}`));
      expect(text).toMatch(WORDS[lang]);
      expect(text).not.toMatch(ISO);
    });
  }
});
