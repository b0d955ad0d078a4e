// The scheduler's run over due rows: a row that fails alone is logged and the rest go on; the database
// away stops the run at once, so an outage is one failed run in the log, not a line per due row.
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/server/env';
import { each, type DueWorkReport } from '../../src/server/scheduler/scheduler';

function harness() {
  const errors: string[] = [];
  const deps = { log: { error: (msg: string) => errors.push(msg), info: () => {}, warn: () => {}, debug: () => {} } } as unknown as Deps;
  const report: DueWorkReport = { projects: 0, completed: 0, expired: 0, settled: 0, reminded: 0, offsets: 0, approvals: 0, failed: 0, oldestDueAt: null, more: false };
  return { deps, report, errors };
}

describe('the run over due rows', () => {
  it('logs a row that fails on its own and goes on with the rest', async () => {
    const { deps, report, errors } = harness();
    const tried: number[] = [];
    await each(deps, [1, 2, 3], async (id) => {
      tried.push(id);
      if (id === 2) throw new Error('row 2 is broken');
      return true;
    }, report, 'completed');
    expect(tried).toEqual([1, 2, 3]);
    expect(report).toMatchObject({ completed: 2, failed: 1 });
    expect(errors).toEqual(['scheduler: completed #2 failed']);
  });

  it('stops at the first row the database could not be reached for, logging nothing per row', async () => {
    const { deps, report, errors } = harness();
    const tried: number[] = [];
    const away = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const run = each(deps, Array.from({ length: 200 }, (_, i) => i + 1), async (id) => {
      tried.push(id);
      throw away;
    }, report, 'completed');
    await expect(run).rejects.toBe(away);
    expect(tried).toEqual([1]);
    expect(errors).toEqual([]);
  });
});
