// A retirement whose beneficiary is shown as "a Canopy customer" (docs/product.md#retirement): the public
// certificate, its PDF and the transparency figures never carry the name or the reason, the owner's own list
// does, serials, project, tons and date stay public, and a flag that is not a boolean is refused in en and cn
// with nothing written. The PDF's text is read back with pdf.js.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { API_BASE, PATHS } from '../../src/shared/api';
import type { Lang } from '../../src/shared/errors';
import { readPdf } from '../helpers/pdf';
import { refusal, startTestServer, type TestServer } from '../helpers/server';
import { expectRetireRefused, holder, retireApi } from './retire-helpers';

let s: TestServer;
let api: ReturnType<typeof retireApi>;

beforeAll(async () => {
  s = await startTestServer({
    HASH_MAX_WAIT_MS: '60000',
    HASH_JOBS_PER_CLIENT: '1000',
  });
  api = retireApi(s);
});
afterAll(async () => {
  const report = await checkLedger(s.db);
  expect(report.ok).toBe(true);
  await s?.close();
});

const NAME = 'Orchid Holdings Pte Ltd';
const REASON = 'Offsetting the Orchid board retreat';

async function pdfOf(id: string, lang?: Lang) {
  const path = PATHS.publicCertificatePdf.replace(':id', encodeURIComponent(id));
  const res = await fetch(`${s.url}${API_BASE}${path}${lang ? `?lang=${lang}` : ''}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes };
}

describe('a beneficiary shown as a Canopy customer', () => {
  it('hides the name and the reason on the public certificate and transparency; the owner sees them', async () => {
    const { u, pid } = await holder(s, 20, {
      registry_id: 'VCS-4411',
      vintage: 2023,
      name: 'Kinabatangan Forest',
      name_cn: '京那巴当岸森林',
    });
    const res = await api.retire(u, {
      project_id: pid,
      tons: 7,
      beneficiary: NAME,
      reason: REASON,
      hide_beneficiary: true,
    });
    expect(res.code, res.msg).toBe(0);
    const id = res.data.id as string;

    const pub = await api.certificate(id);
    expect(pub.code).toBe(0);
    expect(pub.data).toMatchObject({
      beneficiary: '',
      reason: '',
      beneficiary_hidden: true,
      tons: 7,
      project_name: 'Kinabatangan Forest',
    });
    expect(pub.data.serials).toEqual([{ from: 'VCS-4411-2023-000000001', to: 'VCS-4411-2023-000000007' }]);
    expect(JSON.stringify(pub)).not.toContain('Orchid');

    const tr = await api.transparency();
    expect(tr.code).toBe(0);
    expect(JSON.stringify(tr)).not.toContain('Orchid');

    const mine = await api.list(u);
    expect(mine.data.list[0]).toMatchObject({
      id,
      beneficiary: NAME,
      reason: REASON,
      beneficiary_hidden: true,
    });
  });

  it('a retirement without the flag stays public as before', async () => {
    const { u, pid } = await holder(s, 5);
    const res = await api.retire(u, {
      project_id: pid,
      tons: 2,
      beneficiary: NAME,
      reason: REASON,
    });
    expect(res.code, res.msg).toBe(0);
    const pub = await api.certificate(res.data.id);
    expect(pub.data).toMatchObject({
      beneficiary: NAME,
      reason: REASON,
      beneficiary_hidden: false,
    });
  });

  it('a flag that is not true or false is refused in en and cn, nothing written', async () => {
    const { u, pid } = await holder(s, 5);
    for (const bad of ['yes', 1, 'true', null]) {
      await expectRetireRefused(s, 'retire_hide_beneficiary_invalid', (lang) => api.retire(u, { project_id: pid, tons: 1, hide_beneficiary: bad }, { lang }));
    }
  });
});

describe('the certificate PDF', () => {
  it('is an A4 attachment named by the certificate id, with tons, project, serials and the hidden beneficiary, in en and cn', async () => {
    const { u, pid } = await holder(s, 20, {
      registry_id: 'VCS-5522',
      vintage: 2021,
      name: 'Rimba Raya Reserve',
      name_cn: '林巴拉雅保护区',
    });
    const res = await api.retire(u, {
      project_id: pid,
      tons: 9,
      beneficiary: NAME,
      reason: REASON,
      hide_beneficiary: true,
    });
    expect(res.code, res.msg).toBe(0);
    const id = res.data.id as string;

    const en = await pdfOf(id);
    expect(en.res.status).toBe(200);
    expect(en.res.headers.get('content-type')).toBe('application/pdf');
    expect(en.res.headers.get('content-disposition')).toBe(`attachment; filename="canopy-certificate-${id}.pdf"`);
    expect(Buffer.from(en.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const e = await readPdf(en.bytes);
    expect(e.pages).toBe(1);
    expect([Math.round(e.width), Math.round(e.height)]).toEqual([595, 842]);
    expect(e.text).toContain(id);
    expect(e.text).toContain('9 t');
    expect(e.text).toContain('Rimba Raya Reserve');
    expect(e.text).toContain('VCS-5522-2021-000000001');
    expect(e.text).toContain('a Canopy customer');
    expect(e.text).not.toContain('Orchid');
    expect(e.text).toContain(`${s.url}/certificate/${id}`);

    const cn = await readPdf((await pdfOf(id, 'cn')).bytes);
    expect(cn.text).toContain(id);
    expect(cn.text).toContain('林巴拉雅保护区');
    expect(cn.text).toContain('一位 Canopy 客户');
    expect(cn.text).toContain('注销');
    expect(cn.text).not.toContain('Orchid');
  });

  it('prints the name and reason when they are public; an unknown id is not found', async () => {
    const { u, pid } = await holder(s, 5, { name: 'Katingan Peatland' });
    const res = await api.retire(u, {
      project_id: pid,
      tons: 3,
      beneficiary: NAME,
      reason: REASON,
    });
    const t = await readPdf((await pdfOf(res.data.id)).bytes);
    expect(t.text).toContain(NAME);
    expect(t.text).toContain(REASON);
    const missing = await pdfOf('A'.repeat(22));
    expect(missing.res.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(Buffer.from(missing.bytes).toString())).toMatchObject(refusal('certificate_not_found'));
  });
});
