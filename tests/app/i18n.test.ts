import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every screen works in English and Chinese: the Chinese catalog has a translation for every message the
// English one has, and the placeholders agree.

function parsePo(file: string): Map<string, string> {
  const text = fs.readFileSync(file, 'utf8').trimEnd();
  const entries = new Map<string, string>();
  const unquote = (lines: string[]) => lines.map((l) => JSON.parse(l.trim()) as string).join('');
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((l) => !l.startsWith('#'));
    const idStart = lines.findIndex((l) => l.startsWith('msgid '));
    const strStart = lines.findIndex((l) => l.startsWith('msgstr '));
    if (idStart < 0 || strStart < 0) continue;
    const id = unquote([lines[idStart]!.slice(6), ...lines.slice(idStart + 1, strStart)]);
    const str = unquote([lines[strStart]!.slice(7), ...lines.slice(strStart + 1)]);
    if (id) entries.set(id, str);
  }
  return entries;
}

const root = path.resolve(__dirname, '../..');
const CATALOGS = ['core', 'messages'];

describe.each(CATALOGS)('message catalog %s', (name) => {
  const en = parsePo(path.join(root, `locales/en/${name}.po`));
  const zh = parsePo(path.join(root, `locales/zh-Hans/${name}.po`));

  it('has messages', () => {
    expect(en.size).toBeGreaterThan(20);
  });

  it('has the same ids in en and zh-Hans', () => {
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it('translates every message into Chinese', () => {
    const missing = [...zh.entries()].filter(([, str]) => str.trim() === '').map(([id]) => id);
    expect(missing).toEqual([]);
  });

  it('keeps the placeholders of each message', () => {
    const names = (s: string) => [...s.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
    const broken = [...zh.entries()].filter(([id, str]) => {
      const source = en.get(id) || id;
      return str && JSON.stringify(names(source)) !== JSON.stringify(names(str));
    });
    expect(broken).toEqual([]);
  });
});

describe('catalog split', () => {
  it('keeps the core catalog small: it is loaded before the home screen renders', () => {
    const core = parsePo(path.join(root, 'locales/en/core.po'));
    expect(core.size).toBeLessThan(120);
  });
});

// Each catalog takes its files by include and exclude (lingui.config.ts); a file left out of both would
// draw its message ids instead of words. Every plain t`...` and msg`...` of the app is in one catalog.
describe('catalog coverage', () => {
  function sources(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return sources(p);
      return /\.tsx?$/.test(e.name) && !e.name.endsWith('.gen.ts') ? [p] : [];
    });
  }

  it('has every plain message of src/app in core or messages', () => {
    const known = new Set([...CATALOGS.flatMap((name) => [...parsePo(path.join(root, `locales/en/${name}.po`)).keys()])]);
    const missing: string[] = [];
    for (const file of sources(path.join(root, 'src/app'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/\b(?:t|msg)`([^`$\\]+)`/g)) {
        if (!known.has(m[1]!)) missing.push(`${path.relative(root, file)}: ${m[1]!}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
