// List latency as the catalogue grows: `npm run bench:growth` (npx tsx bench/growth.ts).
// For SQLite and PostgreSQL, and 0, 10,000 and 100,000 generated projects (no demo seed), starts the real
// server in a child process (loopback; PostgreSQL in a schema of its own, dropped after) and times single
// requests, one at a time over one kept-alive connection, with a browser's Accept-Encoding:
//   page 1, cached          the same URL again: the response cache's answer
//   page 1, made            a distinct (ignored) parameter per request, so the answer is made again: the
//                           page read by index, encoded and compressed; the total per filter is remembered
//   page 1 after a change   a project renamed and its event published: the first answer that shows it
//                           (recount + page + encoding; on SQLite the event reaches the server by its poll)
//   deep page by cursor     90% down the list, from an earlier answer's next_cursor, made each time
//   deep page by number     the same page by number, its neighbour seen before (seeks from its key)
//   deep page by number,    distinct deep pages nobody asked for before: the key at the offset is found
//     cold                  by walking the index only, then the page is read by seeking
// Prints a table and writes bench/results/growth.json. BENCH_DBS=sqlite and BENCH_SIZES=0,10000 narrow it.
import zlib from 'node:zlib';
import { openDatabase } from '../src/server/db/connection';
import { publish } from '../src/server/live/events';
import { API_BASE, PATHS } from '../src/shared/api';
import { latency, machine, round, writeResult } from './harness';
import { closeAgent, startCanopy, timedGet, type Answer, type DbKind } from './list-bench';

const DBS = (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',').filter(Boolean) as DbKind[];
const SIZES = (process.env.BENCH_SIZES ?? '0,10000,100000').split(',').map(Number);
const PAGE_SIZE = 20;
const BROWSER = { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json' };

interface Measure {
  db: DbKind;
  projects: number;
  visible: number;
  case: string;
  page: number | null;
  n: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
}

type Envelope = { code: number; data: { list: Array<{ id: number; name: string }>; total: number; next_cursor?: string | null } };

async function series(label: string, count: number, url: (i: number) => string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const a = await timedGet(url(i), BROWSER);
    if (a.status !== 200) throw new Error(`${label}: HTTP ${a.status}`);
    ms.push(a.ms);
  }
  return ms;
}

/** The body as text, whatever the encoding it came in. */
function decoded(a: Answer): string {
  const enc = a.headers['content-encoding'];
  const bytes = enc === 'br' ? zlib.brotliDecompressSync(a.body) : enc === 'gzip' ? zlib.gunzipSync(a.body) : a.body;
  return bytes.toString('utf8');
}

async function json(url: string): Promise<Envelope> {
  const a = await timedGet(url, { accept: 'application/json' });
  const env = JSON.parse(a.body.toString('utf8')) as Envelope;
  if (env.code !== 0) throw new Error(`${url}: code ${env.code}`);
  return env;
}

async function measure(db: DbKind, projects: number, out: Measure[]) {
  const server = await startCanopy(db, { projects, seedDemo: false, tag: `growth-${db}-${projects}` });
  const own = openDatabase(server.target, { poolSize: 1 }).db;
  const list = `${server.url}${API_BASE}${PATHS.projectLists}?page_size=${PAGE_SIZE}&lang=en`;
  const push = (name: string, page: number | null, ms: number[]) => {
    const l = latency(ms);
    out.push({ db, projects, visible: server.visible, case: name, page, n: l.n, p50_ms: l.p50_ms, p95_ms: l.p95_ms, p99_ms: l.p99_ms, max_ms: l.max_ms });
    console.log(`${db} ${projects}: ${name}${page ? ` (page ${page})` : ''}: p50 ${l.p50_ms} ms, p99 ${l.p99_ms} ms`);
  };
  try {
    await series('warm-up', 20, (i) => `${list}&page=1&warm=${i}`);
    push('page 1, cached', 1, await series('page 1 cached', 300, () => `${list}&page=1`));
    push('page 1, made', 1, await series('page 1 made', 150, (i) => `${list}&page=1&bench=${i}`));

    // A change: the first answer after it pays for the recount.
    const changed: number[] = [];
    const first = (await json(`${list}&page=1`)).data.list[0];
    if (first) {
      for (let k = 0; k < 8; k++) {
        const name = `Renamed ${k} ${Date.now()}`;
        await own.updateTable('projects').set({ name }).where('id', '=', first.id).execute();
        await publish(own, { type: 'invalidate', tables: ['projects'], ids: [first.id] }, null, Date.now());
        for (let tries = 0; tries < 300; tries++) {
          const a = await timedGet(`${list}&page=1`, BROWSER);
          const seen = (JSON.parse(decoded(a)) as Envelope).data.list[0]?.name === name;
          if (seen) {
            changed.push(a.ms);
            break;
          }
          await new Promise((r) => setTimeout(r, 10));
        }
      }
      push('page 1 after a change', 1, changed);
    }

    const total = server.visible;
    const deep = Math.floor((total * 0.9) / PAGE_SIZE);
    if (deep >= 4) {
      const before = await json(`${list}&page=${deep - 1}`);
      const cursor = before.data.next_cursor;
      if (!cursor) throw new Error('no next_cursor on a deep page');
      push('deep page by cursor, made', deep, await series('deep cursor', 150, (i) => `${list}&cursor=${encodeURIComponent(cursor)}&bench=${i}`));
      push('deep page by number, made (neighbour seen)', deep, await series('deep number', 150, (i) => `${list}&page=${deep}&bench=${i}`));
      push('deep page by number, cold', null, await series('deep cold', Math.min(40, Math.floor(deep / 2) - 1), (i) => `${list}&page=${deep - 2 * (i + 1)}&cold=${i}`));
      push('deep page, cached', deep, await series('deep cached', 300, () => `${list}&page=${deep}`));
    }
  } finally {
    await own.destroy();
    await server.stop();
  }
}

function table(rows: Measure[]) {
  const head = ['db', 'projects', 'case', 'p50 ms', 'p99 ms', 'x page 1 made'];
  const base = new Map(rows.filter((r) => r.case === 'page 1, made').map((r) => [`${r.db}/${r.projects}`, r.p50_ms ?? NaN]));
  const lines = rows.map((r) => {
    const b = base.get(`${r.db}/${r.projects}`);
    return [r.db, String(r.projects), r.case, String(r.p50_ms), String(r.p99_ms), b && r.p50_ms !== null ? (r.p50_ms / b).toFixed(2) : '-'];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (l: string[]) => l.map((c, i) => (i >= 3 || i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log('\n' + fmt(head));
  for (const l of lines) console.log(fmt(l));
}

async function main() {
  const rows: Measure[] = [];
  const started = new Date().toISOString();
  for (const db of DBS) for (const n of SIZES) await measure(db, n, rows);
  closeAgent();
  table(rows);
  const ratios = rows
    .filter((r) => r.case.startsWith('deep page by'))
    .map((r) => {
      const p1 = rows.find((x) => x.db === r.db && x.projects === r.projects && x.case === 'page 1, made');
      return { db: r.db, projects: r.projects, case: r.case, p50_ratio_to_page_1: p1?.p50_ms ? round(r.p50_ms! / p1.p50_ms, 2) : null, p99_ratio_to_page_1: p1?.p99_ms ? round(r.p99_ms! / p1.p99_ms, 2) : null };
    });
  writeResult('growth.json', {
    bench: 'growth',
    started,
    page_size: PAGE_SIZE,
    how: 'one request at a time over one kept-alive connection from this process to Canopy in a child process, loopback; browser Accept-Encoding; "made" answers forced past the response cache by a distinct parameter',
    machine: machine(),
    rows,
    deep_vs_page_1: ratios,
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
