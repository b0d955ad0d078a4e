// `npm run release` (after `npm run build`): release/canopy-<version>/ and release/canopy-<version>.tgz, a
// folder that runs on a machine with Node and nothing else of the repo: the built app and server (dist/),
// package.json (its scripts for a built folder: start, start:cluster, ops) with package-lock.json, and the
// production dependencies already installed (node_modules, copied from this install: the packages the lock
// does not mark dev). Installed here, not on the target, so the target needs neither the registry nor a
// compiler for the native modules (better-sqlite3, @node-rs/argon2, sharp); their Node-API binaries are for
// this machine's platform, and on another one `npm ci --omit=dev` in the folder installs them again from the
// lock (docs/operations.md, "Deploy").
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const NAME = `canopy-${pkg.version}`;
const OUT_DIR = path.join(ROOT, 'release');
const TARGET = path.join(OUT_DIR, NAME);

if (!process.version.startsWith(`v${fs.readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()}.`)) {
  throw new Error(`release made on Node ${process.version}, not on the Node .nvmrc names: run it through npm (npm run release)`);
}
for (const f of ['dist/index.html', 'dist/server/main.js', 'dist/server/ops/cli.js']) {
  if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run npm run build first`);
}
fs.rmSync(TARGET, { recursive: true, force: true });
fs.rmSync(`${TARGET}.tgz`, { force: true });
fs.mkdirSync(TARGET, { recursive: true });

fs.cpSync(path.join(ROOT, 'dist'), path.join(TARGET, 'dist'), { recursive: true });
// Same dependencies as the lock (so `npm ci --omit=dev` accepts the pair), scripts for the built output.
// The Node it needs is package.json's engines and .nvmrc, as in the repo, and the one it is built and tested
// on (docs/decisions/0026-node-runtime.md).
const scripts = {
  start: 'node dist/server/main.js',
  'start:cluster': 'node dist/server/cluster.js',
  ops: 'node dist/server/ops/cli.js',
};
fs.writeFileSync(path.join(TARGET, 'package.json'), JSON.stringify({ ...pkg, scripts }, null, 2) + '\n');
fs.copyFileSync(path.join(ROOT, 'package-lock.json'), path.join(TARGET, 'package-lock.json'));
fs.copyFileSync(path.join(ROOT, '.nvmrc'), path.join(TARGET, '.nvmrc'));

// Each production package's own files (not devOptional: optional peers of production packages that only
// tooling uses, typescript and @babel/core); the packages nested in its node_modules are entries of their own.
// Build leftovers of native modules (object files, their C sources) are not needed to run.
const SKIP = /(^|\/)node_modules(\/|$)|^build\/Release\/(obj|\.deps)|^build\/(deps|test_extension)|^deps\/|^src\/.*\.(c|cc|cpp|h)$/;
// Packages that carry every platform's prebuilt binary in prebuilds/ (better-sqlite3): this platform's only.
const HERE = new Set([`${process.platform}-${process.arch}`, `linuxmusl-${process.arch}`]);
const otherPlatform = (rel) => /^prebuilds\/[^/]+\.node$/.test(rel) && !HERE.has(path.basename(rel, '.node'));
// The certificate PDF reads one weight of the font package (its stylesheet and WOFF slices): the other
// weights and formats are most of its 76 MB (docs/decisions/0031-certificate-pdf.md).
const KEEP_ONLY = {
  'node_modules/@fontsource/noto-sans-sc': (rel) => rel === '' || rel === 'files' || /^(package\.json|LICENSE|400\.css)$/.test(rel) || /^files\/[^/]+-400-normal\.woff$/.test(rel),
};
let copied = 0;
for (const [where, entry] of Object.entries(lock.packages)) {
  if (!where.startsWith('node_modules/') || entry.dev || entry.devOptional || entry.link) continue;
  const from = path.join(ROOT, where);
  if (!fs.existsSync(from)) {
    if (entry.optional) continue; // another platform's binary
    throw new Error(`${where} is not installed: run npm ci first`);
  }
  fs.cpSync(from, path.join(TARGET, where), {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(from, src).split(path.sep).join('/');
      return !SKIP.test(rel) && !otherPlatform(rel) && (KEEP_ONLY[where]?.(rel) ?? true);
    },
  });
  copied += 1;
}

execFileSync('tar', ['-czf', `${NAME}.tgz`, NAME], { cwd: OUT_DIR, stdio: 'inherit' });
const mib = (fs.statSync(`${TARGET}.tgz`).size / 1024 / 1024).toFixed(1);
console.log(`release/${NAME}.tgz (${mib} MiB): dist/, package.json, package-lock.json, ${copied} production packages`);
console.log(`needs Node ${pkg.engines.node} (built on ${process.version}); run it: tar -xzf ${NAME}.tgz && cd ${NAME} && npm start   (or node dist/server/main.js)`);
