import type { Selectable } from 'kysely';
import { keysetPage, NO_MEMO } from '../../db/paging';
import type { NewsTable } from '../../db/schema';
import type { Deps } from '../../env';
import { isoSgt } from '../../lib/clock';
import { AppError } from '../../lib/http';
import type { PublicAnswer } from '../../lib/response-cache';
import type * as v from 'valibot';
import type { NewsItem, newsListQuery } from '../../../shared/schemas/content';

// News, newest first: only items whose publication time has come are visible (docs/product.md#screens-and-routes).

function toNews(n: Selectable<NewsTable>): NewsItem {
  return {
    id: n.id,
    title: n.title,
    title_cn: n.title_cn || n.title,
    summary: n.summary,
    summary_cn: n.summary_cn || n.summary,
    body: n.body,
    body_cn: n.body_cn || n.body,
    image: n.image,
    published_at: isoSgt(n.published_at),
    published_at_ms: n.published_at,
  };
}

/** A page of the published news, kept until the next scheduled item's time (`until`). */
export async function listNews(deps: Deps, q: v.InferOutput<typeof newsListQuery>): Promise<PublicAnswer> {
  const { db, clock, publicCache } = deps;
  const now = clock.now();
  // What is visible changes only when a scheduled item's time comes: until then the same rows, so the
  // total and page positions are kept per window (named by its end).
  const next = await db.selectFrom('news').select((eb) => eb.fn.min('published_at').as('at')).where('published_at', '>', now).executeTakeFirst();
  const until = next?.at == null ? Infinity : Number(next.at);
  const page = await keysetPage({
    base: db.selectFrom('news').where('published_at', '<=', now),
    keys: ['published_at', 'id'],
    q,
    memo: publicCache?.memoFor('news') ?? NO_MEMO,
    filter: `before:${until}`,
    select: (b) => b.selectAll(),
    map: toNews,
  });
  return { data: page, until };
}

/** One published item. Unpublished (scheduled) items are not found: a refusal, never kept, so it shows
 *  once its time comes. */
export async function newsItem(deps: Deps, id: number): Promise<PublicAnswer> {
  const row = await deps.db.selectFrom('news').selectAll().where('id', '=', id).where('published_at', '<=', deps.clock.now()).executeTakeFirst();
  if (!row) throw new AppError('not_found');
  return { data: toNews(row) };
}
