import type { Lang } from '../../../shared/errors';
import { ICC_REASONS } from '../../../shared/icc/reasons';
import type { IccJudgement } from '../../../shared/icc/engine';

// The fixed words of an evidence pack in both languages (docs/product.md#singapore-carbon-tax), shared by the
// PDF and the CSV.

const EN = {
  title: 'Singapore carbon tax evidence pack',
  account: 'Account',
  period: 'Period (SGT)',
  issued: 'Issued (SGT)',
  rules: 'Eligibility rules version',
  rulesToday: "Eligibility rules version of today's verdicts",
  judged_surrender: 'at surrender',
  judged_today: 'today',
  purchases: 'Purchases',
  retirements: 'Retirements',
  purchase: 'purchase',
  retirement: 'retirement',
  totals: 'Totals',
  purchasedTons: 'Tons purchased',
  amount: 'Amount paid for credits',
  retiredTons: 'Tons retired',
  surrendered: 'Tons retired for Singapore carbon tax, year',
  gstTitle: 'GST',
  gst: 'No GST is charged on the credits: the sale of carbon credits is an excluded transaction under the GST (Excluded Transactions) Order since 23 November 2022.',
  fee: 'Canopy fees: none charged on these purchases and retirements (S$0.00), so no GST on fees.',
  verify: 'Check this file at',
  verifyNote: 'Canopy records the SHA-256 of every pack it issues; the page says whether a file is unchanged.',
  eligible: 'Eligible',
  not_eligible: 'Not eligible',
  unknown: 'Not known',
  surrenderedFor: 'Retired for Singapore carbon tax, year',
  serials: 'Serials',
  registrySerials: 'Registry serials',
  registryState: 'On the registry',
  registryCancelled: 'Cancelled on {date}, reference {reference}',
  registryPending: 'Waiting to be cancelled (counts toward the cap once cancelled)',
  unitPrice: 'Unit price',
  noRows: 'No purchases or retirements in this period.',
  hostProgramme: 'Host country · programme',
  methodology: 'Methodology',
  vintagePeriod: 'Vintage · reduction period',
  registry: 'Registry',
  registryLink: 'Registry link',
  carbonTax: 'Singapore carbon tax',
  quantity: 'Quantity and amount',
};

export type PackWords = Record<keyof typeof EN, string>;

export const PACK_TEXT: Record<Lang, PackWords> = {
  en: EN,
  cn: {
    title: '新加坡碳税证明文件包',
    account: '账户',
    period: '期间（新加坡时间）',
    issued: '签发时间（新加坡时间）',
    rules: '合格规则版本',
    rulesToday: '当前判定所用的合格规则版本',
    judged_surrender: '注销时判定',
    judged_today: '当前判定',
    purchases: '购买',
    retirements: '注销',
    purchase: '购买',
    retirement: '注销',
    totals: '合计',
    purchasedTons: '购买吨数',
    amount: '碳信用支付金额',
    retiredTons: '注销吨数',
    surrendered: '用于新加坡碳税的注销吨数，年度',
    gstTitle: '消费税',
    gst: '碳信用不征收消费税：根据《消费税（除外交易）令》，自 2022 年 11 月 23 日起碳信用的销售属于除外交易。',
    fee: 'Canopy 费用：这些购买和注销未收取任何费用（S$0.00），因此不涉及费用的消费税。',
    verify: '在以下地址核验本文件',
    verifyNote: 'Canopy 记录其签发的每个文件包的 SHA-256；该页面会说明文件是否未被更改。',
    eligible: '合格',
    not_eligible: '不合格',
    unknown: '未知',
    surrenderedFor: '用于新加坡碳税，年度',
    serials: '序列号',
    registrySerials: '登记处序列号',
    registryState: '登记处状态',
    registryCancelled: '已于 {date} 注销，注销编号 {reference}',
    registryPending: '等待注销（注销后计入上限）',
    unitPrice: '单价',
    noRows: '此期间没有购买或注销。',
    hostProgramme: '东道国 · 计划',
    methodology: '方法学',
    vintagePeriod: '签发年份 · 减排期',
    registry: '登记处',
    registryLink: '登记处链接',
    carbonTax: '新加坡碳税',
    quantity: '数量与金额',
  },
};

/** The verdict and every reason in one line, in the pack's language. */
export function verdictText(j: IccJudgement, lang: Lang): string {
  const t = PACK_TEXT[lang];
  const reasons = j.reasons.map((r) => ICC_REASONS[r.code][lang]).join(lang === 'cn' ? '' : ' ');
  return reasons ? `${t[j.verdict]}${lang === 'cn' ? '：' : ': '}${reasons}` : t[j.verdict];
}

/** Integer cents as a plain decimal (1234 -> "12.34"), for the CSV and the PDF's figures. */
export function decimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
