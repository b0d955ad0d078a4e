import { sgtDateTimeText } from '../../../shared/sgt-text';
import { a4Document, labelledLine } from '../../lib/pdf-text';
import type { Lang } from '../../../shared/errors';
import type { Certificate } from '../../../shared/schemas/retire';

// A retirement certificate as one A4 PDF page (docs/product.md#retirement): what the public certificate page
// shows, in English or Chinese, with a QR code of the page's address. The text is set by lib/pdf-text.ts in
// Noto Sans SC. docs/decisions/0031-certificate-pdf.md.

const EN = {
  kicker: 'Canopy carbon credit marketplace',
  title: 'Certificate of retirement',
  certifies: 'This certifies that',
  retired: 'of verified carbon credits (tCO₂e) were permanently retired on behalf of',
  customer: 'a Canopy customer',
  tons: 't',
  project: 'Project',
  registry: 'Registry',
  methodology: 'Methodology',
  vintage: 'Vintage',
  country: 'Country',
  date: 'Retired on',
  serials: 'Serial numbers',
  onRegistry: 'On the registry',
  registrySerials: 'Registry serials',
  verify: 'Verify this certificate at',
  id: 'Certificate ID',
};

const TEXT: Record<Lang, Record<keyof typeof EN, string>> = {
  en: EN,
  cn: {
    kicker: 'Canopy 碳信用交易平台',
    title: '注销证书',
    certifies: '兹证明',
    retired: '经核证的碳信用（吨二氧化碳当量）已被永久注销，受益人为',
    customer: '一位 Canopy 客户',
    tons: '吨',
    project: '项目',
    registry: '登记处',
    methodology: '方法学',
    vintage: '签发年份',
    country: '国家',
    date: '注销时间',
    serials: '序列号',
    onRegistry: '登记处状态',
    registrySerials: '登记处序列号',
    verify: '在以下地址验证本证书',
    id: '证书编号',
  },
};

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];

/** A registry day (YYYY-MM-DD) as the page writes it: "3 Dec 2026", "2026年12月3日". */
function day(text: string, lang: Lang): string {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  return lang === 'cn' ? `${y}年${m}月${d}日` : `${d} ${EN_MONTHS[m - 1]} ${y}`;
}

/** Where the retirement stands on its registry, in the page's words (docs/product.md#registry-cancellation). */
export function registryStatusText(c: Pick<Certificate, 'registry' | 'registry_status' | 'registry_reference' | 'registry_cancelled_on' | 'registry_due_on'>, lang: Lang): string {
  if (c.registry_status === 'cancelled') {
    const on = c.registry_cancelled_on ? day(c.registry_cancelled_on, lang) : '';
    return lang === 'cn' ? `已于 ${on}在 ${c.registry} 注销，注销编号 ${c.registry_reference ?? ''}` : `Cancelled on ${c.registry} on ${on}, reference ${c.registry_reference ?? ''}`;
  }
  const due = c.registry_due_on ? day(c.registry_due_on, lang) : '';
  if (lang === 'cn') return due ? `等待在 ${c.registry} 注销（截止 ${due}）` : `等待在 ${c.registry} 注销`;
  return due ? `Waiting to be cancelled on ${c.registry} (due by ${due})` : `Waiting to be cancelled on ${c.registry}`;
}

const GREEN = '#1f6f4a';
const MUTED = '#5b6b63';

/** The certificate as a PDF; `url` is the public certificate page's address (the QR code's text). */
export async function certificatePdf(c: Certificate, lang: Lang, url: string): Promise<Buffer> {
  const t = TEXT[lang];
  const { default: QRCode } = await import('qrcode');
  const { doc, done, set, left, width } = await a4Document({ margin: 56, title: `${t.title} ${c.id}`, author: 'Canopy', lang });
  const center = (text: string, size: number) => set(text, size, { x: left, width, align: 'center' });
  // The time in SGT in the reader's words, as the page shows it.
  const date = sgtDateTimeText(c.retired_at_ms, lang);

  doc.fillColor(GREEN);
  center(t.kicker, 11);
  doc.y += 4;
  center(t.title, 24);
  doc.y += 14;
  doc.fillColor('#000');
  center(t.certifies, 12);
  doc.y += 4;
  doc.fillColor(GREEN);
  center(`${c.tons} ${t.tons}`, 30);
  doc.fillColor('#000');
  center(t.retired, 12);
  doc.y += 6;
  center(c.beneficiary_hidden && !c.beneficiary ? t.customer : c.beneficiary, 18);
  if (c.reason) {
    doc.fillColor(MUTED);
    center(`“${c.reason}”`, 11);
  }
  doc.y += 18;

  const facts: Array<[string, string]> = [
    [t.project, lang === 'cn' ? c.project_name_cn : c.project_name],
    [t.registry, `${c.registry} · ${c.registry_id}`],
    [t.methodology, c.methodology],
    [t.vintage, String(c.vintage)],
    [t.country, lang === 'cn' ? c.country_cn : c.country],
    [t.date, `${date} (SGT)`],
    [t.serials, c.serials.map((s) => (s.from === s.to ? s.from : `${s.from} – ${s.to}`)).join('\n')],
    [t.onRegistry, registryStatusText(c, lang)],
    ...(c.registry_serials.length ? [[t.registrySerials, c.registry_serials.join('\n')] as [string, string]] : []),
  ];
  const columns = { left, width, label: 130, pad: 10, size: 10, gap: 6, muted: MUTED };
  for (const [label, value] of facts) labelledLine(doc, set, columns, label, value);

  // The QR code of the page's address, drawn module by module, bottom left; the address and id beside it.
  const qr = QRCode.create(url, { errorCorrectionLevel: 'M' }).modules;
  const side = 110;
  const cell = side / qr.size;
  const top = doc.page.height - doc.page.margins.bottom - side;
  for (let y = 0; y < qr.size; y++) for (let x = 0; x < qr.size; x++) if (qr.get(y, x)) doc.rect(left + x * cell, top + y * cell, cell, cell);
  doc.fillColor('#000').fill();
  const beside = { x: left + side + 16, width: width - side - 16 };
  doc.y = top + 10;
  doc.fillColor(MUTED);
  set(t.verify, 10, beside);
  doc.fillColor('#000');
  set(url, 10, { ...beside, link: url });
  doc.fillColor(MUTED);
  set(`${t.id} ${c.id}`, 10, beside);
  doc.end();
  return done;
}
