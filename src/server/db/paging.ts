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

/** The key columns of a list and its filter: what the walks below the first page read. */
interface KeyedList<DB, TB extends keyof DB> {
  base: SelectQueryBuilder<DB, TB, object>;
  keys: readonly string[];
  memo: ListMemo;
  filter: string;
}

/** `(keys) < (key)`: the rows after `key` in the list's order, a range of its index. */
const afterKey = (keys: readonly string[], key: readonly number[]) => sql<SqlBool>`(${sql.join(keys.map((k) => sql.ref(k)))}) < (${sql.join(key as number[])})`;

/** The list's order: every key column descending. */
const ordered = <DB, TB extends keyof DB, O>(keys: readonly string[], query: SelectQueryBuilder<DB, TB, O>) => keys.reduce((b, k) => b.orderBy(sql.ref(k), 'desc'), query);

/** The sort key of the row at `skip` rows after `from` (or after the start): an index-only walk. */
async function walk<DB, TB extends keyof DB>(list: KeyedList<DB, TB>, from: number[] | null, skip: number): Promise<number[] | null> {
  const { base, keys } = list;
  let query = base.select(keys.map((k) => sql.ref<number>(k).as(k)));
  if (from) query = query.where(() => afterKey(keys, from));
  const row = await ordered(keys, query).limit(1).offset(skip).executeTakeFirst();
  return row ? keys.map((k) => Number((row as Record<string, unknown>)[k])) : null;
}

/** The sort key at 0-based `position`: walked from the nearest anchor before it. Anchors (the key at every
 *  ANCHOR_STRIDE-th row) are found once per filter, as far as a jump has needed them, and kept in `memo`
 *  until the rows change; so a cold jump to page 4,000 walks at most ANCHOR_STRIDE index entries once the
 *  anchors before it are known, instead of every entry before it each time. */
async function keyAt<DB, TB extends keyof DB>(list: KeyedList<DB, TB>, position: number, epoch: number): Promise<number[] | null> {
  const slot = Math.floor((position + 1) / ANCHOR_STRIDE) - 1;
  if (slot < 0) return walk(list, null, position);
  const known = list.memo.get<number[][]>(`anchors:${list.filter}`) ?? [];
  const anchors = known.slice();
  while (anchors.length <= slot) {
    const next = await walk(list, anchors.at(-1) ?? null, ANCHOR_STRIDE - 1);
    if (!next) return null;
    anchors.push(next);
  }
  if (anchors.length > known.length) list.memo.set(`anchors:${list.filter}`, anchors, epoch);
  const anchorPosition = (slot + 1) * ANCHOR_STRIDE - 1;
  return position === anchorPosition ? anchors[slot]! : walk(list, anchors[slot]!, position - anchorPosition - 1);
}

/** Where a page starts: how many rows come before it and the sort key of the last of them (null: the
 *  first page), from the cursor or by page number; undefined when the page number lies past the end. */
async function pageStart<DB, TB extends keyof DB>(list: KeyedList<DB, TB>, q: KeysetQuery, totalP: Promise<number>, epoch: number): Promise<{ offset: number; after: number[] | null } | undefined> {
  if (q.cursor) {
    const cursor = decodeCursor(q.cursor, list.keys.length);
    return { offset: cursor.o, after: cursor.k };
  }
  const offset = (q.page - 1) * q.page_size;
  if (offset <= 0) return { offset, after: null };
  if (offset >= (await totalP)) return undefined;
  const remembered = list.memo.get<number[]>(`at:${list.filter}:${offset}`);
  if (remembered) return { offset, after: remembered };
  const after = await keyAt(list, offset - 1, epoch);
  if (!after) return undefined;
  list.memo.set(`at:${list.filter}:${offset}`, after, epoch);
  return { offset, after };
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
  const count = opts.count ?? (async () => Number(((await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()) as { n: number }).n));
  const totalP = memo.memo(`count:${filter}`, count);
  const start = await pageStart({ base, keys, memo, filter }, q, totalP, epoch);
  if (!start) return { list: [], total: await totalP, page: q.page, page_size: size, next_cursor: null };
  const { offset, after } = start;
  let query = opts.select(base);
  if (after) query = query.where(() => afterKey(keys, after));
  const [rows, total] = await Promise.all([ordered(keys, query).limit(size + 1).execute(), totalP]);
  let next_cursor: string | null = null;
  if (rows.length > size) {
    const last = rows[size - 1] as Record<string, unknown>;
    const key = keys.map((k) => Number(last[k]));
    next_cursor = encodeCursor({ k: key, o: offset + size });
    memo.set(`at:${filter}:${offset + size}`, key, epoch);
  }
  return { list: rows.slice(0, size).map(opts.map), total, page: Math.floor(offset / size) + 1, page_size: size, next_cursor };
}
