import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { ok } from './http';
import type { PublicAnswer } from './response-cache';

/** A public GET (project and news lists and details, content): from the server's response cache when it
 *  has one (deps.publicCache, made by startServer and told of changes by the live events), else made now and answered by
 *  ok() like any other answer. `query` is the request's input as the route's schema parsed it (the cache's
 *  key, with the path): `produce` must read nothing else of the request. */
export async function answerPublic(c: Context<AppEnv>, tags: string[], query: Readonly<Record<string, unknown>>, produce: () => Promise<PublicAnswer>): Promise<Response> {
  const cache = c.get('deps').publicCache;
  if (cache) return cache.serve(c, tags, query, produce);
  return ok(c, (await produce()).data);
}
