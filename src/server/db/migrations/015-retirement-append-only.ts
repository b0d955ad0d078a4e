import type { Kysely } from 'kysely';
import { appendOnly, dropAppendOnly } from '../dialect';

// Retirements are permanent (docs/product.md#retirement, docs/decisions/0010-retire.md): a retired ton never
// comes back and its serials are never reused or moved. The database itself refuses to change or remove a
// retirement or its serial ranges, as it does for fund_logs: no code path updates or deletes them (not
// retention, backup and restore, nor any ops command), so nothing needs an exception.
const TABLES = ['retirements', 'retirement_serials'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await appendOnly(db, table);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await dropAppendOnly(db, table);
}
