import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import type { Insertable, Kysely } from 'kysely';
import type { BannersTable, Database, FaqsTable, NewsTable, PagesTable, ProjectsTable } from './schema';
import { CYCLE_UNITS, PROJECT_STANDARDS, PROJECT_STATUSES, PROJECT_TYPES } from '../../shared/content-values';
import { iccFactsEntries } from '../../shared/schemas/icc';

// Demo content for a fresh database: projects, news, FAQs, static pages and banners. The content is data,
// one JSON file per item under seed-data/<table>/ (docs/decisions/0011-layout.md), checked against the schemas
// below when read; the files are inserted in file-name order, so ids follow the numbered names (banner links
// and tests rely on news 1 and 4). Times in the files are offsets from the seed time ({days, hours, minutes});
// money integer cents (SGD); quantities whole tons (tCO2e). Long texts are arrays of paragraphs, stored
// joined by a blank line (the plain-text format of bodies). Names, companies and registry ids are
// fictional examples, not real listings.

export const SEED_DATA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed-data');

const whole = v.pipe(v.number(), v.integer());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const text = v.pipe(v.string(), v.nonEmpty());
const paragraphs = v.pipe(v.array(text), v.minLength(1));
/** A time relative to the seed: e.g. {"days": -56, "hours": -9}. */
const offset = v.strictObject({ days: v.optional(whole), hours: v.optional(whole), minutes: v.optional(whole) });
const slug = v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/));

const projectFile = v.strictObject({
  slug,
  name: text,
  name_cn: text,
  location: text,
  location_cn: text,
  country: text, // named on retirement certificates
  country_cn: text,
  type: v.picklist(PROJECT_TYPES),
  standard: v.picklist(PROJECT_STANDARDS),
  status: v.picklist(PROJECT_STATUSES),
  price: v.pipe(whole, v.minValue(1)),
  presale_price: v.nullable(v.pipe(whole, v.minValue(1))),
  min_tons: v.pipe(whole, v.minValue(1)),
  max_tons: v.pipe(whole, v.minValue(1)),
  total_tons: v.pipe(whole, v.minValue(1)),
  remaining_tons: count,
  selling_time: offset,
  end_time: offset,
  cycle_value: v.pipe(whole, v.minValue(1)),
  cycle_unit: v.picklist(CYCLE_UNITS),
  yield_bp: v.pipe(count, v.maxValue(10_000)),
  required_grade: v.pipe(count, v.maxValue(5)),
  monthly_limit: v.pipe(whole, v.minValue(1)),
  total_limit: v.pipe(whole, v.minValue(1)),
  company: text,
  registry: text, // the registry that lists it (Verra, Gold Standard)
  registry_id: text,
  methodology: text,
  vintage: whole,
  ...iccFactsEntries,
  size_ha: count,
  intro: text,
  intro_cn: text,
});

const newsFile = v.strictObject({
  title: text,
  title_cn: text,
  summary: text,
  summary_cn: text,
  body: paragraphs,
  body_cn: paragraphs,
  image: text,
  published_at: offset,
});

const faqFile = v.strictObject({ question: text, question_cn: text, answer: text, answer_cn: text, sort: whole });

const pageFile = v.strictObject({
  slug: v.picklist(['about', 'protocol', 'privacy']),
  title: text,
  title_cn: text,
  body: paragraphs,
  body_cn: paragraphs,
});

const bannerFile = v.strictObject({ title: text, title_cn: text, image: text, link: text, sort: whole });

export type ProjectSeed = v.InferOutput<typeof projectFile>;
export type NewsSeed = v.InferOutput<typeof newsFile>;
export type FaqSeed = v.InferOutput<typeof faqFile>;
export type PageSeed = v.InferOutput<typeof pageFile>;
export type BannerSeed = v.InferOutput<typeof bannerFile>;

/** Every item of one folder, in file-name order, each checked against its schema (the file is named in the error). */
function readFolder<S extends v.GenericSchema>(folder: string, schema: S, dir: string): Array<{ file: string; item: v.InferOutput<S> }> {
  const where = path.join(dir, folder);
  return fs
    .readdirSync(where)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const result = v.safeParse(schema, JSON.parse(fs.readFileSync(path.join(where, file), 'utf8')));
      if (!result.success) {
        const problems = result.issues.map((i) => `${v.getDotPath(i) ?? '(file)'}: ${i.message}`).join('; ');
        throw new Error(`seed-data/${folder}/${file}: ${problems}`);
      }
      return { file, item: result.output };
    });
}

export interface SeedData {
  projects: ProjectSeed[];
  news: NewsSeed[];
  faqs: FaqSeed[];
  pages: PageSeed[];
  banners: BannerSeed[];
}

/** The seed content as the files hold it (offsets and paragraph arrays), checked. Tests read it too. */
export function readSeedData(dir = SEED_DATA_DIR): SeedData {
  const projects = readFolder('projects', projectFile, dir);
  for (const { file, item } of projects) {
    if (!file.endsWith(`-${item.slug}.json`)) throw new Error(`seed-data/projects/${file}: name it NN-${item.slug}.json`);
  }
  const pages = readFolder('pages', pageFile, dir);
  for (const { file, item } of pages) if (file !== `${item.slug}.json`) throw new Error(`seed-data/pages/${file}: name it ${item.slug}.json`);
  return {
    projects: projects.map((x) => x.item),
    news: readFolder('news', newsFile, dir).map((x) => x.item),
    faqs: readFolder('faqs', faqFile, dir).map((x) => x.item),
    pages: pages.map((x) => x.item),
    banners: readFolder('banners', bannerFile, dir).map((x) => x.item),
  };
}

const blockFile = v.array(v.strictObject({ project: slug, serial_range: text, quantity: v.pipe(whole, v.minValue(1)), account: text }));

export type RegistryBlockSeed = v.InferOutput<typeof blockFile>[number];

/** The demo registry blocks (seed-data/registry-blocks/blocks.json): for each listed seeded project, the
 *  units it holds, written in its registry's format; `project` is the project file's slug. Demo data: the
 *  ranges are shaped as the registries write them, not units anyone holds. Read by the registry module's seed. */
export function readSeedBlocks(dir = SEED_DATA_DIR): RegistryBlockSeed[] {
  const result = v.safeParse(blockFile, JSON.parse(fs.readFileSync(path.join(dir, 'registry-blocks', 'blocks.json'), 'utf8')));
  if (!result.success) throw new Error(`seed-data/registry-blocks/blocks.json: ${result.issues.map((i) => `${v.getDotPath(i) ?? '(file)'}: ${i.message}`).join('; ')}`);
  return result.output;
}

const MINUTE_MS = 60_000;
/** Epoch ms of an offset from `now`. */
export const at = (now: number, o: v.InferOutput<typeof offset>): number =>
  now + (((o.days ?? 0) * 24 + (o.hours ?? 0)) * 60 + (o.minutes ?? 0)) * MINUTE_MS;
const joined = (paras: string[]): string => paras.join('\n\n');

/** The rows the seed inserts at `now`, table by table. */
export function seedRows(now: number, data: SeedData = readSeedData()) {
  return {
    projects: data.projects.map(
      ({ slug: name, selling_time, end_time, ...p }): Insertable<ProjectsTable> => ({
        ...p,
        selling_time: at(now, selling_time),
        end_time: at(now, end_time),
        image: `/img/projects/${name}.svg`,
        created_at: now,
        updated_at: now,
      }),
    ),
    news: data.news.map(
      (n): Insertable<NewsTable> => ({ ...n, body: joined(n.body), body_cn: joined(n.body_cn), published_at: at(now, n.published_at), created_at: now }),
    ),
    faqs: data.faqs.map((f): Insertable<FaqsTable> => ({ ...f })),
    pages: data.pages.map((p): Insertable<PagesTable> => ({ ...p, body: joined(p.body), body_cn: joined(p.body_cn), updated_at: now })),
    banners: data.banners.map((b): Insertable<BannersTable> => ({ ...b })),
  };
}

async function isEmpty(db: Kysely<Database>, table: 'projects' | 'news' | 'faqs' | 'pages' | 'banners'): Promise<boolean> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0) === 0;
}

/**
 * Inserts the demo content (projects, news, FAQs, pages, banners) when the projects table is empty.
 * Other tables are filled only when they are empty too. Runs in a transaction unless given one.
 */
export async function seedContent(db: Kysely<Database>, now: number): Promise<void> {
  const rows = seedRows(now); // read and checked before the transaction: a bad file fails fast
  const run = async (trx: Kysely<Database>): Promise<void> => {
    if (!(await isEmpty(trx, 'projects'))) return;
    await trx.insertInto('projects').values(rows.projects).execute();
    if (await isEmpty(trx, 'news')) await trx.insertInto('news').values(rows.news).execute();
    if (await isEmpty(trx, 'faqs')) await trx.insertInto('faqs').values(rows.faqs).execute();
    await trx
      .insertInto('pages')
      .values(rows.pages)
      .onConflict((oc) => oc.column('slug').doNothing())
      .execute();
    if (await isEmpty(trx, 'banners')) await trx.insertInto('banners').values(rows.banners).execute();
  };

  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
}
