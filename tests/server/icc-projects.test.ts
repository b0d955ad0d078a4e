// The Singapore carbon-tax facts and verdict on projects (docs/product.md#singapore-carbon-tax): the seeded
// projects judged truthfully, the verdict with its reasons on the list and the detail, the icc=eligible
// filter, and the operator setting the facts (the verdict follows, no migration).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import type { Project } from '../../src/shared/schemas/content';
import { runOps } from '../../src/server/ops/registry';
import { startTestServer, type TestServer } from '../helpers/server';

type Paged<T> = { list: T[]; total: number; next_cursor: string };
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

async function ops(args: string[]) {
  const [name, ...rest] = args;
  return runOps({ db: s.db, clock: s.clock, dataDir: s.dataDir }, name!, rest, 'ops-test-icc');
}
function file(name: string, content: unknown): string {
  const f = path.join(s.dataDir, name);
  fs.writeFileSync(f, JSON.stringify(content));
  return f;
}
/** Polls `check` until it holds, for `ms`: an operator's edit drops the cached public answers by its event,
 *  which the server receives a moment after the command commits (PostgreSQL's notification). */
async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not within ${ms} ms`);
}
const list = (q: Record<string, unknown> = {}) => s.api<Paged<Project>>('GET', PATHS.projectLists, { page_size: 50, ...q });

describe('projects carry their carbon-tax facts and verdict', () => {
  it('the seeded Ghana cookstove project is eligible with no reason; most others are not', async () => {
    const all = (await list()).data.list;
    const ghana = all.find((p) => p.icc.host_country === 'GH')!;
    expect(ghana.icc).toMatchObject({ verdict: 'eligible', reasons: [], programme: 'GS', methodology_id: 'GS-TPDDTEC', authorisation: 'granted', adjustment: 'granted' });
    expect(ghana.icc.rules_version).toMatch(/\S/);
    const eligible = all.filter((p) => p.icc.verdict === 'eligible');
    expect(eligible.map((p) => p.id)).toEqual([ghana.id]);
    const indonesia = all.find((p) => p.icc.host_country === 'ID')!;
    expect(indonesia.icc.verdict).toBe('not_eligible');
    expect(indonesia.icc.reasons.map((r) => r.code)).toContain('no_agreement');
    const vietnam = all.find((p) => p.icc.host_country === 'VN')!;
    expect(vietnam.icc).toMatchObject({ verdict: 'unknown' });
    expect(vietnam.icc.reasons.map((r) => r.code)).toEqual(['list_unknown', 'authorisation_unknown', 'adjustment_unknown']);
    const detail = await s.api<Project>('GET', PATHS.projectDetail, { id: ghana.id });
    expect(detail.data.icc).toEqual(ghana.icc);
  });

  it('icc=eligible lists only eligible projects, with the other filters, and counts them', async () => {
    const res = await list({ icc: 'eligible' });
    expect(res.data.total).toBe(1);
    expect(res.data.list.map((p) => p.icc.verdict)).toEqual(['eligible']);
    expect((await list({ icc: 'eligible', type: 'cookstove' })).data.total).toBe(1);
    expect((await list({ icc: 'eligible', type: 'forestry' })).data).toMatchObject({ list: [], total: 0 });
    expect((await list({ icc: 'eligible', q: 'ashanti' })).data.total).toBe(1);
    expect((await list({ icc: 'eligible', status: 'presale' })).data.total).toBe(0);
    const bad = await list({ icc: 'yes' });
    expect(bad.code).not.toBe(0);
    expect((await list({ icc: '__proto__' })).code).not.toBe(0);
  });

  it('an operator sets the facts: the verdict, the list and the filter follow at once', async () => {
    const before = (await list({ icc: 'eligible' })).data.total;
    const kal = (await list({ q: 'kalimantan' })).data.list[0]!;
    expect(kal.icc.verdict).toBe('not_eligible');
    // Re-homed to Ghana as a cookstove programme, every fact known: eligible.
    const edit = await ops(['project:edit', String(kal.id), file('kal.json', { host_country: 'GH', type: 'cookstove', programme: 'GS', methodology_id: 'GS-TPDDTEC', methodology_date: '2021-07-01', reduction_start: 2023, reduction_end: 2024, authorisation: 'granted', authorisation_ref: 'LoA-1', adjustment: 'granted', adjustment_ref: 'CA-1' })]);
    expect(edit.ok).toBe(true);
    await eventually(async () => (await s.api<Project>('GET', PATHS.projectDetail, { id: kal.id })).data.icc.verdict === 'eligible');
    const after = await s.api<Project>('GET', PATHS.projectDetail, { id: kal.id });
    expect(after.data.icc).toMatchObject({ verdict: 'eligible', reasons: [], authorisation_ref: 'LoA-1', adjustment_ref: 'CA-1', reduction_start: 2023, reduction_end: 2024 });
    expect((await list({ icc: 'eligible' })).data.total).toBe(before + 1);
    // The corresponding adjustment withdrawn: not eligible, saying why.
    expect((await ops(['project:edit', String(kal.id), file('kal2.json', { adjustment: 'none' })])).ok).toBe(true);
    await eventually(async () => (await s.api<Project>('GET', PATHS.projectDetail, { id: kal.id })).data.icc.verdict === 'not_eligible');
    const none = await s.api<Project>('GET', PATHS.projectDetail, { id: kal.id });
    expect(none.data.icc).toMatchObject({ verdict: 'not_eligible', reasons: [{ code: 'no_corresponding_adjustment' }] });
    expect((await list({ icc: 'eligible' })).data.total).toBe(before);
  });

  it('an operator file with a wrong fact is refused and changes nothing', async () => {
    const p = (await list()).data.list[0]!;
    for (const bad of [{ host_country: 'Ghana' }, { methodology_date: '2021-13-45' }, { authorisation: 'yes' }, { reduction_start: 'x' }, { reduction_start: 2025, reduction_end: 2022 }]) {
      const o = await ops(['project:edit', String(p.id), file('bad.json', bad)]);
      expect(o.ok, JSON.stringify(bad)).toBe(false);
    }
    expect((await s.api<Project>('GET', PATHS.projectDetail, { id: p.id })).data.icc).toEqual(p.icc);
  });

  it('project:create takes the facts; left out, they are unknown', async () => {
    const base = { name: 'Test Peru Hydro', location: 'Cusco, Peru', type: 'renewable', standard: 'VCS', status: 'in_progress', price: 1000, min_tons: 1, max_tons: 10, total_tons: 100, selling_time: new Date(s.clock.now() - 86_400_000).toISOString(), end_time: new Date(s.clock.now() + 86_400_000 * 30).toISOString() };
    const made = await ops(['project:create', file('peru.json', { ...base, host_country: 'PE', programme: 'VCS', reduction_start: 2022, reduction_end: 2023 })]);
    expect(made.ok).toBe(true);
    const id = (made as { data: { id: number } }).data.id;
    const p = await s.api<Project>('GET', PATHS.projectDetail, { id });
    expect(p.data.icc).toMatchObject({ host_country: 'PE', verdict: 'unknown', authorisation: 'unknown', methodology_date: '' });
    expect(p.data.icc.reasons.map((r) => r.code)).toEqual(['list_unknown', 'authorisation_unknown', 'adjustment_unknown']);
  });
});
