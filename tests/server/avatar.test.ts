// Avatar upload over real HTTP (docs/decisions/0007-avatar.md): good pictures are re-encoded to a
// 512x512 WebP without metadata, stored content-addressed under DATA_DIR/avatars and served immutable;
// bad files (not an image, too large, too many pixels, truncated) get their catalogue error in en and cn
// and change nothing: not the user's avatar, not the database, not the avatars folder.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import type { Lang } from '../../src/shared/errors';
import { refusal, startTestServer, type Envelope, type TestServer } from '../helpers/server';
import { LANGS, WALLET_ENV, newKey, newUser, walletSnapshot, type WalletUser } from './wallet-helpers';

let s: TestServer;
let u: WalletUser;
beforeAll(async () => {
  s = await startTestServer(WALLET_ENV);
  u = await newUser(s, { ready: false, tag: 'avatar' });
});
afterAll(async () => {
  await s?.close();
});

interface Sent {
  status: number;
  body: Envelope<{ avatar: string } | null>;
}

async function upload(bytes: Uint8Array, opts: { type?: string; lang?: Lang; key?: string; token?: string } = {}): Promise<Sent> {
  const headers: Record<string, string> = { 'Content-Type': opts.type ?? 'image/jpeg', 'Idempotency-Key': opts.key ?? newKey() };
  const token = opts.token ?? u.token;
  if (token) headers.Authorization = token;
  const res = await s.raw('POST', PATHS.userAvatar, { body: bytes, headers, query: `lang=${opts.lang ?? 'en'}` });
  return { status: res.status, body: (await res.json()) as Sent['body'] };
}

const avatarOf = async (id: number) => (await s.db.selectFrom('users').select('avatar').where('id', '=', id).executeTakeFirstOrThrow()).avatar;
const storedFiles = () => {
  const dir = path.join(s.dataDir, 'avatars');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};
const fileOf = (url: string) => path.join(s.dataDir, 'avatars', url.split('/').pop()!);

/** A 640x480 photo-like JPEG with EXIF (camera, GPS position) and orientation 6 (shot rotated). */
async function photoWithGps(): Promise<Buffer> {
  const noise = Buffer.alloc(640 * 480 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 37 + (i >> 7) * 11) & 0xff;
  return sharp(noise, { raw: { width: 640, height: 480, channels: 3 } })
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: 'CanopyCam', Model: 'Test 1', Orientation: '6' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '1/1 17/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '103/1 51/1 0/1' },
    })
    .toBuffer();
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** A valid 20,000 x 20,000 PNG (1-bit grey, all black) of a few tens of KiB: a decompression bomb. */
function bombPng(side = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const row = Buffer.alloc(1 + Math.ceil(side / 8)); // filter byte 0, then zeros
  const idat = zlib.deflateSync(Buffer.concat(Array.from({ length: side }, () => row)), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** Sends a bad file in en and cn: the catalogue error, and nothing changed anywhere. */
async function expectBad(key: Parameters<typeof refusal>[0], bytes: Uint8Array, opts: { status?: number; params?: Record<string, number>; type?: string } = {}) {
  for (const lang of LANGS) {
    const before = { db: await walletSnapshot(s.db), avatar: await avatarOf(u.id), files: storedFiles() };
    const res = await upload(bytes, { lang, type: opts.type });
    expect(res.status, `${key} ${lang}`).toBe(opts.status ?? 200);
    expect({ code: res.body.code, msg: res.body.msg }, `${key} in ${lang}`).toEqual(refusal(key, lang, opts.params));
    const after = { db: await walletSnapshot(s.db), avatar: await avatarOf(u.id), files: storedFiles() };
    expect(after, `changed on ${key} (${lang})`).toEqual(before);
  }
}

describe('a good picture', () => {
  it('is re-encoded to a 512x512 WebP without EXIF or GPS, stored by its hash and set on the user', async () => {
    const photo = await photoWithGps();
    const meta = await sharp(photo).metadata();
    expect(meta.exif?.length ?? 0).toBeGreaterThan(0); // the input does carry EXIF
    const res = await upload(photo);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const url = res.body.data!.avatar;
    expect(url).toMatch(new RegExp(`^${API_BASE}${PATHS.avatarFile.replace(':name', '')}[0-9a-f]{64}\\.webp$`));
    expect(await avatarOf(u.id)).toBe(url);
    const info = await s.api('GET', PATHS.userInfo, {}, { token: u.token });
    expect(info.data.avatar).toBe(url);

    const stored = fs.readFileSync(fileOf(url));
    const out = await sharp(stored).metadata();
    expect(out.format).toBe('webp');
    expect([out.width, out.height]).toEqual([512, 512]);
    expect(out.exif).toBeUndefined();
    expect(out.xmp).toBeUndefined();
    expect(stored.includes(Buffer.from('CanopyCam'))).toBe(false);
    expect(out.orientation ?? 1).toBe(1);
    // No temporary file left behind.
    expect(storedFiles().filter((f) => f.endsWith('.tmp') || f.startsWith('.'))).toEqual([]);
  });

  it('is served with a year-long immutable cache, nosniff and its type; unknown or crooked names are 404', async () => {
    const url = (await avatarOf(u.id))!;
    const res = await s.raw('GET', url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(fs.readFileSync(fileOf(url)))).toBe(true);
    const again = await s.raw('GET', url, { headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);

    for (const bad of [`${'0'.repeat(64)}.webp`, 'secret.key', '..%2Fsecret.key', '..%2F..%2Fetc%2Fpasswd', `${'A'.repeat(64)}.webp`, `${url.split('/').pop()!.slice(0, 64)}.jpg`]) {
      const r = await s.raw('GET', API_BASE + PATHS.avatarFile.replace(':name', bad));
      expect(r.status, bad).toBe(404);
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('takes a PNG sent under a JPEG type: the bytes decide, not the name (documented choice)', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 20, g: 120, b: 60 } } })
      .png()
      .toBuffer();
    const res = await upload(png, { type: 'image/jpeg' });
    expect(res.body.code).toBe(0);
    const out = await sharp(fs.readFileSync(fileOf(res.body.data!.avatar))).metadata();
    expect([out.format, out.width, out.height]).toEqual(['webp', 512, 512]);
  });

  it('is idempotent by its key: a retry gets the same answer and stores nothing more', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 10, b: 10 } } })
      .png()
      .toBuffer();
    const key = newKey();
    const first = await upload(png, { key });
    const files = storedFiles();
    const second = await upload(png, { key });
    expect(second.body.data).toEqual(first.body.data);
    expect(storedFiles()).toEqual(files);
    // The same key with another picture is refused.
    const other = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 0, b: 200 } } })
      .png()
      .toBuffer();
    const third = await upload(other, { key });
    expect({ code: third.body.code, msg: third.body.msg }).toEqual(refusal('idempotency_mismatch'));
  });
});

describe('bad files change nothing', () => {
  it('refuses a zip (not an image), whatever type it claims', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]), Buffer.alloc(200, 7)]);
    await expectBad('avatar_not_image', zip);
    await expectBad('avatar_not_image', zip, { type: 'application/zip' });
    await expectBad('avatar_not_image', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), { type: 'image/svg+xml' });
    await expectBad('avatar_not_image', Buffer.alloc(0));
  });

  it('refuses a 20,000 x 20,000 picture for its pixels', async () => {
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expectBad('avatar_too_many_pixels', bomb, { params: { n: 40 }, type: 'image/png' });
  });

  it('refuses a truncated JPEG', async () => {
    const photo = await photoWithGps();
    await expectBad('avatar_unreadable', photo.subarray(0, Math.floor(photo.length * 0.6)));
    await expectBad('avatar_unreadable', photo.subarray(0, 40));
  });

  it('refuses 6 MiB with HTTP 413 before reading it', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 1);
    big.set([0xff, 0xd8, 0xff, 0xe0], 0);
    await expectBad('avatar_too_large', big, { status: 413, params: { n: 5 } });
  });

  it('is for signed-in users with an Idempotency-Key', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const noSession = await upload(png, { token: '' });
    expect(noSession.body.code).toBe(refusal('session_expired').code);
    const visitor = (await s.api('POST', PATHS.visitor)).data as { token: string };
    const guest = await upload(png, { token: visitor.token });
    expect(guest.body.code).toBe(refusal('guest_forbidden').code);
    const res = await s.raw('POST', PATHS.userAvatar, { body: png, headers: { 'Content-Type': 'image/png', Authorization: u.token } });
    expect(((await res.json()) as Envelope).code).toBe(refusal('invalid_request').code);
  });

  it('is throttled per account', async () => {
    const t = await startTestServer({ ...WALLET_ENV, AVATAR_UPLOADS_PER_ACCOUNT_PER_HOUR: '2' });
    try {
      const v = await newUser(t, { ready: false, tag: 'avatar-throttle' });
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#080' } })
        .png()
        .toBuffer();
      const send = () => t.raw('POST', PATHS.userAvatar, { body: png, headers: { 'Content-Type': 'image/png', Authorization: v.token, 'Idempotency-Key': newKey() } });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const third = await send();
      expect(third.status).toBe(429);
      expect(((await third.json()) as Envelope).code).toBe(refusal('too_many_requests').code);
    } finally {
      await t.close();
    }
  });
});
