// HTTP read path benchmark: `npm run bench:http` (npx tsx bench/http.ts).
// For SQLite and PostgreSQL in turn, starts the real server in a child process over the demo data (loopback
// only; PostgreSQL in a schema of its own, dropped after), and beside it a bare node:http server (another
// child) answering the very bytes Canopy sends for the project list's first page: the baseline of this
// machine at this moment. autocannon then runs against the project list (page 1), a project's detail, the
// news list, baseconfig and a built static file, at 1, 16 and 64 connections, each for a fixed time. API
// requests carry what the app sends: Accept-Encoding of a browser and a fresh `t` per request (the cache
// key ignores it). The server's RSS is sampled throughout and read again after the load. Prints a table and
// writes bench/results/http.json (BENCH_RESULT names another file). `BENCH_DBS=sqlite` runs one database;
// BENCH_SECONDS sets the run length; BENCH_SERVER_ROOT runs the server of another checkout (a before/after).
// The list's figure against the bare server is also taken interleaved: BENCH_ROUNDS (5) rounds of 2 s at 16
// connections, bare then Canopy, the ratio of their sums (and each round's), so both see the same machine;
// and the CPU each process spent per answer in those rounds (/proc), which a shared machine's load moves
// far less than requests per second: bare's CPU per answer over Canopy's.
import { API_BASE, PATHS } from '../src/shared/api';
import { cpuMs, machine, round, writeResult } from './harness';
import { autocannon, builtAssets, closeAgent, rssMiB, startBare, startCanopy, timedGet, type CannonResult, type DbKind } from './list-bench';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LEVELS = [1, 16, 64];
const BROWSER = { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json' };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DBS = (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',').filter(Boolean) as DbKind[];

interface Target {
  name: string;
  path: string;
  /** a fresh t per request, as the app's request layer adds (lib/api.ts) */
  t: boolean;
}

interface Row {
  db: DbKind;
  target: string;
  connections: number;
  req_s: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  errors: number;
  non_2xx: number;
  /** req/s of the bare node:http baseline at the same connections, in the same run */
  baseline_req_s: number;
  ratio_to_baseline: number | null;
}

async function cannon(url: string, path: string, connections: number, seconds: number, withT: boolean): Promise<CannonResult> {
  let n = 0;
  const sep = path.includes('?') ? '&' : '?';
  return autocannon({
    url,
    connections,
    duration: seconds,
    headers: BROWSER,
    timeout: 10,
    requests: [withT ? { method: 'GET', path, setupRequest: (req) => ({ ...req, path: `${path}${sep}t=${Date.now()}${++n}` }) } : { method: 'GET', path }],
  });
}

interface Interleaved {
  db: DbKind;
  connections: number;
  rounds: number;
  seconds_each: number;
  ratio: number | null;
  per_round: number[];
  /** bare's CPU per answer over Canopy's */
  cpu_ratio: number | null;
  bare_cpu_us_per_answer: number | null;
  list_cpu_us_per_answer: number | null;
}
const interleaved: Interleaved[] = [];

async function benchDb(db: DbKind, rows: Row[], rss: Record<string, unknown>) {
  const server = await startCanopy(db, { projects: 0, seedDemo: true, tag: `http-${db}` });
  let bare: Awaited<ReturnType<typeof startBare>> | null = null;
  const samples: number[] = [];
  const sampler = setInterval(() => {
    const r = rssMiB(server.pid);
    if (r !== null) samples.push(r);
  }, 200);
  try {
    const listPath = `${API_BASE}${PATHS.projectLists}?page=1&page_size=10&lang=en`;
    const first = await timedGet(server.url + listPath, BROWSER);
    const list = JSON.parse((await timedGet(server.url + listPath, { accept: 'application/json' })).body.toString('utf8')) as { data: { list: Array<{ id: number }> } };
    const id = list.data.list[0]?.id ?? 1;
    const assets = builtAssets();
    const targets: Target[] = [
      { name: 'project list, page 1', path: listPath, t: true },
      { name: 'project detail', path: `${API_BASE}${PATHS.projectDetail}?id=${id}&lang=en`, t: true },
      { name: 'news list, page 1', path: `${API_BASE}${PATHS.newsLists}?page=1&page_size=10&lang=en`, t: true },
      { name: 'baseconfig', path: `${API_BASE}${PATHS.baseconfig}?lang=en`, t: true },
      ...assets.map((a) => ({ name: `static, ${a.label} (${Math.round(a.bytes / 1024)} KiB${a.br ? ', br' : ''})`, path: a.path, t: false })),
    ];
    if (assets.length === 0) console.warn('no dist/assets: run `npm run build` to measure static files');
    else if (!assets[0]!.br) console.warn('dist/ has no .br files: rebuild (`npm run build`) to measure the precompressed path');

    // The baseline answers exactly what Canopy answered the browser for the first page: the same body
    // (brotli, same size) and every header but the ones node writes itself.
    const bareHeaders: Record<string, string> = {};
    for (const [h, v] of Object.entries(first.headers)) if (typeof v === 'string' && !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(h)) bareHeaders[h] = v;
    bare = await startBare(first.body, bareHeaders);

    for (const t of targets) await cannon(server.url, t.path, 16, 1, t.t); // warm-up
    rss.after_warmup_mib = rssMiB(server.pid);

    // The list against the bare server, interleaved round by round.
    let bareSum = 0;
    let listSum = 0;
    const cpu = { bareMs: 0, bareAnswers: 0, listMs: 0, listAnswers: 0 };
    const perRound: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let c0 = cpuMs(bare.pid);
      const b = await cannon(bare.url, '/', 16, 2, false);
      cpu.bareMs += cpuMs(bare.pid) - c0;
      cpu.bareAnswers += b.requests.total;
      c0 = cpuMs(server.pid);
      const l = await cannon(server.url, targets[0]!.path, 16, 2, true);
      cpu.listMs += cpuMs(server.pid) - c0;
      cpu.listAnswers += l.requests.total;
      bareSum += b.requests.average;
      listSum += l.requests.average;
      perRound.push(round(l.requests.average / b.requests.average, 3)!);
    }
    const cpuRatio = round(cpu.bareMs / cpu.bareAnswers / (cpu.listMs / cpu.listAnswers), 3);
    const usPer = (ms: number, n: number) => round((ms * 1000) / n, 1);
    interleaved.push({
      db, connections: 16, rounds: ROUNDS, seconds_each: 2, ratio: round(listSum / bareSum, 3), per_round: perRound,
      cpu_ratio: cpuRatio, bare_cpu_us_per_answer: usPer(cpu.bareMs, cpu.bareAnswers), list_cpu_us_per_answer: usPer(cpu.listMs, cpu.listAnswers),
    });
    console.log(
      `${db} project list vs bare @16, ${ROUNDS} interleaved rounds: ${(listSum / bareSum).toFixed(3)} (rounds ${perRound.join(', ')}); CPU per answer ${usPer(cpu.listMs, cpu.listAnswers)} us vs bare ${usPer(cpu.bareMs, cpu.bareAnswers)} us: ${cpuRatio}`,
    );

    for (const connections of LEVELS) {
      const base = await cannon(bare.url, '/', connections, SECONDS, false);
      const baseline = round(base.requests.average, 0)!;
      rows.push({ db, target: 'bare node:http (same bytes)', connections, req_s: baseline, p50_ms: base.latency.p50, p99_ms: base.latency.p99, max_ms: base.latency.max, errors: base.errors, non_2xx: base.non2xx, baseline_req_s: baseline, ratio_to_baseline: 1 });
      for (const t of targets) {
        // The list at 64 connections runs 10 s: the load after which the issue measured RSS.
        const seconds = connections === 64 && t === targets[0] ? Math.max(10, SECONDS) : SECONDS;
        const r = await cannon(server.url, t.path, connections, seconds, t.t);
        const req_s = round(r.requests.average, 0)!;
        rows.push({
          db,
          target: t.name,
          connections,
          req_s,
          p50_ms: r.latency.p50,
          p99_ms: r.latency.p99,
          max_ms: r.latency.max,
          errors: r.errors + r.timeouts,
          non_2xx: r.non2xx,
          baseline_req_s: baseline,
          ratio_to_baseline: baseline > 0 ? round(req_s / baseline, 3) : null,
        });
        console.log(`${db} ${t.name} @${connections}: ${req_s} req/s, p99 ${r.latency.p99} ms (baseline ${baseline})`);
      }
    }
    rss.peak_mib = Math.max(...samples);
    rss.right_after_load_mib = rssMiB(server.pid);
    await new Promise((r) => setTimeout(r, 5000));
    rss.after_5s_idle_mib = rssMiB(server.pid);
  } finally {
    clearInterval(sampler);
    await bare?.stop();
    await server.stop();
  }
}

function table(rows: Row[]) {
  const head = ['db', 'path', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'x bare', 'errors'];
  const lines = rows.map((r) => [r.db, r.target, String(r.connections), String(r.req_s), String(r.p50_ms), String(r.p99_ms), r.ratio_to_baseline === null ? '-' : r.ratio_to_baseline.toFixed(2), String(r.errors + r.non_2xx)]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (l: string[]) => l.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log('\n' + fmt(head));
  for (const l of lines) console.log(fmt(l));
}

async function main() {
  const rows: Row[] = [];
  const rss: Record<string, Record<string, unknown>> = {};
  const started = new Date().toISOString();
  for (const db of DBS) {
    rss[db] = {};
    await benchDb(db, rows, rss[db]!);
  }
  closeAgent();
  table(rows);
  for (const r of interleaved) console.log(`${r.db}: project list page 1 at ${r.connections} connections, interleaved with bare: ${r.ratio}x (rounds ${r.per_round.join(', ')}); CPU per answer ${r.cpu_ratio}x of bare's`);
  console.log('\nserver RSS (MiB):', JSON.stringify(rss));
  writeResult(process.env.BENCH_RESULT ?? 'http.json', {
    bench: 'http',
    started,
    seconds_per_run: SECONDS,
    server_root: process.env.BENCH_SERVER_ROOT ?? '.',
    how: 'autocannon in this process, Canopy and a bare node:http server (answering the bytes Canopy sends for the list page 1) each in a child process, loopback; API requests with a browser Accept-Encoding and a fresh t each',
    machine: machine(),
    rows,
    list_vs_bare_interleaved: interleaved,
    rss_mib: rss,
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
