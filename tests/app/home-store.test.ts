// Home's first screen without the offline store's code (lib/store.ts), on fake-indexeddb: what it draws from
// the device (a plain IndexedDB read, lib/device-read.ts) and from the network's answers before they are
// written is what the store's live queries read once it has loaded, so nothing changes when the store takes
// over; the device read neither creates the database nor holds up the store's upgrade; the store's writes
// wait while it is deferred and run once it loads.
import 'fake-indexeddb/auto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import './browser-globals';
import { CanopyDb } from '../../src/app/lib/db';
import { readDevice } from '../../src/app/lib/device-read';
import { homeBanners, homeNews, homeOnDevice, homeProjects, newsWithPage, projectsWithPage } from '../../src/app/features/home/home-data';
import { noticeFactsOnDevice, unseenNotices, unseenOf, withAnswer } from '../../src/app/lib/notice-badge';
import { refreshNotices } from '../../src/app/lib/notices';
import { refreshNews, refreshProjects, type ProjectQuery } from '../../src/app/lib/sync';
import { configureApi } from '../../src/app/lib/api';
import { NOTICES_SEEN_KEY, NOTICES_UNREAD_KEY } from '../../src/app/lib/notice-keys';
import { deferStore, loadStore, writeStore } from '../../src/app/lib/store';
import { API_BASE, PATHS, type Paged } from '../../src/shared/api';
import type { Banner, NewsItem, Project } from '../../src/shared/schemas/content';
import type { NoticePage } from '../../src/shared/schemas/inbox';
import type { NotificationItem } from '../../src/shared/schemas/wallet';

const project = (id: number, status: string, selling_time_ms: number, join_block: string | null = null) =>
  ({ id, name: `p${id}`, name_cn: '', status, type: 'forestry', selling_time_ms, join_block, updated_at: 0 }) as unknown as Project;
const news = (id: number, published_at_ms: number) => ({ id, title: `n${id}`, published_at_ms }) as unknown as NewsItem;
const notice = (id: number, read: boolean) => ({ id, title: `t${id}`, title_cn: '', body: '', body_cn: '', created_at: '', created_at_ms: id, read }) as NotificationItem;

// ---------------------------------------------------------------- a small API answering what a test sets

const answers = new Map<string, unknown>();
const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname.slice(API_BASE.length);
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ code: 0, msg: '', data: answers.get(path) ?? null, wait: 3000, time: Date.now() }));
});

// The app's store (lib/db.ts `db`, the database the device read reads).
const db = new CanopyDb();

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  configureApi({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(async () => {
  db.close();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  answers.clear();
  await Promise.all(db.tables.map((t) => t.clear()));
});

/** Projects with ties in home's order (same rank and selling time), closed and withdrawn ones among them. */
async function seedProjects(): Promise<void> {
  await db.projects.bulkPut([
    project(7, 'presale', 50),
    project(3, 'in_progress', 50),
    project(5, 'in_progress', 50),
    project(4, 'in_progress', 90, 'sold_out'),
    project(6, 'presale', 80),
    project(2, 'closed', 99, 'ended'),
    project(9, 'pending_review', 99),
    project(8, 'in_progress', 10),
  ]);
}

describe("home's data from the device, without the store", () => {
  it('gives nothing on a device that keeps nothing yet, and leaves the database uncreated', async () => {
    const name = 'canopy-never-opened';
    expect(await readDevice(['projects'], () => Promise.resolve('read'), name)).toBeUndefined();
    const created = await new Promise<number>((resolve, reject) => {
      const req = indexedDB.open(name);
      let oldVersion = -1;
      req.onupgradeneeded = (e) => (oldVersion = e.oldVersion);
      req.onsuccess = () => {
        req.result.close();
        resolve(oldVersion);
      };
      req.onerror = () => reject(req.error ?? new Error('open failed'));
    });
    expect(created, 'an upgrade from version 0: the read did not create it').toBe(0);
  });

  it("is what the store's live queries read: the same projects in the same order, banners and latest news", async () => {
    await seedProjects();
    const banners = [{ id: 1, title: 'b', title_cn: '', image: '/b.svg', link: '' }] as Banner[];
    await db.content.put({ key: 'banners', value: banners, saved_at: 1 });
    await db.news.bulkPut([news(1, 10), news(2, 30), news(3, 30), news(4, 20), news(5, 5)]);
    const device = await homeOnDevice();
    expect(device?.projects.map((p) => p.id)).toEqual([3, 5, 8, 6, 7, 4]);
    expect(device).toEqual({ projects: await homeProjects(db), banners: await homeBanners(db), news: await homeNews(db), anyProjects: true, anyNews: true });
    expect(device?.news.map((n) => n.id)).toEqual([3, 2, 4]);
  });

  it('lets go of the database at once, so the store opens its next version without being blocked', async () => {
    const name = 'canopy-next-version';
    const open = (version: number, onblocked?: () => void) =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name, version);
        req.onupgradeneeded = () => {
          if (!req.result.objectStoreNames.contains('projects')) req.result.createObjectStore('projects', { keyPath: 'id' });
        };
        if (onblocked) req.onblocked = onblocked;
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error ?? new Error('open failed'));
      });
    (await open(10)).close();
    expect(await readDevice(['projects'], () => Promise.resolve('read'), name)).toBe('read');
    let blocked = false;
    (
      await open(20, () => {
        blocked = true;
      })
    ).close();
    expect(blocked).toBe(false);
  });
});

describe("the network's answers, drawn before the store has them", () => {
  const query: ProjectQuery = { page: 1, page_size: 20 };
  const page = <T>(list: T[], total: number): Paged<T> => ({ list, total, page: 1, page_size: 20, next_cursor: null }) as Paged<T>;

  it('are what the store holds once they are written: a page of part of the catalogue', async () => {
    await seedProjects();
    const device = await homeOnDevice();
    // Project 6 sold out since; 5 is closed now; 10 is new. The catalogue has more than this page.
    answers.set(PATHS.projectLists, page([project(10, 'in_progress', 60), project(6, 'presale', 80, 'sold_out'), project(5, 'closed', 50, 'ended')], 30));
    let answered: Paged<Project> | undefined;
    await refreshProjects(query, db, { onAnswer: (p) => (answered = p) });
    expect(answered).toBeDefined();
    const drawn = projectsWithPage(device?.projects, query, answered!);
    expect(drawn).toEqual(await homeProjects(db));
    expect(drawn.map((p) => p.id)).toEqual([10, 3, 8, 7, 4, 6]);
  });

  it('are what the store holds once they are written: the whole catalogue, which drops what it does not list', async () => {
    await seedProjects();
    const device = await homeOnDevice();
    answers.set(PATHS.projectLists, page([project(3, 'in_progress', 50), project(11, 'presale', 70)], 2));
    let answered: Paged<Project> | undefined;
    await refreshProjects(query, db, { onAnswer: (p) => (answered = p) });
    const drawn = projectsWithPage(device?.projects, query, answered!);
    expect(drawn).toEqual(await homeProjects(db));
    expect(drawn.map((p) => p.id)).toEqual([3, 11]);
  });

  it('are what the store holds once they are written: the latest news', async () => {
    await db.news.bulkPut([news(1, 10), news(2, 30), news(4, 20)]);
    const device = await homeOnDevice();
    answers.set(PATHS.newsLists, page([news(6, 40), news(2, 30), news(7, 30)], 3));
    let answered: Paged<NewsItem> | undefined;
    await refreshNews(1, db, 10, { onAnswer: (p) => (answered = p) });
    const drawn = newsWithPage(device?.news, answered!);
    expect(drawn).toEqual(await homeNews(db));
    expect(drawn.map((n) => n.id)).toEqual([6, 7, 2]);
  });

  it("and the tab bar's unseen notice count: from the device, then with the refresh's answer, as the store counts it", async () => {
    await db.meta.bulkPut([
      { key: NOTICES_UNREAD_KEY, value: 4 },
      { key: NOTICES_SEEN_KEY, value: 10 },
    ]);
    await db.notices.bulkPut([notice(9, false), notice(11, false), notice(12, true), notice(13, false)]);
    const device = await noticeFactsOnDevice();
    expect(unseenOf(device!)).toBe(2);
    expect(unseenOf(device!)).toBe(await unseenNotices(db));
    // 13 was read elsewhere; 14 and 15 are new.
    const noticePage = { ...page([notice(15, false), notice(14, false), notice(13, true)], 3), unread: 5 } as NoticePage;
    answers.set(PATHS.notifications, noticePage);
    let answered: NoticePage | undefined;
    await refreshNotices(1, 20, db, (p) => (answered = p));
    expect(unseenOf(withAnswer(device, answered!))).toBe(3);
    expect(unseenOf(withAnswer(device, answered!))).toBe(await unseenNotices(db));
  });
});

describe('the store deferred', () => {
  it('holds its writes until it loads, then runs them', async () => {
    deferStore();
    let ran = false;
    const write = writeStore(async (store) => {
      await store.meta.put({ key: 'deferred', value: 1 });
      ran = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toBe(false);
    await loadStore();
    await write;
    expect(ran).toBe(true);
    expect((await db.meta.get('deferred'))?.value).toBe(1);
  });
});
