// What the metrics cost: `npm run bench:metrics` (npx tsx bench/metrics-overhead.ts).
// In ONE run it starts the same server twice over the demo data (SQLite, loopback, child processes): "on"
// with METRICS_TOKEN (the metrics middleware on every request, and the hooks in the hub, write
// transactions, throttles, orders and scheduler), "off" without it (no middleware mounted and no registry:
// lib/metrics.ts, app.ts). autocannon then loads the project list's first page on each in alternating
// rounds (on, off, on, off, ...), so a drift of the machine during the run falls on both alike. API
// requests carry what the app sends (a browser's Accept-Encoding, a fresh `t` each). Reports req/s per
// round, the sums per side and the ratio on/off; the target is a drop of at most 5% (ratio >= 0.95).
// Throughput swings with whatever else runs on the cores, so each server's own CPU time (/proc/<pid>/stat,
// user + system) is read around every round too: CPU per request, on against off, is the cost itself and
// barely moves with other load. On a busy machine even that swings between rounds, so a second phase
// loads both servers AT ONCE (the same connections each, same moments, same neighbours): the ratio of what
// each answered meanwhile is the relative cost with the machine's drift cancelled. The load average
// (/proc/loadavg) is read before and after. A third phase times the server's own code without network or
// client: in this process, one server (demo data) and two apps over the very same deps, createApp(deps) with
// the metrics and createApp(deps without them), answer the same list request in short interleaved batches;
// the difference in CPU time per request is what the middleware costs, with the machine's drift cancelled.
// A fourth times the recording alone in front of a route that does nothing (its absolute cost per request).
// Writes bench/results/metrics-overhead.json (BENCH_RESULT names another file). BENCH_ROUNDS (3),
// BENCH_SECONDS (5), BENCH_CONNECTIONS (16); BENCH_IN_PROCESS_ONLY=1 runs the third phase alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { createApp } from '../src/server/app';
import { createMetrics, recordRequest } from '../src/server/lib/metrics';
import { loadConfig } from '../src/server/config';
import { startServer as startInProcess } from '../src/server/server';
import { API_BASE, PATHS } from '../src/shared/api';
import { machine, round, writeResult } from './harness';
import { autocannon, closeAgent, startCanopy, timedGet, type CannonResult, type CanopyServer } from './list-bench';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const TOKEN = 'bench-metrics-token-0123456789';
const BROWSER = { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json' };
const LIST = `${API_BASE}${PATHS.projectLists}?page=1&page_size=10&lang=en`;

type Side = 'on' | 'off';

function loadavg(): string {
  try {
    return fs.readFileSync('/proc/loadavg', 'utf8').trim();
  } catch {
    return 'n/a';
  }
}

function cannon(url: string, seconds: number): Promise<CannonResult> {
  let n = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: BROWSER,
    timeout: 10,
    requests: [{ method: 'GET', path: LIST, setupRequest: (req) => ({ ...req, path: `${LIST}&t=${Date.now()}${++n}` }) }],
  });
}

async function metricsStatus(url: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  await res.arrayBuffer();
  return res.status;
}

/** The "on" server's own count of the list's 200s (it must match what autocannon got answered). */
async function countedOn(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('canopy_http_requests_total{') && l.includes(`route="${API_BASE}${PATHS.projectLists}"`) && l.includes('status="200"'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** CPU time (user + system) a process has used, ms (Linux: clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15 of stat)
}

/** startCanopy passes the bench's environment on to the server: METRICS_TOKEN is set for "on" only. */
async function start(side: Side): Promise<CanopyServer> {
  process.env.SHUTDOWN_DRAIN_MS = '0';
  if (side === 'on') process.env.METRICS_TOKEN = TOKEN;
  else delete process.env.METRICS_TOKEN;
  try {
    return await startCanopy('sqlite', { projects: 0, seedDemo: true, tag: `metrics-${side}` });
  } finally {
    delete process.env.METRICS_TOKEN;
  }
}

/** Phase 4: the recording alone, on a route that does nothing (so its cost is not hidden in a real
 *  answer's): app.ts's first middleware with and without it, as app.ts has them; the absolute CPU time
 *  it adds per request, to set beside a real request's CPU time. */
async function middlewareAlone(): Promise<{ on_us_per_req: number; off_us_per_req: number; diff_us: number }> {
  const metrics = await createMetrics();
  const make = (withMetrics: boolean) => {
    const app = new Hono();
    app.use(
      '*',
      withMetrics
        ? async (c, next) => {
            c.set('lang' as never, 'en' as never);
            const t0 = performance.now();
            await next();
            recordRequest(metrics, c, t0);
          }
        : async (c, next) => {
            c.set('lang' as never, 'en' as never);
            await next();
          },
    );
    app.get('/h5/api/api/project/lists', (c) => c.text('ok'));
    return app;
  };
  const apps = { on: make(true), off: make(false) };
  const PER = 5000;
  const batch = async (side: Side) => {
    const c0 = process.cpuUsage();
    for (let i = 0; i < PER; i++) await (await apps[side].fetch(new Request(`http://127.0.0.1${LIST}`))).arrayBuffer();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  for (const side of ['on', 'off', 'on', 'off'] as Side[]) await batch(side);
  const times: Record<Side, number[]> = { on: [], off: [] };
  for (let b = 0; b < 40; b++) for (const side of (b % 2 ? ['off', 'on'] : ['on', 'off']) as Side[]) times[side].push(await batch(side));
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const on = (med(times.on) * 1000) / PER;
  const off = (med(times.off) * 1000) / PER;
  return { on_us_per_req: round(on, 2)!, off_us_per_req: round(off, 2)!, diff_us: round(on - off, 2)! };
}

/** Phase 3: the same request through both apps of one in-process server, interleaved batches. */
async function inProcess(): Promise<{ batches: number; per_batch: number; on_us_per_req: number; off_us_per_req: number; diff_us: number; ratio_on_off: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-metrics-inproc-'));
  const running = await startInProcess(loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', SEED_DEMO: 'true', METRICS_TOKEN: TOKEN, SHUTDOWN_DRAIN_MS: '0' }));
  try {
    const apps = { on: createApp(running.deps), off: createApp({ ...running.deps, metrics: undefined }) };
    let n = 0;
    const one = async (side: Side) => {
      const res = await apps[side].fetch(new Request(`http://127.0.0.1${LIST}&t=${++n}`, { headers: BROWSER }));
      await res.arrayBuffer();
    };
    const PER = 200;
    const BATCHES = 100;
    // CPU time of this process (user + system), not wall time: time spent descheduled while neighbours
    // run does not count.
    const batch = async (side: Side) => {
      const c0 = process.cpuUsage();
      for (let i = 0; i < PER; i++) await one(side);
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / 1000;
    };
    for (const side of ['on', 'off', 'on', 'off'] as Side[]) await batch(side); // warm-up
    const times: Record<Side, number[]> = { on: [], off: [] };
    for (let b = 0; b < BATCHES; b++) for (const side of (b % 2 ? ['off', 'on'] : ['on', 'off']) as Side[]) times[side].push(await batch(side));
    // The median batch of each side: a batch hit by a neighbour's burst or a GC does not move it.
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const on = (med(times.on) * 1000) / PER;
    const off = (med(times.off) * 1000) / PER;
    return { batches: BATCHES, per_batch: PER, on_us_per_req: round(on, 1)!, off_us_per_req: round(off, 1)!, diff_us: round(on - off, 1)!, ratio_on_off: round(off / on, 3)! };
  } finally {
    await running.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (process.env.BENCH_IN_PROCESS_ONLY) {
    console.log(`load average before: ${loadavg()}`);
    console.log(JSON.stringify(await inProcess()));
    console.log(JSON.stringify(await middlewareAlone()));
    console.log(`load average after: ${loadavg()}`);
    return;
  }
  const loadBefore = loadavg();
  console.log(`load average before: ${loadBefore}`);
  const servers: Partial<Record<Side, CanopyServer>> = {};
  try {
    servers.on = await start('on');
    servers.off = await start('off');
    const on = servers.on;
    const off = servers.off;
    // "off" truly has no metrics: no endpoint (404) and so no middleware; "on" answers with the token.
    const status = { on: await metricsStatus(on.url), off: await metricsStatus(off.url) };
    if (status.on !== 200 || status.off !== 404) throw new Error(`unexpected /metrics statuses ${JSON.stringify(status)}`);
    const first = await timedGet(on.url + LIST, { accept: 'application/json' });
    const total = (JSON.parse(first.body.toString('utf8')) as { data: { total: number } }).data.total;

    // Warm-up: JIT, the response cache, connections.
    for (const s of [on, off]) await cannon(s.url, 2);
    const countedBefore = await countedOn(on.url);

    const rounds: Array<{ round: number; side: Side; req_s: number; total: number; cpu_us_per_req: number; p50_ms: number; p99_ms: number; errors: number; non_2xx: number }> = [];
    for (let r = 1; r <= ROUNDS; r++) {
      // Alternate which side goes first, so neither always follows the other.
      const order: Side[] = r % 2 === 1 ? ['on', 'off'] : ['off', 'on'];
      for (const side of order) {
        const cpu0 = cpuMs(servers[side]!.pid);
        const res = await cannon(servers[side]!.url, SECONDS);
        const cpu = cpuMs(servers[side]!.pid) - cpu0;
        const row = { round: r, side, req_s: round(res.requests.average, 0)!, total: res.requests.total, cpu_us_per_req: round((cpu * 1000) / Math.max(1, res.requests.total), 1)!, p50_ms: res.latency.p50, p99_ms: res.latency.p99, errors: res.errors, non_2xx: res.non2xx };
        rounds.push(row);
        console.log(`round ${r} ${side.padEnd(3)}  ${String(row.req_s).padStart(6)} req/s  ${String(row.cpu_us_per_req).padStart(6)} µs CPU/req  p50 ${row.p50_ms} ms  p99 ${row.p99_ms} ms  errors ${row.errors} non-2xx ${row.non_2xx}`);
      }
    }
    const counted = (await countedOn(on.url)) - countedBefore;

    // Phase 2: both at once.
    const together: Array<{ round: number; on_req_s: number; off_req_s: number; ratio: number; on_cpu_us_per_req: number; off_cpu_us_per_req: number }> = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const cpu0 = { on: cpuMs(on.pid), off: cpuMs(off.pid) };
      const [a, b] = await Promise.all([cannon(on.url, SECONDS), cannon(off.url, SECONDS)]);
      const cpuOn = cpuMs(on.pid) - cpu0.on;
      const cpuOff = cpuMs(off.pid) - cpu0.off;
      const row = {
        round: r,
        on_req_s: round(a.requests.average, 0)!,
        off_req_s: round(b.requests.average, 0)!,
        ratio: round(a.requests.total / b.requests.total, 3)!,
        on_cpu_us_per_req: round((cpuOn * 1000) / Math.max(1, a.requests.total), 1)!,
        off_cpu_us_per_req: round((cpuOff * 1000) / Math.max(1, b.requests.total), 1)!,
      };
      together.push(row);
      console.log(`together ${r}  on ${row.on_req_s} req/s, off ${row.off_req_s} req/s: ratio ${row.ratio}; CPU/req on ${row.on_cpu_us_per_req} µs, off ${row.off_cpu_us_per_req} µs`);
    }
    const togetherRatio = together.reduce((x, t) => x + t.on_req_s, 0) / together.reduce((x, t) => x + t.off_req_s, 0);
    const sum = (side: Side) => rounds.filter((x) => x.side === side).reduce((a, x) => a + x.total, 0);
    const mean = (side: Side) => sum(side) / (ROUNDS * SECONDS);
    const median = (side: Side) => {
      const xs = rounds.filter((x) => x.side === side).map((x) => x.req_s).sort((a, b) => a - b);
      return xs[Math.floor(xs.length / 2)]!;
    };
    const ratio = mean('on') / mean('off');
    // Per round (adjacent on and off runs): their throughput ratio; the median of those is steadier than the sums.
    const perRound = Array.from({ length: ROUNDS }, (_, i) => {
      const of = (side: Side) => rounds.find((x) => x.round === i + 1 && x.side === side)!;
      return of('on').req_s / of('off').req_s;
    }).sort((a, b) => a - b);
    const cpu = (side: Side) => {
      const xs = rounds.filter((x) => x.side === side);
      return xs.reduce((a, x) => a + x.cpu_us_per_req * x.total, 0) / xs.reduce((a, x) => a + x.total, 0);
    };
    const inproc = await inProcess();
    const alone = await middlewareAlone();
    const loadAfter = loadavg();
    const out = {
      what: `GET project list page 1 (${total} projects visible), ${CONNECTIONS} connections, ${ROUNDS} rounds x ${SECONDS} s per side alternating, then ${ROUNDS} x ${SECONDS} s both at once; SQLite, demo data`,
      machine: machine(),
      loadavg_before: loadBefore,
      loadavg_after: loadAfter,
      rounds,
      on_req_s: round(mean('on'), 0),
      off_req_s: round(mean('off'), 0),
      on_median_req_s: median('on'),
      off_median_req_s: median('off'),
      ratio_on_off: round(ratio, 3),
      drop_percent: round((1 - ratio) * 100, 1),
      per_round_ratios: perRound.map((x) => round(x, 3)),
      median_round_ratio: round(perRound[Math.floor(perRound.length / 2)]!, 3),
      on_cpu_us_per_req: round(cpu('on'), 1),
      off_cpu_us_per_req: round(cpu('off'), 1),
      cpu_ratio_on_off: round(cpu('on') / cpu('off'), 3),
      target: 'drop <= 5% (ratio >= 0.95)',
      met_alternating: ratio >= 0.95,
      together,
      together_ratio_on_off: round(togetherRatio, 3),
      together_drop_percent: round((1 - togetherRatio) * 100, 1),
      met_together: togetherRatio >= 0.95,
      in_process: inproc,
      middleware_alone: alone,
      middleware_share_of_list_cpu: round(alone.diff_us / inproc.off_us_per_req, 4),
      on_server_counted_200s: counted,
      on_client_2xx: rounds.filter((x) => x.side === 'on').reduce((a, x) => a + x.total - x.non_2xx, 0),
    };
    console.log(`\non  ${out.on_req_s} req/s (median ${out.on_median_req_s}), off ${out.off_req_s} req/s (median ${out.off_median_req_s})`);
    console.log(`ratio on/off ${out.ratio_on_off} (drop ${out.drop_percent}%): ${out.met_alternating ? 'within' : 'OVER'} the 5% target; per round ${out.per_round_ratios.join(', ')}`);
    console.log(`CPU per request: on ${out.on_cpu_us_per_req} µs, off ${out.off_cpu_us_per_req} µs (on/off ${out.cpu_ratio_on_off})`);
    console.log(`both at once: ratio on/off ${out.together_ratio_on_off} (drop ${out.together_drop_percent}%): ${out.met_together ? 'within' : 'OVER'} the 5% target`);
    console.log(`in process (no network, CPU time, median of ${inproc.batches} interleaved batches of ${inproc.per_batch}): on ${inproc.on_us_per_req} µs/req, off ${inproc.off_us_per_req} µs/req: +${inproc.diff_us} µs, throughput ratio ${inproc.ratio_on_off}`);
    console.log(`the recording alone adds ${alone.diff_us} µs CPU per request (${alone.on_us_per_req} vs ${alone.off_us_per_req}), ${round((100 * alone.diff_us) / inproc.off_us_per_req, 2)}% of the list's ${inproc.off_us_per_req} µs in process`);
    console.log(`"on" counted ${counted} list 200s; autocannon got ${out.on_client_2xx} 2xx from it`);
    console.log(`load average after: ${loadAfter}`);
    writeResult(process.env.BENCH_RESULT ?? 'metrics-overhead.json', out);
  } finally {
    closeAgent();
    await servers.on?.stop();
    await servers.off?.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
