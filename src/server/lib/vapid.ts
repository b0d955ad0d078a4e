import type { Kysely } from 'kysely';
import type { DB } from '../db/connection';
import type { Config } from '../config';

// The VAPID key pair that signs every Web Push message (docs/decisions/0033-web-push.md). A device's
// subscription is bound to the public key it was made with, so every instance must sign with the same
// pair, like the fingerprint key (lib/secret.ts, docs/decisions/0025-shared-secret.md): from
// VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set, otherwise the pair the database keeps in `server_secret`
// (the first instance to start inserts its new pair; every instance reads back the row that won).

const ROW = 'vapid';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

interface SecretDb {
  server_secret: { name: string; key: string | null; check_hash: string; created_at: number };
}

const loaded = new WeakMap<object, VapidKeys>();

/** Reads (or, on the first start of a database, makes) the pair every instance shares. Called once by
 *  startServer, before it listens; the sender and the key endpoint read it with vapidKeys(). */
export async function loadVapidKeys(db: DB, config: Pick<Config, 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT'>, now: number): Promise<VapidKeys> {
  const subject = config.VAPID_SUBJECT;
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    const keys = { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject };
    loaded.set(config, keys);
    return keys;
  }
  const d = db as unknown as Kysely<SecretDb>;
  const kept = () => d.selectFrom('server_secret').select(['key', 'check_hash']).where('name', '=', ROW).executeTakeFirst();
  // Read first: a restart finds the pair and writes nothing (nor loads web-push to make one).
  let row = await kept();
  if (!row) {
    const { default: webpush } = await import('web-push');
    const made = webpush.generateVAPIDKeys();
    await d
      .insertInto('server_secret')
      .values({ name: ROW, key: `${made.publicKey}.${made.privateKey}`, check_hash: made.publicKey, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    row = await kept();
    if (!row) throw new Error('the VAPID key pair was not kept in the server_secret table');
  }
  const [publicKey, privateKey] = (row.key ?? '').split('.');
  if (!publicKey || !privateKey || publicKey !== row.check_hash) throw new Error('the VAPID key pair kept in the server_secret table is damaged: see "Rotate secrets" in docs/operations.md');
  const keys = { publicKey, privateKey, subject };
  loaded.set(config, keys);
  return keys;
}

/** The pair loadVapidKeys found for this config; undefined in an app built without startServer. */
export function vapidKeys(config: object): VapidKeys | undefined {
  return loaded.get(config);
}
