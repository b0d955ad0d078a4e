import fs from 'node:fs/promises';
import crypto from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { AppError, errorBody } from '../../lib/http';
import { idempotent } from '../../lib/idempotency';
import { requireUser } from '../session';
import { avatarFile, setAvatar } from './service';
import { PATHS } from '../../../shared/api';

// POST /api/user/avatar: the picture as the raw body (image/jpeg, image/png or image/webp; the bytes
// decide, not the declared type), `lang` in the query, Idempotency-Key in a header. The body limit of this
// one route is AVATAR_MAX_BYTES (app.ts), every other route keeps its 64 KiB.
async function avatarUploadRoute(c: Context<AppEnv>): Promise<Response> {
  const { user } = await requireUser(c, 'manage');
  const deps = c.get('deps');
  await deps.limits.consume([['avatar_account', String(user.id)]]);
  const input = Buffer.from(await c.req.arrayBuffer());
  if (input.length > deps.config.AVATAR_MAX_BYTES) throw new AppError('avatar_too_large', { n: Math.floor(deps.config.AVATAR_MAX_BYTES / 1024 / 1024) });
  if (input.length === 0) throw new AppError('avatar_not_image');
  // The fingerprint of the key: the uploaded bytes (the same picture again is the same intent).
  const payload = { sha256: crypto.createHash('sha256').update(input).digest('hex'), bytes: input.length };
  return idempotent(c, user.id, payload, (record) => setAvatar(deps, user, input, record));
}

/** The 413 of the avatar route's body limit: the catalogue's avatar_too_large, in the query's language. */
export function avatarTooLarge(c: Context<AppEnv>) {
  const { config, clock } = c.get('deps');
  const lang = c.req.query('lang') === 'cn' ? 'cn' : 'en';
  return c.json(errorBody('avatar_too_large', lang, clock.now(), { n: Math.floor(config.AVATAR_MAX_BYTES / 1024 / 1024) }), 413, { Connection: 'close' });
}

// GET /avatar/<sha256>.webp: a stored avatar. Its name is its content's hash, so it never changes: cached a
// year, immutable, never sniffed as another type. Any other name is 404 (no path reaches outside the folder).
async function avatarFileRoute(c: Context<AppEnv>): Promise<Response> {
  const { config, clock } = c.get('deps');
  const name = c.req.param('name') ?? '';
  const file = avatarFile(config, name);
  const bytes = file ? await fs.readFile(file).catch(() => null) : null;
  if (!bytes) return c.json(errorBody('not_found', c.get('lang'), clock.now()), 404);
  const etag = `"${name.slice(0, 64)}"`;
  const headers = {
    'Content-Type': 'image/webp',
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    ETag: etag,
  };
  if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
  return c.body(new Uint8Array(bytes), 200, { ...headers, 'Content-Length': String(bytes.length) });
}

/** Both routes on their full PATHS, mounted by app.ts at the API's root (the upload before /api/user). */
export const avatarRoutes = new Hono<AppEnv>();
avatarRoutes.post(PATHS.userAvatar, avatarUploadRoute);
avatarRoutes.get(PATHS.avatarFile, avatarFileRoute);
