import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The project runs on the Node of its `node` devDependency (node_modules/.bin/node, first on npm scripts'
// PATH), whatever Node the machine has: docs/decisions/0026-node-runtime.md. The tests themselves are run by
// it, and package.json's engines, .nvmrc and the README name the same major.

const ROOT = path.resolve(__dirname, '../..');
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; devDependencies: Record<string, string> };
const pinned = (JSON.parse(read('node_modules/node/package.json')) as { version: string }).version;
const major = pinned.split('.')[0]!;

describe('node runtime', () => {
  it('runs the tests on the project’s Node, not the machine’s', () => {
    expect(process.version).toBe(`v${pinned}`);
  });

  it('names one major in engines, .nvmrc, the node devDependency and the README', () => {
    expect(pkg.engines.node).toMatch(new RegExp(`^\\^${major}\\.`));
    expect(pkg.devDependencies.node).toMatch(new RegExp(`^\\^${major}\\.`));
    expect(read('.nvmrc').trim()).toBe(major);
    expect(read('README.md')).toContain(`Node ${major}`);
  });

  it('loads better-sqlite3 built for this Node', async () => {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(':memory:');
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
  });
});
