// Footprint results on the device (Dexie table footprints, schema v3, on fake-indexeddb): kept per owner,
// newest first; an upgrade from v2 keeps every cached row; saved to the account once each, with the key
// they were given (a retry after a lost answer sends the same key); wiped with the other user tables.
import 'fake-indexeddb/auto';
import { afterAll, describe, expect, it } from 'vitest';

import './browser-globals';

import Dexie from 'dexie';
import { CanopyDb, SCHEMA, USER_TABLES, clearPrivateCache } from '../../src/app/lib/db';
import { keepResult, listResults, saveToAccount, type SaveFootprint } from '../../src/app/features/footprint/store';
import type { FootprintAnswers, FootprintRecord } from '../../src/shared/schemas/footprint';
import { ERRORS } from '../../src/shared/errors';

const ANSWERS: FootprintAnswers = {
  electricity_input: 'kwh',
  electricity_kwh_month: 400,
  household_size: 4,
  car_km_week: 100,
  car_fuel: 'petrol',
  taxi_km_week: 20,
  bus_trips_week: 10,
  mrt_trips_week: 10,
  flights_short_year: 2,
  flights_medium_year: 0,
  flights_long_year: 1,
  diet: 'medium_meat',
  clothing_cents_month: 10_000,
  electronics_cents_month: 5_000,
  household_goods_cents_month: 5_000,
};

const db = new CanopyDb('canopy-footprint-test');
afterAll(() => db.close());

const answer = (code: number, id = 0) => ({ code, msg: code ? 'no' : '', data: (code === 0 ? { id } : null) as FootprintRecord, wait: 0, time: 0 });

describe('results on the device', () => {
  it('are kept per owner, newest first, with the computed result and a key of their own', async () => {
    const a = await keepResult(ANSWERS, 42, 1_000, db);
    const b = await keepResult({ ...ANSWERS, diet: 'vegan' }, 42, 2_000, db);
    await keepResult(ANSWERS, 0, 3_000, db);
    const mine = await listResults(42, db);
    expect(mine.map((r) => r.id)).toEqual([b, a]);
    expect(mine[1]!.result.total_kg).toBe(8412);
    expect(mine[0]!.result.breakdown.diet).toBe(902);
    expect(mine[0]!.intent_key).not.toBe(mine[1]!.intent_key);
    expect(mine.every((r) => r.server_id === null)).toBe(true);
    expect((await listResults(0, db)).length).toBe(1);
  });

  it('reach the account once each: a lost answer is retried with the same key, a refusal is not retried', async () => {
    await db.footprints.clear();
    await keepResult(ANSWERS, 7, 1_000, db);
    await keepResult({ ...ANSWERS, household_size: 2 }, 7, 2_000, db);
    await keepResult(ANSWERS, 8, 3_000, db);
    const sent: string[] = [];
    let mode: 'offline' | 'ok' | 'refuse' = 'offline';
    const send: SaveFootprint = async (_answers, totalKg, key) => {
      sent.push(key);
      expect(totalKg).toBeGreaterThan(0);
      if (mode === 'offline') return answer(1);
      if (mode === 'refuse') return answer(ERRORS.footprint_out_of_range.code);
      return answer(0, 100 + sent.length);
    };
    expect(await saveToAccount(7, send, db)).toBe(0);
    expect(sent.length).toBe(1); // stops at the first transport failure
    const firstKey = sent[0];

    mode = 'ok';
    expect(await saveToAccount(7, send, db)).toBe(2);
    expect(sent[1]).toBe(firstKey); // the same intent, the same key
    const rows = await listResults(7, db);
    expect(rows.every((r) => (r.server_id ?? 0) > 100)).toBe(true);
    expect(await saveToAccount(7, send, db)).toBe(0); // nothing left to send
    expect(sent.length).toBe(3);
    expect(await saveToAccount(0, send, db)).toBe(0); // a visitor has no account

    mode = 'refuse';
    await saveToAccount(8, send, db);
    expect((await listResults(8, db))[0]!.server_id).toBe(0);
    const count = sent.length;
    await saveToAccount(8, send, db);
    expect(sent.length).toBe(count);
  });

  it('are a user table, wiped with the others on sign-out', async () => {
    expect(USER_TABLES).toContain('footprints');
    await keepResult(ANSWERS, 42, 1_000, db);
    await clearPrivateCache(db);
    expect(await db.footprints.count()).toBe(0);
  });
});

describe('schema v3', () => {
  it('adds the footprints table to a v2 database and keeps its rows', async () => {
    const name = 'canopy-footprint-upgrade';
    const v2 = new Dexie(name);
    SCHEMA.slice(0, 2).forEach((stores, i) => v2.version(i + 1).stores(stores));
    await v2.table('projects').put({ id: 1, name: 'Kalimantan', status: 'in_progress', type: 'forestry', selling_time_ms: 0, updated_at: 0 });
    await v2.table('fundlogs').put({ id: 5, kind: 'topup', created_at_ms: 1, owner: 42 });
    v2.close();
    const current = new CanopyDb(name);
    await current.open();
    expect(current.verno).toBe(SCHEMA.length);
    expect(await current.projects.count()).toBe(1);
    expect(await current.fundlogs.count()).toBe(1);
    await keepResult(ANSWERS, 42, 1_000, current);
    expect(await current.footprints.where('owner').equals(42).count()).toBe(1);
    current.close();
  });
});
