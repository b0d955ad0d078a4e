import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Paged } from '../../shared/api';
import { AppError } from '../lib/app-error';

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

/** Values derived from a list's rows and kept until they change: the total per filter, and the sort key
 *  at a position (so page n+1 by number seeks from where page n ended). The response cache gives one per
 *  kind of row, dropped with its answers (lib/response-cache.ts); NO_MEMO keeps nothing. */
export interface ListMemo {
  /** Changes whenever the rows do; a value read under one epoch is only kept if it still holds. */
  epoch(): number;
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown, since: number): void;
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

export const NO_MEMO: ListMemo = { epoch: () => 0, get: () => undefined, set: () => undefined, memo: (_key, compute) => compute() };

/** Rows between two remembered sort keys (see keysetPage's keyAt). */
const ANCHOR_STRIDE = 1024;

export interface KeysetQuery extends PageQuery {
  /** An earlier answer's next_cursor, or '' for a page by number. */
  cursor: string;
}

/** A position in a list: the sort key of the last row before it, and how many rows come before it. */
interface Cursor {
  k: number[];
  o: number;
}

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(text: string, keyLength: number): Cursor {
  let c: unknown;
  try {
    c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('invalid_request', undefined, { field: 'cursor' });
  }
  const { k, o } = (c ?? {}) as Partial<Cursor>;
  if (!Array.isArray(k) || k.length !== keyLength || !k.every(Number.isSafeInteger) || !Number.isSafeInteger(o) || o! < 0) {
    throw new AppError('invalid_request', undefined, { field: 'cursor' });
  }
  return { k, o: o! };
}

/**
 * One page of a list read by its index (keyset paging): {list, total, page, page_size, next_cursor}.
 * `keys` is the list's order, every column descending, the last one unique (id); `base` the filtered
 * rows; `filter` names the filter in `memo`. A cursor seeks to `(keys) < (cursor)`, a range of the index,
 * so a deep page costs what the first does. A page number seeks from the key remembered where the page
 * before it ended, or else finds the key at its offset by walking the index only (covering: the index
 * holds the whole key), never reading the rows it skips. The total is counted once per filter until the
 * rows change. `select` must return the key columns (selectAll does).
 */
export async function keysetPage<DB, TB extends keyof DB, Row, Item>(opts: {
  base: SelectQueryBuilder<DB, TB, object>;
  keys: readonly string[];
  q: KeysetQuery;
  memo: ListMemo;
  filter: string;
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>;
  map: (row: Row) => Item;
  /** How to count the filter's rows when count(*) over `base` is not the cheap way. */
  count?: () => Promise<number>;
}): Promise<Paged<Item> & { next_cursor: string | null }> {
  const { base, keys, q, memo, filter } = opts;
  const epoch = memo.epoch();
  const size = q.page_size;
  const ordered = <O>(query: SelectQueryBuilder<DB, TB, O>) => keys.reduce((b, k) => b.orderBy(sql.ref(k), 'desc'), query);
  const count = opts.count ?? (async () => Number(((await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()) as { n: number }).n));
  const totalP = memo.memo(`count:${filter}`, count);

  const keyColumns = () => base.select(keys.map((k) => sql.ref<number>(k).as(k)));
  const keyOf = (row: unknown) => keys.map((k) => Number((row as Record<string, unknown>)[k]));
  /** The sort key of the row at `skip` rows after `from` (or after the start): an index-only walk. */
  const walk = async (from: number[] | null, skip: number) => {
    let query = keyColumns();
    if (from) query = query.where(() => sql<SqlBool>`(${sql.join(keys.map((k) => sql.ref(k)))}) < (${sql.join(from)})`);
    const row = await ordered(query).limit(1).offset(skip).executeTakeFirst();
    return row ? keyOf(row) : null;
  };
  /** The sort key at 0-based `position`: walked from the nearest anchor before it. Anchors (the key at every
   *  ANCHOR_STRIDE-th row) are found once per filter, as far as a jump has needed them, and kept in `memo`
   *  until the rows change; so a cold jump to page 4,000 walks at most ANCHOR_STRIDE index entries once the
   *  anchors before it are known, instead of every entry before it each time. */
  const keyAt = async (position: number): Promise<number[] | null> => {
    const slot = Math.floor((position + 1) / ANCHOR_STRIDE) - 1;
    if (slot < 0) return walk(null, position);
    const known = memo.get<number[][]>(`anchors:${filter}`) ?? [];
    const anchors = known.slice();
    while (anchors.length <= slot) {
      const next = await walk(anchors.at(-1) ?? null, ANCHOR_STRIDE - 1);
      if (!next) return null;
      anchors.push(next);
    }
    if (anchors.length > known.length) memo.set(`anchors:${filter}`, anchors, epoch);
    const anchorPosition = (slot + 1) * ANCHOR_STRIDE - 1;
    return position === anchorPosition ? anchors[slot]! : walk(anchors[slot]!, position - anchorPosition - 1);
  };

  let offset: number;
  let after: number[] | null = null;
  if (q.cursor) {
    const cursor = decodeCursor(q.cursor, keys.length);
    offset = cursor.o;
    after = cursor.k;
  } else {
    offset = (q.page - 1) * size;
    if (offset > 0) {
      const total = await totalP;
      if (offset >= total) return { list: [], total, page: q.page, page_size: size, next_cursor: null };
      after = memo.get<number[]>(`at:${filter}:${offset}`) ?? null;
      if (!after) {
        after = await keyAt(offset - 1);
        if (!after) return { list: [], total, page: q.page, page_size: size, next_cursor: null };
        memo.set(`at:${filter}:${offset}`, after, epoch);
      }
    }
  }

  let query = opts.select(base);
  if (after) {
    const seek = after;
    query = query.where(() => sql<SqlBool>`(${sql.join(keys.map((k) => sql.ref(k)))}) < (${sql.join(seek)})`);
  }
  const [rows, total] = await Promise.all([ordered(query).limit(size + 1).execute(), totalP]);
  let next_cursor: string | null = null;
  if (rows.length > size) {
    const last = rows[size - 1] as Record<string, unknown>;
    const key = keys.map((k) => Number(last[k]));
    next_cursor = encodeCursor({ k: key, o: offset + size });
    memo.set(`at:${filter}:${offset + size}`, key, epoch);
  }
  return { list: rows.slice(0, size).map(opts.map), total, page: Math.floor(offset / size) + 1, page_size: size, next_cursor };
}
