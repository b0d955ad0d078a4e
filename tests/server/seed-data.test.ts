// The demo content is data (src/server/db/seed-data/<table>/*.json, read by db/seed-content.ts): every file
// passes its schema, a bad file is refused by name, and a freshly seeded server answers exactly what the
// files hold, so the content tests and the seed read the same source.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { SEED_DATA_DIR, at, readSeedData, type SeedData } from '../../src/server/db/seed-content';
import { startTestServer, type TestServer } from '../helpers/server';

type Paged<T> = { list: T[]; total: number };
let s: TestServer;
let data: SeedData;

beforeAll(async () => {
  data = readSeedData();
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('seed data files', () => {
  it('hold every table the seed fills, with unique names and the banner links pointing at seeded news', () => {
    expect(data.projects.length).toBeGreaterThanOrEqual(12);
    expect(new Set(data.projects.map((p) => p.slug)).size).toBe(data.projects.length);
    expect(data.pages.map((p) => p.slug).sort()).toEqual(['about', 'privacy', 'protocol']);
    expect(data.faqs.map((f) => f.sort)).toEqual([...data.faqs.map((f) => f.sort)].sort((a, b) => a - b));
    for (const b of data.banners) {
      const news = /^\/pages\/news\/info\?id=(\d+)$/.exec(b.link);
      if (news) expect(Number(news[1]), b.link).toBeLessThanOrEqual(data.news.length);
    }
  });

  it('refuse a file that breaks its schema, naming the file and the field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-seed-'));
    try {
      fs.cpSync(SEED_DATA_DIR, dir, { recursive: true });
      const file = path.join(dir, 'faqs', fs.readdirSync(path.join(dir, 'faqs')).sort()[0]!);
      fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), sort: 'first' }));
      expect(() => readSeedData(dir)).toThrow(new RegExp(`seed-data/faqs/${path.basename(file)}: sort`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a seeded server answers the files', () => {
  it('FAQ in file order, both languages', async () => {
    const res = await s.api<Paged<any>>('GET', PATHS.faqLists);
    expect(res.data.list.map((f) => [f.question, f.question_cn, f.answer, f.answer_cn])).toEqual(data.faqs.map((f) => [f.question, f.question_cn, f.answer, f.answer_cn]));
  });

  it('each page with its paragraphs, the legal entity and the support address filled in', async () => {
    const { COMPANY_NAME, COMPANY_UEN, COMPANY_ADDRESS, SUPPORT_EMAIL } = s.running.deps.config;
    const filled = (paras: string[]) =>
      paras.join('\n\n').replaceAll('{company_name}', COMPANY_NAME).replaceAll('{company_uen}', COMPANY_UEN).replaceAll('{company_address}', COMPANY_ADDRESS).replaceAll('{support_email}', SUPPORT_EMAIL);
    for (const page of data.pages) {
      const res = await s.api('GET', PATHS.page, { slug: page.slug });
      expect(res.data).toMatchObject({ slug: page.slug, title: page.title, title_cn: page.title_cn, body: filled(page.body), body_cn: filled(page.body_cn) });
    }
  });

  it('projects and news with their times relative to the seed', async () => {
    const rows = await s.db.selectFrom('projects').select(['id', 'name', 'selling_time', 'created_at']).orderBy('id').execute();
    expect(rows.map((r) => r.name)).toEqual(data.projects.map((p) => p.name));
    rows.forEach((r, i) => expect(r.selling_time).toBe(at(r.created_at, data.projects[i]!.selling_time)));
    const news = await s.db.selectFrom('news').select(['id', 'title']).orderBy('id').execute();
    expect(news.map((n) => n.title)).toEqual(data.news.map((n) => n.title));
    const banners = (await s.api<Paged<any>>('GET', PATHS.banners)).data.list;
    expect(banners.map((b) => b.title)).toEqual(data.banners.map((b) => b.title));
  });
});
