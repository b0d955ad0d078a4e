// The notifications inbox (docs/decisions/0008-inbox.md) over real HTTP: newest first with paging and
// the unread count, notices in both languages (as stored and as sent live), mark one and mark all
// (idempotent), and another user's notice refused with the catalogue error, nothing changed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import type { NoticePage, NoticeReadResult } from '../../src/shared/schemas/inbox';
import { noticeText } from '../../src/shared/schemas/inbox';
import { MIN, startTestServer, type TestServer } from '../helpers/server';
import { WALLET_ENV, expectRefused, newKey, newUser, ok, ops, write, type WalletUser } from './wallet-helpers';

let s: TestServer;
let u: WalletUser;
let other: WalletUser;
beforeAll(async () => {
  s = await startTestServer(WALLET_ENV);
  u = await newUser(s, { ready: false, tag: 'inbox' });
  other = await newUser(s, { ready: false, tag: 'inbox-other' });
});
afterAll(async () => {
  await s?.close();
});

const list = async (who: WalletUser, page = 1, page_size = 10) => ok(await s.api<NoticePage>('GET', PATHS.notifications, { page, page_size }, { token: who.token }));
const markRead = (who: WalletUser, data: Record<string, unknown>, key?: string) => write(s, PATHS.notificationsRead, data, who, { key });

/** An operator notice to one user, through the CLI command the operator runs. */
async function send(who: WalletUser, notice: { title: string; body: string; title_cn?: string; body_cn?: string }): Promise<number> {
  const file = path.join(s.dataDir, `notice-${newKey()}.json`);
  fs.writeFileSync(file, JSON.stringify(notice));
  const res = await ops(s, 'notice:send', [who.email, file]);
  s.clock.advance(MIN);
  return (res.data as { id: number }).id;
}

describe('inbox', () => {
  const ids: number[] = [];
  beforeAll(async () => {
    for (let i = 1; i <= 5; i++) ids.push(await send(u, { title: `Notice ${i}`, title_cn: `通知 ${i}`, body: `Body ${i}`, body_cn: `正文 ${i}` }));
    await send(other, { title: 'Not yours', title_cn: '不是你的', body: 'Other', body_cn: '其他' });
  });

  it('lists the caller\'s notices newest first, paged, with the unread count', async () => {
    const first = await list(u, 1, 2);
    expect(first.total).toBe(5);
    expect(first.unread).toBe(5);
    expect(first.list.map((n) => n.id)).toEqual([ids[4], ids[3]]);
    const third = await list(u, 3, 2);
    expect(third.list.map((n) => n.id)).toEqual([ids[0]]);
    expect(first.list.every((n) => !n.read)).toBe(true);
    expect(first.list[0]!.created_at_ms).toBeGreaterThan(first.list[1]!.created_at_ms);
  });

  it('keeps every notice in both languages, as stored and as sent live', async () => {
    const [n] = (await list(u, 1, 1)).list;
    expect(n).toMatchObject({ title: 'Notice 5', title_cn: '通知 5', body: 'Body 5', body_cn: '正文 5' });
    expect(noticeText(n!, 'en')).toEqual({ title: 'Notice 5', body: 'Body 5' });
    expect(noticeText(n!, 'cn')).toEqual({ title: '通知 5', body: '正文 5' });
    const events = await s.db.selectFrom('live_events').select('payload').where('user_id', '=', u.id).orderBy('id', 'desc').execute();
    const live = events.map((e) => JSON.parse(e.payload) as { type: string; id?: number }).find((m) => m.type === 'notification' && m.id === n!.id);
    expect(live).toMatchObject({ title: 'Notice 5', title_cn: '通知 5', body: 'Body 5', body_cn: '正文 5' });
    // A notice sent without Chinese text reads in English in both languages.
    expect(noticeText({ title: 'Only English', title_cn: '', body: 'Text', body_cn: '' }, 'cn')).toEqual({ title: 'Only English', body: 'Text' });
  });

  it('marks one notice read; a retry with the same key answers the same and changes nothing', async () => {
    const key = newKey();
    const first = ok(await markRead(u, { id: ids[1] }, key)) as NoticeReadResult;
    expect(first).toEqual({ marked: 1, unread: 4 });
    const row = await s.db.selectFrom('notifications').select('read_at').where('id', '=', ids[1]!).executeTakeFirstOrThrow();
    s.clock.advance(MIN);
    expect(ok(await markRead(u, { id: ids[1] }, key))).toEqual(first);
    // A new key for the same notice: nothing left to mark, the first reading time stays.
    expect(ok(await markRead(u, { id: ids[1] }))).toEqual({ marked: 0, unread: 4 });
    expect(await s.db.selectFrom('notifications').select('read_at').where('id', '=', ids[1]!).executeTakeFirstOrThrow()).toEqual(row);
    const page = await list(u);
    expect(page.unread).toBe(4);
    expect(page.list.find((n) => n.id === ids[1])!.read).toBe(true);
    // The user's other devices hear of it.
    const last = await s.db.selectFrom('live_events').select('payload').where('user_id', '=', u.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(last.payload)).toEqual({ type: 'invalidate', tables: ['notifications'] });
  });

  it('refuses another user\'s notice (and one that does not exist) with notice_not_found, nothing changed', async () => {
    const theirs = (await list(other)).list[0]!.id;
    await expectRefused(s, 'notice_not_found', (lang) => s.api('POST', PATHS.notificationsRead, { id: theirs }, { token: u.token, lang, idempotencyKey: newKey() }));
    await expectRefused(s, 'notice_not_found', (lang) => s.api('POST', PATHS.notificationsRead, { id: 9_999_999 }, { token: u.token, lang, idempotencyKey: newKey() }));
    expect((await list(other)).unread).toBe(1);
  });

  it('refuses a request naming neither or both, or an unknown field', async () => {
    await expectRefused(s, 'invalid_request', (lang) => s.api('POST', PATHS.notificationsRead, {}, { token: u.token, lang, idempotencyKey: newKey() }));
    await expectRefused(s, 'invalid_request', (lang) => s.api('POST', PATHS.notificationsRead, { id: ids[0], all: true }, { token: u.token, lang, idempotencyKey: newKey() }));
    await expectRefused(s, 'invalid_request', (lang) => s.api('POST', PATHS.notificationsRead, { all: true, user_id: other.id }, { token: u.token, lang, idempotencyKey: newKey() }), { field: 'user_id' });
    await expectRefused(s, 'invalid_request', (lang) => s.api('POST', PATHS.notificationsRead, { all: true }, { token: u.token, lang }), { field: 'Idempotency-Key' });
  });

  it('marks all read, only the caller\'s; a retry is idempotent', async () => {
    const key = newKey();
    expect(ok(await markRead(u, { all: true }, key))).toEqual({ marked: 4, unread: 0 });
    expect(ok(await markRead(u, { all: true }, key))).toEqual({ marked: 4, unread: 0 });
    expect(ok(await markRead(u, { all: true }))).toEqual({ marked: 0, unread: 0 });
    const page = await list(u);
    expect(page.unread).toBe(0);
    expect(page.list.every((n) => n.read)).toBe(true);
    expect((await list(other)).unread).toBe(1);
  });

  it('is for members only', async () => {
    const visitor = ok(await s.api('POST', PATHS.visitor)) as { token: string };
    await expectRefused(s, 'guest_forbidden', (lang) => s.api('POST', PATHS.notificationsRead, { all: true }, { token: visitor.token, lang, idempotencyKey: newKey() }));
    await expectRefused(s, 'guest_forbidden', (lang) => s.api('GET', PATHS.notifications, {}, { token: visitor.token, lang }));
  });
});
