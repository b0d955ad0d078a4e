import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Metadata } from 'sharp';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { writeTx, type EffectRecord } from '../../db/tx';
import { publish } from '../../live/events';
import type { User } from '../session';
import { API_BASE, PATHS } from '../../../shared/api';
import type { AvatarAnswer } from '../../../shared/schemas/user';

// Avatars (docs/decisions/0007-avatar.md). The client sends the cropped picture as the raw request body. The
// server trusts neither the name nor the declared type: the first bytes must be JPEG, PNG or WebP; the
// header's width x height must be within AVATAR_MAX_MEGAPIXELS before anything is decoded (and sharp's
// limitInputPixels holds the same line while decoding); a truncated or damaged file is refused
// (failOn: 'truncated'). The picture is then turned upright by its EXIF orientation, cut to 512x512 and
// encoded again as WebP, which drops every piece of metadata (EXIF, GPS, XMP, ICC comments). The file is
// named by the SHA-256 of its bytes, under DATA_DIR/avatars, written to a temporary name and renamed, so a
// reader never sees half a file; it never changes once written, so it is served with a year-long
// immutable cache. Only then does users.avatar change, in one write transaction with the live event that
// makes open apps reload the user.

const AVATAR_SIZE = 512;
const AVATAR_EXT = 'webp';
const NAME_PATTERN = /^[0-9a-f]{64}\.webp$/;

type ImageKind = 'jpeg' | 'png' | 'webp';

/** The image format by its first bytes (magic numbers), or null. */
function sniff(buf: Uint8Array): ImageKind | null {
  const at = (i: number, bytes: number[]) => bytes.every((b, k) => buf[i + k] === b);
  if (buf.length >= 3 && at(0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (buf.length >= 8 && at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (buf.length >= 12 && at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return 'webp';
  return null;
}

export function avatarDir(config: Deps['config']): string {
  return path.resolve(config.DATA_DIR, 'avatars');
}

/** The stored file of a public name, or null when the name is not one we could have made. */
export function avatarFile(config: Deps['config'], name: string): string | null {
  return NAME_PATTERN.test(name) ? path.join(avatarDir(config), name) : null;
}

export function avatarUrl(name: string): string {
  return API_BASE + PATHS.avatarFile.replace(':name', name);
}

/** Decodes, checks and re-encodes an uploaded picture: 512x512 WebP, upright, without metadata. */
async function reencode(input: Buffer, maxMegapixels: number): Promise<Buffer> {
  if (!sniff(input)) throw new AppError('avatar_not_image');
  const maxPixels = maxMegapixels * 1_000_000;
  // Loaded by the first upload, not at start (docs/operations.md#restarts).
  const { default: sharp } = await import('sharp');
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('avatar_unreadable');
  }
  if (!meta.width || !meta.height) throw new AppError('avatar_unreadable');
  if (meta.width * meta.height > maxPixels) throw new AppError('avatar_too_many_pixels', { n: maxMegapixels });
  try {
    return await sharp(input, { limitInputPixels: maxPixels, failOn: 'truncated', sequentialRead: true })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw new AppError('avatar_too_many_pixels', { n: maxMegapixels });
    throw new AppError('avatar_unreadable');
  }
}

/** Writes the file under its content's name (temp + rename) and returns the name. */
async function store(config: Deps['config'], bytes: Buffer): Promise<string> {
  const name = `${crypto.createHash('sha256').update(bytes).digest('hex')}.${AVATAR_EXT}`;
  const dir = avatarDir(config);
  await fs.mkdir(dir, { recursive: true });
  const final = path.join(dir, name);
  const exists = await fs.stat(final).then(
    (st) => st.size === bytes.length,
    () => false,
  );
  if (exists) {
    // Fresh again: retention prunes unreferenced pictures by age, and this one is about to be referenced.
    const t = new Date();
    await fs.utimes(final, t, t).catch(() => undefined);
  } else {
    const tmp = path.join(dir, `.${name}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
    await fs.writeFile(tmp, bytes, { mode: 0o644 });
    await fs.rename(tmp, final);
  }
  return name;
}


/** The upload's effect: re-encode, store, point the user at it. Refusals change nothing. */
export async function setAvatar(deps: Deps, user: User, input: Buffer, record?: EffectRecord): Promise<AvatarAnswer> {
  const out = await reencode(input, deps.config.AVATAR_MAX_MEGAPIXELS);
  const name = await store(deps.config, out);
  const avatar = avatarUrl(name);
  const now = deps.clock.now();
  // The transaction's result is the answer the Idempotency-Key keeps (lib/idempotency.ts).
  return writeTx(deps.db, async (tx, w): Promise<AvatarAnswer> => {
    await tx.updateTable('users').set({ avatar, updated_at: now }).where('id', '=', user.id).execute();
    await publish(w, { type: 'invalidate', tables: ['user'] }, user.id, now);
    return { avatar };
  }, record);
}
