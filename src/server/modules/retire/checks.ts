import { AppError } from '../../lib/http';
import type { User } from '../session';
import { assertNotRisk } from '../user/trade-password';
import { ICC_RULES } from '../../../shared/icc/current-rules';
import { iccFactsOf, judgeIcc, type IccJudgement } from '../../../shared/icc/engine';
import { ICC_REASONS } from '../../../shared/icc/reasons';
import type { IccStatus } from '../../../shared/icc/values';

// The retirement's checks (docs/product.md#retirement): pure functions of the facts a retirement read
// (before the payment password to refuse early, and again inside its write transaction), used by both.
// A refusal is an AppError whose key is the catalogue's (docs/product.md#error-catalogue); the first
// failing check answers, in the order below.

/** The project columns a retirement reads: what its checks, its serials and its ledger memo need. */
export interface RetirableProject {
  id: number;
  name: string;
  name_cn: string;
  status: string;
  registry: string;
  registry_id: string;
  standard: string;
  methodology: string;
  vintage: number;
  country: string;
  country_cn: string;
  location: string;
  location_cn: string;
  total_tons: number;
  /** The Singapore carbon-tax facts (docs/product.md#singapore-carbon-tax). */
  host_country: string;
  programme: string;
  type: string;
  methodology_id: string;
  methodology_date: string;
  reduction_start: number | null;
  reduction_end: number | null;
  authorisation: IccStatus;
  adjustment: IccStatus;
}

/** What a retirement is checked against: the project (undefined: none), the tons the user holds of it (by
 *  origin) and the tons of it pending sale (sold back, proceeds not yet settled: already out of the
 *  holdings). */
export interface RetirementFacts {
  p: RetirableProject | undefined;
  held: { purchase: number; presale: number };
  pendingSale: number;
}

/** A project whose credits can be retired: public (not pending review), with a registry ID and a vintage
 *  to make serials of. */
function isRetirable(p: RetirableProject): boolean {
  return p.status !== 'pending_review' && p.registry_id.trim() !== '' && p.vintage > 0;
}

/** A surrender for Singapore carbon tax takes only credits the rules find eligible now; the refusal names
 *  every reason in both languages. Answers the judgement, which the surrender keeps. */
function checkIccEligible(p: RetirableProject): IccJudgement {
  const j = judgeIcc(iccFactsOf(p), ICC_RULES);
  if (j.verdict === 'eligible') return j;
  const text = (lang: 'en' | 'cn') => j.reasons.map((r) => ICC_REASONS[r.code][lang]).join(lang === 'cn' ? '' : ' ');
  throw new AppError('icc_not_eligible', { reasons: { en: text('en'), cn: text('cn') } }, { reasons: j.reasons.map((r) => r.code), rules_version: j.rules_version });
}

/** A retirement of `tons` whole tons: credits bought outright go first, then those of pre-sale origin. With
 *  a compliance year, it is a surrender for Singapore carbon tax and its credits must be eligible. */
export function checkRetirement(facts: RetirementFacts, user: Pick<User, 'risk' | 'trade_locked'>, tons: number, iccYear: number | null = null) {
  if (user.trade_locked) throw new AppError('account_locked');
  assertNotRisk(user);
  const { p, held, pendingSale } = facts;
  if (!p || !isRetirable(p)) throw new AppError('retire_not_retirable');
  const icc = iccYear === null ? null : checkIccEligible(p);
  const total = held.purchase + held.presale;
  if (tons > total) {
    if (pendingSale > 0 && tons <= total + pendingSale) throw new AppError('retire_pending_sale', { n: pendingSale, m: total });
    throw new AppError('retire_insufficient_credits', { n: total });
  }
  const fromPurchase = Math.min(held.purchase, tons);
  return { p, fromPurchase, fromPresale: tons - fromPurchase, icc };
}

/** A serial range of a project: sequences first..last of 1..total_tons. */
export interface SeqRange {
  first: number;
  last: number;
}

/** The lowest free sequences of 1..totalTons, `tons` of them, as ranges, given the ranges already taken
 *  (in order of their first sequence). */
export function freeSerialRanges(taken: readonly SeqRange[], totalTons: number, tons: number): SeqRange[] {
  const out: SeqRange[] = [];
  let need = tons;
  let next = 1; // the lowest sequence not yet known to be taken
  const take = (upTo: number) => {
    if (need <= 0 || upTo < next) return;
    const last = Math.min(upTo, next + need - 1);
    out.push({ first: next, last });
    need -= last - next + 1;
  };
  for (const r of taken) {
    take(r.first - 1);
    next = Math.max(next, r.last + 1);
    if (need <= 0) break;
  }
  take(totalTons);
  if (need > 0) throw new AppError('retire_not_retirable'); // more retired than issued: cannot happen while retired <= sold <= issued
  return out;
}
