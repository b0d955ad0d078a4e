// The Singapore carbon-tax eligibility engine on a table of cases (docs/product.md#singapore-carbon-tax),
// and the rules file checked against its schema: a rules file that breaks the schema fails here, in CI.
import fs from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { judgeIcc, type IccFacts } from '../../src/shared/icc/engine';
import { ICC_RULES } from '../../src/shared/icc/current-rules';
import { iccRulesSchema, type IccRules } from '../../src/shared/icc/rules';
import { ICC_REASONS } from '../../src/shared/icc/reasons';
import { ICC_REASON_CODES } from '../../src/shared/icc/values';

const ghanaCookstoves: IccFacts = {
  host_country: 'GH',
  programme: 'GS',
  type: 'cookstove',
  methodology_id: 'GS-MMECD',
  methodology_date: '2021-07-01',
  reduction_start: 2022,
  reduction_end: 2026,
  vintage: 2024,
  authorisation: 'granted',
  adjustment: 'granted',
};

const CASES: Array<[string, Partial<IccFacts>, string, string[]]> = [
  ['an authorised Ghana cookstove project', {}, 'eligible', []],
  ['a Ghana afforestation (ARR) project', { programme: 'VCS', type: 'forestry', methodology_id: 'VM0047', methodology_date: '2023-09-01' }, 'not_eligible', ['sector_excluded']],
  ['a country without an agreement (Indonesia)', { host_country: 'ID' }, 'not_eligible', ['no_agreement']],
  ['a 2019 vintage', { reduction_start: 2019, reduction_end: 2019, vintage: 2019 }, 'not_eligible', ['reductions_before_window']],
  // The vintage is the year of the credits' reductions: it counts even where the period says otherwise or is not given.
  ['a 2019 vintage whose project period is not given', { reduction_start: null, reduction_end: null, vintage: 2019 }, 'not_eligible', ['reductions_before_window']],
  ['a 2019 vintage of a project whose period starts in 2021', { vintage: 2019 }, 'not_eligible', ['reductions_before_window']],
  ['a 2031 vintage', { vintage: 2031 }, 'not_eligible', ['reductions_after_window']],
  ['no reduction period but a 2024 vintage', { reduction_start: null, reduction_end: null }, 'eligible', []],
  ['reductions running past 2030', { reduction_end: 2032 }, 'not_eligible', ['reductions_after_window']],
  ['no corresponding adjustment', { adjustment: 'none' }, 'not_eligible', ['no_corresponding_adjustment']],
  ['not authorised by the host country', { authorisation: 'none' }, 'not_eligible', ['not_authorised']],
  ['a Singapore project', { host_country: 'SG' }, 'not_eligible', ['generated_in_singapore']],
  ['a programme not on the list', { programme: 'Puro' }, 'not_eligible', ['programme_not_eligible']],
  ['a methodology version before the cut-off', { methodology_date: '2016-01-01' }, 'not_eligible', ['methodology_too_old']],
  ['an agreement whose list Canopy does not hold (Vietnam)', { host_country: 'VN' }, 'unknown', ['list_unknown']],
  ['an authorisation applied for', { authorisation: 'pending', adjustment: 'unknown' }, 'unknown', ['authorisation_unknown', 'adjustment_unknown']],
  [
    'nothing known',
    { host_country: '', programme: '', methodology_id: '', methodology_date: '', reduction_start: null, reduction_end: null, vintage: 0, authorisation: 'unknown', adjustment: 'unknown' },
    'unknown',
    ['host_country_unknown', 'reduction_period_unknown', 'authorisation_unknown', 'adjustment_unknown'],
  ],
  [
    'every failing reason at once in Ghana',
    { type: 'forestry', programme: 'Puro', methodology_date: '2010-01-01', reduction_start: 2018, reduction_end: 2035, authorisation: 'none', adjustment: 'none' },
    'not_eligible',
    ['programme_not_eligible', 'sector_excluded', 'methodology_too_old', 'reductions_before_window', 'reductions_after_window', 'not_authorised', 'no_corresponding_adjustment'],
  ],
];

describe('the eligibility engine', () => {
  it.each(CASES)('%s', (_name, change, verdict, reasons) => {
    const j = judgeIcc({ ...ghanaCookstoves, ...change }, ICC_RULES);
    expect(j.verdict).toBe(verdict);
    expect(j.reasons.map((r) => r.code)).toEqual(reasons);
    expect(j.rules_version).toBe(ICC_RULES.version);
    for (const r of j.reasons) {
      expect(r.source.length).toBeGreaterThan(10);
      expect(r.source_cn).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('judges by the rules it is given: a new rules file re-judges without any other change', () => {
    const rules: IccRules = structuredClone(ICC_RULES);
    rules.version = 'test.2';
    const gh = rules.countries.find((c) => c.country === 'GH')!;
    gh.eligibility!.excluded_sectors = [{ sector: 'cookstove', source: 'a test rule', source_cn: '测试规则' }];
    expect(judgeIcc(ghanaCookstoves, rules)).toEqual({ verdict: 'not_eligible', reasons: [{ code: 'sector_excluded', source: 'a test rule', source_cn: '测试规则' }], rules_version: 'test.2' });
    const vn = rules.countries.find((c) => c.country === 'VN')!;
    vn.eligibility = structuredClone(gh.eligibility);
    expect(judgeIcc({ ...ghanaCookstoves, host_country: 'VN', type: 'renewable' }, rules).verdict).toBe('eligible');
  });
});

describe('the rules file', () => {
  it('passes its schema, with a source line on every rule', () => {
    const raw: unknown = JSON.parse(fs.readFileSync(new URL('../../src/shared/icc/rules.json', import.meta.url), 'utf8'));
    const parsed = v.safeParse(iccRulesSchema, raw);
    expect(parsed.issues?.map((i) => `${v.getDotPath(i)}: ${i.message}`)).toBeUndefined();
    expect(ICC_RULES.reduction_window).toMatchObject({ first_year: 2021, last_year: 2030 });
  });

  it('refuses a rule without its source, an unknown sector and a country listed twice', () => {
    const bad = structuredClone(ICC_RULES) as unknown as { countries: Array<Record<string, unknown>>; reduction_window: Record<string, unknown> };
    delete bad.reduction_window.source;
    expect(v.safeParse(iccRulesSchema, bad).success).toBe(false);
    const twice = structuredClone(ICC_RULES);
    twice.countries.push(twice.countries[0]!);
    expect(v.safeParse(iccRulesSchema, twice).success).toBe(false);
    const sector = structuredClone(ICC_RULES) as unknown as IccRules;
    (sector.countries[0]!.eligibility!.excluded_sectors as Array<{ sector: string; source: string }>).push({ sector: 'nuclear', source: 'x' });
    expect(v.safeParse(iccRulesSchema, sector).success).toBe(false);
  });

  it('every reason has a distinct catalogue number and both languages', () => {
    const codes = ICC_REASON_CODES.map((c) => ICC_REASONS[c].code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of ICC_REASON_CODES) {
      expect(ICC_REASONS[c].en).toMatch(/\.$/);
      expect(ICC_REASONS[c].cn).toMatch(/。$/);
    }
  });
});
