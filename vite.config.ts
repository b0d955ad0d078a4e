/// <reference types="vitest/config" />
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { lingui } from '@lingui/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';
import { compression } from 'vite-plugin-compression2';
import { transformAsync } from '@babel/core';
import os from 'node:os';
import path from 'node:path';

// Lingui macros (t, Trans, msg...) compiled by Babel, only in files that import them. plugin-react 6 has
// no babel option, so this small plugin runs @lingui/babel-plugin-lingui-macro itself.
function linguiMacro(): Plugin {
  return {
    name: 'canopy:lingui-macro',
    enforce: 'pre',
    async transform(code, id) {
      if (!/\.[jt]sx?$/.test(id.split('?')[0]!) || id.includes('node_modules') || !code.includes('@lingui/')) return null;
      if (!/@lingui\/(core|react)\/macro|@lingui\/macro/.test(code)) return null;
      const result = await transformAsync(code, {
        filename: id,
        babelrc: false,
        configFile: false,
        sourceMaps: true,
        parserOpts: { plugins: ['typescript', 'jsx'] },
        plugins: ['@lingui/babel-plugin-lingui-macro'],
      });
      // Babel types its map's arrays readonly; Rolldown only reads them.
      return result?.code ? { code: result.code, map: result.map as Rollup.ExistingRawSourceMap | null } : null;
    },
  };
}

// The service worker's cache of public API reads (runtimeCaching below). workbox-build copies the plugins'
// source into sw.js, so they name nothing from outside themselves; the header is FROM_CACHE_HEADER of
// src/app/lib/api.ts. No ExpirationPlugin: it writes its timestamps to IndexedDB on every cache hit, and
// at an offline start those writes queue with the first screen's own IndexedDB reads (measured: +15 ms to
// the first card on home). The cache keeps the 200 most recently written answers instead, trimmed on
// write, with no age limit: a cached answer is only ever a first answer, revalidated at once, and never
// written over Dexie (src/app/lib/sync.ts).
const KEEP_NEWEST_200 = {
  cacheDidUpdate: async ({ cacheName }: { cacheName: string }) => {
    const cache = await caches.open(cacheName);
    const keys = await cache.keys(); // oldest write first: a put moves its URL to the end
    for (const key of keys.slice(0, Math.max(0, keys.length - 200))) await cache.delete(key);
  },
};
const CONTENT_API_CACHE = {
  cacheName: 'canopy-content-api',
  cacheableResponse: { statuses: [200] },
  // Hono's compress adds Vary: Accept-Encoding; the key is the URL alone.
  matchOptions: { ignoreVary: true },
};
/** A plain read: the cached copy, marked. */
const MARK_CACHED_ANSWER = {
  cachedResponseWillBeUsed: ({ cachedResponse }: { cachedResponse?: Response | null }) => {
    if (!cachedResponse) return Promise.resolve(null);
    const headers = new Headers(cachedResponse.headers);
    headers.set('X-From-Cache', '1');
    return Promise.resolve(new Response(cachedResponse.body, { status: cachedResponse.status, statusText: cachedResponse.statusText, headers }));
  },
};
/** A fresh read: the network's answer (stored for the next plain read) or a failure, never the cached copy
 *  (the page already has it, and a failure is what tells it the server is unreachable). */
const NETWORK_ANSWER_ONLY = { cachedResponseWillBeUsed: () => Promise.resolve(null) };

/** The screens whose code the boot shell preloads when a start opens them (their route's component). */
const BOOT_PRELOADED_SCREENS: Record<string, RegExp> = {
  '/pages/project/index': /\/src\/app\/routes\/pages\/project\/\[index\]\.tsx\?tsr-split=component$/,
  '/pages/project/project': /\/src\/app\/routes\/pages\/project\/project\.tsx\?tsr-split=component$/,
};

// <link rel="modulepreload"> in index.html for the app's start (start.tsx, which main.tsx imports once the
// boot shell has painted) and the home screen's code (start_url) with everything they import, and the
// English core texts, so they load while the boot shell paints (offline cold start,
// bench/offline-start.ts); and their stylesheets. start.tsx starts the chunks of whatever screen a start
// opens, a little later. Not the other screens' code nor the rest of the texts: on home they cost more than they
// save elsewhere (measured: +7 ms to home's first card, -2 ms to the project tab's) and would load JS the
// home screen does not use (bench/lighthouse.ts budget).
function preloadFirstScreens(): Plugin {
  const first = [/\/src\/app\/start\.tsx$/, /\/src\/app\/routes\/index\.tsx\?tsr-split=component$/, /\/locales\/en\/core\.po$/];
  return {
    name: 'canopy:preload-first-screens',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle) return;
        const chunks = Object.values(ctx.bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (roots: Rollup.OutputChunk[], skip = new Set<string>()) => {
          const seen = new Set<string>();
          const visit = (c: Rollup.OutputChunk) => {
            if (seen.has(c.fileName) || skip.has(c.fileName)) return;
            seen.add(c.fileName);
            for (const f of c.imports) if (byFile.has(f)) visit(byFile.get(f)!);
          };
          roots.forEach(visit);
          return seen;
        };
        // The entry and its static imports are linked by Vite already.
        const linked = closure(chunks.filter((c) => c.isEntry));
        // By the modules a chunk holds, not only its facade: the start's chunk (a group of its own, below)
        // is no module's facade.
        const files = closure(chunks.filter((c) => c.moduleIds.some((id) => first.some((re) => re.test(id)))), linked);
        // Their stylesheets too, as the entry's own are: the first screen is drawn with them, not restyled
        // when a chunk's import adds them.
        const css = new Set([...files].flatMap((f) => [...(byFile.get(f)!.viteMetadata?.importedCss ?? [])]));
        // The offline store's code (lib/db.ts and Dexie) is not home's (lib/store.ts), but every other first
        // screen reads it at once: the boot shell (public/boot-shell.js) preloads these files when the page
        // it starts is not home, so they load beside the rest instead of after start.tsx asks for them.
        const store = closure(chunks.filter((c) => c.moduleIds.some((id) => /\/src\/app\/lib\/db\.ts$/.test(id))), new Set([...linked, ...files]));
        // The screens a start often opens from outside the app (a shared project, the project tab) and the
        // rest of the texts: the boot shell preloads a screen's code and stylesheets and the texts of the
        // stored language when the page it starts is that screen, so they load beside React instead of once
        // start.tsx has run (bench/lighthouse.ts). One entry a screen: its path, then its files, the store's
        // among them only if the screen imports it (a project's detail draws without it, src/app/lib/store.ts).
        const loaded = new Set([...linked, ...files, ...store]);
        const holding = (re: RegExp) => chunks.filter((c) => c.moduleIds.some((id) => re.test(id)));
        const screens = Object.entries(BOOT_PRELOADED_SCREENS).map(([route, module]) => {
          const code = closure(holding(module), new Set([...linked, ...files]));
          const sheets = new Set([...code].flatMap((f) => [...(byFile.get(f)!.viteMetadata?.importedCss ?? [])]).filter((f) => !css.has(f)));
          return [route, ...[...code, ...sheets].map((f) => `/${f}`)].join(' ');
        });
        const texts = (['en', 'zh-Hans'] as const).map((locale) => {
          const code = closure(holding(new RegExp(`/locales/${locale}/messages\\.po$`)), loaded);
          return [locale, ...[...code].map((f) => `/${f}`)].join(' ');
        });
        return [
          { tag: 'meta', attrs: { name: 'canopy:store-code', content: [...store].map((f) => `/${f}`).join(' ') }, injectTo: 'head' as const },
          { tag: 'meta', attrs: { name: 'canopy:screen-code', content: screens.join('|') }, injectTo: 'head' as const },
          { tag: 'meta', attrs: { name: 'canopy:texts-code', content: texts.join('|') }, injectTo: 'head' as const },
          ...[...files].map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}` }, injectTo: 'head' as const })),
          ...[...css].map((f) => ({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: `/${f}` }, injectTo: 'head' as const })),
        ];
      },
    },
  };
}

// The app's scripts at low fetch priority (the entry and every modulepreload). The boot shell in index.html
// paints the first screen without them, so they are not render-blocking, and at low priority they do not
// hold up the stylesheets and the banner image the first paint needs (bench/lighthouse.ts).
function scriptsAtLowPriority(): Plugin {
  return {
    name: 'canopy:scripts-at-low-priority',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(/<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g, '<$1 fetchpriority="low"'),
    },
  };
}

// Two libraries' own modern builds in the app's bundle instead of the ES5 builds their package entries name:
// Dexie's dist/modern/dexie.mjs (ES2018, an ES module; the entry's import wrapper loads the ES5 UMD build)
// and workbox-window's build/workbox-window.prod.mjs (ES2017; the entry is the .es5.mjs). Same code,
// smaller: about 1.6 and 0.9 KiB less gzip, both loaded once home's first screen has settled; the build's
// target (es2022) is newer than either. Build only: vitest runs the app's code beside dexie-react-hooks
// loaded by Node, which would then hold a second Dexie.
const MODERN_BUILDS: Record<string, string> = {
  dexie: 'dexie/dist/modern/dexie.mjs',
  'workbox-window': 'workbox-window/build/workbox-window.prod.mjs',
};
function modernBuilds(): Plugin {
  return {
    name: 'canopy:modern-builds',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const target = MODERN_BUILDS[source];
      return target ? this.resolve(target, importer, { skipSelf: true }) : null;
    },
  };
}

// dist/.vite/chunks.json: each built chunk with the modules it holds (paths from the repo's root,
// node_modules by package) and their rendered sizes, beside Vite's manifest. The home route's budget reads
// it for its per-package breakdown (bench/home-js.ts), and a test reads it to check that home's chunks hold
// no screen that is not on home (tests/app/home-chunks.test.ts).
function chunkModules(): Plugin {
  return {
    name: 'canopy:chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle)
        .filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
        .map((c) => ({
          file: c.fileName,
          isEntry: c.isEntry,
          imports: c.imports,
          dynamicImports: c.dynamicImports,
          modules: Object.fromEntries(
            Object.entries(c.modules)
              .filter(([, m]) => m.renderedLength > 0)
              .map(([id, m]) => [path.relative(here, id.replace(/^\0/, '')).replaceAll(path.sep, '/'), m.renderedLength]),
          ),
        }));
      this.emitFile({ type: 'asset', fileName: '.vite/chunks.json', source: JSON.stringify({ chunks }, null, 1) + '\n' });
    },
  };
}

// A project's screens (detail, countdown, buy, book, sell) share their parts in one chunk, and the small
// pieces many screens use (a countdown, live refresh, the member's info, fees) in another: left to the
// automatic split they came as ten files of 0.5 to 2.5 KiB for the detail alone, and a phone on a slow
// network pays a round trip per file more than it pays for the bytes (bench/lighthouse.ts).
const KIT_MODULES = /\/src\/(app\/components\/countdown\.tsx|app\/lib\/live-refresh\.ts|app\/lib\/user-info\.ts|shared\/fees\.ts)$/;
const PROJECT_SCREEN_MODULES =
  /\/src\/(app\/routes\/pages\/project\/project\.tsx\?tsr-split=component|app\/features\/projects\/(project-detail-page|project-icc|project-parts)\.tsx|app\/lib\/(project|order-limits)\.ts|app\/components\/(project-load-state|sale-countdown|cycle-text)\.tsx|shared\/countries\.ts|shared\/icc\/reasons\.ts)$/;

const apiTarget = process.env.CANOPY_API ?? 'http://localhost:8080';

const here = path.dirname(new URL(import.meta.url).pathname);

export default defineConfig({
  // index.html lives with the app in src/app; the build goes to dist/ at the top.
  root: path.join(here, 'src/app'),
  publicDir: path.join(here, 'public'),
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: path.join(here, 'src/app/routes'),
      generatedRouteTree: path.join(here, 'src/app/route-tree.gen.ts'),
      routeFileIgnorePattern: '\\.(test|spec)\\.',
    }),
    linguiMacro(),
    lingui(),
    modernBuilds(),
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      strategies: 'generateSW',
      includeAssets: ['icons/favicon.svg', 'icons/apple-touch-icon-180.png'],
      manifest: {
        id: '/',
        name: 'Canopy — Carbon Credits',
        short_name: 'Canopy',
        description: 'Buy, book and sell verified carbon credits by the ton, in SGD.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#f6f8f5',
        theme_color: '#1f6f4a',
        lang: 'en',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        globIgnores: ['**/*.gz', '**/*.br'],
        navigateFallback: '/index.html',
        // The API and the socket are never answered by the app shell.
        navigateFallbackDenylist: [/^\/h5\//],
        cleanupOutdatedCaches: true,
        // Web Push (public/push-sw.js): generateSW's documented way to add code to the worker it writes.
        importScripts: ['/push-sw.js'],
        runtimeCaching: [
          // Public API reads, stale-while-revalidate split between the worker and the page (docs/decisions/
          // 0015-scale.md, "Offline reads"): a plain read is answered from this cache when it holds the URL
          // (the URL is the key: lang and the real parameters, no timestamp), marked X-From-Cache: 1 so the
          // page never takes it for the server being reachable; the page then revalidates it with a fresh
          // read (fetch cache mode no-cache), which goes to the network and refreshes this cache, or fails.
          // The server's Cache-Control (no-store, or no-cache with an ETag) does not matter here: Workbox
          // stores what cacheableResponse admits, and a fresh read's 304 reaches the worker as the HTTP
          // cache's 200.
          {
            urlPattern: ({ url, request }) =>
              request.method === 'GET' &&
              (request.cache === 'no-cache' || request.cache === 'reload') &&
              /^\/h5\/api\/api\/(project|news|content)\//.test(url.pathname),
            handler: 'NetworkFirst',
            options: { ...CONTENT_API_CACHE, plugins: [NETWORK_ANSWER_ONLY, KEEP_NEWEST_200] },
          },
          {
            urlPattern: ({ url, request }) =>
              request.method === 'GET' && /^\/h5\/api\/api\/(project|news|content)\//.test(url.pathname),
            handler: 'CacheFirst',
            options: { ...CONTENT_API_CACHE, plugins: [MARK_CACHED_ANSWER, KEEP_NEWEST_200] },
          },
          {
            urlPattern: ({ url, request }) => request.destination === 'image' && url.pathname.startsWith('/img/'),
            handler: 'StaleWhileRevalidate',
            options: { cacheName: 'canopy-images', expiration: { maxEntries: 200, maxAgeSeconds: 30 * 24 * 3600 } },
          },
        ],
      },
      devOptions: { enabled: false },
    }),
    preloadFirstScreens(),
    chunkModules(),
    scriptsAtLowPriority(),
    // A .br and a .gz beside every built text file (public/ too); the server sends the one the client accepts
    // (serveStatic with precompressed, src/server/static.ts) and never compresses a file per request.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/ }),
  ],
  resolve: {
    // @tanstack/react-store imports the shim of useSyncExternalStore (for React before 18); React 19 has
    // it, and the package's plain with-selector uses React's own: the shim's code leaves home's JS.
    // @lingui/react imports the shim's useSyncExternalStore itself, which is React's own export.
    alias: [
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector' },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'react' },
    ],
  },
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    // Every browser the app supports has <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 400,
    // Home (start_url) and everything it imports in one chunk: left to the automatic split, home's code
    // comes as some twenty files (router pieces and kit parts each cut out because some lazy screen shares
    // them), and the extra round trips delay home's first paint (bench/lighthouse.ts shows it). Other screens import the parts they
    // share from it; they would have loaded most of them anyway. React is cut out of it, a chunk of its
    // own, so main.tsx evaluates it in a task of its own (a chunk's code runs in one task; React's alone is
    // the longest), and Vite's preload helper too: left in home, it makes the entry import home statically,
    // which runs all of it before the first paint. Both are linked from index.html (preloadFirstScreens), so
    // the split costs no round trip. Dexie is a chunk of its own too, and no part of home's: home's first
    // screen draws without the offline store, which loads after it (src/app/lib/store.ts). The app's start (start.tsx with the router's
    // pieces and the routes' definitions) is one chunk too: left to the split, three small chunks (the lazy
    // route component, useNavigate, the project search) come beside it and cost more gzip than one chunk.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'preload-helper', test: /vite\/preload-helper/, priority: 9 },
            { name: 'react', test: /\/node_modules\/(react|react-dom|scheduler)\//, priority: 8 },
            { name: 'dexie', test: /\/node_modules\/dexie(-react-hooks)?\//, priority: 7 },
            { name: 'home', test: /\/src\/app\/routes\/index\.tsx\?tsr-split=component$/, priority: 6 },
            { name: 'start', test: /\/src\/app\/start\.tsx$/, priority: 5 },
            { name: 'db', test: /\/src\/app\/lib\/db\.ts$/, priority: 4 },
            { name: 'kit', test: KIT_MODULES, priority: 3 },
            // The project tab's stylesheet too, which the detail imports: not a reason for the tab to load the
            // detail's code.
            { name: 'projects', test: /\/src\/app\/features\/projects\/projects\.css$/, priority: 3 },
            { name: 'project', test: PROJECT_SCREEN_MODULES, priority: 2 },
          ],
        },
      },
    },
  },
  test: {
    root: here,
    include: ['tests/{app,server,shared}/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // On SQLite at least two forks, where vitest's default is one less than the cores (one on a 2-core
    // machine): much of a test is waiting on a child process, a socket or a timer, and a second fork fills
    // that time (the suite in about half the wall time on two cores). On PostgreSQL the database's own
    // processes take the second core, so a second fork there gains nothing on two cores: the default stays.
    maxWorkers: process.env.TEST_DATABASE_URL ? undefined : Math.max(2, os.availableParallelism() - 1),
    setupFiles: ['tests/setup/env.ts'],
    // Contract tests: counts the OpenAPI operations the server tests saw answer (tests/helpers/contract.ts).
    globalSetup: ['tests/setup/contract-global.ts'],
  },
  server: {
    proxy: {
      '/h5/api': apiTarget,
      '/h5/ws': { target: apiTarget.replace(/^http/, 'ws'), ws: true },
    },
  },
});
