import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type PDFDocument from 'pdfkit';

// Text in a pdfkit document set in Noto Sans SC from the `@fontsource/noto-sans-sc` package, never a system
// font: the package ships the font in slices by Unicode range (its 400.css says which slice holds which
// characters), so each run of text takes the slice of its characters and the PDF embeds only the glyphs it
// uses. The retirement certificate, the receipt and the carbon-tax evidence pack set their text with it
// (docs/decisions/0031-certificate-pdf.md).

interface Slice {
  file: string;
  ranges: Array<[number, number]>;
}

let slices: Slice[] | null = null;

/** The regular weight's slices and the code points each holds, read once from the package's css.css. */
function fontSlices(): Slice[] {
  if (slices) return slices;
  const dir = dirname(createRequire(import.meta.url).resolve('@fontsource/noto-sans-sc/package.json'));
  const css = readFileSync(join(dir, '400.css'), 'utf8');
  const out: Slice[] = [];
  // Each slice in WOFF (the second url): fontkit subsets a WOFF's TrueType outlines; it cannot a WOFF2's.
  for (const m of css.matchAll(/src: url\([^)]+\) format\('woff2'\), url\(([^)]+\.woff)\) format\('woff'\);\s*unicode-range: ([^;]+);/g)) {
    const ranges = m[2]!.split(',').map((r): [number, number] => {
      const [a, b] = r.trim().replace(/^U\+/i, '').split('-');
      return [parseInt(a!, 16), parseInt(b ?? a!, 16)];
    });
    out.push({ file: join(dir, m[1]!), ranges });
  }
  if (out.length === 0) throw new Error('@fontsource/noto-sans-sc: no font slices found in 400.css');
  slices = out;
  return out;
}

/** The slice that holds a code point; one without any (an emoji the font lacks) takes the slice of the space. */
const sliceByCodePoint = new Map<number, Slice>();
const MAX_KNOWN = 30_000;

function sliceOf(cp: number): Slice {
  // Remembered per code point (up to MAX_KNOWN of them, so text from members cannot grow it without end):
  // the search walks about a hundred slices, and a long document asks for the same characters again and again.
  const known = sliceByCodePoint.get(cp);
  if (known) return known;
  const all = fontSlices();
  const found = all.find((s) => s.ranges.some(([a, b]) => cp >= a && cp <= b)) ?? (cp === 0x20 ? all[0]! : sliceOf(0x20));
  if (sliceByCodePoint.size < MAX_KNOWN) sliceByCodePoint.set(cp, found);
  return found;
}

/** Splits text into runs that one slice can set. */
function runs(text: string): Array<{ slice: Slice; text: string }> {
  const out: Array<{ slice: Slice; text: string }> = [];
  for (const ch of text) {
    const last = out.at(-1);
    const slice = sliceOf(ch.codePointAt(0)!);
    if (last && last.slice === slice) last.text += ch;
    else out.push({ slice, text: ch });
  }
  return out;
}

export type Doc = InstanceType<typeof PDFDocument>;

/** The slices' bytes, read once each: a certificate needs a few of them. */
const fontBytes = new Map<string, Buffer>();

/** A line's pieces: spaces, one wide character (CJK ideographs, kana, full-width forms: a line may break
 *  beside each), or a word of other characters. */
const TOKENS = /\s+|[\u2E80-\u9FFF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]|[^\s\u2E80-\u9FFF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]+/gu;

export interface Block {
  x: number;
  width: number;
  align?: 'left' | 'center';
  /** Points between lines, as a factor of the size. */
  leading?: number;
  link?: string;
}

/** Sets text from the cursor down: each run of a line in the slice that holds its characters, lines broken
 *  at spaces or beside a wide character (a word longer than the line breaks anywhere), each line placed by
 *  hand. pdfkit's own wrapping cannot centre a line written in several fonts. Each slice is registered
 *  with the document once. */
export function typesetter(doc: Doc) {
  const registered = new Set<string>();
  const use = (slice: Slice, size: number) => {
    if (!registered.has(slice.file)) {
      if (!fontBytes.has(slice.file)) fontBytes.set(slice.file, readFileSync(slice.file));
      doc.registerFont(slice.file, fontBytes.get(slice.file)!);
      registered.add(slice.file);
    }
    doc.font(slice.file).fontSize(size);
  };
  // Widths are remembered per text and size: a line is measured as the sum of its pieces, each measured once.
  const widths = new Map<string, number>();
  const measure = (text: string, size: number) => {
    const key = `${size}\u0000${text}`;
    let w = widths.get(key);
    if (w === undefined) {
      w = runs(text).reduce((sum, r) => {
        use(r.slice, size);
        return sum + doc.widthOfString(r.text);
      }, 0);
      widths.set(key, w);
    }
    return w;
  };
  const wrap = (text: string, size: number, width: number): string[] => {
    const tokens = (text.match(TOKENS) ?? []).flatMap((tok) => (measure(tok, size) > width ? [...tok] : [tok]));
    const lines: string[] = [];
    let line = '';
    let lineWidth = 0;
    for (const tok of tokens) {
      const w = measure(tok, size);
      // A space never starts a new line: it is dropped at the break.
      if (line.trim() && !/^\s+$/.test(tok) && lineWidth + w > width) {
        lines.push(line.trimEnd());
        line = tok.trimStart();
        lineWidth = measure(line, size);
      } else {
        line += tok;
        lineWidth += w;
      }
    }
    if (line.trim() || lines.length === 0) lines.push(line.trimEnd());
    return lines;
  };
  return (text: string, size: number, b: Block): void => {
    for (const line of text.split('\n').flatMap((l) => wrap(l, size, b.width))) {
      const y = doc.y;
      const w = measure(line, size);
      let x = b.align === 'center' ? b.x + (b.width - w) / 2 : b.x;
      for (const r of runs(line)) {
        use(r.slice, size);
        doc.text(r.text, x, y, { lineBreak: false });
        x += doc.widthOfString(r.text);
      }
      if (b.link) doc.link(b.x, y, w, size * 1.2, b.link);
      doc.y = y + size * (b.leading ?? 1.45);
    }
  };
}


/** An A4 document in the reader's language with its text set by `typesetter`: `done` gives its bytes once
 *  `doc.end()` is called; `left` and `width` are the text block inside the margins. pdfkit (with fontkit and
 *  its tables) is loaded by the first document, not at start (docs/operations.md#restarts). */
export async function a4Document(opts: { margin: number; title: string; author: string; lang: 'en' | 'cn' }) {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: opts.margin, info: { Title: opts.title, Author: opts.author }, lang: opts.lang === 'cn' ? 'zh-Hans' : 'en' });
  const chunks: Buffer[] = [];
  doc.on('data', (b: Buffer) => chunks.push(b));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  return { doc, done, set: typesetter(doc), left, width: doc.page.width - left - doc.page.margins.right };
}

/** The columns of a label-and-value table: the label's column is `label` points wide (its text `pad` less),
 *  the value takes the rest of `width`; `gap` points follow each line. */
export interface Columns {
  left: number;
  width: number;
  label: number;
  pad: number;
  size: number;
  gap: number;
  muted: string;
}

/** One line of a label-and-value table: the label muted in its column, the value beside it in `color` (a
 *  link when `link` is given); the cursor moves below the taller of the two. */
export function labelledLine(doc: Doc, set: ReturnType<typeof typesetter>, c: Columns, label: string, value: string, color = '#000', link?: string): void {
  const y = doc.y;
  doc.fillColor(c.muted);
  set(label, c.size, { x: c.left, width: c.label - c.pad });
  const after = doc.y;
  doc.y = y;
  doc.fillColor(color);
  set(value, c.size, { x: c.left + c.label, width: c.width - c.label, link });
  doc.y = Math.max(doc.y, after) + c.gap;
}
