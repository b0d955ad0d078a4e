// Words put into a text as written: a company name or address (docs/product.md#legal-entity), or a registry
// reference in an evidence pack, holding `$&`, `$'`, `$\`` or `$1` (replacement patterns of String.replace)
// is text, not an instruction to copy the text around it.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runOps } from '../../src/server/ops/registry';
import { PATHS } from '../../src/shared/api';
import type { ContentPage } from '../../src/shared/schemas/content';
import { startTestServer, type TestServer } from '../helpers/server';
import { ok, WALLET_ENV } from './wallet-helpers';
import { holder, retireApi } from './retire-helpers';

const ENTITY = { name: "Dollar $& $' Pte Ltd", uen: '201912345A', address: "1 $` Road, $1 Singapore 068811" };

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...WALLET_ENV, SEED_DEMO: 'true', COMPANY_NAME: ENTITY.name, COMPANY_UEN: ENTITY.uen, COMPANY_ADDRESS: ENTITY.address, SUPPORT_EMAIL: 'help@example.sg' });
});
afterAll(async () => {
  await s?.close();
});

it('F5: the About page names the company and its address exactly as configured (en, cn)', async () => {
  const row = await s.db.selectFrom('pages').select(['body', 'body_cn']).where('slug', '=', 'about').executeTakeFirstOrThrow();
  await s.db.updateTable('pages').set({ body: 'By {company_name}, {company_address}; write to {support_email}.', body_cn: '由 {company_name} 运营（{company_address}），联系 {support_email}。' }).where('slug', '=', 'about').execute();
  try {
    const about = ok(await s.api<ContentPage>('GET', PATHS.page, { slug: 'about' }));
    expect(about.body).toBe(`By ${ENTITY.name}, ${ENTITY.address}; write to help@example.sg.`);
    expect(about.body_cn).toBe(`由 ${ENTITY.name} 运营（${ENTITY.address}），联系 help@example.sg。`);
  } finally {
    await s.db.updateTable('pages').set(row).where('slug', '=', 'about').execute();
  }
});

async function pdfText(bytes: Uint8Array): Promise<string> {
  const task = getDocument({ data: bytes, useSystemFonts: false });
  const doc = await task.promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += content.items.map((it) => ('str' in it ? it.str + (it.hasEOL ? ' ' : '') : '')).join('');
  }
  await task.destroy();
  return text.replace(/\s+/g, ' ');
}

it("F5b: an evidence pack's PDF writes a registry reference holding $& or $' as recorded (en, cn)", async () => {
  const { u, pid } = await holder(s, 3);
  const done = await retireApi(s).retire(u, { project_id: pid, tons: 1 });
  expect(done.code, done.msg).toBe(0);
  const today = new Date(s.clock.now() + 8 * 3_600_000).toISOString().slice(0, 10);
  const reference = "VCS-$&-$'-1";
  const recorded = await runOps({ db: s.db, clock: s.clock }, 'registry:cancel', [done.data.id as string, '--reference', reference, '--date', today], 'tester');
  expect(recorded).toMatchObject({ ok: true });
  const month = { from: `${today.slice(0, 8)}01`, to: `${today.slice(0, 8)}28` };
  for (const [lang, words] of [['en', `Cancelled on ${today}, reference ${reference}`], ['cn', `已于 ${today} 注销，注销编号 ${reference}`]] as const) {
    const res = await s.raw('GET', PATHS.iccPack, { headers: { Authorization: u.token }, query: new URLSearchParams({ ...month, format: 'pdf', lang }).toString() });
    expect(res.status).toBe(200);
    expect(await pdfText(new Uint8Array(await res.arrayBuffer()))).toContain(words);
  }
}, 120_000);
