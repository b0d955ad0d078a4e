import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../config';

// The server's own key (SECRET_KEY, or a random one kept in DATA_DIR/secret.key, readable by the owner
// only). It keys fingerprints that cover secrets, so a database dump alone cannot test password guesses
// against them.

const cache = new Map<string, Buffer>();

export function serverSecret(config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>): Buffer {
  if (config.SECRET_KEY) return Buffer.from(config.SECRET_KEY, 'utf8');
  const file = path.resolve(config.DATA_DIR, 'secret.key');
  const known = cache.get(file);
  if (known) return known;
  let key: Buffer;
  try {
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const fresh = randomBytes(32).toString('base64url');
    try {
      fs.writeFileSync(file, fresh + '\n', { mode: 0o600, flag: 'wx' });
    } catch {
      // another process created it first: use theirs
    }
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  }
  if (key.length < 16) throw new Error(`${file} holds no usable key; delete it to make a new one`);
  cache.set(file, key);
  return key;
}

export function hmac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
}
