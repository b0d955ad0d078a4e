// The server as JavaScript for production: src/server/main.ts, cluster.ts and ops/cli.ts bundled by esbuild
// into dist/server (main.js, cluster.js, ops/cli.js and the chunks they share), so a start runs plain Node
// with nothing compiled at run time. Dependencies stay outside the bundle (imported from node_modules):
// native modules (better-sqlite3, @node-rs/argon2, sharp) load their binaries, and swagger-ui-dist is served
// from its own folder. Migrations are bundled: db/migrate.ts imports each one by name. Run after
// `vite build`, which empties dist/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src/server');
const OUT = path.join(ROOT, 'dist/server');

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
  packages: 'external',
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
