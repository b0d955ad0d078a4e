// The import rules of .dependency-cruiser.cjs (run by `npm run lint`) fire: a throwaway tree with one
// violation of each kind is cruised with the project's own config, and every rule reports it; the same tree
// without the violations is clean. (docs/decisions/0011-layout.md)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-depcruise-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function tree(dir: string, files: Record<string, string>): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx' } }));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

function cruise(dir: string): Array<{ rule: string; from: string; to: string }> {
  const bin = path.join(ROOT, 'node_modules/.bin/depcruise');
  const run = spawnSync(bin, ['--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json', 'src'], { cwd: dir, encoding: 'utf8' });
  const out = JSON.parse(run.stdout) as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
  return out.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

// A clean skeleton: shared at the bottom, app and server on it, features on the kit, modules on env.ts.
const CLEAN = {
  'src/shared/money.ts': `export const cents = (n: number) => n;\n`,
  'src/app/lib/format.ts': `import { cents } from '../../shared/money';\nexport const show = (n: number) => String(cents(n));\n`,
  'src/app/components/amount.tsx': `import { show } from '../lib/format';\nexport const Amount = (p: { n: number }) => show(p.n);\n`,
  'src/app/features/wallet/page.tsx': `import { Amount } from '../../components/amount';\nexport const Wallet = () => Amount({ n: 1 });\n`,
  'src/app/features/orders/page.tsx': `import { show } from '../../lib/format';\nexport const Orders = () => show(2);\n`,
  'src/app/routes/wallet.tsx': `import { Wallet } from '../features/wallet/page';\nimport { Orders } from '../features/orders/page';\nexport const r = [Wallet, Orders];\n`,
  'src/server/env.ts': `export interface AppEnv { lang: string }\n`,
  'src/server/modules/news/routes.ts': `import type { AppEnv } from '../../env';\nimport { cents } from '../../../shared/money';\nexport const news = (e: AppEnv) => e.lang + cents(1);\n`,
  'src/server/app.ts': `import { news } from './modules/news/routes';\nexport const app = news;\n`,
  'src/server/main.ts': `import { app } from './app';\nexport default app;\n`,
};

describe('dependency-cruiser rules', () => {
  it('pass a tree that keeps the layout', () => {
    const dir = path.join(tmp, 'clean');
    tree(dir, CLEAN);
    expect(cruise(dir)).toEqual([]);
  });

  it('report a cross-feature import, a type-only circle, app<->server imports, shared importing up, an upward module import, and a lower layer importing a module', () => {
    const dir = path.join(tmp, 'broken');
    tree(dir, {
      ...CLEAN,
      // orders pulls a widget out of wallet
      'src/app/features/orders/page.tsx': `import { Wallet } from '../wallet/page';\nexport const Orders = () => Wallet();\n`,
      // the module takes its context type from app.ts, which imports the module: a circle of type imports
      'src/server/modules/news/routes.ts': `import type { app } from '../../app';\nexport const news = (e: typeof app) => e;\n`,
      'src/app/lib/format.ts': `import { cents } from '../../shared/money';\nimport { app } from '../../server/app';\nexport const show = (n: number) => String(cents(n)) + String(app);\n`,
      'src/server/env.ts': `import { Amount } from '../app/components/amount';\nexport interface AppEnv { lang: string; a: typeof Amount }\n`,
      'src/shared/money.ts': `import type { AppEnv } from '../server/env';\nexport const cents = (n: number, _e?: AppEnv) => n;\n`,
      // a layer below the modules reaching into one
      'src/server/live/hub.ts': `import { news } from '../modules/news/routes';\nexport const hub = news;\n`,
    });
    const rules = new Set(cruise(dir).map((v) => v.rule));
    for (const rule of ['feature-isolation', 'no-circular', 'app-not-server', 'server-not-app', 'shared-imports-neither', 'server-modules-not-upward', 'lower-layers-not-modules']) {
      expect(rules, rule).toContain(rule);
    }
  });
});
