// The writes of the profile, inbox, footprint and avatar screens tried as an attacker would: the same request
// 40 times in parallel, a body carrying __proto__ and oversized fields. One effect, one answer; refusals
// change nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PATHS } from '../../src/shared/api';
import { registerUser, startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000' });
});
afterAll(async () => {
  await s?.close();
});

describe('screens writes under attack', () => {
  it('mark all read, 40 times in parallel with one key: one answer for all, every notice read once', async () => {
    const u = await registerUser(s, 'attack-inbox@example.com');
    const now = s.clock.now();
    await s.db
      .insertInto('notifications')
      .values(Array.from({ length: 5 }, (_, i) => ({ user_id: u.mem_id, title: `n${i}`, title_cn: `n${i}`, body: 'b', body_cn: 'b', created_at: now + i, read_at: null })))
      .execute();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => s.api('POST', PATHS.notificationsRead, { all: true }, { token: u.token, idempotencyKey: 'attack-inbox-key-0001' })),
    );
    const ok = answers.filter((a) => a.code === 0);
    expect(ok.length).toBeGreaterThan(0);
    for (const a of ok) expect(a.data).toEqual(ok[0]!.data);
    expect(ok[0]!.data).toMatchObject({ marked: 5, unread: 0 });
    const rows = await s.db.selectFrom('notifications').select('read_at').where('user_id', '=', u.mem_id).execute();
    expect(rows.every((r) => r.read_at !== null)).toBe(true);
  });

  it('a read body with __proto__ or a huge id is refused and changes nothing', async () => {
    const u = await registerUser(s, 'attack-inbox2@example.com');
    await s.db.insertInto('notifications').values({ user_id: u.mem_id, title: 't', title_cn: 't', body: 'b', body_cn: 'b', created_at: s.clock.now(), read_at: null }).execute();
    const bodies = ['{"__proto__": {"all": true}}', '{"all": true, "__proto__": {"x": 1}}', `{"id": ${'9'.repeat(400)}}`, `{"id": "${'1'.repeat(70_000)}"}`];
    for (const body of bodies) {
      const res = await s.raw('POST', PATHS.notificationsRead, { headers: { 'Content-Type': 'application/json', Authorization: u.token, 'Idempotency-Key': `k-${body.length}` }, body });
      expect(res.status, body.slice(0, 40)).not.toBe(500);
      expect(((await res.json()) as { code: number }).code, body.slice(0, 40)).not.toBe(0);
    }
    const row = await s.db.selectFrom('notifications').select('read_at').where('user_id', '=', u.mem_id).executeTakeFirstOrThrow();
    expect(row.read_at).toBe(null);
  });

  it('the same avatar upload 40 times in parallel with one key: one file, one avatar, the same answer', async () => {
    const u = await registerUser(s, 'attack-avatar@example.com');
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 120, b: 60 } } }).jpeg().toBuffer();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        s.raw('POST', PATHS.userAvatar, { headers: { 'Content-Type': 'image/jpeg', Authorization: u.token, 'Idempotency-Key': 'attack-avatar-key-01' }, body: jpeg }).then(async (r) => ({ status: r.status, body: (await r.json()) as { code: number; data: unknown } })),
      ),
    );
    expect(answers.every((a) => a.status !== 500)).toBe(true);
    const ok = answers.filter((a) => a.body.code === 0);
    expect(ok.length).toBeGreaterThan(0);
    for (const a of ok) expect(a.body.data).toEqual(ok[0]!.body.data);
    const user = await s.db.selectFrom('users').select('avatar').where('id', '=', u.mem_id).executeTakeFirstOrThrow();
    expect(user.avatar).toMatch(/^\/h5\/api\/avatar\/[0-9a-f]{64}\.webp$/);
    // One stored file, and no temporary file left behind.
    expect(fs.readdirSync(path.join(s.dataDir, 'avatars'))).toEqual([path.basename(user.avatar)]);
  });
});
