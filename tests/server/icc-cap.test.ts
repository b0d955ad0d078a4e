// The account's Singapore carbon-tax cap (docs/product.md#singapore-carbon-tax): taxable emissions entered
// per compliance year, 5% of them rounded down, eligible tons held and retired for the year, room left; a
// retirement marked for the tax refused for credits that are not eligible (naming why, nothing changed) and
// warned past the cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../../src/server/ops/registry';
import { PATHS } from '../../src/shared/api';
import { ICC_REASONS } from '../../src/shared/icc/reasons';
import type { IccCap } from '../../src/shared/schemas/icc';
import { refusal, startTestServer, type TestServer } from '../helpers/server';
import { expectRetireRefused, holder, newKey, retireApi, retireSnapshot } from './retire-helpers';
import type { MarketUser } from './market-helpers';
import { addMember, expectOrgRefused, makeOrg, switchInto } from './org-helpers';

let s: TestServer;
beforeAll(async () => {
  // Many payment passwords at once (40 parallel surrenders by one account): the hash lane queues them all.
  s = await startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000' });
});
afterAll(async () => s?.close());

/** Ghana, Gold Standard cookstoves, authorised with a corresponding adjustment: eligible. */
const ELIGIBLE = {
  host_country: 'GH',
  programme: 'GS',
  type: 'cookstove',
  methodology_id: 'GS-TPDDTEC',
  methodology_date: '2021-07-01',
  reduction_start: 2024,
  reduction_end: 2024,
  authorisation: 'granted',
  adjustment: 'granted',
} as const;

/** The operator records the registry's cancellation of a surrender: only then does it count. */
const cancelOnRegistry = (id: string) => runOps({ db: s.db, clock: s.clock }, 'registry:cancel', [id, '--reference', `VCS-RET-${id.slice(0, 6)}`], 'tester');

const cap = (u: MarketUser, year: number | string) => s.api<IccCap>('GET', PATHS.iccCap, { year }, { token: u.token });
const enter = (u: MarketUser, body: Record<string, unknown>, key = newKey()) => s.api<IccCap>('POST', PATHS.iccEmissions, body, { token: u.token, idempotencyKey: key });

describe('the 5% cap', () => {
  it('a company with 100,000 t taxable emissions may count 5,000 t; the 5,001st eligible ton warns', async () => {
    const { u, pid } = await holder(s, 5001, { ...ELIGIBLE, total_tons: 10_000, max_tons: 6000, monthly_limit: 10_000, total_limit: 10_000, price: 100 });
    expect((await cap(u, 2025)).data).toMatchObject({ taxable_tons: null, cap_tons: 0, held_eligible_tons: 5001, retired_tons: 0 });
    const entered = await enter(u, { year: 2025, taxable_tons: 100_000 });
    expect(entered.code, entered.msg).toBe(0);
    expect(entered.data).toMatchObject({ year: 2025, taxable_tons: 100_000, cap_tons: 5000, held_eligible_tons: 5001, retired_tons: 0, room_tons: 5000, over_tons: 0 });

    const r = retireApi(s);
    const first = await r.retire(u, { project_id: pid, tons: 4000, icc_year: 2025 });
    expect(first.code, first.msg).toBe(0);
    // Waiting to be cancelled on the registry: not counted yet, but it takes the room.
    expect(first.data.icc).toEqual({ year: 2025, taxable_tons: 100_000, cap_tons: 5000, retired_tons: 0, pending_tons: 4000, over_tons: 0 });
    expect((await cancelOnRegistry(first.data.id)).ok).toBe(true);
    const upTo = await r.retire(u, { project_id: pid, tons: 1000, icc_year: 2025 });
    expect(upTo.data.icc).toEqual({ year: 2025, taxable_tons: 100_000, cap_tons: 5000, retired_tons: 4000, pending_tons: 1000, over_tons: 0 });
    expect((await cancelOnRegistry(upTo.data.id)).ok).toBe(true);
    expect((await cap(u, 2025)).data).toMatchObject({ cap_tons: 5000, retired_tons: 5000, pending_tons: 0, room_tons: 0, over_tons: 0, held_eligible_tons: 1 });
    const past = await r.retire(u, { project_id: pid, tons: 1, icc_year: 2025 });
    expect(past.code, past.msg).toBe(0);
    expect(past.data.icc).toEqual({ year: 2025, taxable_tons: 100_000, cap_tons: 5000, retired_tons: 5000, pending_tons: 1, over_tons: 1 });
    expect((await cancelOnRegistry(past.data.id)).ok).toBe(true);
    expect((await cap(u, 2025)).data).toMatchObject({ retired_tons: 5001, pending_tons: 0, room_tons: 0, over_tons: 1, held_eligible_tons: 0 });
    // Another year is counted on its own.
    expect((await cap(u, 2026)).data).toMatchObject({ taxable_tons: null, retired_tons: 0 });
  });

  it('with no emissions entered the retirement answer says the cap is unknown (taxable_tons null), not a cap of 0 passed', async () => {
    const { u, pid } = await holder(s, 10, { ...ELIGIBLE });
    const unknown = await retireApi(s).retire(u, { project_id: pid, tons: 10, icc_year: 2025 });
    expect(unknown.code, unknown.msg).toBe(0);
    expect(unknown.data.icc).toEqual({ year: 2025, taxable_tons: null, cap_tons: 0, retired_tons: 0, pending_tons: 10, over_tons: 10 });
  });

  it('rounds the cap down to whole tons, and a new entry for the year replaces the old', async () => {
    const { u } = await holder(s, 0);
    expect((await enter(u, { year: 2026, taxable_tons: 25_019 })).data).toMatchObject({ cap_tons: 1250 });
    expect((await enter(u, { year: 2026, taxable_tons: '39' })).data).toMatchObject({ taxable_tons: 39, cap_tons: 1 });
    expect((await enter(u, { year: 2026, taxable_tons: 19 })).data).toMatchObject({ cap_tons: 0 });
  });

  it('refuses a bad year or amount in both languages, and an unknown field', async () => {
    const { u } = await holder(s, 0);
    for (const lang of ['en', 'cn'] as const) {
      for (const [body, key] of [
        [{ year: 2023, taxable_tons: 1 }, 'icc_year_invalid'],
        [{ year: 'next', taxable_tons: 1 }, 'icc_year_invalid'],
        [{ year: 2025, taxable_tons: -1 }, 'icc_emissions_invalid'],
        [{ year: 2025, taxable_tons: 1.5 }, 'icc_emissions_invalid'],
        [{ year: 2025, taxable_tons: 1e12 }, 'icc_emissions_invalid'],
      ] as const) {
        const res = await s.api('POST', PATHS.iccEmissions, body, { token: u.token, lang, idempotencyKey: newKey() });
        expect({ code: res.code, msg: res.msg }, JSON.stringify(body)).toEqual(refusal(key, lang));
      }
    }
    expect((await enter(u, { year: 2025, taxable_tons: 1, __proto__: { admin: true }, user_id: 1 })).code).not.toBe(0);
    expect((await s.db.selectFrom('icc_emissions').selectAll().where('user_id', '=', u.id).execute()).length).toBe(0);
    expect((await cap(u, 1999)).code).toBe(refusal('icc_year_invalid').code);
  });

  it('the same entry 40 times in parallel with one key is written once', async () => {
    const { u } = await holder(s, 0);
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 40 }, () => enter(u, { year: 2027, taxable_tons: 80_000 }, key)));
    for (const a of answers) expect(a.data).toMatchObject({ cap_tons: 4000 });
    expect((await s.db.selectFrom('icc_emissions').selectAll().where('user_id', '=', u.id).execute()).length).toBe(1);
  });
});

describe('a retirement for Singapore carbon tax', () => {
  it('is refused for credits that are not eligible, naming every reason, and nothing changes', async () => {
    const { u, pid } = await holder(s, 10, { ...ELIGIBLE, host_country: 'ID', adjustment: 'none' });
    // Chinese sentences run on without a space.
    const text = (lang: 'en' | 'cn') => [ICC_REASONS.no_agreement[lang], ICC_REASONS.no_corresponding_adjustment[lang]].join(lang === 'cn' ? '' : ' ');
    await expectRetireRefused(s, 'icc_not_eligible', (lang) => retireApi(s).retire(u, { project_id: pid, tons: 1, icc_year: 2025 }, { lang }), { reasons: { en: text('en'), cn: text('cn') } });
    const res = await retireApi(s).retire(u, { project_id: pid, tons: 1, icc_year: 2025 });
    expect(res.data).toMatchObject({ reasons: ['no_agreement', 'no_corresponding_adjustment'] });
    // The same credits retired without the mark are a plain retirement.
    const plain = await retireApi(s).retire(u, { project_id: pid, tons: 1 });
    expect(plain.code, plain.msg).toBe(0);
    expect(plain.data.icc).toBeNull();
  });

  it('is refused when the verdict is only unknown, and for a year before 2024', async () => {
    const { u, pid } = await holder(s, 10, { ...ELIGIBLE, host_country: 'VN' });
    const before = await retireSnapshot(s);
    const res = await retireApi(s).retire(u, { project_id: pid, tons: 1, icc_year: 2025 });
    expect(res.code).toBe(refusal('icc_not_eligible').code);
    expect(res.msg).toContain(ICC_REASONS.list_unknown.en);
    const year = await retireApi(s).retire(u, { project_id: pid, tons: 1, icc_year: 2023 });
    expect({ code: year.code, msg: year.msg }).toEqual(refusal('icc_year_invalid'));
    expect(await retireSnapshot(s)).toEqual(before);
  });

  it('40 surrenders for one year in parallel: each counted once, in turn, and exactly those past the cap warned', async () => {
    const { u, pid } = await holder(s, 40, { ...ELIGIBLE, price: 100 });
    expect((await enter(u, { year: 2026, taxable_tons: 200 })).data).toMatchObject({ cap_tons: 10 });
    const answers = await Promise.all(Array.from({ length: 40 }, () => retireApi(s).retire(u, { project_id: pid, tons: 1, icc_year: 2026 })));
    expect(answers.map((a) => `${a.code} ${a.msg}`)).toEqual(answers.map(() => '0 ok'));
    // Each waits for the registry (pending_tons, itself counted); none counts toward the cap before.
    const counts = answers.map((a) => a.data.icc as { retired_tons: number; pending_tons: number; over_tons: number });
    expect(counts.every((c) => c.retired_tons === 0)).toBe(true);
    expect(counts.map((c) => c.pending_tons).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const c of counts) expect(c.over_tons).toBe(Math.max(0, c.pending_tons - 10));
    expect((await cap(u, 2026)).data).toMatchObject({ cap_tons: 10, retired_tons: 0, pending_tons: 40, room_tons: 0, over_tons: 30, held_eligible_tons: 0 });
    for (const a of answers) expect((await cancelOnRegistry(a.data.id)).ok).toBe(true);
    expect((await cap(u, 2026)).data).toMatchObject({ cap_tons: 10, retired_tons: 40, pending_tons: 0, room_tons: 0, over_tons: 30 });
  });

  it('records the year and the rules version on the retirement', async () => {
    const { u, pid } = await holder(s, 3, ELIGIBLE);
    const res = await retireApi(s).retire(u, { project_id: pid, tons: 2, icc_year: 2026 });
    expect(res.code, res.msg).toBe(0);
    const row = await s.db.selectFrom('retirements').select(['icc_year', 'icc_rules_version']).where('id', '=', res.data.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ icc_year: 2026, icc_rules_version: expect.stringMatching(/\S/) });
  });
});

describe('an organisation', () => {
  it("keeps its cap on its own account: managers enter the emissions, any member reads them, a buyer may not enter them", async () => {
    const org = await makeOrg(s, 'Lion City Cement Pte Ltd');
    const admin = await addMember(s, org, 'admin');
    const buyer = await addMember(s, org, 'buyer');
    const viewer = await addMember(s, org, 'viewer');
    const entered = await s.api<IccCap>('POST', PATHS.iccEmissions, { year: 2026, taxable_tons: 200_000 }, { token: admin.orgToken, idempotencyKey: newKey() });
    expect(entered.code, entered.msg).toBe(0);
    expect(entered.data).toMatchObject({ cap_tons: 10_000 });
    const row = await s.db.selectFrom('icc_emissions').selectAll().where('year', '=', 2026).where('user_id', '=', org.id).executeTakeFirst();
    expect(row).toMatchObject({ taxable_tons: 200_000 });
    await expectOrgRefused(s, 'org_role_forbidden', (lang) => s.api('POST', PATHS.iccEmissions, { year: 2026, taxable_tons: 1 }, { token: buyer.orgToken, lang, idempotencyKey: newKey() }));
    expect((await s.db.selectFrom('icc_emissions').select('taxable_tons').where('user_id', '=', org.id).where('year', '=', 2026).executeTakeFirstOrThrow()).taxable_tons).toBe(200_000);
    const read = await s.api<IccCap>('GET', PATHS.iccCap, { year: 2026 }, { token: viewer.orgToken });
    expect(read.data).toMatchObject({ taxable_tons: 200_000, cap_tons: 10_000 });
    // Back in their own account, the member has no cap of the organisation's.
    const own = await switchInto(s, viewer.orgToken, null);
    expect((await s.api<IccCap>('GET', PATHS.iccCap, { year: 2026 }, { token: own })).data).toMatchObject({ taxable_tons: null });
  });
});
