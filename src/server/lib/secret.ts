import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/connection';
import type { Config } from '../config';

// The server's key for fingerprints of retried writes (lib/idempotency.ts). Every instance of a database
// must use the same one, or a retry answered by another instance is refused as "different details"
// (docs/decisions/0025-shared-secret.md). Without SECRET_KEY the database keeps it: the first instance to
// start inserts one if there is none and every instance reads back the row that won. With SECRET_KEY the
// database keeps only a check of it (an HMAC of a fixed text), and an instance whose key fails the check
// refuses to start.

const CHECK_TEXT = 'canopy: the key of request fingerprints';
const ROW = 'fingerprints';

interface SecretDb {
  server_secret: { name: string; key: string | null; check_hash: string; created_at: number };
}

/** Keys loaded by loadServerSecret, per config (tests run several servers in one process). */
const loaded = new WeakMap<object, Buffer>();
const fileCache = new Map<string, Buffer>();

function keyCheck(key: Buffer): string {
  return hmac(key, CHECK_TEXT);
}

/** DATA_DIR/secret.key: the key of an instance started before the database kept one, or of an app built
 *  without startServer (some tests). */
function fileKey(dataDir: string, create: boolean): Buffer | null {
  const file = path.resolve(dataDir, 'secret.key');
  const known = fileCache.get(file);
  if (known) return known;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch {
    if (!create) return null;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
    } catch {
      // another process created it first: use theirs
    }
    text = fs.readFileSync(file, 'utf8').trim();
  }
  const key = Buffer.from(text, 'base64url');
  if (key.length < 16) throw new Error(`${file} holds no usable key; delete it to make a new one`);
  fileCache.set(file, key);
  return key;
}

/** Reads (or, on the first start of a database, makes) the key every instance shares; refuses a SECRET_KEY
 *  that is not the one the database recorded. Called once by startServer, before it listens. */
export async function loadServerSecret(db: DB, config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>, now: number): Promise<Buffer> {
  const d = db as unknown as Kysely<SecretDb>;
  const supplied = config.SECRET_KEY ? Buffer.from(config.SECRET_KEY, 'utf8') : null;
  // An instance upgraded from a per-instance key file offers that key, so its retries in flight still match.
  const kept = () => d.selectFrom('server_secret').select(['key', 'check_hash']).where('name', '=', ROW).executeTakeFirst();
  // Read first: a restart finds the key and writes nothing.
  let row = await kept();
  if (!row) {
    const candidate = supplied ?? fileKey(config.DATA_DIR, false) ?? randomBytes(32);
    await d
      .insertInto('server_secret')
      .values({ name: ROW, key: supplied ? null : candidate.toString('base64url'), check_hash: keyCheck(candidate), created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    row = await kept();
    if (!row) throw new Error('the key of request fingerprints was not kept in the server_secret table');
  }
  if (supplied) {
    if (row.check_hash !== keyCheck(supplied)) {
      throw new Error(
        row.key === null
          ? 'SECRET_KEY is not the key the other instances of this database use: set the same SECRET_KEY on every instance (to change it, see "Rotate secrets" in docs/operations.md)'
          : 'SECRET_KEY is set, but this database keeps its own key (its instances were started without SECRET_KEY): unset SECRET_KEY, or see "Rotate secrets" in docs/operations.md',
      );
    }
    loaded.set(config, supplied);
    return supplied;
  }
  if (row.key === null) throw new Error('SECRET_KEY is not set, but the other instances of this database use one: set the same SECRET_KEY here');
  const key = Buffer.from(row.key, 'base64url');
  if (key.length < 16 || row.check_hash !== keyCheck(key)) throw new Error('the key kept in the server_secret table is damaged: see "Rotate secrets" in docs/operations.md');
  loaded.set(config, key);
  return key;
}

export function serverSecret(config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>): Buffer {
  if (config.SECRET_KEY) return Buffer.from(config.SECRET_KEY, 'utf8');
  return loaded.get(config) ?? fileKey(config.DATA_DIR, true)!;
}

export function hmac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
}
