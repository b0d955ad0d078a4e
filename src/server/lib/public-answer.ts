import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { ok } from './http';
import type { PublicAnswer } from './response-cache';

/** A public GET (project and news lists and details, content): from the server's response cache when it
 *  has one (deps.publicCache, made by startServer and fed by its live hub), else made now and answered by
 *  ok() like any other answer. `produce` parses the request itself, so a cached answer skips that too. */
export async function answerPublic(c: Context<AppEnv>, tags: string[], produce: () => Promise<PublicAnswer>): Promise<Response> {
  const cache = c.get('deps').publicCache;
  if (cache) return cache.serve(c, tags, produce);
  return ok(c, (await produce()).data);
}
