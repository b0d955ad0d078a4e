import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type Rollup } from 'vite';

// The built index.html links the first screen's code: every chunk main.tsx and start.tsx load
// before home's first render (React, the app's start, home's route, the English core texts) and
// the chunks they import, as <link rel="modulepreload">, and their stylesheets, so they load while the
// boot shell paints and offline from the precache at once (vite.config.ts, preloadFirstScreens). That
// plugin finds the chunks by the module ids they hold; when the ids or the chunking changed it once
// added no link at all, and nothing failed. This builds the app (into a temporary directory, not dist/)
// and checks the links against the build's own chunks.

const ROOT = path.resolve(__dirname, '../..');

/** The modules of the first screen, and what they are. */
const FIRST_SCREEN: [string, RegExp][] = [
  ['React DOM (main.tsx)', /\/node_modules\/react-dom\/client\.js$/],
  ["the app's start (start.tsx)", /\/src\/app\/start\.tsx$/],
  ["home's route component", /\/src\/app\/routes\/index\.tsx\?tsr-split=component$/],
  ['the English core texts', /\/locales\/en\/core\.po$/],
];

let outDir = '';
let chunks: Rollup.OutputChunk[] = [];
let html = '';

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-build-'));
  // As `vite build` does it: vitest sets NODE_ENV=test, which the build would take for its own.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let output: Awaited<ReturnType<typeof build>>;
  try {
    output = await build({
      configFile: path.join(ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const outputs = (Array.isArray(output) ? output : [output]) as Rollup.RollupOutput[];
  chunks = outputs.flatMap((o) => o.output).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
}, 240_000);

afterAll(() => {
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

/** The href of every <link> with this rel in the built index.html, without the leading slash. */
function linked(rel: string): Set<string> {
  const hrefs = new Set<string>();
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    if (!new RegExp(`\\brel="${rel}"`).test(tag)) continue;
    const href = /\bhref="\/?([^"]+)"/.exec(tag)?.[1];
    if (href) hrefs.add(href);
  }
  return hrefs;
}

/** The chunks holding the first screen's modules and every chunk they import, each with what it is for. */
function firstScreenChunks(): Map<Rollup.OutputChunk, string> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const found = new Map<Rollup.OutputChunk, string>();
  for (const [what, id] of FIRST_SCREEN) {
    const holders = chunks.filter((c) => c.moduleIds.some((m) => id.test(m)));
    expect(holders.length, `a chunk holding ${what}`).toBeGreaterThan(0);
    const visit = (c: Rollup.OutputChunk) => {
      if (found.has(c)) return;
      found.set(c, what);
      for (const f of c.imports) if (byFile.has(f)) visit(byFile.get(f)!);
    };
    holders.forEach(visit);
  }
  return found;
}

describe('the built index.html', () => {
  it('preloads every chunk of the first screen, with the chunks they import', () => {
    const entry = chunks.find((c) => c.isEntry);
    expect(entry, 'the entry chunk').toBeDefined();
    expect(html).toContain(`src="/${entry!.fileName}"`);
    const preloads = linked('modulepreload');
    const missing = [...firstScreenChunks()].filter(([c]) => c !== entry && !preloads.has(c.fileName)).map(([c, what]) => `${c.fileName} (${what})`);
    expect(missing, 'chunks of the first screen with no <link rel="modulepreload">').toEqual([]);
  });

  it("links the first screen's stylesheets", () => {
    const sheets = linked('stylesheet');
    const entry = chunks.find((c) => c.isEntry)!;
    const css = [entry, ...firstScreenChunks().keys()].flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]);
    expect(css.length).toBeGreaterThan(0);
    expect([...new Set(css)].filter((f) => !sheets.has(f))).toEqual([]);
  });

  it('preloads nothing the first screen does not load (no other screen, no other language, not the offline store)', () => {
    const preloads = [...linked('modulepreload')];
    const holding = (re: RegExp) => new Set(chunks.filter((c) => c.moduleIds.some((m) => re.test(m))).map((c) => c.fileName));
    const others = new Set([
      ...holding(/\/locales\/zh-Hans\//),
      ...holding(/\/locales\/en\/messages\.po$/),
      ...holding(/\/src\/app\/lib\/socket\.ts$/),
      ...holding(/\/node_modules\/dexie\//),
      ...holding(/\/src\/app\/lib\/db\.ts$/),
    ]);
    expect(preloads.filter((f) => others.has(f))).toEqual([]);
  });

  it("evaluates none of the app's code with the entry: React and the start come in tasks of their own, after the first paint", () => {
    // A module script runs its static imports first, in the same task. main.tsx waits for the boot shell's
    // first paint, then imports React, then the start (each its own task, so none blocks input for long);
    // a static import from it of any module that the start's chunk holds (a one-line helper once) made the
    // entry import that chunk, and with it React and home, all evaluated in one long task before main.tsx
    // ran a line.
    const entry = chunks.find((c) => c.isEntry)!;
    const byFile = new Map(chunks.map((c) => [c.fileName, c]));
    const evaluated = new Set<string>();
    const visit = (f: string) => {
      if (evaluated.has(f) || !byFile.has(f)) return;
      evaluated.add(f);
      byFile.get(f)!.imports.forEach(visit);
    };
    entry.imports.forEach(visit);
    const appModules = [...evaluated].flatMap((f) => byFile.get(f)!.moduleIds.filter((m) => !/vite\/preload-helper|^\0|rolldown[:/]runtime/.test(m)));
    expect(appModules, "modules the entry evaluates before main.tsx's first line").toEqual([]);
  });

  it("names each deep-linked screen's code, its stylesheets and the rest of the texts for the boot shell", () => {
    const metas = new Map([...html.matchAll(/<meta name="canopy:([^"]*)" content="([^"]*)"/g)].map((m) => [m[1], m[2]!]));
    const entries = (name: string) => new Map((metas.get(name) ?? '').split('|').map((e) => [e.split(' ')[0]!, e.split(' ').slice(1).map((f) => f.replace(/^\//, ''))]));
    const byFile = new Map(chunks.map((c) => [c.fileName, c]));
    const closure = (re: RegExp) => {
      const seen = new Set<string>();
      const visit = (c: Rollup.OutputChunk) => {
        if (seen.has(c.fileName)) return;
        seen.add(c.fileName);
        for (const f of c.imports) if (byFile.has(f)) visit(byFile.get(f)!);
      };
      chunks.filter((c) => c.moduleIds.some((m) => re.test(m))).forEach(visit);
      return seen;
    };
    const already = new Set([...linked('modulepreload'), chunks.find((c) => c.isEntry)!.fileName]);
    const screens = entries('screen-code');
    for (const [route, module] of [
      ['/pages/project/project', /\/src\/app\/routes\/pages\/project\/project\.tsx\?tsr-split=component$/],
      ['/pages/project/index', /\/src\/app\/routes\/pages\/project\/\[index\]\.tsx\?tsr-split=component$/],
    ] as const) {
      const named = new Set(screens.get(route) ?? []);
      const code = [...closure(module)].filter((f) => !already.has(f));
      expect(code.length, `${route}: chunks of its own`).toBeGreaterThan(0);
      expect(code.filter((f) => !named.has(f)), `${route}: chunks the boot shell would not preload`).toEqual([]);
      const sheets = code.flatMap((f) => [...(byFile.get(f)!.viteMetadata?.importedCss ?? [])]).filter((f) => !linked('stylesheet').has(f));
      expect(sheets.filter((f) => !named.has(f)), `${route}: stylesheets the boot shell would not preload`).toEqual([]);
    }
    const texts = entries('texts-code');
    for (const locale of ['en', 'zh-Hans']) {
      const code = [...closure(new RegExp(`/locales/${locale}/messages\\.po$`))].filter((f) => !already.has(f));
      expect(code.length, `${locale}: the rest of the texts`).toBeGreaterThan(0);
      expect(code.filter((f) => !(texts.get(locale) ?? []).includes(f)), `${locale}: texts the boot shell would not preload`).toEqual([]);
    }
  });

  it("names the offline store's code for the boot shell, which preloads it on any first screen but home", () => {
    const content = /<meta name="canopy:store-code" content="([^"]*)"/.exec(html)?.[1];
    expect(content, 'the canopy:store-code meta tag').toBeDefined();
    const named = new Set(content!.split(' ').map((f) => f.replace(/^\//, '')));
    const holding = (re: RegExp) => chunks.filter((c) => c.moduleIds.some((m) => re.test(m))).map((c) => c.fileName);
    for (const f of [...holding(/\/src\/app\/lib\/db\.ts$/), ...holding(/\/node_modules\/dexie\//)]) expect(named, f).toContain(f);
    const shell = fs.readFileSync(path.join(import.meta.dirname, '../../public/boot-shell.js'), 'utf8');
    expect(shell).toMatch(/\(screen\.length \? screen : meta\('canopy:store-code'\)\.split\(' '\)\)\.forEach\(preload\);/);
  });
});
