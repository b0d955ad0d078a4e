// The Chinese glossary (docs/glossary.md) held over every Chinese text the product shows: the Lingui
// catalogs, the error catalogue and the seeded content.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/shared/errors';

const ROOT = path.resolve(__dirname, '../..');

interface Term {
  english: RegExp;
  chinese: string;
  never: string[];
}

/** The table of docs/glossary.md, read from the document so the two cannot drift. */
function glossary(): Term[] {
  const rows = fs
    .readFileSync(path.join(ROOT, 'docs/glossary.md'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| English') && !l.startsWith('|---'));
  return rows.map((row) => {
    const [english = '', chinese = '', never = ''] = row.split('|').slice(1).map((c) => c.trim());
    const words = english
      .replace(/\(.*?\)/g, '')
      .split(',')
      .map((w) => w.trim().replace(/\(s\)$/, 's?').replace(/[- ]/g, '[- ]?'))
      .filter(Boolean);
    return { english: new RegExp(`\\b(${words.join('|')})\\b`, 'i'), chinese, never: never.split(/[,、\s]+/).filter(Boolean) };
  });
}

/** Every (English, Chinese) pair of the zh-Hans catalogs. */
function catalogPairs(): { id: string; zh: string; where: string }[] {
  const pairs: { id: string; zh: string; where: string }[] = [];
  for (const file of ['core.po', 'messages.po']) {
    const text = fs.readFileSync(path.join(ROOT, 'locales/zh-Hans', file), 'utf8');
    for (const m of text.matchAll(/^msgid "(.*)"\nmsgstr "(.*)"$/gm)) if (m[1]) pairs.push({ id: m[1], zh: m[2] ?? '', where: file });
  }
  return pairs;
}

/** Every Chinese text of the seeded content (*_cn fields of the JSON files). */
function seededChinese(): { zh: string; where: string }[] {
  const out: { zh: string; where: string }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) {
        const visit = (v: unknown, key = ''): void => {
          if (typeof v === 'string' && key.endsWith('_cn')) out.push({ zh: v, where: path.relative(ROOT, p) });
          else if (Array.isArray(v)) v.forEach((x) => visit(x, key));
          else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k);
        };
        visit(JSON.parse(fs.readFileSync(p, 'utf8')));
      }
    }
  };
  walk(path.join(ROOT, 'src/server/db/seed-data'));
  return out;
}

const errorPairs = Object.entries(ERRORS).map(([key, e]) => ({ id: e.en, zh: e.cn, where: `errors.ts ${key}` }));

describe('the Chinese glossary', () => {
  const terms = glossary();

  it('is read from docs/glossary.md', () => {
    expect(terms.length).toBeGreaterThanOrEqual(10);
    expect(terms[0]).toMatchObject({ chinese: '碳信用', never: ['碳积分'] });
  });

  it('an English text that uses a term has its Chinese word in the translation', () => {
    const misses: string[] = [];
    for (const { id, zh, where } of [...catalogPairs(), ...errorPairs]) {
      if (!zh) continue;
      for (const t of terms) if (t.english.test(id) && !zh.includes(t.chinese)) misses.push(`${where}: "${id}" -> "${zh}" lacks ${t.chinese}`);
    }
    expect(misses).toEqual([]);
  });

  it('the words marked "never" appear in no Chinese text', () => {
    const never = terms.flatMap((t) => t.never.map((w) => ({ w, use: t.chinese })));
    const hits: string[] = [];
    for (const { zh, where } of [...catalogPairs(), ...errorPairs, ...seededChinese()]) {
      for (const { w, use } of never) if (zh.includes(w)) hits.push(`${where}: "${zh}" has ${w} (use ${use})`);
    }
    expect(hits).toEqual([]);
  });
});
