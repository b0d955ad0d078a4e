import type { Lang } from '../../../shared/errors';
import { countryName } from '../../../shared/countries';
import { formatSgd } from '../../../shared/money';
import { a4Document, labelledLine, type Doc, type typesetter } from '../../lib/pdf-text';
import { isoDayText, sgtDateTimeText } from '../../../shared/sgt-text';
import type { Pack, PackRow } from './pack';
import { PACK_TEXT, verdictText, type PackWords } from './pack-text';

// The evidence pack as an A4 PDF (docs/product.md#singapore-carbon-tax): the account, the period, every
// purchase and retirement with its facts, verdict and serial ranges, the totals, GST and fee lines, and
// where to check the file. Text is set by lib/pdf-text.ts, so it is extractable in both languages.

const GREEN = '#1f6f4a';
const MUTED = '#5b6b63';

interface Layout {
  doc: Doc;
  set: ReturnType<typeof typesetter>;
  left: number;
  width: number;
  bottom: number;
}

/** A new page when fewer than `need` points are left above the bottom margin. */
function room(l: Layout, need: number): void {
  if (l.doc.y + need > l.bottom) {
    l.doc.addPage();
    l.doc.y = l.doc.page.margins.top;
  }
}

function pairs(l: Layout, rows: Array<[string, string, string?]>, size = 9): void {
  const columns = { left: l.left, width: l.width, label: 120, pad: 8, size, gap: 2, muted: MUTED };
  for (const [label, value, link] of rows) {
    if (!value) continue;
    room(l, size * 3);
    labelledLine(l.doc, l.set, columns, label, value, link ? GREEN : '#000', link);
  }
}

function rowBlock(l: Layout, r: PackRow, lang: Lang, t: PackWords): void {
  room(l, 80);
  l.doc.fillColor('#000');
  const name = lang === 'cn' ? r.project_cn : r.project;
  l.set(`${sgtDateTimeText(r.at, lang)} · ${t[r.kind]} · ${r.ref}`, 10, { x: l.left, width: l.width });
  l.set(name, 11, { x: l.left, width: l.width });
  const money = r.unit_price !== null && r.amount !== null ? `${r.tons} t × ${formatSgd(r.unit_price)} = ${formatSgd(r.amount)}` : `${r.tons} t`;
  pairs(l, [
    [t.hostProgramme, `${countryName(r.host_country, lang) || '-'} · ${r.programme || '-'}`],
    [t.methodology, r.methodology.replace(/\((\d{4}-\d{2}-\d{2})\)$/, (_, day: string) => `(${isoDayText(day, lang)})`)],
    [t.vintagePeriod, `${r.vintage}${r.reduction_period ? ` · ${r.reduction_period}` : ''}`],
    [t.registry, `${r.registry} ${r.registry_id}`],
    [t.registryLink, r.registry_url, r.registry_url],
    [t.serials, r.serials.join('\n')],
    [t.registrySerials, r.registry_serials.join('\n')],
    [t.registryState, r.registry_status === 'cancelled' ? t.registryCancelled.replace('{date}', () => r.registry_cancelled_on).replace('{reference}', () => r.registry_reference) : r.registry_status === 'pending' ? t.registryPending : ''],
    [t.carbonTax, `${verdictText(r.icc, lang)} (${t[`judged_${r.icc_judged}`]}, ${t.rules} ${r.icc.rules_version})`],
    [t.surrenderedFor, r.icc_year === null ? '' : String(r.icc_year)],
    [t.quantity, money],
  ]);
  l.doc.y += 8;
}

function header(l: Layout, pack: Pack, t: PackWords, lang: Lang): void {
  l.doc.fillColor(GREEN);
  l.set('Canopy', 11, { x: l.left, width: l.width });
  l.set(t.title, 20, { x: l.left, width: l.width });
  l.doc.y += 6;
  pairs(
    l,
    [
      [t.account, `${pack.account.name} (#${pack.account.id}, ${pack.account.email})`],
      [t.period, `${isoDayText(pack.from, lang)} – ${isoDayText(pack.to, lang)}`],
      [t.issued, sgtDateTimeText(pack.issued_at, lang)],
      [t.rulesToday, pack.rules_version],
    ],
    10,
  );
  l.doc.y += 10;
}

function totals(l: Layout, pack: Pack, t: PackWords, verifyUrl: string): void {
  room(l, 160);
  l.doc.fillColor(GREEN);
  l.set(t.totals, 14, { x: l.left, width: l.width });
  l.doc.y += 4;
  pairs(
    l,
    [
      [t.purchasedTons, `${pack.totals.purchased_tons} t`],
      [t.amount, formatSgd(pack.totals.amount)],
      [t.retiredTons, `${pack.totals.retired_tons} t`],
      ...pack.totals.surrendered.map((s): [string, string] => [`${t.surrendered} ${s.year}`, `${s.tons} t`]),
      [t.gstTitle, `${t.gst}\n${t.fee}`],
      [t.verify, verifyUrl, verifyUrl],
    ],
    10,
  );
  l.doc.fillColor(MUTED);
  l.set(t.verifyNote, 9, { x: l.left, width: l.width });
}

export function packPdf(pack: Pack, lang: Lang, verifyUrl: string): Promise<Buffer> {
  const t = PACK_TEXT[lang];
  const { doc, done, set, left, width } = a4Document({ margin: 48, title: `${t.title} ${pack.from} – ${pack.to}`, author: 'Canopy', lang });
  const l: Layout = { doc, set, left, width, bottom: doc.page.height - doc.page.margins.bottom };
  header(l, pack, t, lang);
  for (const [kind, title] of [['purchase', t.purchases], ['retirement', t.retirements]] as const) {
    const rows = pack.rows.filter((r) => r.kind === kind);
    room(l, 60);
    l.doc.fillColor(GREEN);
    l.set(title, 14, { x: left, width: l.width });
    l.doc.y += 4;
    if (rows.length === 0) {
      l.doc.fillColor(MUTED);
      l.set(t.noRows, 10, { x: left, width: l.width });
      l.doc.y += 8;
    }
    for (const r of rows) rowBlock(l, r, lang, t);
  }
  totals(l, pack, t, verifyUrl);
  doc.end();
  return done;
}
