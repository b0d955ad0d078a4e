// A push service on 127.0.0.1 for the Web Push tests, and a device's side of RFC 8291: the device's key
// pair and auth secret (made with node:crypto), and the decryption of an aes128gcm body (RFC 8188) with
// them, so a test reads exactly what the server encrypted. It also checks the VAPID signature (RFC 8292)
// of each push against the server's public key.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';

export interface Device {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  /** The PushSubscription's JSON as a browser gives it. */
  subscription(endpoint: string): { endpoint: string; keys: { p256dh: string; auth: string } };
}

export function newDevice(): Device {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    subscription: (endpoint) => ({ endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } }),
  };
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, len: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, len));

/** RFC 8291 with RFC 8188's aes128gcm, one record: the plaintext the server sent this device. */
export function decrypt(device: Device, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const cipher = body.subarray(21 + idlen);
  const uaPublic = device.ecdh.getPublicKey();
  const ecdhSecret = device.ecdh.computeSecret(asPublic);
  const ikm = hkdf(device.auth, ecdhSecret, Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]), 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(cipher.subarray(cipher.length - 16));
  const padded = Buffer.concat([decipher.update(cipher.subarray(0, cipher.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** Checks `Authorization: vapid t=<JWT>, k=<key>`: signed (ES256) by `publicKey`, for this origin. */
export function vapidValid(authorization: string | undefined, publicKey: string, origin: string): boolean {
  const m = /^vapid t=([^,]+),\s*k=(.+)$/.exec(authorization ?? '');
  if (!m || m[2] !== publicKey) return false;
  const [head, claims, sig] = m[1]!.split('.');
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  const signed = verify('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig!, 'base64url'));
  const body = JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')) as { aud: string; exp: number };
  return signed && body.aud === origin;
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface PushService {
  origin: string;
  received: Received[];
  /** The status the next pushes get, per path (default 201). */
  answer: Map<string, number>;
  endpoint(name: string): string;
  close(): Promise<void>;
}

export async function startPushService(port = 0): Promise<PushService> {
  const received: Received[] = [];
  const answer = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      // A push service takes one record of at most 4096 bytes (RFC 8291 section 4); FCM answers 413 beyond.
      res.statusCode = Buffer.concat(chunks).length > 4096 ? 413 : (answer.get(path) ?? 201);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    answer,
    endpoint: (name) => `${origin}/push/${name}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
