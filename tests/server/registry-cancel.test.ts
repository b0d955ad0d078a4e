// Registry cancellation over real HTTP and the operator's commands (docs/product.md#registry-cancellation):
// a retirement takes the lowest free units of the project's oldest registry block and writes them as the
// registry does; it waits, pending, until the operator records the registry's reference once; the
// certificate says which; an overdue cancellation raises its alert; 50 parallel retirements take distinct,
// contiguous units; a reconciliation with the registry's export lists every difference and pauses a project
// the registry holds less of; a surrender for Singapore carbon tax counts toward the cap once cancelled.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { down, up } from '../../src/server/db/migrations/042-registry-cancellation';
import { writeTx } from '../../src/server/db/tx';
import { PLATFORM, post } from '../../src/server/ledger/ledger';
import { alertOverdueCancellations } from '../../src/server/modules/retire/cancellation';
import { formatSerialRange, parseSerialRange } from '../../src/server/modules/registry/serials';
import { addBlock } from '../../src/server/modules/registry/inventory';
import { runOps } from '../../src/server/ops/registry';
import { PATHS } from '../../src/shared/api';
import { pdfText } from '../helpers/pdf';
import { DAY, refusal, startTestServer, type TestServer } from '../helpers/server';
import { expectRefusedBoth, makeUser, orderApi, type MarketUser } from './market-helpers';
import { evidencePack, giveCredits, LANGS, makeRetirableProject, newKey, retireApi, retireSnapshot } from './retire-helpers';

let s: TestServer;
let api: ReturnType<typeof retireApi>;
const METRICS_TOKEN = 'registry-metrics-token-0123456789';

beforeAll(async () => {
  s = await startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000', METRICS_TOKEN, PUBLIC_REQUESTS_PER_IP_PER_MINUTE: '100000' });
  api = retireApi(s);
});
afterAll(async () => {
  await s?.close();
});

// Verra's serial format (the public example's shape): batch, first unit, last unit, then the issuance's
// facts with the Verra project ID. Each block gets its own batch so blocks never overlap across tests; each
// project its own Verra ID.
let batch = 20_000;
let verraProject = 5000;
/** A Verra block of `units` units of Verra project `vcs` (the project's registry_id number). */
function verraBlock(units: number, vintage: number, vcs = verraProject): string {
  batch += 1;
  const first = batch * 100_000 + 1;
  return `${batch}-${first}-${first + units - 1}-VCS-VCU-304-VER-CN-1-${vcs}-0101${vintage}-3112${vintage}-0`;
}

/** A block of the project, added as the operator's inventory:add does (its block_tons counter with it). */
async function addBlockOf(projectId: number, serialRange: string): Promise<{ id: number; text: string; range: ReturnType<typeof parsed> }> {
  const row = await addBlock(s.db, { projectId, serialRange, source: 'add' }, s.clock.now());
  return { id: Number(row.id), text: serialRange, range: parsed(serialRange) };
}

function parsed(text: string) {
  const r = parseSerialRange(text);
  if (!r.ok) throw new Error(`not a serial range: ${text}`);
  return r.range;
}

/** Credits held without a buy (the ledger's issue, as a completed order posts it): for a test that needs
 *  more tons held than its blocks have free. */
async function grantCredits(userId: number, projectId: number, tons: number): Promise<void> {
  const now = s.clock.now();
  await writeTx(s.db, async (tx) => {
    await post(tx, { kind: 'credit_issue', ref_type: 'order', ref_id: 0, memo: 'test grant', now, postings: [{ owner: PLATFORM, account: 'registry', amount: -tons }, { owner: userId, account: 'credits', amount: tons }] });
    await tx.insertInto('credit_holdings').values({ user_id: userId, project_id: projectId, origin: 'purchase', tons, updated_at: now }).execute();
  });
}

/** The next Verra project: its registry_id for the project, blocks of it with verraBlock(). */
function nextVerraProject(): string {
  verraProject += 1;
  return `VCS-${verraProject}`;
}

/** A project (Verra ID from nextVerraProject() when not given) with blocks made by `blocks` (in this order of
 *  adding), and a user holding `tons` of it. */
async function projectWithBlocks(blocks: () => string[], tons: number, project: Parameters<typeof makeRetirableProject>[1] = {}) {
  const u = await makeUser(s, { cents: tons * 1000 + 100_000 });
  // No block of the helper's: the test's own blocks are the project's holding.
  const pid = await makeRetirableProject(s, { total_tons: 1000, remaining_tons: 1000, max_tons: 1000, registry_id: project.registry_id ?? nextVerraProject(), ...project, held: 0 });
  const added = [];
  for (const b of blocks()) added.push(await addBlockOf(pid, b));
  if (tons > 0) await giveCredits(s, u, pid, tons);
  return { u, pid, blocks: added };
}

const ops = (name: string, ...argv: string[]) => runOps({ db: s.db, clock: s.clock }, name, argv, 'tester');

const cancellation = (id: string) => s.db.selectFrom('registry_cancellations').selectAll().where('retirement_id', '=', id).executeTakeFirstOrThrow();

/** Until the public certificate answers with this registry status (the cache drops it on the live event). */
async function certificateWhen(id: string, status: 'pending' | 'cancelled') {
  for (let i = 0; i < 100; i++) {
    const cert = await api.certificate(id);
    if (cert.data.registry_status === status) return cert.data;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`certificate ${id} never became ${status}`);
}

describe('retirement cancels registry units', () => {
  it('takes the lowest free units of the oldest block, written as the registry writes them, pending with its due date; registry:cancel records it once', async () => {
    const newer = verraBlock(100, 2024, 1748);
    const older = verraBlock(60, 2023, 1748);
    const { u, pid, blocks } = await projectWithBlocks(() => [newer, older], 120, { registry_id: 'VCS-1748' });
    const [b2024, b2023] = blocks as [(typeof blocks)[0], (typeof blocks)[0]];

    const a = await api.retire(u, { project_id: pid, tons: 10 });
    expect(a.code, a.msg).toBe(0);
    // The 2023 block is the oldest (vintage), though added second: its first ten units, one range.
    expect(a.data.registry_serials).toEqual([formatSerialRange(b2023.range, b2023.range.first, b2023.range.first + 9)]);
    expect(a.data.registry_serials[0]).toContain(`-${b2023.range.first}-${b2023.range.first + 9}-VCS-VCU-304-VER-CN-1-1748-01012023-31122023-`);
    // Monday 2 March 2026 10:00 SGT + 3 Singapore working days: due by Thursday 5 March.
    expect(a.data.registry_due_on).toBe('2026-03-05');

    // 55 t: the 50 left of 2023, then 5 of 2024: several ranges because it must.
    s.clock.advance(1000);
    const b = await api.retire(u, { project_id: pid, tons: 55 });
    expect(b.code, b.msg).toBe(0);
    expect(b.data.registry_serials).toEqual([
      formatSerialRange(b2023.range, b2023.range.first + 10, b2023.range.last),
      formatSerialRange(b2024.range, b2024.range.first, b2024.range.first + 4),
    ]);
    const units = await s.db.selectFrom('retirement_units').select(['retirement_id', 'block_id', 'first_unit', 'last_unit']).where('retirement_id', 'in', [a.data.id, b.data.id]).orderBy('block_id').orderBy('first_unit').execute();
    expect(units.map((r) => [r.retirement_id, Number(r.block_id), Number(r.first_unit), Number(r.last_unit)])).toEqual(
      [
        [b.data.id, b2024.id, b2024.range.first, b2024.range.first + 4],
        [a.data.id, b2023.id, b2023.range.first, b2023.range.first + 9],
        [b.data.id, b2023.id, b2023.range.first + 10, b2023.range.last],
      ].sort((x, y) => (x[1] as number) - (y[1] as number) || (x[2] as number) - (y[2] as number)),
    );

    // The public certificate: pending, its serials, its due date, the registry's public record.
    const pending = (await api.certificate(a.data.id)).data;
    expect(pending).toMatchObject({ registry_status: 'pending', registry_serials: a.data.registry_serials, registry_reference: null, registry_cancelled_on: null, registry_due_on: '2026-03-05', registry_url: 'https://registry.verra.org/app/projectDetail/VCS/1748' });

    // registry:pending: what waits, oldest first, with certificate id and due date.
    const listed = await ops('registry:pending', '--json');
    expect(listed.ok).toBe(true);
    const mine = (listed.ok ? (listed.data as Array<{ certificate_id: string; due_on: string; registry_serials: string[]; overdue: boolean }>) : []).filter((p) => p.certificate_id === a.data.id || p.certificate_id === b.data.id);
    expect(mine.map((p) => p.certificate_id)).toEqual([a.data.id, b.data.id]);
    expect(mine[0]).toMatchObject({ due_on: '2026-03-05', registry_serials: a.data.registry_serials, overdue: false });
    expect(listed.ok && listed.text).toContain(`${a.data.id} due 2026-03-05`);

    // Recorded once: the certificate changes from pending to cancelled.
    const first = await ops('registry:cancel', a.data.id, '--reference', 'VCS-RET-88231', '--date', '2026-03-02');
    expect(first).toMatchObject({ ok: true, data: { certificate_id: a.data.id, reference: 'VCS-RET-88231', cancelled_on: '2026-03-02', changed: true } });
    const recorded = await cancellation(a.data.id);
    expect(recorded).toMatchObject({ reference: 'VCS-RET-88231', cancelled_on: '2026-03-02' });
    const cancelled = await certificateWhen(a.data.id, 'cancelled');
    expect(cancelled).toMatchObject({ registry_status: 'cancelled', registry_reference: 'VCS-RET-88231', registry_cancelled_on: '2026-03-02', registry_serials: a.data.registry_serials });
    // The owner's list says so too.
    expect((await api.list(u)).data.list.find((c: { id: string }) => c.id === a.data.id)).toMatchObject({ registry_status: 'cancelled' });

    // Twice with the same reference: one record, nothing changed.
    s.clock.advance(60_000);
    const again = await ops('registry:cancel', a.data.id, '--reference', 'VCS-RET-88231');
    expect(again).toMatchObject({ ok: true, data: { changed: false, cancelled_on: '2026-03-02' } });
    expect(await cancellation(a.data.id)).toEqual(recorded);
    // Another reference: refused, nothing changed.
    const other = await ops('registry:cancel', a.data.id, '--reference', 'VCS-RET-99999');
    expect(other).toMatchObject({ ok: false, exit: 1 });
    expect(!other.ok && other.error).toContain('VCS-RET-88231');
    expect(await cancellation(a.data.id)).toEqual(recorded);
    // Bad input: exit 2.
    expect(await ops('registry:cancel', a.data.id)).toMatchObject({ ok: false, exit: 2 });
    expect(await ops('registry:cancel', b.data.id, '--reference', 'X', '--date', '2026-02-30')).toMatchObject({ ok: false, exit: 2 });
    expect(await ops('registry:cancel', b.data.id, '--reference', 'X', '--date', '2026-03-09')).toMatchObject({ ok: false, exit: 2 }); // after today
    expect(await ops('registry:cancel', 'AAAAAAAAAAAAAAAAAAAAAA', '--reference', 'X')).toMatchObject({ ok: false, exit: 1 });
    // No longer waiting.
    const after = await ops('registry:pending', '--json');
    expect(after.ok && (after.data as Array<{ certificate_id: string }>).map((p) => p.certificate_id)).not.toContain(a.data.id);
  });

  it('refuses a retirement its blocks cannot cover, in en and cn, with nothing written', async () => {
    const u = await makeUser(s, { cents: 100_000 });
    const pid = await makeRetirableProject(s, { total_tons: 1000, remaining_tons: 1000, registry_id: nextVerraProject(), held: 0 });
    await addBlockOf(pid, verraBlock(5, 2024));
    await grantCredits(u.id, pid, 10);
    for (const lang of LANGS) {
      const before = await registrySnapshot();
      const res = await api.retire(u, { project_id: pid, tons: 8 }, { lang });
      expect({ code: res.code, msg: res.msg }).toEqual(refusal('retire_registry_units_short', lang, { n: 5 }));
      expect(await registrySnapshot()).toEqual(before);
    }
    expect((await api.retire(u, { project_id: pid, tons: 5 })).code).toBe(0);
  });

  it('a cancellation past its due time raises the alert once: the metric and an operator log line', async () => {
    const { u, pid } = await projectWithBlocks(() => [verraBlock(20, 2024)], 5);
    const r = await api.retire(u, { project_id: pid, tons: 2 });
    expect(r.code, r.msg).toBe(0);
    const { due_at } = await cancellation(r.data.id);
    const errors: string[] = [];
    const log = s.running.deps.log;
    const saved = log.error;
    log.error = (msg: string) => void errors.push(msg);
    try {
      expect(await alertOverdueCancellations(s.running.deps, Number(due_at) - 1)).toBe(0);
      s.clock.set(Number(due_at) + 1);
      expect(await alertOverdueCancellations(s.running.deps, s.clock.now())).toBeGreaterThanOrEqual(1);
      expect(errors.some((e) => e.includes(r.data.id) && e.includes('overdue'))).toBe(true);
      const count = errors.length;
      expect(await alertOverdueCancellations(s.running.deps, s.clock.now())).toBe(0);
      expect(errors).toHaveLength(count);
    } finally {
      log.error = saved;
    }
    expect((await cancellation(r.data.id)).alerted_at).not.toBeNull();
    const metrics = await (await fetch(`${s.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const overdue = Number(/^canopy_registry_cancellations_overdue (\d+)/m.exec(metrics)?.[1]);
    expect(overdue).toBeGreaterThanOrEqual(1);
    const listed = await ops('registry:pending');
    expect(listed.ok && listed.text).toMatch(new RegExp(`${r.data.id} due \\S+ OVERDUE`));
  });
});

/** Everything a refused retirement must leave as it was, registry units and cancellations included. */
async function registrySnapshot() {
  const [base, units, cancellations] = await Promise.all([
    retireSnapshot(s),
    s.db.selectFrom('retirement_units').selectAll().orderBy('block_id').orderBy('first_unit').execute(),
    s.db.selectFrom('registry_cancellations').selectAll().orderBy('retirement_id').execute(),
  ]);
  return { ...base, units, cancellations };
}

describe('50 parallel retirements', () => {
  it('get distinct, contiguous sub-ranges inside the held blocks', async () => {
    const { u, pid, blocks } = await projectWithBlocks(() => [verraBlock(60, 2023), verraBlock(100, 2024)], 150);
    const [a, b] = blocks as [(typeof blocks)[0], (typeof blocks)[0]];
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => api.retire(u, { project_id: pid, tons: 3, beneficiary: `B${i}` })));
    for (const r of answers) expect(r.code, r.msg).toBe(0);
    const rows = await s.db.selectFrom('retirement_units').select(['retirement_id', 'block_id', 'first_unit', 'last_unit']).where('block_id', 'in', [a.id, b.id]).execute();
    // Units in one order across both blocks: 2023's, then 2024's.
    const pos = (r: { block_id: number; unit: number }) => (Number(r.block_id) === a.id ? r.unit - a.range.first : 60 + r.unit - b.range.first);
    const seen = new Set<number>();
    for (const ans of answers) {
      const mine = rows.filter((r) => r.retirement_id === ans.data.id);
      const positions = mine.flatMap((r) => Array.from({ length: Number(r.last_unit) - Number(r.first_unit) + 1 }, (_, k) => pos({ block_id: r.block_id, unit: Number(r.first_unit) + k }))).sort((x, y) => x - y);
      expect(positions).toHaveLength(3);
      // Contiguous: across the two blocks' boundary it is two ranges, otherwise one.
      expect(positions[2]! - positions[0]!).toBe(2);
      expect(mine).toHaveLength(positions[0]! < 60 && positions[2]! >= 60 ? 2 : 1);
      expect(ans.data.registry_serials).toHaveLength(mine.length);
      for (const p of positions) {
        expect(seen.has(p)).toBe(false);
        seen.add(p);
      }
    }
    // Exactly the lowest 150 units: all of 2023 and the first 90 of 2024; each inside its block.
    expect([...seen].sort((x, y) => x - y)).toEqual(Array.from({ length: 150 }, (_, i) => i));
    for (const r of rows) {
      const blk = Number(r.block_id) === a.id ? a.range : b.range;
      expect(Number(r.first_unit)).toBeGreaterThanOrEqual(blk.first);
      expect(Number(r.last_unit)).toBeLessThanOrEqual(blk.last);
    }
    // Each one pending, once.
    const pending = await s.db.selectFrom('registry_cancellations').select('retirement_id').where('project_id', '=', pid).execute();
    expect(pending.map((p) => p.retirement_id).sort()).toEqual(answers.map((x) => x.data.id).sort());
  });
});

/** A registry account's export (CSV) of these rows. */
function exportFile(rows: Array<{ serial_range: string; quantity: number; status: 'held' | 'retired'; reference?: string; date?: string }>): string {
  const file = path.join(s.dataDir, `export-${Math.random().toString(36).slice(2)}.csv`);
  const lines = ['Serial Number,Quantity,Status,Retirement Reference,Retirement Date', ...rows.map((r) => [r.serial_range, r.quantity, r.status, r.reference ?? '', r.date ?? ''].join(','))];
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('registry:reconcile', () => {
  it('a clean export reports no difference; one with a block missing lists it, pauses the project (en, cn) until registry:resume', async () => {
    const { u, pid, blocks } = await projectWithBlocks(() => [verraBlock(40, 2023), verraBlock(50, 2024)], 20);
    const [a, b] = blocks as [(typeof blocks)[0], (typeof blocks)[0]];
    const r1 = await api.retire(u, { project_id: pid, tons: 10 });
    expect(r1.code, r1.msg).toBe(0);
    expect((await ops('registry:cancel', r1.data.id, '--reference', 'VCS-RET-1', '--date', '2026-03-02')).ok).toBe(true);
    const sub = (blk: typeof a, first: number, last: number) => formatSerialRange(blk.range, first, last);
    const retiredRow = { serial_range: sub(a, a.range.first, a.range.first + 9), quantity: 10, status: 'retired' as const, reference: 'VCS-RET-1', date: '2026-03-02' };
    const heldA = { serial_range: sub(a, a.range.first + 10, a.range.last), quantity: 30, status: 'held' as const };
    const heldB = { serial_range: b.text, quantity: 50, status: 'held' as const };

    const clean = await ops('registry:reconcile', exportFile([retiredRow, heldA, heldB]), '--registry', a.range.registry);
    expect(clean.ok, !clean.ok ? clean.error : '').toBe(true);
    const cleanData = clean.ok ? (clean.data as { differences: Array<{ project_id: number | null }>; projects: Array<{ project_id: number; paused: boolean }> }) : null;
    expect(cleanData!.differences.filter((d) => d.project_id === pid)).toEqual([]);
    expect(cleanData!.projects.find((p) => p.project_id === pid)).toMatchObject({ paused: false });
    expect((await s.db.selectFrom('projects').select('sales_paused_at').where('id', '=', pid).executeTakeFirstOrThrow()).sales_paused_at).toBeNull();

    // Block 2024 missing from the export: a dry run lists it and pauses nothing.
    const missing = exportFile([retiredRow, heldA]);
    const dry = await ops('registry:reconcile', missing, '--registry', a.range.registry, '--dry-run');
    expect(dry.ok && dry.text).toContain('DRY RUN');
    expect(dry.ok && dry.text).toContain(`not_held project #${pid} ${b.text} (50 units)`);
    expect((await s.db.selectFrom('projects').select('sales_paused_at').where('id', '=', pid).executeTakeFirstOrThrow()).sales_paused_at).toBeNull();
    const real = await ops('registry:reconcile', missing, '--registry', a.range.registry);
    expect(real.ok).toBe(true);
    const diffs = real.ok ? (real.data as { differences: Array<{ kind: string; project_id: number | null; serials: string; units: number }> }).differences.filter((d) => d.project_id === pid) : [];
    expect(diffs).toEqual([expect.objectContaining({ kind: 'not_held', serials: b.text, units: 50 })]);
    const paused = await s.db.selectFrom('projects').select(['sales_paused_at', 'sales_paused_note']).where('id', '=', pid).executeTakeFirstOrThrow();
    expect(paused.sales_paused_at).not.toBeNull();
    expect(paused.sales_paused_note).toContain('registry holds 30 of the 80 units');

    // Buying answers the catalogue's code, in en and cn, and nothing changes; the project says why.
    const buyer = await makeUser(s, { cents: 1_000_000 });
    await expectRefusedBoth(s, 'project_sales_paused', (lang) => orderApi(s).buy(buyer, pid, 1, { lang }));
    const detail = await s.api('GET', PATHS.projectDetail, { id: pid });
    expect(detail.data.join_block).toBe('paused');
    // What was paid for stays: the holder retires as before.
    expect((await api.retire(u, { project_id: pid, tons: 1 })).code).toBe(0);

    expect(await ops('registry:resume', String(pid))).toMatchObject({ ok: true, data: { project_id: pid, resumed: true } });
    expect(await ops('registry:resume', String(pid))).toMatchObject({ ok: false, exit: 1 });
    expect((await orderApi(s).buy(buyer, pid, 1)).code).toBe(0);
  });

  it('lists units cancelled on the registry Canopy has not recorded, and a reference that disagrees', async () => {
    const { u, pid, blocks } = await projectWithBlocks(() => [verraBlock(30, 2023)], 10);
    const [a] = blocks as [(typeof blocks)[0]];
    const r1 = await api.retire(u, { project_id: pid, tons: 4 });
    const r2 = await api.retire(u, { project_id: pid, tons: 3 });
    expect((await ops('registry:cancel', r1.data.id, '--reference', 'VCS-RET-OURS')).ok).toBe(true);
    const sub = (first: number, last: number) => formatSerialRange(a.range, first, last);
    const f = a.range.first;
    const file = exportFile([
      { serial_range: sub(f, f + 3), quantity: 4, status: 'retired', reference: 'VCS-RET-THEIRS', date: '2026-03-02' },
      { serial_range: sub(f + 4, f + 6), quantity: 3, status: 'retired', reference: 'VCS-RET-77', date: '2026-03-02' },
      { serial_range: sub(f + 7, a.range.last), quantity: 23, status: 'held' },
    ]);
    const res = await ops('registry:reconcile', file, '--registry', a.range.registry, '--dry-run');
    expect(res.ok).toBe(true);
    const diffs = res.ok ? (res.data as { differences: Array<Record<string, unknown>>; projects: Array<{ project_id: number; paused: boolean }> }) : null;
    expect(diffs!.differences.filter((d) => d.project_id === pid)).toEqual([
      expect.objectContaining({ kind: 'cancellation_not_recorded', serials: sub(f + 4, f + 6), units: 3, certificate_id: r2.data.id, registry_reference: 'VCS-RET-77' }),
      expect.objectContaining({ kind: 'reference_differs', serials: sub(f, f + 3), certificate_id: r1.data.id, canopy_reference: 'VCS-RET-OURS', registry_reference: 'VCS-RET-THEIRS' }),
    ]);
    // Units a pending retirement explains are not a shortfall: the project keeps selling.
    expect(diffs!.projects.find((p) => p.project_id === pid)).toMatchObject({ paused: false });
  });
});

describe('Singapore carbon tax', () => {
  const ELIGIBLE = { host_country: 'GH', programme: 'GS', type: 'cookstove', methodology_id: 'GS-TPDDTEC', methodology_date: '2021-07-01', reduction_start: 2024, reduction_end: 2024, authorisation: 'granted', adjustment: 'granted' } as const;

  it('a surrender counts toward the cap only once cancelled on the registry', async () => {
    const { u, pid } = await projectWithBlocks(() => [verraBlock(50, 2024)], 10, ELIGIBLE);
    const cap = async (who: MarketUser) => (await s.api('GET', PATHS.iccCap, { year: 2026 }, { token: who.token })).data;
    expect((await s.api('POST', PATHS.iccEmissions, { year: 2026, taxable_tons: 100 }, { token: u.token, idempotencyKey: newKey() })).code).toBe(0);
    const r = await api.retire(u, { project_id: pid, tons: 7, icc_year: 2026 });
    expect(r.code, r.msg).toBe(0);
    // Not counted yet: waiting, and the warning that once cancelled it passes the cap of 5 t by 2 t.
    expect(r.data.icc).toEqual({ year: 2026, taxable_tons: 100, cap_tons: 5, retired_tons: 0, pending_tons: 7, over_tons: 2 });
    expect(await cap(u)).toMatchObject({ retired_tons: 0, pending_tons: 7, room_tons: 0, over_tons: 2 });
    expect((await ops('registry:cancel', r.data.id, '--reference', 'VCS-RET-TAX')).ok).toBe(true);
    expect(await cap(u)).toMatchObject({ retired_tons: 7, pending_tons: 0, room_tons: 0, over_tons: 2 });
  });
});

describe('what anyone can check', () => {
  it('the certificate PDF, the evidence pack (CSV, PDF) and the public pack check say where each retirement stands on the registry, in en and cn', async () => {
    const { u, pid } = await projectWithBlocks(() => [verraBlock(20, 2024)], 6);
    const done = await api.retire(u, { project_id: pid, tons: 2 });
    s.clock.advance(1000);
    const waiting = await api.retire(u, { project_id: pid, tons: 1 });
    const today = new Date(s.clock.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    expect((await ops('registry:cancel', done.data.id, '--reference', 'VCS-RET-PACK-1', '--date', today)).ok).toBe(true);
    const [y, m, d] = today.split('-').map(Number) as [number, number, number];
    const en = `${d} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'][m - 1]} ${y}`;
    const cn = `${y}年${m}月${d}日`;
    const due = (await cancellation(waiting.data.id)).due_at;
    const dueDay = new Date(Number(due) - 1 + 8 * 3_600_000).toISOString().slice(0, 10).split('-').map(Number) as [number, number, number];

    // The certificate PDF in both languages.
    const certPdf = async (id: string, lang: 'en' | 'cn') => pdfText(new Uint8Array(await (await s.raw('GET', PATHS.publicCertificatePdf.replace(':id', id), { query: `lang=${lang}` })).arrayBuffer()));
    expect(await certPdf(done.data.id, 'en')).toContain(`Cancelled on Verra on ${en}, reference VCS-RET-PACK-1`);
    expect(await certPdf(done.data.id, 'cn')).toContain(`已于 ${cn}在 Verra 注销，注销编号 VCS-RET-PACK-1`);
    expect(await certPdf(waiting.data.id, 'en')).toContain(`Waiting to be cancelled on Verra (due by ${dueDay[2]} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'][dueDay[1] - 1]} ${dueDay[0]})`);
    expect(await certPdf(waiting.data.id, 'cn')).toContain(`等待在 Verra 注销（截止 ${dueDay[0]}年${dueDay[1]}月${dueDay[2]}日）`);

    // The evidence pack: CSV columns, PDF lines, and the public check of the file.
    const month = { from: `${today.slice(0, 8)}01`, to: `${today.slice(0, 8)}28` };
    const packOf = (format: 'csv' | 'pdf', lang: 'en' | 'cn' = 'en') => evidencePack(s, u.token, month, format, lang);
    const csv = new TextDecoder().decode(await packOf('csv')).replace(/^\uFEFF/, '').trim().split('\r\n').map((l) => l.split(','));
    const col = (name: string) => csv[0]!.indexOf(name);
    const line = (id: string) => csv.find((r) => r[col('reference')] === id)!;
    expect([line(done.data.id)[col('registry_serials')], line(done.data.id)[col('registry_status')], line(done.data.id)[col('registry_reference')], line(done.data.id)[col('registry_cancelled_on')]]).toEqual([done.data.registry_serials[0], 'cancelled', 'VCS-RET-PACK-1', today]);
    expect([line(waiting.data.id)[col('registry_serials')], line(waiting.data.id)[col('registry_status')], line(waiting.data.id)[col('registry_reference')]]).toEqual([waiting.data.registry_serials[0], 'pending', '']);
    expect(await pdfText(await packOf('pdf', 'en'))).toContain(`Cancelled on ${today}, reference VCS-RET-PACK-1`);
    expect(await pdfText(await packOf('pdf', 'cn'))).toContain(`已于 ${today} 注销，注销编号 VCS-RET-PACK-1`);
    const bytes = await packOf('csv');
    const hash = createHash('sha256').update(bytes).digest('hex');
    const checked = await s.api('GET', PATHS.verifyPack.replace(':hash', hash));
    expect(checked.code, checked.msg).toBe(0);
    expect(checked.data.retirements).toEqual([
      expect.objectContaining({ certificate_id: done.data.id, registry_serials: done.data.registry_serials, registry_status: 'cancelled', registry_reference: 'VCS-RET-PACK-1', registry_cancelled_on: today }),
      expect.objectContaining({ certificate_id: waiting.data.id, registry_serials: waiting.data.registry_serials, registry_status: 'pending', registry_reference: null }),
    ]);
  }, 180_000); // eight PDFs typeset on a shared machine

  it('the transparency figures show per project held on the registry, retired and cancelled, retired and waiting', async () => {
    const { u, pid } = await projectWithBlocks(() => [verraBlock(30, 2024), verraBlock(20, 2024)], 10);
    const a = await api.retire(u, { project_id: pid, tons: 4 });
    await api.retire(u, { project_id: pid, tons: 3 });
    expect((await ops('registry:cancel', a.data.id, '--reference', 'VCS-RET-T1')).ok).toBe(true);
    for (let i = 0; i < 100; i++) {
      const t = (await api.transparency()).data as { projects: Array<Record<string, number>> };
      const p = t.projects.find((x) => x.id === pid)!;
      if (p.cancelled === 4) {
        expect(p).toMatchObject({ sold: 10, retired: 7, held: 46, cancelled: 4, waiting: 3 });
        return;
      }
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error('the transparency figures never showed the cancellation');
  });
});

describe('due dates', () => {
  it('due dates skip weekends and the configured holidays', async () => {
    // Friday 6 March 2026 17:00 SGT: Mon 9, Tue 10, Wed 11.
    s.clock.set(Date.UTC(2026, 2, 6, 9, 0, 0));
    const { u, pid } = await projectWithBlocks(() => [verraBlock(10, 2024)], 2);
    const r = await api.retire(u, { project_id: pid, tons: 1 });
    expect(r.data.registry_due_on).toBe('2026-03-11');
    s.clock.advance(DAY);
  });
});

describe('migration 042', () => {
  it('gives every retirement written before it a pending cancellation due three days after it, and keeps units append-only', async () => {
    await expect(s.db.deleteFrom('retirement_units').execute()).rejects.toThrow(/append-only/);
    await down(s.db as never);
    await up(s.db as never);
    const retirements = await s.db.selectFrom('retirements').select(['id', 'created_at', 'project_id']).execute();
    const rows = await s.db.selectFrom('registry_cancellations').selectAll().execute();
    expect(rows).toHaveLength(retirements.length);
    for (const r of retirements) {
      expect(rows.find((c) => c.retirement_id === r.id)).toMatchObject({ project_id: r.project_id, due_at: Number(r.created_at) + 3 * DAY, reference: null, recorded_at: null });
    }
  });
});
