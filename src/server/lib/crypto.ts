import { createHash, randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from '@node-rs/argon2';

// Passwords: argon2id at OWASP's parameters (m=19 MiB, t=2, p=1) in PHC form ($argon2id$v=19$m=...),
// through @node-rs/argon2. Stored scrypt hashes (N=2^17, r=8, p=1, in a
// self-describing string) still verify and are replaced by argon2id at the next right password.
// Every password is NFKC-normalised first, so the same characters typed on another keyboard match.

export interface Argon2Params {
  memoryKiB: number;
  timeCost: number;
  parallelism: number;
}

export const OWASP_ARGON2: Argon2Params = { memoryKiB: 19_456, timeCost: 2, parallelism: 1 };
const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (an ambient const enum: not usable under isolatedModules)

export function hashPassword(password: string, params: Argon2Params = OWASP_ARGON2): Promise<string> {
  return argon2Hash(password.normalize('NFKC'), {
    algorithm: ARGON2ID,
    memoryCost: params.memoryKiB,
    timeCost: params.timeCost,
    parallelism: params.parallelism,
  });
}

/** Whether `password` matches `stored`, and whether `stored` should be replaced by a hash made with
 *  `params` (an scrypt hash, or argon2 with other parameters). A malformed stored value never matches. */
export async function checkPassword(password: string, stored: string, params: Argon2Params = OWASP_ARGON2): Promise<{ ok: boolean; rehash: boolean }> {
  if (stored.startsWith('scrypt$')) return { ok: await verifyScrypt(password, stored), rehash: true };
  if (!stored.startsWith('$argon2')) return { ok: false, rehash: false };
  let ok: boolean;
  try {
    ok = await argon2Verify(stored, password.normalize('NFKC'));
  } catch {
    return { ok: false, rehash: false };
  }
  const wanted = `$argon2id$v=19$m=${params.memoryKiB},t=${params.timeCost},p=${params.parallelism}$`;
  return { ok, rehash: ok && !stored.startsWith(wanted) };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  return (await checkPassword(password, stored)).ok;
}

// ---- scrypt: hashes an older install stored (verify only; tests make some to prove the upgrade)
const R = 8;
const P = 1;
const KEYLEN = 32;

function scrypt(password: string, salt: Buffer, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, KEYLEN, { N: n, r: R, p: P, maxmem: 256 * n * R + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPasswordScrypt(password: string, log2n = 17): Promise<string> {
  const salt = randomBytes(16);
  const n = 2 ** log2n;
  const key = await scrypt(password, salt, n);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !n || !salt || !key || Number(r) !== R || Number(p) !== P) return false;
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), Number(n));
  const expected = Buffer.from(key, 'base64url');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

/** An opaque session token: 256 random bits. Only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

const INVITE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export function inviteCode(): string {
  let s = '';
  for (let i = 0; i < 6; i++) s += INVITE_ALPHABET[randomInt(0, INVITE_ALPHABET.length)];
  return s;
}
