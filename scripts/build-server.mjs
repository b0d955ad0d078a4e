// The server as JavaScript for production: src/server/main.ts, cluster.ts and ops/cli.ts bundled by esbuild
// into dist/server (main.js, cluster.js, ops/cli.js and the chunks they share), so a start runs plain Node
// with nothing compiled at run time. The ES-module packages every request goes through (BUNDLED) are bundled
// with it: Kysely alone is some 250 files, and a start that resolves, reads and links each one spends about
// half its module-loading CPU on them (docs/operations.md#restarts). Every other dependency stays outside
// (imported from node_modules): native modules (better-sqlite3, @node-rs/argon2, sharp) load their binaries,
// swagger-ui-dist is served from its own folder, pdfkit reads its font data beside its own files, and the
// CommonJS packages would need a require shim. Migrations are bundled: db/migrate.ts imports each one by
// name. Run after `vite build`, which empties dist/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src/server');
const OUT = path.join(ROOT, 'dist/server');
const BUNDLED = new Set(['kysely', 'hono', '@hono/node-server', 'valibot', '@valibot/to-json-schema']);

/** A bare import (a package or a node: builtin) stays an import unless its package is in BUNDLED. */
const externalUnlessBundled = {
  name: 'external-unless-bundled',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const parts = args.path.split('/');
      const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

fs.rmSync(OUT, { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: ['main.ts', 'cluster.ts', 'ops/cli.ts'].map((f) => path.join(SRC, f)),
  outbase: SRC,
  outdir: OUT,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node24',
  plugins: [externalUnlessBundled],
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});

// db/seed-content.ts reads its JSON files from seed-data/ beside its own module (import.meta.url): copy them
// beside the output file that holds it.
const SEED_MODULE = 'src/server/db/seed-content.ts';
const holders = Object.entries(result.metafile.outputs).filter(([, o]) => o.inputs[SEED_MODULE]);
if (holders.length === 0) throw new Error(`${SEED_MODULE} is in no output: the demo seed would find no data`);
for (const [file] of holders) {
  fs.cpSync(path.join(SRC, 'db/seed-data'), path.join(ROOT, path.dirname(file), 'seed-data'), { recursive: true });
}
// The folder is ES modules whatever package.json sits above it (the release writes its own).
fs.writeFileSync(path.join(OUT, 'package.json'), '{ "type": "module" }\n');
console.log(`server built into ${path.relative(ROOT, OUT)}/ (${Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length} files)`);
