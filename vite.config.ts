/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { lingui } from '@lingui/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';
import { transformAsync } from '@babel/core';
import zlib from 'node:zlib';
import fs from 'node:fs';
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
      return result?.code ? { code: result.code, map: result.map } : null;
    },
  };
}

// Writes a .gz beside every built text asset; the server sends it to clients that accept gzip.
function precompress(): Plugin {
  return {
    name: 'canopy:precompress',
    apply: 'build',
    closeBundle() {
      const out = path.join(here, 'dist');
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(out)) {
        if (!/\.(js|mjs|css|html|svg|json|webmanifest|txt)$/.test(file)) continue;
        fs.writeFileSync(file + '.gz', zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
      }
    },
  };
}

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
        globIgnores: ['**/*.gz'],
        navigateFallback: '/index.html',
        // The API and the socket are never answered by the app shell.
        navigateFallbackDenylist: [/^\/h5\//],
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            urlPattern: ({ url, request }) =>
              request.method === 'GET' && /^\/h5\/api\/api\/(project|news|content)\//.test(url.pathname),
            handler: 'StaleWhileRevalidate',
            options: {
              cacheName: 'canopy-content-api',
              expiration: { maxEntries: 200, maxAgeSeconds: 7 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
            },
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
    precompress(),
  ],
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  test: {
    root: here,
    include: ['tests/{app,server,shared}/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['tests/setup/env.ts'],
  },
  server: {
    proxy: {
      '/h5/api': apiTarget,
      '/h5/ws': { target: apiTarget.replace(/^http/, 'ws'), ws: true },
    },
  },
});
