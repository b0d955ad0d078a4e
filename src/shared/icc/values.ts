// Value lists of the Singapore carbon-tax eligibility (docs/product.md#singapore-carbon-tax), with no schema
// library attached so screens can import them.

/** A host country's authorisation, or its corresponding adjustment: not known, refused or not made,
 *  applied for, given. */
export const ICC_STATUSES = ['unknown', 'none', 'pending', 'granted'] as const;
export type IccStatus = (typeof ICC_STATUSES)[number];

export const ICC_VERDICTS = ['eligible', 'not_eligible', 'unknown'] as const;
export type IccVerdict = (typeof ICC_VERDICTS)[number];

/** Every reason the engine gives. `fail` reasons make a project not eligible; `unknown` ones leave the
 *  verdict open until the missing fact is known. */
export const ICC_REASON_KINDS = {
  host_country_unknown: 'unknown',
  generated_in_singapore: 'fail',
  no_agreement: 'fail',
  list_unknown: 'unknown',
  programme_unknown: 'unknown',
  programme_not_eligible: 'fail',
  sector_excluded: 'fail',
  methodology_unknown: 'unknown',
  methodology_excluded: 'fail',
  methodology_date_unknown: 'unknown',
  methodology_too_old: 'fail',
  reduction_period_unknown: 'unknown',
  reductions_before_window: 'fail',
  reductions_after_window: 'fail',
  authorisation_unknown: 'unknown',
  not_authorised: 'fail',
  adjustment_unknown: 'unknown',
  no_corresponding_adjustment: 'fail',
} as const;
export type IccReasonCode = keyof typeof ICC_REASON_KINDS;
export const ICC_REASON_CODES = Object.keys(ICC_REASON_KINDS) as IccReasonCode[];
