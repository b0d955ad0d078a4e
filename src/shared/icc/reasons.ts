import type { IccReasonCode } from './values';

// The reasons' catalogue (docs/product.md#singapore-carbon-tax): a stable number and the text in both
// languages, as in the error catalogue. The project page, the retirement refusal and the evidence pack read
// the same texts. Numbers are stable: never renumber, only add.
export const ICC_REASONS: Record<IccReasonCode, { code: number; en: string; cn: string }> = {
  host_country_unknown: { code: 2501, en: 'The host country is not known.', cn: '东道国未知。' },
  generated_in_singapore: { code: 2502, en: 'Credits generated in Singapore do not count.', cn: '在新加坡产生的碳信用不计入。' },
  no_agreement: { code: 2503, en: 'The host country has no Implementation Agreement with Singapore.', cn: '东道国与新加坡没有实施协议。' },
  list_unknown: {
    code: 2504,
    en: "The host country's eligibility list is not in Canopy's rules yet.",
    cn: 'Canopy 的规则中尚无该东道国的合格清单。',
  },
  programme_unknown: { code: 2505, en: 'The crediting programme is not known.', cn: '碳信用计划未知。' },
  programme_not_eligible: { code: 2506, en: "The crediting programme is not on the host country's list.", cn: '该碳信用计划不在东道国的清单上。' },
  sector_excluded: { code: 2507, en: "This sector is excluded for this host country.", cn: '该东道国排除此行业。' },
  methodology_unknown: { code: 2508, en: 'The methodology is not known.', cn: '方法学未知。' },
  methodology_excluded: { code: 2509, en: 'This methodology is excluded for this host country.', cn: '该东道国排除此方法学。' },
  methodology_date_unknown: { code: 2510, en: 'The date of the methodology version is not known.', cn: '方法学版本的日期未知。' },
  methodology_too_old: { code: 2511, en: 'The methodology version is older than the cut-off date.', cn: '方法学版本早于截止日期。' },
  reduction_period_unknown: { code: 2512, en: 'The emission-reduction period is not known.', cn: '减排期未知。' },
  reductions_before_window: { code: 2513, en: 'Reductions before 2021 do not count.', cn: '2021 年之前的减排不计入。' },
  reductions_after_window: { code: 2514, en: 'Reductions after 2030 do not count.', cn: '2030 年之后的减排不计入。' },
  authorisation_unknown: { code: 2515, en: "The host country's authorisation is not known or not yet given.", cn: '东道国的授权未知或尚未授予。' },
  not_authorised: { code: 2516, en: 'The host country has not authorised these credits.', cn: '东道国未授权这些碳信用。' },
  adjustment_unknown: { code: 2517, en: 'The corresponding adjustment is not known or not yet made.', cn: '相应调整未知或尚未进行。' },
  no_corresponding_adjustment: { code: 2518, en: 'No corresponding adjustment.', cn: '没有相应调整。' },
};
