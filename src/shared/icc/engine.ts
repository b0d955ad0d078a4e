import type { IccRules } from './rules';
import { ICC_REASON_KINDS, type IccReasonCode, type IccStatus, type IccVerdict } from './values';

// The eligibility engine (docs/product.md#singapore-carbon-tax): a pure function of a project's facts and
// the rules file. It gives every reason that applies, each with the source line of its rule, so a page,
// the retirement refusal and the evidence pack all say why in the same words.

/** The project facts the rules judge. `type` is the project's sector; `vintage` the year of the credits'
 *  reductions (0 when not known). */
export interface IccFacts {
  host_country: string;
  programme: string;
  type: string;
  methodology_id: string;
  methodology_date: string;
  reduction_start: number | null;
  reduction_end: number | null;
  vintage: number;
  authorisation: IccStatus;
  adjustment: IccStatus;
}

/** The facts as the engine reads them, from a row that has at least those columns (and maybe more). */
export function iccFactsOf(p: IccFacts): IccFacts {
  const { host_country, programme, type, methodology_id, methodology_date, reduction_start, reduction_end, vintage, authorisation, adjustment } = p;
  return { host_country, programme, type, methodology_id, methodology_date, reduction_start, reduction_end, vintage, authorisation, adjustment };
}

/** The project columns the facts are read from. */
export const ICC_COLUMNS = ['host_country', 'programme', 'type', 'methodology_id', 'methodology_date', 'reduction_start', 'reduction_end', 'vintage', 'authorisation', 'adjustment'] as const;

/** The share of its taxable emissions a company may cover with eligible credits, in percent. */
export const ICC_CAP_PERCENT = 5;

/** The tons a company may count for a year: 5% of its taxable emissions, rounded down to whole tons. */
export function capTons(taxableTons: number): number {
  return Math.floor((taxableTons * ICC_CAP_PERCENT) / 100);
}

/** The cap figures of a year: room = cap - retired (not below 0); over = retired beyond the cap. */
export function capFigures(taxable: number | null, retired: number): { cap_tons: number; room_tons: number; over_tons: number } {
  const cap = capTons(taxable ?? 0);
  return { cap_tons: cap, room_tons: Math.max(0, cap - retired), over_tons: Math.max(0, retired - cap) };
}

/** A reason and its rule's citation in English and Chinese. */
export interface IccReason {
  code: IccReasonCode;
  source: string;
  source_cn: string;
}

type Cited = Pick<IccReason, 'source' | 'source_cn'>;

/** The Chinese citation of a rule of `rules` by its English one: a verdict kept from before the rules carried
 *  Chinese citations (or from a rules file since changed) keeps its English line where none matches. */
export function sourceCnOf(source: string, rules: IccRules): string {
  let found = '';
  const visit = (node: unknown): void => {
    if (found || node === null || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.source === source && typeof o.source_cn === 'string') found = o.source_cn;
    else for (const value of Object.values(o)) visit(value);
  };
  visit(rules);
  return found || source;
}

export interface IccJudgement {
  verdict: IccVerdict;
  reasons: IccReason[];
  rules_version: string;
}

type Country = IccRules['countries'][number];
type Eligibility = NonNullable<Country['eligibility']>;

/** A reason with the citation of the rule that gives it, in both languages. */
const because = (code: IccReasonCode, rule: Cited): IccReason => ({ code, source: rule.source, source_cn: rule.source_cn });

/** Reasons from the host country's own list: programme, sector, methodology and its version date. An unknown
 *  methodology cites the list's methodology rule and has no version date to judge. */
function listReasons(f: IccFacts, list: Eligibility, out: IccReason[]): void {
  if (f.programme === '') out.push(because('programme_unknown', list.programmes));
  else if (!list.programmes.list.includes(f.programme)) out.push(because('programme_not_eligible', list.programmes));
  const sector = list.excluded_sectors.find((s) => s.sector === f.type);
  if (sector) out.push(because('sector_excluded', sector));
  const cutoff = list.methodology_cutoff;
  if (f.methodology_id === '') {
    out.push(because('methodology_unknown', cutoff ?? list.programmes));
    return;
  }
  const method = list.excluded_methodologies.find((m) => m.id === f.methodology_id);
  if (method) out.push(because('methodology_excluded', method));
  if (cutoff && f.methodology_date === '') out.push(because('methodology_date_unknown', cutoff));
  else if (cutoff && f.methodology_date < cutoff.date) out.push(because('methodology_too_old', cutoff));
}

/** Reasons from where the credits come from: Singapore, a country without an agreement, or one whose list
 *  the rules do not hold yet. */
function countryReasons(f: IccFacts, rules: IccRules, out: IccReason[]): void {
  if (f.host_country === '') {
    out.push(because('host_country_unknown', rules.implementation_agreements));
    return;
  }
  const excluded = rules.excluded_host_countries.find((c) => c.country === f.host_country);
  if (excluded) {
    out.push(because('generated_in_singapore', excluded));
    return;
  }
  const country = rules.countries.find((c) => c.country === f.host_country);
  if (!country) out.push(because('no_agreement', rules.implementation_agreements));
  else if (!country.eligibility) out.push(because('list_unknown', country.agreement));
  else listReasons(f, country.eligibility, out);
}

/** The credits' reductions fall in their vintage year and in the project's period: the vintage counts even
 *  where the period says otherwise or is not given, as the serials carry it. */
function periodReasons(f: IccFacts, rules: IccRules, out: IccReason[]): void {
  const w = rules.reduction_window;
  const vintage = f.vintage > 0 ? f.vintage : null;
  const firsts = [f.reduction_start, vintage].filter((y): y is number => y !== null);
  const lasts = [f.reduction_end, vintage].filter((y): y is number => y !== null);
  if (firsts.length === 0 || lasts.length === 0) {
    out.push(because('reduction_period_unknown', w));
    return;
  }
  if (Math.min(...firsts) < w.first_year) out.push(because('reductions_before_window', w));
  if (Math.max(...lasts) > w.last_year) out.push(because('reductions_after_window', w));
}

function hostReasons(f: IccFacts, rules: IccRules, out: IccReason[]): void {
  if (f.authorisation === 'none') out.push(because('not_authorised', rules.authorisation));
  else if (f.authorisation !== 'granted') out.push(because('authorisation_unknown', rules.authorisation));
  const ca = rules.corresponding_adjustment;
  if (f.adjustment === 'none') out.push(because('no_corresponding_adjustment', ca));
  else if (f.adjustment !== 'granted') out.push(because('adjustment_unknown', ca));
}

/** Eligible when no reason applies; not eligible when a failing one does; otherwise unknown. */
export function judgeIcc(f: IccFacts, rules: IccRules): IccJudgement {
  const reasons: IccReason[] = [];
  countryReasons(f, rules, reasons);
  periodReasons(f, rules, reasons);
  hostReasons(f, rules, reasons);
  const fails = reasons.some((r) => ICC_REASON_KINDS[r.code] === 'fail');
  const verdict: IccVerdict = fails ? 'not_eligible' : reasons.length > 0 ? 'unknown' : 'eligible';
  return { verdict, reasons, rules_version: rules.version };
}
