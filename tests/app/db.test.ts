// The client's Dexie layer on fake-indexeddb (Node, no browser): a schema upgrade keeps cached rows; a socket
// invalidation refreshes the right tables from the API and a live query over them sees the new rows; a
// sign-out wipes every user table and keeps the public catalogue; a blocked upgrade or a full disk is said
// in words (en and zh) rather than leaving a blank screen or an endless spinner.
import 'fake-indexeddb/auto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// lib/storage reads localStorage; lib/i18n sets document.documentElement.lang; the request layer reads navigator.
import './browser-globals';

import Dexie, { liveQuery } from 'dexie';
import { I18nProvider } from '@lingui/react';
import { CREDITS_KEY, CanopyDb, PUBLIC_TABLES, SCHEMA, USER_TABLES, clearPrivateCache, db } from '../../src/app/lib/db';
import { USER_INFO_KEY } from '../../src/app/lib/user-info';
import { clearDbProblem, dbProblemOf, getDbProblem } from '../../src/app/lib/db-health';
import { wipeOnMemberChange } from '../../src/app/lib/session-cache';
import { onInvalidation } from '../../src/app/lib/sync';
import { configureApi } from '../../src/app/lib/api';
import { clearSession, saveLogin } from '../../src/app/lib/storage';
import { activateLocale, i18n } from '../../src/app/lib/i18n';
import { onServerMessage } from '../../src/app/app-runtime';
import { StorageAlert } from '../../src/app/components/storage-alert';
import { RouteError } from '../../src/app/components/error-state';
import { API_BASE, PATHS } from '../../src/shared/api';
import type { Locale } from '../../src/shared/api';
import type { NewsItem, Project } from '../../src/shared/schemas/content';
import type { LoginInfo } from '../../src/shared/schemas/auth';

// Only the fields the cache indexes and the tests read; the rest of a Project does not matter to Dexie.
const project = (id: number, name: string) => ({ id, name, name_cn: '', status: 'in_progress', type: 'forestry', selling_time_ms: 0, updated_at: 0 }) as unknown as Project;
const news = (id: number, title: string) => ({ id, title, published_at_ms: id }) as unknown as NewsItem;

/** Rows in every table of a database opened at any version (the v1 shape is a subset of every later one). */
async function fill(database: Dexie): Promise<void> {
  await database.table('projects').bulkPut([project(1, 'Kalimantan'), project(2, 'Mekong')]);
  await database.table('news').bulkPut([news(1, 'Carbon tax')]);
  await database.table('content').put({ key: 'faq', value: [], saved_at: 1 });
  // Public certificates and answers seen on this device (kept across sign-outs).
  if (database.tables.some((t) => t.name === 'certificates')) {
    await database.table('certificates').put({ id: 'AAAAAAAAAAAAAAAAAAAAAA', retired_at_ms: 1 });
    await database.table('public_answers').put({ key: 'transparency', value: {}, saved_at: 1 });
  }
  await database.table('orders').bulkPut([{ id: 10, side: 'buy', status: 'completed', created_at_ms: 5 }]);
  await database.table('fundlogs').bulkPut([
    { id: 20, kind: 'topup', created_at_ms: 6, owner: 42, amount: 1000 },
    { id: 21, kind: 'withdrawal_apply', created_at_ms: 7, owner: 42, amount: -500 },
    { id: 22, kind: 'topup', created_at_ms: 8, owner: 7, amount: 300 },
  ]);
  await database.table('meta').bulkPut([
    { key: USER_INFO_KEY, value: { info: { mem_id: 42 }, saved_at: 1 } },
    { key: CREDITS_KEY, value: { mem_id: 42, data: {}, saved_at: 1 } },
  ]);
}

async function counts(database: Dexie): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of database.tables) out[t.name] = await t.count();
  return out;
}

/** Resolves once `check` passes (polls; the socket path and Dexie's observers are asynchronous). */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// ---------------------------------------------------------------- a small API for the refreshes

const requests: string[] = [];
const projectName = 'Kalimantan (updated)';
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname.slice(API_BASE.length);
  requests.push(`${path}${url.searchParams.get('id') ? `?id=${url.searchParams.get('id')}` : ''}`);
  let data: unknown = null;
  if (path === PATHS.projectDetail) data = project(Number(url.searchParams.get('id')), projectName);
  else if (path === PATHS.newsLists) data = { list: [news(1, 'Carbon tax'), news(2, 'Article 6')], total: 2, page: 1, page_size: 10 };
  else if (path === PATHS.projectLists) data = { list: [], total: 0, page: 1, page_size: 20 };
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ code: 0, msg: '', data, wait: 3000, time: Date.now() }));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  configureApi({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(async () => {
  db.close();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  vi.restoreAllMocks();
  clearDbProblem();
});

async function render(locale: Locale, node: React.ReactElement): Promise<string> {
  await activateLocale(locale);
  return renderToString(createElement(I18nProvider, { i18n }, node));
}

// ---------------------------------------------------------------- schema

describe('schema upgrade', () => {
  it('opens a database of the previous version with the current one and keeps every cached row', async () => {
    expect(SCHEMA.length).toBeGreaterThanOrEqual(2);
    const name = 'canopy-upgrade';
    const previous = new Dexie(name);
    SCHEMA.slice(0, -1).forEach((stores, i) => previous.version(i + 1).stores(stores));
    await fill(previous);
    const before = await counts(previous);
    previous.close();

    const current = new CanopyDb(name);
    await current.open();
    expect(current.verno).toBe(SCHEMA.length);
    // A table new in this version starts empty; every other keeps its rows.
    const after = await counts(current);
    for (const t of Object.keys(after)) if (!(t in before)) expect(after[t], t).toBe(0);
    expect(Object.fromEntries(Object.entries(after).filter(([t]) => t in before))).toEqual(before);
    expect((await current.projects.get(1))?.name).toBe('Kalimantan');
    // The new index (v2: fund logs by owner) answers for rows written before it existed.
    expect((await current.fundlogs.where('owner').equals(42).primaryKeys()).sort()).toEqual([20, 21]);
    expect(await current.fundlogs.where('[owner+kind]').equals([42, 'topup']).primaryKeys()).toEqual([20]);
    current.close();
  });

  it('sorts every table into public or user data, so a new table cannot escape the sign-out wipe', () => {
    expect([...PUBLIC_TABLES, ...USER_TABLES].sort()).toEqual(db.tables.map((t) => t.name).sort());
  });
});

// ---------------------------------------------------------------- socket invalidation

describe('a socket invalidation', () => {
  it('refreshes only the tables (and ids) it names, and a live query over them sees the new rows', async () => {
    await db.projects.bulkPut([project(1, 'Kalimantan'), project(2, 'Mekong')]);
    await db.news.clear();
    const seen: Array<string | undefined> = [];
    const sub = liveQuery(() => db.projects.get(1)).subscribe({ next: (p) => seen.push(p?.name) });
    const heard: string[][] = [];
    const stop = onInvalidation((tables) => heard.push(tables));
    try {
      await until(() => seen.length > 0, 'the first answer of the live query');
      expect(seen.at(-1)).toBe('Kalimantan');

      requests.length = 0;
      await onServerMessage({ type: 'invalidate', tables: ['projects'], ids: [1] });
      await until(() => seen.at(-1) === 'Kalimantan (updated)', 'the live query to see the refreshed project');
      expect(requests).toEqual([`${PATHS.projectDetail}?id=1`]); // only that project, no news, no list
      expect((await db.projects.get(2))?.name).toBe('Mekong');
      expect(await db.news.count()).toBe(0);

      requests.length = 0;
      await onServerMessage({ type: 'invalidate', tables: ['news'] });
      expect(requests).toEqual([PATHS.newsLists]);
      expect((await db.news.toArray()).map((n) => n.title)).toEqual(['Carbon tax', 'Article 6']);

      // Tables the cache does not refresh itself (orders, fund logs, the user) are passed to the screens.
      requests.length = 0;
      await onServerMessage({ type: 'invalidate', tables: ['orders', 'user'] });
      expect(requests).toEqual([]);
      expect(heard).toEqual([['projects'], ['news'], ['orders', 'user']]);
    } finally {
      sub.unsubscribe();
      stop();
    }
  });
});

// ---------------------------------------------------------------- sign-out

describe('signing out', () => {
  it('wipes every user table (orders, fund logs, user info, credits) and keeps the public catalogue', async () => {
    await fill(db);
    saveLogin({ token: 't'.repeat(32), mem_id: 42, realname: 'Mei', account: 'mei@example.sg', mobile: '', avatar: '', type: 'personal', expires_at: Date.now() + 3_600_000 } as LoginInfo);
    const syncs = vi.fn();
    const stop = wipeOnMemberChange(db, syncs);
    try {
      clearSession(); // what logout, a -1 answer and the socket's 4001 close all do
      await until(async () => (await db.orders.count()) === 0 && (await db.meta.count()) === 0, 'the wipe');
      const after = await counts(db);
      for (const t of USER_TABLES) expect(after[t], t).toBe(0);
      for (const t of PUBLIC_TABLES) expect(after[t], t).toBeGreaterThan(0);
      expect(syncs).toHaveBeenCalled();
    } finally {
      stop();
    }
  });

  it('a guest who signs in keeps the footprints computed as a guest; the next member does not get them', async () => {
    await clearPrivateCache(db);
    clearSession();
    const footprint = (owner: number, at: number) => ({
      owner,
      answers: {} as never,
      result: { total_kg: 5000 } as never,
      created_at_ms: at,
      intent_key: `k-${owner}-${at}`,
      server_id: null,
    });
    await db.footprints.bulkAdd([footprint(0, 1), footprint(0, 2), footprint(7, 3)]);
    const stop = wipeOnMemberChange(db);
    try {
      saveLogin({ token: 'g'.repeat(32), mem_id: 42, realname: 'Mei', account: 'mei@example.sg', mobile: '', avatar: '', type: 'personal', expires_at: Date.now() + 3_600_000 } as LoginInfo);
      await until(async () => (await db.footprints.where('owner').equals(42).count()) === 2, 'the adoption');
      const mine = await db.footprints.toArray();
      expect(mine.map((r) => [r.owner, r.created_at_ms, r.server_id])).toEqual([
        [42, 1, null],
        [42, 2, null],
      ]);
      // From one member to another: nothing passes on.
      saveLogin({ token: 'h'.repeat(32), mem_id: 43, realname: 'Raj', account: 'raj@example.sg', mobile: '', avatar: '', type: 'personal', expires_at: Date.now() + 3_600_000 } as LoginInfo);
      await until(async () => (await db.footprints.count()) === 0, 'the wipe');
    } finally {
      stop();
      clearSession();
    }
  });

  it('clearPrivateCache empties every user table at once', async () => {
    await fill(db);
    await clearPrivateCache(db);
    const after = await counts(db);
    expect(USER_TABLES.map((t) => after[t])).toEqual(USER_TABLES.map(() => 0));
  });
});

// ---------------------------------------------------------------- storage problems

describe('storage problems are said, not hidden', () => {
  it('a blocked upgrade (another tab holds the old version) shows a message, gone once the upgrade goes through', async () => {
    const name = 'canopy-blocked';
    const old = await new Promise<IDBDatabase>((resolve, reject) => {
      // A tab of an older app version that does not let go (no onversionchange handler closing it).
      const req = indexedDB.open(name, 10); // Dexie stores version n as n x 10
      req.onupgradeneeded = () => req.result.createObjectStore('projects', { keyPath: 'id' });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error('indexedDB.open failed'));
    });
    const current = new CanopyDb(name);
    const opening = current.open();
    await until(() => getDbProblem() === 'blocked', 'the blocked event');
    expect(await render('en', createElement(StorageAlert))).toContain('Close the other Canopy tabs to finish updating.');
    expect(await render('zh-Hans', createElement(StorageAlert))).toContain('请关闭其他 Canopy 标签页以完成更新');

    old.close();
    await opening;
    expect(getDbProblem()).toBeNull();
    expect(await render('en', createElement(StorageAlert))).toBe('');
    current.close();
  });

  it('a full disk while a socket invalidation writes the cache shows a message and keeps the old rows', async () => {
    await db.projects.put(project(1, 'Kalimantan'));
    vi.spyOn(db.projects, 'put').mockRejectedValue(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
    const heard = vi.fn();
    const stop = onInvalidation(heard);
    try {
      await onServerMessage({ type: 'invalidate', tables: ['projects'], ids: [1] });
    } finally {
      stop();
    }
    expect(getDbProblem()).toBe('quota');
    expect(heard).toHaveBeenCalledWith(['projects']); // the screens still hear of the change
    expect((await db.projects.get(1))?.name).toBe('Kalimantan');
    expect(await render('en', createElement(StorageAlert))).toContain('storage is full');
    expect(await render('zh-Hans', createElement(StorageAlert))).toContain('存储空间已满');
  });

  it('a screen whose cache read throws gets the error screen with the reason, not a blank page', async () => {
    const err = new Dexie.QuotaExceededError('no room');
    expect(dbProblemOf(err)).toBe('quota');
    expect(dbProblemOf(new Dexie.OpenFailedError('gone', new DOMException('x', 'InvalidStateError')))).toBe('unavailable');
    expect(dbProblemOf(new Error('plain'))).toBeNull();
    const screen = await render('en', createElement(RouteError, { error: err, reset: () => undefined, info: { componentStack: '' } }));
    expect(screen).toContain('storage is full');
    expect(screen).toContain('Try again');
    const other = await render('zh-Hans', createElement(RouteError, { error: new Error('boom'), reset: () => undefined, info: { componentStack: '' } }));
    expect(other).toContain('此页面出现了问题');
    expect(other).toContain('重试');
  });
});
