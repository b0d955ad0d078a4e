import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { buildIsStale } from '../e2e/server-control';

// Home's JavaScript has a budget (bench/home-js.ts, gated by `npm run lighthouse`): what home loads is the
// entry, what main.tsx imports at once (React, the app's start), home's route and the English core texts,
// with every chunk they import. None of it may hold another screen's code, the other language's texts, a
// package only other screens use, or the offline store (Dexie and lib/db.ts: home's first screen draws
// without it and it loads after, lib/store.ts): that is how the budget was eaten before. Read from the build's
// manifest (dist/.vite/manifest.json) and its module list per chunk (dist/.vite/chunks.json, vite.config.ts
// chunkModules). dist/ when it is up to date (CI builds it before the tests), else a build of its own.

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Route search helpers the route tree needs to parse a URL (each route's validateSearch): small, and
 *  needed by the router before any screen is drawn. Nothing else of another feature belongs on home. */
const ROUTE_SEARCH_HELPERS = new Set(['src/app/features/projects/project-search.ts', 'src/app/features/orders/order-tabs.ts']);

/** The packages home's chunks may hold. */
const HOME_PACKAGES = [
  'react',
  'react-dom',
  'scheduler',
  'use-sync-external-store',
  '@tanstack/react-router',
  '@tanstack/router-core',
  '@tanstack/history',
  '@tanstack/react-store',
  '@tanstack/store',
  'cookie-es',
  'seroval',
  'tiny-invariant',
  'tiny-warning',
  'isbot',
  '@lingui/core',
  '@lingui/react',
  '@lingui/message-utils',
];

interface ManifestEntry {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
interface ChunkStats {
  chunks: { file: string; isEntry: boolean; imports: string[]; dynamicImports: string[]; modules: Record<string, number> }[];
}

let dist = path.join(ROOT, 'dist');
let tmp = '';
let manifest: Record<string, ManifestEntry> = {};
let stats: ChunkStats = { chunks: [] };

beforeAll(async () => {
  if (buildIsStale()) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-home-chunks-'));
    dist = tmp;
    // As `vite build` does it: vitest sets NODE_ENV=test, which the build would take for its own.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile: path.join(ROOT, 'vite.config.ts'), mode: 'production', logLevel: 'silent', build: { outDir: tmp, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  }
  manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestEntry>;
  stats = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'chunks.json'), 'utf8')) as ChunkStats;
}, 240_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const packageOf = (id: string) => {
  const rest = id.slice(id.lastIndexOf('node_modules/') + 'node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
};

/** The files home loads: the manifest's entry, its dynamic imports (main.tsx loads them at once), the chunks
 *  holding home's route and the English core texts, and every chunk they import. */
function homeFiles(): Set<string> {
  const entry = Object.values(manifest).find((e) => e.isEntry);
  expect(entry, "the manifest's entry").toBeDefined();
  const byKey = new Map(Object.entries(manifest));
  const byFile = new Map(stats.chunks.map((c) => [c.file, c]));
  const holding = (re: RegExp) => stats.chunks.filter((c) => Object.keys(c.modules).some((m) => re.test(m))).map((c) => c.file);
  const roots = [
    entry!.file,
    ...(entry!.dynamicImports ?? []).map((k) => byKey.get(k)?.file ?? k),
    ...holding(/^src\/app\/routes\/index\.tsx\?tsr-split=component$/),
    ...holding(/^locales\/en\/core\.po$/),
  ];
  expect(roots.length).toBeGreaterThanOrEqual(5);
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const chunk = byFile.get(file);
    expect(chunk, `${file} in chunks.json`).toBeDefined();
    for (const f of chunk!.imports) visit(f);
  };
  roots.forEach(visit);
  return seen;
}

function homeModules(): string[] {
  const files = homeFiles();
  return stats.chunks.filter((c) => files.has(c.file)).flatMap((c) => Object.keys(c.modules));
}

describe("home's chunks (the build's manifest)", () => {
  it('hold no module of a screen that is not on home', () => {
    const modules = homeModules();
    expect(modules).toContain('src/app/features/home/home-page.tsx');
    const otherScreens = modules.filter(
      (m) => (/^src\/app\/features\//.test(m) && !m.startsWith('src/app/features/home/') && !ROUTE_SEARCH_HELPERS.has(m)) || (/\?tsr-split=component$/.test(m) && !/^src\/app\/routes\/(index|pages\/index\/\[index\])\.tsx\?/.test(m)),
    );
    expect(otherScreens).toEqual([]);
  });

  it("hold neither the other language's texts nor the rest of the catalog", () => {
    expect(homeModules().filter((m) => /^locales\/(zh-Hans\/|en\/messages\.po)/.test(m))).toEqual([]);
  });

  it('hold no part of the offline store: Dexie loads once the first screen has settled', () => {
    const modules = homeModules();
    const store = modules.filter((m) => /node_modules\/dexie(-react-hooks)?\//.test(m) || m === 'src/app/lib/db.ts' || m === 'src/app/lib/cached-projects.ts');
    expect(store).toEqual([]);
    // It is still in the build, loaded by lib/store.ts.
    expect(stats.chunks.some((c) => Object.keys(c.modules).includes('src/app/lib/db.ts'))).toBe(true);
  });

  it('hold only the packages home uses', () => {
    const packages = new Set(homeModules().filter((m) => m.includes('node_modules/')).map(packageOf));
    expect([...packages].filter((p) => !HOME_PACKAGES.includes(p))).toEqual([]);
  });
});

describe("a project's detail (the build's manifest)", () => {
  // A shared link to a project opens its detail: it draws the project read ahead from the network
  // (src/app/start.tsx) and loads the offline store once it has drawn (lib/store.ts, lib/project.ts). Its
  // code, the chunks it imports with it, holds no part of the store, which would otherwise load first.
  it('holds no part of the offline store', () => {
    const byFile = new Map(stats.chunks.map((c) => [c.file, c]));
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file) || !byFile.has(file)) return;
      seen.add(file);
      byFile.get(file)!.imports.forEach(visit);
    };
    stats.chunks.filter((c) => Object.keys(c.modules).includes('src/app/routes/pages/project/project.tsx?tsr-split=component')).forEach((c) => visit(c.file));
    expect(seen.size).toBeGreaterThan(0);
    const modules = [...seen].flatMap((f) => Object.keys(byFile.get(f)!.modules));
    expect(modules).toContain('src/app/features/projects/project-detail-page.tsx');
    expect(modules.filter((m) => /node_modules\/dexie(-react-hooks)?\//.test(m) || m === 'src/app/lib/db.ts')).toEqual([]);
  });
});
