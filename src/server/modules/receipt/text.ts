import { sgtDateTimeText } from '../../../shared/sgt-text';
import type { Lang } from '../../../shared/errors';
import { formatSgd } from '../../../shared/money';
import type { Receipt } from '../../../shared/schemas/receipt';

// A receipt's words in English and Chinese (docs/product.md#receipts): the rows its mail and its PDF show,
// in the account holder's language for the mail and the reader's for the PDF.

const EN = {
  title: 'Receipt',
  number: 'Receipt no.',
  date: 'Date (SGT)',
  event: 'For',
  reference: 'Reference',
  project: 'Project',
  tons: 'Tons',
  serials: 'Serial numbers',
  unitPrice: 'Unit price',
  fee: 'Fees',
  total: 'Total',
  method: 'Payment method',
  certificate: 'Certificate',
  seller: 'Issued by',
  uen: 'UEN',
  perTon: '/t',
  t: 't',
  subject: 'Your Canopy receipt no. {n}',
  hello: 'Thank you for using Canopy. Your receipt:',
  kinds: {
    purchase: 'Purchase',
    booking: 'Pre-sale booking fee',
    final_payment: 'Pre-sale final payment',
    sale: 'Sale of credits',
    retirement: 'Retirement of credits',
    topup: 'Top-up credited',
    withdrawal: 'Withdrawal completed',
  },
  methods: { wallet: 'Wallet balance', paynow: 'PayNow', bank: 'Bank transfer', none: '—' },
};

const TEXT: Record<Lang, typeof EN> = {
  en: EN,
  cn: {
    title: '收据',
    number: '收据编号',
    date: '日期（新加坡时间）',
    event: '事项',
    reference: '参考编号',
    project: '项目',
    tons: '吨数',
    serials: '序列号',
    unitPrice: '单价',
    fee: '手续费',
    total: '合计',
    method: '支付方式',
    certificate: '证书',
    seller: '开具方',
    uen: '唯一实体编号',
    perTon: '/吨',
    t: '吨',
    subject: '您的 Canopy 收据（编号 {n}）',
    hello: '感谢您使用 Canopy。您的收据如下：',
    kinds: {
      purchase: '购买',
      booking: '预售订金',
      final_payment: '预售尾款',
      sale: '出售碳信用',
      retirement: '注销碳信用',
      topup: '充值到账',
      withdrawal: '提现完成',
    },
    methods: { wallet: '钱包余额', paynow: 'PayNow', bank: '银行转账', none: '—' },
  },
};

/** The receipt's title and its rows (label, value), in order; rows without a value are left out. */
export function receiptRows(r: Receipt, lang: Lang): { title: string; rows: Array<[string, string]>; seller: string[] } {
  const t = TEXT[lang];
  const rows: Array<[string, string]> = [
    [t.number, String(r.number)],
    [t.date, sgtDateTimeText(r.created_at_ms, lang)],
    [t.event, t.kinds[r.kind]],
    [t.reference, r.reference],
    [t.project, lang === 'cn' ? r.project_name_cn : r.project_name],
    [t.tons, r.tons > 0 ? `${r.tons} ${t.t}` : ''],
    [t.serials, r.serials.map((s) => (s.from === s.to ? s.from : `${s.from} – ${s.to}`)).join('\n')],
    [t.unitPrice, r.unit_price > 0 ? `${formatSgd(r.unit_price)}${t.perTon}` : ''],
    [t.fee, formatSgd(r.fee)],
    [t.total, formatSgd(r.total)],
    [t.method, r.payment_method === 'none' ? '' : t.methods[r.payment_method]],
    [t.certificate, r.certificate_url],
  ];
  const seller = [`${t.seller}: ${r.company.name}`, `${t.uen}: ${r.company.uen}`, r.company.address];
  return { title: `${t.title} ${r.number}`, rows: rows.filter(([, value]) => value !== ''), seller };
}

/** The receipt's mail: subject and plain-text body. */
export function receiptMail(r: Receipt, lang: Lang): { subject: string; body: string } {
  const t = TEXT[lang];
  const { rows, seller } = receiptRows(r, lang);
  const body = [t.hello, '', ...rows.map(([label, value]) => `${label}: ${value.replace(/\n/g, ', ')}`), '', ...seller].join('\n');
  return { subject: t.subject.replace('{n}', String(r.number)), body };
}
