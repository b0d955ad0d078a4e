// The project list's eligible-only filter works offline (docs/product.md#singapore-carbon-tax): the cached
// rows are filtered by their verdict as the server does, and a row cached by an older app (no verdict) is
// never shown as eligible.
import 'fake-indexeddb/auto';
import './browser-globals';
import { describe, expect, it } from 'vitest';
import { CanopyDb } from '../../src/app/lib/db';
import { cachedProjects } from '../../src/app/lib/cached-projects';
import type { Project } from '../../src/shared/schemas/content';

const project = (id: number, verdict: 'eligible' | 'not_eligible' | 'unknown' | null, status: Project['status'] = 'in_progress') =>
  ({
    id,
    name: `P${id}`,
    name_cn: `P${id}`,
    location: '',
    location_cn: '',
    country: '',
    country_cn: '',
    type: 'cookstove',
    status,
    selling_time_ms: id,
    ...(verdict ? { icc: { verdict, reasons: [], rules_version: 't' } } : {}),
  }) as unknown as Project;

describe('the offline eligible-only list', () => {
  it('keeps only cached projects the rules found eligible, with the other filters', async () => {
    const db = new CanopyDb(`icc-offline-${Date.now()}`);
    await db.projects.bulkPut([project(1, 'eligible'), project(2, 'not_eligible'), project(3, 'unknown'), project(4, null), project(5, 'eligible', 'presale'), project(6, 'eligible', 'pending_review')]);
    expect((await cachedProjects({ icc: 'eligible' }, db)).map((p) => p.id)).toEqual([1, 5]);
    expect((await cachedProjects({ icc: 'eligible', status: 'presale' }, db)).map((p) => p.id)).toEqual([5]);
    expect((await cachedProjects({}, db)).map((p) => p.id).sort()).toEqual([1, 2, 3, 4, 5]);
    db.close();
  });
});
