import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS, ROOT, ensureBuilt, freePort, freshDataDir, killServer, spawnServer } from '../tests/e2e/server-control';

// Home's JavaScript as a browser counts it: a returning member's phone (390x844, the start screen already
// seen) opens "/" with the service worker blocked, and every script the page fetches until the network has
// been quiet for a while (lazy chunks started at once count; the screens a tap would open do not) is
// summed, gzip as the server sends it. The per-package breakdown apportions each chunk's gzip to the
// modules it holds by their rendered size (dist/.vite/chunks.json, written by the build), so a change that
// adds to home shows which package grew.
//
// `npx tsx bench/home-js.ts [--no-build] [--path /]` prints it; bench/lighthouse.ts gates on it.

// Home's first screen draws without the offline store (Dexie loads after idle), which brought it within
// the aim of 140 KiB; the gate holds it there (docs/decisions/0045-home-budget.md).
export const HOME_JS_BUDGET_KIB = 140;

export interface HomeJs {
  path: string;
  member: boolean;
  gzipBytes: number;
  files: { path: string; gzipBytes: number }[];
  /** Scripts fetched once the page was idle (not counted). */
  afterIdle: { path: string; gzipBytes: number }[];
  /** gzip bytes per package (node_modules/<name>) or app area (src/app/features/<x>, src/app/lib, ...). */
  packages: { name: string; gzipBytes: number }[];
}

interface ChunkStats {
  chunks: { file: string; modules: Record<string, number> }[];
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

function gzipSize(file: string): number {
  if (fs.existsSync(file + '.gz')) return fs.statSync(file + '.gz').size;
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/** The package or app area a module belongs to. */
export function packageOf(id: string): string {
  const nm = id.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = id.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const m = /^(src\/app\/(?:features\/[^/]+|routes|components|lib|styles)|src\/shared|locales\/[^/]+)/.exec(id);
  return m ? m[1]! : id.split('?')[0]!;
}

/** Per package, the gzip bytes of `files` apportioned by each chunk's rendered module sizes. */
export function breakdown(distDir: string, files: { path: string; gzipBytes: number }[]): { name: string; gzipBytes: number }[] {
  const statsFile = path.join(distDir, '.vite', 'chunks.json');
  const stats: ChunkStats = fs.existsSync(statsFile) ? (JSON.parse(fs.readFileSync(statsFile, 'utf8')) as ChunkStats) : { chunks: [] };
  const byFile = new Map(stats.chunks.map((c) => [c.file, c]));
  const sums = new Map<string, number>();
  for (const f of files) {
    const chunk = byFile.get(f.path.replace(/^\//, ''));
    const total = chunk ? Object.values(chunk.modules).reduce((s, n) => s + n, 0) : 0;
    if (!chunk || total === 0) {
      sums.set(f.path, (sums.get(f.path) ?? 0) + f.gzipBytes);
      continue;
    }
    for (const [id, len] of Object.entries(chunk.modules)) {
      const name = packageOf(id);
      sums.set(name, (sums.get(name) ?? 0) + (f.gzipBytes * len) / total);
    }
  }
  return [...sums].map(([name, gzipBytes]) => ({ name, gzipBytes: Math.round(gzipBytes) })).sort((a, b) => b.gzipBytes - a.gzipBytes);
}

/** Opens `route` on `baseURL` as a returning member with the service worker blocked; the scripts it fetched. */
export async function measureHomeJs(browser: Browser, baseURL: string, opts: { route?: string; member?: boolean; distDir?: string } = {}): Promise<HomeJs> {
  const route = opts.route ?? '/';
  const distDir = opts.distDir ?? path.join(ROOT, 'dist');
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-SG',
    serviceWorkers: 'block',
  });
  // A returning member: a fresh profile at "/" is a new install, which opens the start screen.
  await context.addInitScript(() => {
    try {
      if (localStorage.getItem('start_seen') === null) localStorage.setItem('start_seen', '1');
    } catch {
      // about:blank has no storage
    }
  });
  // A signed-in member (the seeded demo, src/server/db/seed.ts) loads what a member's home adds: the live
  // socket, the inbox badge.
  if (opts.member) {
    const res = await context.request.post(`${baseURL}/h5/api/api/login/login`, {
      data: { email: 'demo@canopy.sg', password: 'Canopy2026', type: 'personal', agree: true, lang: 'en', t: Date.now() },
    });
    const body = (await res.json()) as { code: number; msg: string; data: { token: string; mem_id: number; realname: string; account: string; mobile: string; avatar: string; type: string } };
    if (body.code !== 0) throw new Error(`demo login: ${body.msg}`);
    const { token, mem_id, realname, account, mobile, avatar, type } = body.data;
    await context.addInitScript(
      ([t, l]) => {
        if (localStorage.getItem('token')) return;
        localStorage.setItem('token', JSON.stringify(t));
        localStorage.setItem('login_info', JSON.stringify(l));
        localStorage.setItem('isLogin', 'true');
      },
      [token, { mem_id, realname, account, mobile, avatar, type }] as const,
    );
  }
  const seen = new Set<string>();
  const later = new Set<string>();
  let idle = false;
  const page = await context.newPage();
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.origin === new URL(baseURL).origin && /\.m?js$/.test(url.pathname) && req.resourceType() === 'script') (idle ? later : seen).add(url.pathname);
  });
  try {
    await page.goto(route, { waitUntil: 'load' });
    await page.locator('[data-testid="project-card"]').first().waitFor({ state: 'visible', timeout: 30_000 });
    // Idle: the first card on screen and the network quiet (500 ms without a request, Playwright's
    // networkidle). What the app starts later (the service worker's registration, after the first screen
    // settles) is listed apart, until no script has been asked for 3 s.
    await page.waitForLoadState('networkidle');
    idle = true;
    let count = -1;
    for (let i = 0; i < 10 && count !== later.size; i++) {
      count = later.size;
      await page.waitForTimeout(3000);
    }
  } finally {
    await context.close();
  }
  const sized = (paths: Set<string>) =>
    [...paths].map((p) => ({ path: p, gzipBytes: gzipSize(path.join(distDir, decodeURIComponent(p))) })).sort((a, b) => b.gzipBytes - a.gzipBytes);
  const files = sized(seen);
  const afterIdle = sized(new Set([...later].filter((p) => !seen.has(p))));
  return {
    path: route,
    member: !!opts.member,
    gzipBytes: files.reduce((s, f) => s + f.gzipBytes, 0),
    files,
    packages: breakdown(distDir, files),
    afterIdle,
  };
}

export function printHomeJs(r: HomeJs, log: (line: string) => void = console.log): void {
  log(`home JS fetched on ${r.path}${r.member ? ' by a signed-in member' : ''} (service worker blocked, until idle): ${kib(r.gzipBytes)} KiB gzip in ${r.files.length} files (budget ${HOME_JS_BUDGET_KIB} KiB)`);
  for (const f of r.files) log(`  ${kib(f.gzipBytes).padStart(6)} KiB  ${f.path}`);
  log('  by package:');
  for (const p of r.packages) if (p.gzipBytes >= 205) log(`  ${kib(p.gzipBytes).padStart(6)} KiB  ${p.name}`);
  const rest = r.packages.filter((p) => p.gzipBytes < 205);
  if (rest.length) log(`  ${kib(rest.reduce((s, p) => s + p.gzipBytes, 0)).padStart(6)} KiB  ${rest.length} more under 0.2 KiB each`);
  if (r.afterIdle.length) {
    log(`  after idle (not counted): ${kib(r.afterIdle.reduce((s, f) => s + f.gzipBytes, 0))} KiB`);
    for (const f of r.afterIdle) log(`  ${kib(f.gzipBytes).padStart(6)} KiB  ${f.path}`);
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const route = argv.includes('--path') ? argv[argv.indexOf('--path') + 1]! : '/';
  if (!argv.includes('--no-build')) ensureBuilt((line) => console.log(`[home-js] ${line}`));
  const dataDir = freshDataDir('canopy-home-js-');
  const server = await spawnServer({ port: await freePort(), dataDir, logFile: path.join(dataDir, 'server.log') });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless') });
  try {
    let ok = true;
    for (const member of [false, true]) {
      const r = await measureHomeJs(browser, server.url, { route, member });
      printHomeJs(r);
      ok &&= r.gzipBytes / 1024 <= HOME_JS_BUDGET_KIB;
    }
    return ok ? 0 : 1;
  } finally {
    await browser.close();
    await killServer(server.pid, server.port);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
