// The registry inventory (docs/product.md#registry-inventory): blocks added, listed and imported by the operator
// CLI, each refused with the field at fault and nothing changed; the seeded projects' demo blocks; the public
// project answers capped by what is held; ledger:check finding a project that promised more than it holds.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import type { Project } from '../../src/shared/schemas/content';
import { checkLedger } from '../../src/server/ledger/ledger';
import { runOps } from '../../src/server/ops/registry';
import { CLI_TEST_TIMEOUT_MS, runCli, startTestServer, type TestServer } from '../helpers/server';
import { makeProject } from './market-helpers';

let s: TestServer;
const OPERATOR = 'ops-test-inventory';

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

async function ops(args: string[]) {
  const [name, ...rest] = args;
  return runOps({ db: s.db, clock: s.clock, dataDir: s.dataDir }, name!, rest, OPERATOR);
}

function file(name: string, content: string): string {
  const f = path.join(s.dataDir, name);
  fs.writeFileSync(f, content);
  return f;
}

/** What a refusal must leave as it was: the blocks and every project's held counter. */
async function inventoryState() {
  const blocks = await s.db.selectFrom('registry_blocks').selectAll().orderBy('id').execute();
  const projects = await s.db.selectFrom('projects').select(['id', 'block_tons']).orderBy('id').execute();
  return { blocks, projects };
}

async function verraProject(registryId: string, o: Parameters<typeof makeProject>[1] = {}): Promise<number> {
  return makeProject(s, { registry: 'Verra', registry_id: registryId, vintage: 2008, held: 0, ...o });
}

const VERRA = '12082-384723093-384800545-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0';

async function publicProject(id: number): Promise<Project> {
  const res = (await (await fetch(`${s.url}${API_BASE}${PATHS.projectDetail}?id=${id}`)).json()) as { code: number; data: Project };
  expect(res.code).toBe(0);
  return res.data;
}

describe('inventory:add and inventory:list', () => {
  it('adds a Verra block through the real CLI, counted from its range, and lists it as JSON', async () => {
    const pid = await verraProject('VCS-191', { total_tons: 100_000, remaining_tons: 100_000 });
    const res = await runCli(['inventory:add', String(pid), VERRA, '--account', 'Canopy SG main', '--quantity', '77453'], { DATA_DIR: s.dataDir, OPERATOR });
    expect(res.code, res.stderr).toBe(0);
    const list = await runCli(['inventory:list', String(pid)], { DATA_DIR: s.dataDir, OPERATOR });
    expect(list.code, list.stderr).toBe(0);
    const blocks = (list.json as { data: Record<string, unknown>[] }).data;
    expect(blocks).toEqual([
      expect.objectContaining({ registry: 'verra', project_id: pid, serial_range: VERRA, quantity: 77_453, account: 'Canopy SG main', first_unit: 384723093, last_unit: 384800545, vintage: '2008', source: 'add', demo: false }),
    ]);
    const p = await s.db.selectFrom('projects').select(['block_tons']).where('id', '=', pid).executeTakeFirstOrThrow();
    expect(p.block_tons).toBe(77_453);
    // The public answer sells what is held unpromised: its 100,000 t supply capped at 77,453.
    expect((await publicProject(pid)).remaining_tons).toBe(77_453);
    const text = await ops(['inventory:list', String(pid)]);
    expect(text.ok && text.text).toContain(`project #${pid}`);
    expect(text.ok && text.text).toContain('holds 77453 t, promised 0 t, for sale 77453 t');
  }, CLI_TEST_TIMEOUT_MS);

  it('adds a sub-range block of the same series next to one held, and an ACR, CAR and Gold Standard block', async () => {
    const pid = await verraProject('VCS-191');
    const before = await inventoryState();
    const next = '12082-384800546-384800645-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0';
    const res = await ops(['inventory:add', String(pid), next]);
    expect(res.ok, res.ok ? '' : res.error).toBe(true);
    const acr = await makeProject(s, { registry: 'American Carbon Registry', registry_id: 'ACR192', held: 0 });
    expect((await ops(['inventory:add', String(acr), 'ACR-US-192-2010-203-1-5000', '--quantity', '5000'])).ok).toBe(true);
    const car = await makeProject(s, { registry: 'Climate Action Reserve', registry_id: 'CAR293', held: 0 });
    expect((await ops(['inventory:add', String(car), 'CAR-1-US-293-1-120-CA-2006-102-1 to 29251'])).ok).toBe(true);
    const gs = await makeProject(s, { registry: 'Gold Standard', registry_id: 'GS-2978', held: 0 });
    expect((await ops(['inventory:add', String(gs), 'GS1-1-IN-GS2978-16-2019-19386-1-500'])).ok).toBe(true);
    // The same Gold Standard units with the project number zero-padded are the same credits.
    const padded = await ops(['inventory:add', String(gs), 'GS1-1-IN-GS02978-16-2019-019386-1-500']);
    expect(padded.ok).toBe(false);
    if (!padded.ok) expect(padded.error).toMatch(/^refused \(serial_range\): units 1 to 500 are already held/);
    const after = await inventoryState();
    expect(after.blocks.length).toBe(before.blocks.length + 4);
    const tons = new Map(after.projects.map((p) => [p.id, p.block_tons]));
    expect([tons.get(pid), tons.get(acr), tons.get(car), tons.get(gs)]).toEqual([100, 5000, 29_251, 500]);
  });

  const REFUSALS: { why: string; args: (pid: number) => string[]; field: string }[] = [
    { why: 'a range in no registry format', args: (pid) => [String(pid), 'VCS-191-2008-000000001'], field: 'serial_range' },
    { why: 'a count that disagrees with the stated quantity', args: (pid) => [String(pid), VERRA, '--quantity', '77452'], field: 'quantity' },
    { why: 'a first unit after the last', args: (pid) => [String(pid), '12082-384800545-384723093-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0'], field: 'last' },
    { why: 'a block overlapping one already held (one unit shared)', args: (pid) => [String(pid), '12082-384800545-384800600-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0'], field: 'serial_range' },
    { why: 'the same block again', args: (pid) => [String(pid), VERRA], field: 'serial_range' },
    { why: 'the same units written without the sectoral scope', args: (pid) => [String(pid), '12082-384723093-384723100-VCS-VCU-304-VER-CN-191-01012008-31122008-0'], field: 'serial_range' },
    { why: 'the same units with the batch and project written zero-padded', args: (pid) => [String(pid), '012082-384723093-384723100-VCS-VCU-304-VER-CN-01-0191-01012008-31122008-0'], field: 'serial_range' },
    { why: 'a range of another registry than the project is listed on', args: (pid) => [String(pid), 'ACR-US-191-2010-203-1-5000'], field: 'registry' },
    { why: 'a range of another registry project', args: (pid) => [String(pid), '12082-1-100-VCS-VCU-304-VER-CN-1-192-01012008-31122008-0'], field: 'project' },
    { why: 'a range named as another registry than it is written in', args: (pid) => [String(pid), VERRA, '--registry', 'car'], field: 'registry' },
  ];
  for (const r of REFUSALS) {
    it(`refuses ${r.why}, naming ${r.field}, and changes nothing`, async () => {
      const pid = await verraProject('VCS-191');
      const before = await inventoryState();
      expect(before.blocks.some((b) => b.serial_range === VERRA)).toBe(true); // held since the first test: the overlaps meet it
      const res = await ops(['inventory:add', ...r.args(pid)]);
      expect(res.ok).toBe(false);
      if (!res.ok) {
        expect(res.exit).toBe(1);
        expect(res.error).toMatch(new RegExp(`^refused \\(${r.field}\\): `));
        expect(res.data).toMatchObject({ field: r.field });
      }
      expect(await inventoryState()).toEqual(before);
    });
  }

  it('project:edit refuses to move a project that holds blocks to another registry or registry project, and changes nothing', async () => {
    const pid = await verraProject('VCS-191');
    expect((await ops(['inventory:add', String(pid), '12082-1-10-VCS-VCU-304-VER-CN-1-191-01012008-31122008-0'])).ok).toBe(true);
    for (const patch of [{ registry: 'Gold Standard' }, { registry_id: 'VCS-192' }]) {
      const before = await s.db.selectFrom('projects').selectAll().where('id', '=', pid).executeTakeFirstOrThrow();
      const blocks = await inventoryState();
      const res = await ops(['project:edit', String(pid), file(`edit-${pid}.json`, JSON.stringify(patch))]);
      expect(res.ok, JSON.stringify(patch)).toBe(false);
      if (!res.ok) expect(res.error).toMatch(/holds registry blocks/);
      expect(await s.db.selectFrom('projects').selectAll().where('id', '=', pid).executeTakeFirstOrThrow()).toEqual(before);
      expect(await inventoryState()).toEqual(blocks);
    }
    // The same registry written another way, and the same project number, are no move.
    const same = await ops(['project:edit', String(pid), file(`edit-${pid}.json`, JSON.stringify({ registry: 'verra', registry_id: 'VCS191' }))]);
    expect(same.ok, same.ok ? '' : same.error).toBe(true);
  });

  it('refuses a block for a project that does not exist, and bad input with the usage', async () => {
    const before = await inventoryState();
    const missing = await ops(['inventory:add', '999999', VERRA]);
    expect(missing).toMatchObject({ ok: false, exit: 1 });
    expect(!missing.ok && missing.error).toContain('(project)');
    expect(await ops(['inventory:add', '1'])).toMatchObject({ ok: false, exit: 2 });
    expect(await ops(['inventory:add', '1', VERRA, '--registry', 'isometric'])).toMatchObject({ ok: false, exit: 2 });
    expect(await inventoryState()).toEqual(before);
  });
});

describe('inventory:import', () => {
  // As a registry account's export is written: a byte-order mark, CRLF, quoted fields holding commas, the
  // quantity with a thousands separator, columns in the registry's order (not Canopy's), retired rows too.
  const CSV = [
    '\uFEFFIssuance Date,Vintage Start,Vintage End,ID,Name,"Quantity Issued",Serial Number,Retirement/Cancellation Date,Retirement Details',
    '20/07/2021,01/01/2015,31/12/2015,4321,"Sumatra Peat, Phase 1","1,000",5100-1000001-1001000-VCS-VCU-263-VER-ID-14-4321-01012015-31122015-0,,',
    '20/07/2021,01/01/2015,31/12/2015,4321,"Sumatra Peat, Phase 1",500,5100-1001001-1001500-VCS-VCU-263-VER-ID-14-4321-01012015-31122015-0,,',
    '20/07/2021,01/01/2015,31/12/2015,4321,"Sumatra Peat, Phase 1",200,5100-1001501-1001700-VCS-VCU-263-VER-ID-14-4321-01012015-31122015-0,03/12/2026,"Retired on behalf of Example Pte Ltd"',
    '20/07/2021,01/01/2015,31/12/2015,4321,"Sumatra Peat, Phase 1",99,5100-1001701-1001800-VCS-VCU-263-VER-ID-14-4321-01012015-31122015-0,,',
    '20/07/2021,01/01/2015,31/12/2015,9999,"Elsewhere",10,5100-1-10-VCS-VCU-263-VER-ID-14-9999-01012015-31122015-0,,',
    '',
  ].join('\r\n');

  it('shows what it would add or refuse without writing, then writes with --apply, and a second import adds nothing', async () => {
    const pid = await verraProject('VCS-4321', { total_tons: 5000, remaining_tons: 5000 });
    const f = file('verra-holdings.csv', CSV);
    const before = await inventoryState();
    const dry = await ops(['inventory:import', f, '--registry', 'verra']);
    expect(dry.ok, dry.ok ? '' : dry.error).toBe(true);
    if (!dry.ok) return;
    expect(dry.text).toMatch(/^DRY RUN/);
    const outcomes = (dry.data as { outcomes: { line: number; outcome: string; field?: string; project_id?: number }[] }).outcomes;
    expect(outcomes.map((o) => [o.line, o.outcome, o.field])).toEqual([
      [2, 'add', undefined],
      [3, 'add', undefined],
      [4, 'retired', undefined],
      [5, 'refused', 'quantity'], // 100 units, stated 99
      [6, 'refused', 'project'], // no project of Verra project 9999
    ]);
    expect(await inventoryState()).toEqual(before);

    const applied = await ops(['inventory:import', f, '--registry', 'verra', '--apply', '--account', 'Canopy SG main']);
    expect(applied.ok).toBe(true);
    const blocks = await s.db.selectFrom('registry_blocks').selectAll().where('project_id', '=', pid).orderBy('first_unit').execute();
    expect(blocks.map((b) => [b.first_unit, b.last_unit, b.quantity, b.source, b.account])).toEqual([
      [1000001, 1001000, 1000, 'import', 'Canopy SG main'],
      [1001001, 1001500, 500, 'import', 'Canopy SG main'],
    ]);
    expect((await s.db.selectFrom('projects').select('block_tons').where('id', '=', pid).executeTakeFirstOrThrow()).block_tons).toBe(1500);

    const again = await ops(['inventory:import', f, '--registry', 'verra', '--apply']);
    expect(again.ok).toBe(true);
    const second = (again.ok ? (again.data as { outcomes: { outcome: string }[] }).outcomes : []).map((o) => o.outcome);
    expect(second).toEqual(['held', 'held', 'retired', 'refused', 'refused']);
    expect(await s.db.selectFrom('registry_blocks').select('id').where('project_id', '=', pid).execute()).toHaveLength(2);
  });

  it('puts every row on the project named with --project (a Gold Standard export)', async () => {
    const pid = await makeProject(s, { registry: 'Gold Standard', registry_id: '', held: 0 });
    const f = file('gs.csv', 'Serial Number,Quantity,Status\r\nGS1-1-KE-GS1247-12-2016-5976-111003-111502,500,Active\r\n');
    const res = await ops(['inventory:import', f, '--registry', 'gold_standard', '--project', String(pid), '--apply']);
    expect(res.ok, res.ok ? '' : res.error).toBe(true);
    const blocks = await s.db.selectFrom('registry_blocks').select(['registry', 'serial_range', 'quantity', 'vintage', 'account']).where('project_id', '=', pid).execute();
    expect(blocks).toEqual([{ registry: 'gold_standard', serial_range: 'GS1-1-KE-GS1247-12-2016-5976-111003-111502', quantity: 500, vintage: '2016', account: 'main' }]);
  });

  it('refuses a file it cannot read as an export, naming the line, and a file of another registry row by row', async () => {
    const before = await inventoryState();
    const noSerial = await ops(['inventory:import', file('bad.csv', 'Name,Quantity\r\nX,10\r\n'), '--registry', 'verra', '--apply']);
    expect(noSerial).toMatchObject({ ok: false, exit: 1 });
    expect(!noSerial.ok && noSerial.error).toContain('line 1: no serial number column');
    const badQty = await ops(['inventory:import', file('bad2.csv', 'Serial Number,Quantity\r\nACR-US-192-2010-203-1-5000,lots\r\n'), '--registry', 'acr', '--apply']);
    expect(!badQty.ok && badQty.error).toContain('line 2: quantity "lots" is not a whole number');
    const other = await ops(['inventory:import', file('car.csv', 'Serial Numbers,Quantity,Status\r\n"CAR-1-US-293-1-120-CA-2006-102-1 to 29251","29,251",Active\r\n'), '--registry', 'verra', '--apply']);
    expect(other.ok && (other.data as { outcomes: { outcome: string; field: string }[] }).outcomes).toEqual([expect.objectContaining({ outcome: 'refused', field: 'registry' })]);
    expect(await ops(['inventory:import', 'x.csv'])).toMatchObject({ ok: false, exit: 2 }); // --registry is required
    expect(await inventoryState()).toEqual(before);
  });
});

describe('demo blocks and the ledger check', () => {
  it('gives every listed seeded project demo blocks in its registry format covering its supply', async () => {
    const rows = await s.db
      .selectFrom('projects as p')
      .innerJoin('registry_blocks as b', 'b.project_id', 'p.id')
      .select(['p.id', 'p.registry', 'p.status', 'p.total_tons', 'p.remaining_tons', 'p.block_tons', 'b.registry as block_registry', 'b.serial_range', 'b.demo', 'b.source'])
      .where('b.demo', '=', 1)
      .where('b.source', '=', 'seed')
      .where('p.registry_id', 'not like', 'VCS-191%')
      .execute();
    const seeded = rows.filter((r) => r.block_registry === 'verra' || r.block_registry === 'gold_standard');
    expect(seeded.length).toBeGreaterThanOrEqual(15);
    for (const r of seeded) {
      expect(r.block_registry).toBe(r.registry === 'Verra' ? 'verra' : 'gold_standard');
      expect(r.block_tons).toBe(r.total_tons);
    }
    // A seeded project in progress sells what it lists: its blocks cover its whole supply.
    const kalimantan = seeded.find((r) => r.serial_range.includes('-ID-14-2871-'))!;
    expect((await publicProject(kalimantan.id)).remaining_tons).toBe(kalimantan.remaining_tons);
  });

  it('ledger:check reports a project that promised more than it holds', async () => {
    const first = await checkLedger(s.db);
    expect(first.holding_problems).toEqual([]);
    // Sold before it held anything (a database from before the inventory): 30 t promised, none held.
    const pid = await makeProject(s, { total_tons: 100, remaining_tons: 70, held: 0 });
    const res = await ops(['ledger:check']);
    expect(res).toMatchObject({ ok: false, exit: 1 });
    expect(!res.ok && res.error).toContain(`project #${pid}: promised 30 t but holds 0 t on its registry`);
    // Covered by a block, it holds again.
    expect((await ops(['inventory:add', String(pid), `88123-1-30-VCS-VCU-1-VER-MY-14-${pid}-01012025-31122025-0`])).ok).toBe(true);
    expect((await checkLedger(s.db)).holding_problems).toEqual([]);
    // A block row whose units the counter does not count is reported too.
    await s.db.updateTable('projects').set({ block_tons: 31 }).where('id', '=', pid).execute();
    expect((await checkLedger(s.db)).holding_problems).toEqual([`project #${pid}: its registry blocks hold 30 units but its counter says 31`]);
    await s.db.updateTable('projects').set({ block_tons: 30 }).where('id', '=', pid).execute();
  });
});
