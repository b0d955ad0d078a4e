import { useLiveQuery } from 'dexie-react-hooks';
import { db as defaultDb, type CanopyDb, type LocalFootprint } from '../../lib/db';
import { newIdempotencyKey, type ApiResult } from '../../lib/api';
import { keepsIntentKey } from '../../lib/intent-key';
import { computeFootprint } from '../../../shared/footprint/compute';
import type { FootprintAnswers, FootprintRecord } from '../../../shared/schemas/footprint';
import { postFootprint } from './api';

// Results live on the device first (Dexie, table footprints): the calculator works offline and a result is
// there at once. A signed-in member's results are then saved to the account, each with the Idempotency-Key
// it was given when computed, so a save retried after a lost answer is recognised and never doubled.

/** Computes the answers and keeps the result on the device; answers its local id. */
export async function keepResult(answers: FootprintAnswers, owner: number, now = Date.now(), database: CanopyDb = defaultDb): Promise<number> {
  const row: LocalFootprint = {
    owner,
    answers,
    result: computeFootprint(answers),
    created_at_ms: now,
    intent_key: newIdempotencyKey(),
    server_id: null,
  };
  return (await database.footprints.add(row)) as number;
}

/** The owner's results on this device, newest first. */
export async function listResults(owner: number, database: CanopyDb = defaultDb): Promise<LocalFootprint[]> {
  const rows = await database.footprints.where('owner').equals(owner).sortBy('created_at_ms');
  return rows.reverse();
}

export function useResults(owner: number): LocalFootprint[] | undefined {
  return useLiveQuery(() => listResults(owner), [owner]);
}

export function useResult(id: number): LocalFootprint | null | undefined {
  return useLiveQuery(async () => (id > 0 ? ((await defaultDb.footprints.get(id)) ?? null) : null), [id]);
}

export type SaveFootprint = (answers: FootprintAnswers, totalKg: number, key: string) => Promise<ApiResult<FootprintRecord>>;

/** Sends the member's results the account does not have yet, oldest first. Stops at the first transport
 *  failure (offline: the rest waits for the next try); a refusal is not retried with the same key. Answers
 *  how many were saved. */
export async function saveToAccount(owner: number, send: SaveFootprint = postFootprint, database: CanopyDb = defaultDb): Promise<number> {
  if (owner <= 0) return 0;
  const pending = (await database.footprints.where('owner').equals(owner).sortBy('created_at_ms')).filter((r) => r.server_id === null);
  let saved = 0;
  for (const row of pending) {
    const res = await send(row.answers, row.result.total_kg, row.intent_key);
    if (res.code === 0 && res.data) {
      await database.footprints.update(row.id!, { server_id: res.data.id });
      saved++;
    } else if (keepsIntentKey(res.code)) {
      break; // no answer or still in progress: retried later with the same key
    } else {
      // Refused (the answers broke a rule the server knows): keep it on the device only.
      await database.footprints.update(row.id!, { server_id: 0 });
    }
  }
  return saved;
}
