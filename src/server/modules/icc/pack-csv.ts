import type { Lang } from '../../../shared/errors';
import { countryName } from '../../../shared/countries';
import { isoSgt } from '../../lib/clock';
import type { Pack, PackRow } from './pack';
import { decimal, PACK_TEXT, verdictText } from './pack-text';

// The evidence pack as CSV (docs/product.md#singapore-carbon-tax): UTF-8 with a byte-order mark so a
// spreadsheet reads it as UTF-8, one header row, ISO 8601 dates in SGT, amounts as plain decimals in SGD,
// the host country as its ISO code for a machine and by name in the pack's language for a reader.
// The totals, the fee and GST lines and the pack's own facts follow as rows of the same columns, their
// `type` saying what they are.

const COLUMNS = [
  'date_sgt',
  'type',
  'reference',
  'project',
  'host_country',
  'host_country_name',
  'programme',
  'methodology',
  'vintage',
  'reduction_period',
  'serial_ranges',
  'registry_serials',
  'registry_status',
  'registry_reference',
  'registry_cancelled_on',
  'registry',
  'registry_id',
  'registry_url',
  'icc_verdict',
  'icc_reasons',
  'rules_version',
  'icc_judged',
  'icc_year',
  'tons',
  'unit_price_sgd',
  'amount_sgd',
  'gst_treatment',
] as const;

type Line = Partial<Record<(typeof COLUMNS)[number], string | number>>;

/** One field: quoted when it holds a separator, a quote or a line break; a text that a spreadsheet would
 *  run as a formula (=, +, -, @, tab, carriage return first) gets a leading apostrophe. */
function field(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function rowLine(r: PackRow, lang: Lang): Line {
  const t = PACK_TEXT[lang];
  return {
    date_sgt: isoSgt(r.at).replace('.000', ''),
    type: r.kind,
    reference: r.ref,
    project: lang === 'cn' ? r.project_cn : r.project,
    host_country: r.host_country,
    host_country_name: countryName(r.host_country, lang),
    programme: r.programme,
    methodology: r.methodology,
    vintage: r.vintage,
    reduction_period: r.reduction_period,
    serial_ranges: r.serials.join('; '),
    registry_serials: r.registry_serials.join('; '),
    registry_status: r.registry_status,
    registry_reference: r.registry_reference,
    registry_cancelled_on: r.registry_cancelled_on,
    registry: r.registry,
    registry_id: r.registry_id,
    registry_url: r.registry_url,
    icc_verdict: r.icc.verdict,
    icc_reasons: verdictText(r.icc, lang),
    rules_version: r.icc.rules_version,
    icc_judged: r.icc_judged,
    icc_year: r.icc_year ?? '',
    tons: r.tons,
    unit_price_sgd: r.unit_price === null ? '' : decimal(r.unit_price),
    amount_sgd: r.amount === null ? '' : decimal(r.amount),
    gst_treatment: r.kind === 'purchase' ? t.gst : '',
  };
}

function footLines(pack: Pack, lang: Lang, verifyUrl: string): Line[] {
  const t = PACK_TEXT[lang];
  const { totals } = pack;
  return [
    { type: 'total_purchases', tons: totals.purchased_tons, amount_sgd: decimal(totals.amount), gst_treatment: t.gst },
    { type: 'total_retirements', tons: totals.retired_tons },
    ...totals.surrendered.map((s): Line => ({ type: 'total_surrendered', icc_year: s.year, tons: s.tons })),
    { type: 'canopy_fees', amount_sgd: decimal(0), gst_treatment: t.fee },
    { date_sgt: isoSgt(pack.issued_at).replace('.000', ''), type: 'pack', reference: `${pack.account.name} (#${pack.account.id})`, project: `${pack.from}/${pack.to}`, rules_version: pack.rules_version, registry_url: verifyUrl },
  ];
}

export function packCsv(pack: Pack, lang: Lang, verifyUrl: string): Buffer {
  const lines = [COLUMNS.join(','), ...[...pack.rows.map((r) => rowLine(r, lang)), ...footLines(pack, lang, verifyUrl)].map((l) => COLUMNS.map((c) => field(l[c])).join(','))];
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}
