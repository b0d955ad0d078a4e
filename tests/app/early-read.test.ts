// A start's early read (lib/early-read.ts, start.tsx): the first screen's data is read while its route
// loads and handed to its first render once; a failed read leaves nothing (the screen's live query reads on
// its own); home's early read (from the device, without Dexie) is its live queries' rows
// (features/home/home-data.ts), on fake-indexeddb.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import './browser-globals';
import { dropLateEarly, PROJECT_LIST_KEY, readEarly, takeEarly } from '../../src/app/lib/early-read';
import { homeProjects, readEarlyHome, takeEarlyHome } from '../../src/app/features/home/home-data';
import { db } from '../../src/app/lib/db';
import type { Project } from '../../src/shared/schemas/content';

describe('early reads', () => {
  it('hands a read to the first taker only', async () => {
    await readEarly('k', async () => [1, 2]);
    expect(takeEarly('k')).toEqual([1, 2]);
    expect(takeEarly('k')).toBeUndefined();
  });

  it('a failed read leaves nothing and does not throw', async () => {
    await expect(readEarly('bad', () => Promise.reject(new Error('disk')))).resolves.toBeUndefined();
    expect(takeEarly('bad')).toBeUndefined();
  });

  it('an answer that came after the first render went ahead without it is not kept for a later visit', async () => {
    let answer: (v: string) => void = () => undefined;
    const read = readEarly('slow', () => new Promise<string>((resolve) => (answer = resolve)));
    dropLateEarly('slow');
    answer('stale by now');
    await read;
    expect(takeEarly('slow')).toBeUndefined();
    // One that came in time stays for the screen.
    await readEarly('quick', async () => 'fresh');
    dropLateEarly('quick');
    expect(takeEarly('quick')).toBe('fresh');
  });

  it("the project tab's key names every part of its filter", () => {
    expect(PROJECT_LIST_KEY('', '', '', '', '')).not.toBe(PROJECT_LIST_KEY('', '', '', '', 'price_asc'));
    expect(PROJECT_LIST_KEY('presale', '', '', '', '')).not.toBe(PROJECT_LIST_KEY('', 'presale', '', '', ''));
  });

  it("home's early projects are what its live query reads, in its order, taken once", async () => {
    const base = { name_cn: '', location: '', type: 'forestry', standard: 'VCS', image: '', price: 1000, presale_price: null } as unknown as Project;
    await db.projects.bulkPut([
      { ...base, id: 1, name: 'closed', status: 'closed', join_block: 'ended', selling_time_ms: 1 },
      { ...base, id: 2, name: 'older', status: 'in_progress', join_block: null, selling_time_ms: 2 },
      { ...base, id: 3, name: 'newer', status: 'in_progress', join_block: null, selling_time_ms: 3 },
      { ...base, id: 4, name: 'presale', status: 'presale', join_block: null, selling_time_ms: 4 },
    ] as Project[]);
    await readEarlyHome();
    const early = takeEarlyHome()?.projects;
    expect(early?.map((p) => p.name)).toEqual(['newer', 'older', 'presale']);
    expect(early).toEqual(await homeProjects(db));
    expect(takeEarlyHome()).toBeUndefined();
  });
});
