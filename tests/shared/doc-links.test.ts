import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The documents are part of the code: a reference to `docs/<path>.md#anchor` must reach a file and one of its
// headings, and the repo cites its own documents, never ones a clone does not contain (the client's brief and
// decision list) or numbered issues and work periods.

const ROOT = path.resolve(__dirname, '../..');
const TEXT = /\.(ts|tsx|js|cjs|mjs|md|css|html|json|yaml|yml|txt|svg)$/;

function walk(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [rel];
  return fs
    .readdirSync(abs, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules' && !e.name.startsWith('.'))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(rel, e.name)) : TEXT.test(e.name) ? [path.join(rel, e.name)] : []));
}

/** GitHub's heading slug: the rendered text lower-cased, punctuation dropped (letters, digits, `_` and `-`
 *  stay), spaces as `-`; a repeated slug gets `-1`, `-2`... */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
}

/** Every anchor a Markdown file's headings give it (fenced code skipped). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();
function problemWith(target: string, anchor: string | undefined): string | null {
  const abs = path.join(ROOT, target);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) return `${target} does not exist`;
  if (!anchor) return null;
  if (!anchorCache.has(target)) anchorCache.set(target, anchorsOf(fs.readFileSync(abs, 'utf8')));
  return anchorCache.get(target)!.has(anchor) ? null : `${target} has no heading #${anchor}`;
}

/** Broken references in one file: `docs/<path>.md#anchor` anywhere (from the repo root), and in Markdown
 *  files their relative links `[text](x.md#anchor)` and `(#anchor)`. */
function brokenReferences(rel: string, text: string): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const where = `${rel}:${i + 1}`;
    for (const m of line.matchAll(/(?<![\w./-])docs\/([\w./-]+?\.md)(?:#([\w-]+))?/g)) {
      const problem = problemWith(`docs/${m[1]}`, m[2]);
      if (problem) problems.push(`${where}: ${problem}`);
    }
    if (!rel.endsWith('.md')) return;
    for (const m of line.matchAll(/\]\(([^)\s]*)\)/g)) {
      const [file, anchor] = m[1]!.split('#') as [string, string | undefined];
      if (/^[a-z]+:/i.test(file) || (!file.endsWith('.md') && file !== '')) continue; // URLs, folders, other files
      const target = file === '' ? rel : path.normalize(path.join(path.dirname(rel), file));
      const problem = problemWith(target, anchor);
      if (problem) problems.push(`${where}: ${problem}`);
    }
  });
  return problems;
}

/** Lines citing documents a clone does not have, or numbered issues and work periods. */
function citations(rel: string, text: string): string[] {
  const cited = /\bSPEC\b|\bDECISIONS\b|\bissues?\s+#?\d+|\bsessions?\s+#?\d+/i;
  return text.split('\n').flatMap((line, i) => {
    const m = cited.exec(line.replace(/\bdocs\/decisions\b|\bdecisions\//gi, ''));
    if (!m) return [];
    // SPEC and DECISIONS only as the documents' names (upper case); "spec" is also an e2e file's word.
    if (/^(spec|decisions)$/i.test(m[0]) && m[0] !== m[0].toUpperCase()) return [];
    return [`${rel}:${i + 1}: ${m[0]} in "${line.trim().slice(0, 120)}"`];
  });
}

const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

describe('references to docs/', () => {
  it('reach an existing file and heading', () => {
    const files = ['README.md', '.dependency-cruiser.cjs', ...walk('docs').filter((f) => f.endsWith('.md')), ...walk('src'), ...walk('bench')];
    expect(files.flatMap((f) => brokenReferences(f, read(f)))).toEqual([]);
  });

  it('follow GitHub heading slugs', () => {
    expect(slug('Units, time and money')).toBe('units-time-and-money');
    expect(slug('Pre-sale')).toBe('pre-sale');
    expect(slug('`npm run ops` and **the CLI**')).toBe('npm-run-ops-and-the-cli');
    expect([...anchorsOf('# A\n## Fees\n```\n# not a heading\n```\n## Fees\n')]).toEqual(['a', 'fees', 'fees-1']);
    expect(brokenReferences('x.ts', '// docs/product.md#no-such-heading')).toHaveLength(1);
    expect(brokenReferences('x.ts', '// docs/product.md#withdrawals')).toEqual([]);
  });
});

describe('citations', () => {
  it('name no document outside the repo, no issue and no numbered work period', () => {
    const files = ['README.md', ...walk('docs'), ...walk('src'), ...walk('bench')];
    expect(files.flatMap((f) => citations(f, read(f)))).toEqual([]);
  });

  it('are found in any case, word-bounded', () => {
    expect(citations('x.ts', '// per SPEC section 5')).toHaveLength(1);
    expect(citations('x.ts', '// see DECISIONS.md')).toHaveLength(1);
    expect(citations('x.ts', '// Issue 15: top-ups')).toHaveLength(1);
    expect(citations('x.ts', '// measured in session 10')).toHaveLength(1);
    expect(citations('x.ts', '// docs/decisions/0001-foundation.md; tests/e2e/x.spec.ts; a session ends')).toEqual([]);
    expect(citations('x.ts', '// tissue 5, sessions ended')).toEqual([]);
  });
});
