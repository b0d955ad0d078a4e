import { sql, type SelectQueryBuilder } from 'kysely';
import type { Paged } from '../../shared/api';

export interface PageQuery {
  page: number;
  page_size: number;
}

/** One page of a filtered query, with the total of the filter: what every list endpoint answers
 *  ({list, total, page, page_size}). `select` picks and orders the rows; `map` shapes each for the wire. */
export async function pageOf<DB, TB extends keyof DB, Row, Item>(
  base: SelectQueryBuilder<DB, TB, object>,
  q: PageQuery,
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  map: (row: Row) => Item,
): Promise<Paged<Item>> {
  const [rows, count] = await Promise.all([
    select(base).limit(q.page_size).offset((q.page - 1) * q.page_size).execute(),
    base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(map), total: Number((count as { n: number }).n), page: q.page, page_size: q.page_size };
}
