// `npm run deps:check`: every direct dependency (package.json, and tools/lighthouse's own package) on the
// major of its dist-tags.latest, or a row in docs/decisions/0028-dependencies.md that says what holds it
// back. Fails on a major behind without a row, on a row whose latest major has moved past the one it was
// written for (look again), and on a row for a package no longer behind (remove it). A 0.x package's
// "major" is its minor (0.28 -> 0.29 breaks). The version held is the lock's.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RECORD = 'docs/decisions/0028-dependencies.md';
const PACKAGES = ['.', 'tools/lighthouse'];
const CONCURRENCY = 8;

/** 4.2.1 -> "4", 0.28.3 -> "0.28". */
const major = (version) => {
  const [a, b] = version.replace(/^[^\d]*/, '').split('.');
  return a === '0' ? `0.${b}` : a;
};
const newer = (a, b) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  return x[0] !== y[0] ? x[0] > y[0] : (x[1] ?? 0) > (y[1] ?? 0);
};

// The record's table rows: | `name` | held major | latest major reviewed | what blocks it | when to look again |
const held = new Map();
for (const line of fs.readFileSync(path.join(ROOT, RECORD), 'utf8').split('\n')) {
  const m = /^\|\s*`([^`]+)`\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|/.exec(line);
  if (m) held.set(m[1], { held: m[2], reviewed: m[3] });
}

const wanted = [];
for (const dir of PACKAGES) {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8'));
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'package-lock.json'), 'utf8'));
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
    const version = lock.packages[`node_modules/${name}`]?.version;
    if (!version) throw new Error(`${name} is not in ${path.join(dir, 'package-lock.json')}: run npm install`);
    wanted.push({ where: dir === '.' ? 'package.json' : `${dir}/package.json`, name, version });
  }
}

// The registry npm uses (npm tells its scripts), asked over HTTPS; `npm view` when that fails (a proxy or a
// certificate only npm's own settings know).
const REGISTRY = (process.env.npm_config_registry || 'https://registry.npmjs.org/').replace(/\/?$/, '/');
async function latestOf(name) {
  try {
    const res = await fetch(`${REGISTRY}-/package/${name.replace('/', '%2f')}/dist-tags`, { signal: AbortSignal.timeout(15_000) });
    if (res.ok) {
      const tags = await res.json();
      if (typeof tags.latest === 'string') return tags.latest;
    }
  } catch {
    // below
  }
  const { stdout } = await run('npm', ['view', '--json', name, 'dist-tags.latest'], { cwd: ROOT });
  return JSON.parse(stdout);
}
const queue = [...wanted];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let d = queue.shift(); d; d = queue.shift()) d.latest = await latestOf(d.name);
  }),
);

const problems = [];
const seen = new Set();
for (const d of wanted) {
  const [ours, theirs] = [major(d.version), major(d.latest)];
  const row = held.get(d.name);
  seen.add(d.name);
  if (ours === theirs) {
    if (row) problems.push(`${d.name}: on ${d.version}, the latest major (${d.latest}): remove its row from ${RECORD}`);
    continue;
  }
  if (!newer(theirs, ours)) continue; // the lock is ahead of latest (a prerelease tag): nothing held back
  if (!row) problems.push(`${d.name} (${d.where}): ${d.version} held, ${d.latest} is latest: take it, or add a row to ${RECORD}`);
  else if (newer(theirs, row.reviewed)) problems.push(`${d.name}: ${RECORD} reviewed ${row.reviewed}, the latest is ${d.latest}: look again`);
  else console.log(`held   ${d.name} ${d.version} (latest ${d.latest}): ${RECORD}`);
}
for (const name of held.keys()) if (!seen.has(name)) problems.push(`${name}: a row in ${RECORD} for no direct dependency`);

console.log(`${wanted.length} direct dependencies checked against the registry's latest`);
if (problems.length) {
  for (const p of problems) console.error(`deps:check: ${p}`);
  process.exit(1);
}
console.log('deps:check: ok');
