import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The app renders markup only through React elements: no HTML strings injected with
// dangerouslySetInnerHTML, so nothing a server or a library returns can become markup (the QR codes are
// drawn from their module matrix by components/qr-svg.tsx).

const APP = path.resolve(import.meta.dirname, '../../src/app');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

describe('src/app', () => {
  it('never uses dangerouslySetInnerHTML', () => {
    const files = sources(APP);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((f) => fs.readFileSync(f, 'utf8').includes('dangerouslySetInnerHTML')).map((f) => path.relative(APP, f));
    expect(offenders).toEqual([]);
  });
});
