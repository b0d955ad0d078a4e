import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS, ROOT, ensureBuilt, freePort, freshDataDir, killServer, spawnServer, type ServerState } from '../tests/e2e/server-control';

// `npm run bench:offline` (= tsx bench/offline-start.ts): offline cold start to the first project card, in
// Debian's chromium (headless, the flags of the browser tests, a 390x844 phone).
//
// For each build: start the real server, warm the app once online in its own browser context (home, the
// project tab, one project, until the service worker controls the page and has cached what it caches),
// stop the server (every request to the origin is refused: the truest "network down"). Then N rounds,
// builds and routes interleaved: stop the service worker (as a phone does with an idle one), open a new
// page at the route and time navigation start -> the first [data-testid=project-card] laid out and painted
// (the frame after it appears). Median of N per build and route.
//
//   --runs N          cold starts per route (default 15)
//   --route PATH      a route to time (repeatable; default /pages/project/index and /)
//   --baseline REF    also time REF's build in the same run (a `git archive` of REF in a temporary
//                     directory, built there), e.g. --baseline <commit> (an older build to compare with)
//   --baseline-dir D  also time the checkout in D (with node_modules and a built dist/) instead
//   --no-build        time dist/ as it is (otherwise built when stale, as the browser tests do)
//
// Prints a table and writes bench/results/offline-start.json.

interface Args {
  runs: number;
  routes: string[];
  baseline: string | null;
  baselineDir: string | null;
  build: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { runs: 15, routes: [], baseline: null, baselineDir: null, build: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const inline = a.includes('=') ? a.slice(a.indexOf('=') + 1) : undefined;
      const v = inline ?? argv[++i];
      if (!v) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--runs' || a.startsWith('--runs=')) args.runs = Math.max(1, Number(value()) || 1);
    else if (a === '--route' || a.startsWith('--route=')) args.routes.push(value());
    else if (a === '--baseline' || a.startsWith('--baseline=')) args.baseline = value();
    else if (a === '--baseline-dir' || a.startsWith('--baseline-dir=')) args.baselineDir = path.resolve(value());
    else if (a === '--no-build') args.build = false;
    else if (a === '--help' || a === '-h') {
      console.log('usage: npm run bench:offline -- [--runs N] [--route /pages/project/index]... [--baseline REF | --baseline-dir DIR] [--no-build]');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (args.routes.length === 0) args.routes.push('/pages/project/index', '/');
  return args;
}

const TARGET_MS = 250;

interface Sample {
  /** navigation start -> the frame after the first project card was laid out */
  cardMs: number;
  /** navigation start -> the document's last byte (from the service worker) */
  documentMs: number;
  /** navigation start -> the last script the page loaded before the card finished loading */
  lastScriptMs: number;
  scripts: number;
  offlineBar: boolean;
  /** navigation start -> each start step's User Timing mark (src/app/lib/marks.ts), and the first contentful paint */
  marks: Record<string, number>;
}

interface RouteResult {
  route: string;
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
  maxMs: number;
  medianDocumentMs: number;
  medianLastScriptMs: number;
  scripts: number;
  offlineBarEveryRun: boolean;
  samplesMs: number[];
  /** Per start step (src/app/lib/marks.ts) and first-contentful-paint: its median time from navigation start. */
  medianMarksMs: Record<string, number>;
}

interface BuildResult {
  label: string;
  ref: string;
  routes: RouteResult[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}
const round = (x: number) => Math.round(x * 10) / 10;

/** A checkout of `ref` in a temporary directory (sources from `git archive`, node_modules linked), built. */
function prepareBaseline(ref: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-offline-baseline-'));
  const archive = spawnSync('sh', ['-c', `git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT, stdio: 'inherit' });
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed`);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  console.log(`[offline] building ${ref} in ${dir}`);
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: dir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`vite build of ${ref} failed`);
  return dir;
}

// Runs in every page before its own scripts: notes when the first project card is in the DOM and laid
// out, and the frame after it (the one that paints it). performance.now() counts from the navigation's
// start. A string, not a function: tsx would wrap a function's source in helpers the page does not have.
const WATCH_FIRST_CARD = `(() => {
  const check = () => {
    const card = document.querySelector('[data-testid="project-card"]');
    if (!card || card.getBoundingClientRect().height === 0) return;
    observer.disconnect();
    const seen = performance.now();
    requestAnimationFrame(() => { window.__firstCard = { seen, painted: performance.now() }; });
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true });
})();`;

async function newPhoneContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    screen: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-SG',
    timezoneId: 'Asia/Singapore',
    serviceWorkers: 'allow',
  });
  await context.addInitScript({ content: WATCH_FIRST_CARD });
  // A returning user: a fresh profile is a new install, which opens "/" on the start screen
  // (docs/decisions/0005-start.md).
  await context.addInitScript(() => {
    try {
      if (localStorage.getItem('start_seen') === null) localStorage.setItem('start_seen', '1');
    } catch {
      // about:blank has no storage
    }
  });
  return context;
}

async function waitForCard(page: Page, timeoutMs = 20_000): Promise<void> {
  await page.locator('[data-testid="project-card"]').first().waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Online: the pages a user would have seen, until the service worker controls them and has cached them. */
async function warm(context: BrowserContext, routes: string[]): Promise<void> {
  const page = await context.newPage();
  await page.goto('/');
  await waitForCard(page);
  // The app registers its service worker a moment after the first screen settles.
  await page.waitForFunction(() => navigator.serviceWorker.ready.then(() => true), null, { timeout: 30_000 });
  for (let i = 0; i < 20 && !(await page.evaluate(() => !!navigator.serviceWorker.controller)); i++) {
    await page.reload();
    await sleep(250);
  }
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) throw new Error('the service worker never controlled the page');
  // Every route once more under the service worker (its runtime caches fill now), and one project's detail.
  for (const route of [...routes, '/pages/project/index']) {
    await page.goto(route);
    await waitForCard(page);
    await page.waitForLoadState('networkidle');
  }
  await page.locator('[data-testid="project-card"]').first().click();
  await page.waitForURL(/\/pages\/project\//);
  await page.waitForLoadState('networkidle');
  await page.goto('/pages/project/index');
  await waitForCard(page);
  await page.waitForLoadState('networkidle');
  await page.close();
}

async function coldStart(context: BrowserContext, control: Page, route: string): Promise<Sample> {
  // A phone stops an idle service worker: start each run without a running one.
  const cdp = await context.newCDPSession(control);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
  const page = await context.newPage();
  try {
    await page.goto(route, { waitUntil: 'commit' });
    await page.waitForFunction(() => (window as unknown as { __firstCard?: unknown }).__firstCard, null, { timeout: 20_000, polling: 20 });
    return await page.evaluate(() => {
      const card = (window as unknown as { __firstCard: { seen: number; painted: number } }).__firstCard;
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (e) => e.initiatorType === 'script' || e.initiatorType === 'link' || /\.js$/.test(new URL(e.name).pathname),
      );
      const before = scripts.filter((e) => e.responseEnd <= card.seen);
      return {
        cardMs: card.painted,
        documentMs: nav?.responseEnd ?? NaN,
        lastScriptMs: before.reduce((m, e) => Math.max(m, e.responseEnd), 0),
        scripts: before.length,
        offlineBar: !!document.querySelector('[data-testid="offline-bar"]'),
        marks: Object.fromEntries(
          [...performance.getEntriesByType('mark').filter((m) => m.name.startsWith('canopy:')), ...performance.getEntriesByName('first-contentful-paint')].map((m) => [m.name.replace('canopy:', ''), m.startTime]),
        ),
      };
    });
  } finally {
    await page.close();
  }
}

interface PreparedBuild {
  label: string;
  ref: string;
  context: BrowserContext;
  control: Page;
  dataDir: string;
  samples: Map<string, Sample[]>;
}

/** Starts the build's server, warms a fresh browser context online, stops the server for good. */
async function prepareBuild(browser: Browser, label: string, ref: string, cwd: string, args: Args): Promise<PreparedBuild> {
  const dataDir = freshDataDir('canopy-offline-');
  const server: ServerState = await spawnServer({ port: await freePort(), dataDir, logFile: path.join(dataDir, 'server.log'), cwd });
  const context = await newPhoneContext(browser, server.url);
  try {
    await warm(context, args.routes);
  } finally {
    await killServer(server.pid, server.port);
  }
  const control = await context.newPage();
  // One discarded run per route: the browser's own first-use costs.
  for (const route of args.routes) await coldStart(context, control, route);
  return { label, ref, context, control, dataDir, samples: new Map(args.routes.map((r) => [r, []])) };
}

function summarise(build: PreparedBuild, routes: string[]): BuildResult {
  return {
    label: build.label,
    ref: build.ref,
    routes: routes.map((route): RouteResult => {
      const s = build.samples.get(route)!;
      const ms = s.map((x) => x.cardMs);
      return {
        route,
        runs: s.length,
        medianMs: round(median(ms)),
        p90Ms: round(quantile(ms, 0.9)),
        minMs: round(Math.min(...ms)),
        maxMs: round(Math.max(...ms)),
        medianDocumentMs: round(median(s.map((x) => x.documentMs))),
        medianLastScriptMs: round(median(s.map((x) => x.lastScriptMs))),
        scripts: Math.round(median(s.map((x) => x.scripts))),
        offlineBarEveryRun: s.every((x) => x.offlineBar),
        samplesMs: ms.map(round),
        medianMarksMs: Object.fromEntries(
          [...new Set(s.flatMap((x) => Object.keys(x.marks)))].map((name) => [name, round(median(s.flatMap((x) => (name in x.marks ? [x.marks[name]!] : []))))]),
        ),
      };
    }),
  };
}

function gitHead(): string {
  const res = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() !== '';
  return `${res.stdout.trim()}${dirty ? '+working tree' : ''}`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (or set CHROMIUM_PATH)`);
  if (args.build) ensureBuilt((line) => console.log(`[offline] ${line}`));
  const builtBaseline = args.baseline && !args.baselineDir ? prepareBaseline(args.baseline) : null;
  const baselineDir = args.baselineDir ?? builtBaseline;
  const baselineRef = args.baseline ?? (args.baselineDir ? path.basename(args.baselineDir) : '');

  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless') });
  const version = browser.version();
  const prepared: PreparedBuild[] = [];
  let builds: BuildResult[];
  try {
    if (baselineDir) prepared.push(await prepareBuild(browser, 'baseline', baselineRef, baselineDir, args));
    prepared.push(await prepareBuild(browser, 'current', gitHead(), ROOT, args));
    // Builds and routes interleaved run by run, so both see the same machine (2 shared cores).
    for (let i = 0; i < args.runs; i++)
      for (const build of prepared)
        for (const route of args.routes) build.samples.get(route)!.push(await coldStart(build.context, build.control, route));
    builds = prepared.map((b) => summarise(b, args.routes));
  } finally {
    for (const b of prepared) {
      await b.context.close();
      fs.rmSync(b.dataDir, { recursive: true, force: true });
    }
    await browser.close();
    if (builtBaseline) fs.rmSync(builtBaseline, { recursive: true, force: true });
  }

  console.log(`\nOffline cold start -> first project card (Chromium ${version}, median of ${args.runs}, target <= ${TARGET_MS} ms)`);
  const header = ['build', 'route', 'median ms', 'p90', 'min', 'max', 'doc ms', 'last JS ms', 'JS files', 'offline bar'];
  const rows = builds.flatMap((b) =>
    b.routes.map((r) => [
      `${b.label} (${b.ref})`,
      r.route,
      String(r.medianMs),
      String(r.p90Ms),
      String(r.minMs),
      String(r.maxMs),
      String(r.medianDocumentMs),
      String(r.medianLastScriptMs),
      String(r.scripts),
      r.offlineBarEveryRun ? 'every run' : 'NOT ALWAYS',
    ]),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  // Where the time goes: the start's steps, median ms from navigation start.
  for (const b of builds) {
    for (const r of b.routes) {
      const steps = Object.entries(r.medianMarksMs).sort((x, y) => x[1] - y[1]);
      console.log(`  ${b.label} ${r.route}: ${steps.map(([name, ms]) => `${name} ${ms}`).join(' -> ')} -> card ${r.medianMs}`);
    }
  }

  const current = builds.find((b) => b.label === 'current')!;
  const ok = current.routes.every((r) => r.medianMs <= TARGET_MS && r.offlineBarEveryRun);
  const out = path.join(ROOT, 'bench', 'results', 'offline-start.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        ok,
        at: new Date().toISOString(),
        chromium: `${CHROMIUM} ${version}`,
        flags: CHROMIUM_FLAGS,
        phone: '390x844 @2x, touch',
        measure: 'navigation start -> the frame after the first [data-testid=project-card] is laid out; server stopped, service worker stopped before each run',
        targetMs: TARGET_MS,
        runs: args.runs,
        builds,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`\n${ok ? 'ok' : 'NOT MET'}: current build ${current.routes.map((r) => `${r.route} ${r.medianMs} ms`).join(', ')}; wrote ${path.relative(ROOT, out)}`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
