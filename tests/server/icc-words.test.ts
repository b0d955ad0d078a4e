// The carbon-tax words a reader of either language meets (docs/product.md#singapore-carbon-tax): every
// reason's rule citation in English and Chinese, one citation per rule (a reason never borrows another
// rule's line), and host countries by name in the evidence pack, not by ISO code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import type { Project } from '../../src/shared/schemas/content';
import { pdfText } from '../helpers/pdf';
import { startTestServer, type TestServer } from '../helpers/server';
import { evidencePack, giveCredits, holder, makeRetirableProject, retireApi } from './retire-helpers';
import type { MarketUser } from './market-helpers';

let s: TestServer;
let u: MarketUser;
const MARCH = { from: '2026-03-01', to: '2026-03-31' };
const CJK = /[\u4e00-\u9fff]/;

beforeAll(async () => {
  s = await startTestServer();
  const h = await holder(s, 3, { host_country: 'GH', programme: 'GS', type: 'cookstove', methodology_id: 'GS-TPDDTEC', methodology_date: '2021-07-01', reduction_start: 2024, reduction_end: 2024, authorisation: 'granted', adjustment: 'granted' });
  u = h.u;
  const fiji = await makeRetirableProject(s, { host_country: 'FJ' });
  await giveCredits(s, u, fiji, 2);
  for (const body of [{ project_id: h.pid, tons: 1 }, { project_id: fiji, tons: 1 }]) {
    const res = await retireApi(s).retire(u, body);
    expect(res.code, res.msg).toBe(0);
  }
});
afterAll(async () => s?.close());

describe('the reasons on a project', () => {
  it('carry their rule citation in Chinese as well, and no citation stands for two different rules', async () => {
    const list = await s.api<{ list: Project[] }>('GET', PATHS.projectLists, { page_size: 50 });
    const reasons = list.data.list.flatMap((p) => p.icc.reasons);
    expect(reasons.length).toBeGreaterThan(10);
    for (const r of reasons) {
      expect(r.source_cn, r.code).toMatch(CJK);
      expect(r.source_cn).not.toBe(r.source);
    }
    // Only the two ends of the reduction window share their rule's line.
    const sameRule = new Set(['reductions_before_window', 'reductions_after_window']);
    for (const p of list.data.list) {
      const bySource = new Map<string, string[]>();
      for (const r of p.icc.reasons) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r.code]);
      for (const codes of bySource.values()) if (codes.length > 1) expect(codes.every((c) => sameRule.has(c)), `${p.name}: ${codes.join(', ')}`).toBe(true);
    }
    const indonesia = list.data.list.find((p) => p.icc.host_country === 'ID')!;
    const detail = await s.api<Project>('GET', PATHS.projectDetail, { id: indonesia.id });
    const cite = (code: string) => detail.data.icc.reasons.find((r) => r.code === code)?.source;
    expect(cite('no_agreement')).toMatch(/Implementation Agreement/);
    const authorisation = cite('authorisation_unknown') ?? cite('not_authorised');
    expect(authorisation).toMatch(/authorised/);
    expect(cite('no_agreement')).not.toBe(authorisation);
  });
});

const pack = (format: 'pdf' | 'csv', lang: 'en' | 'cn') => evidencePack(s, u.token, MARCH, format, lang);

describe('the evidence pack', () => {
  it('writes its dates in the reader\'s words in the PDF, never ISO (the CSV keeps ISO 8601 for machines)', async () => {
    for (const [lang, first, last] of [['en', '1 Mar 2026', '31 Mar 2026'], ['cn', '2026年3月1日', '2026年3月31日']] as const) {
      const text = await pdfText(await pack('pdf', lang));
      expect(text).toContain(`${first} – ${last}`);
      expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
      expect(text).toMatch(lang === 'en' ? /2 Mar 2026, \d{1,2}:\d{2} (am|pm)/ : /2026年3月2日 \d{2}:\d{2}/);
    }
  });

  it('names host countries in its language, in the PDF and in the CSV (which keeps the ISO code beside the name)', async () => {
    for (const [lang, ghana, fiji] of [['en', 'Ghana', 'Fiji'], ['cn', '加纳', '斐济']] as const) {
      const text = await pdfText(await pack('pdf', lang));
      expect(text).toContain(`${ghana} · GS`);
      expect(text).toContain(fiji);
      expect(text).not.toMatch(/\b(GH|FJ) ·/);
      const rows = new TextDecoder().decode(await pack('csv', lang)).split('\r\n').map((l) => l.split(','));
      const col = (name: string) => rows[0]!.indexOf(name);
      expect(col('host_country_name')).toBe(col('host_country') + 1);
      const named = rows.filter((r) => r[col('host_country')] === 'GH' || r[col('host_country')] === 'FJ').map((r) => `${r[col('host_country')]}=${r[col('host_country_name')]}`);
      expect(new Set(named)).toEqual(new Set([`GH=${ghana}`, `FJ=${fiji}`]));
    }
  });
});
