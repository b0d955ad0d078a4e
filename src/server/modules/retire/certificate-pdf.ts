import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { Lang } from '../../../shared/errors';
import type { Certificate } from '../../../shared/schemas/retire';

// A retirement certificate as one A4 PDF page (docs/product.md#retirement): what the public certificate page
// shows, in English or Chinese, with a QR code of the page's address. The text is set in Noto Sans SC from the
// `@fontsource/noto-sans-sc` package, never a system font: the package ships the font in slices by Unicode range (its
// 400.css says which slice holds which characters), so each run of text takes the slice of its characters and
// the PDF embeds only the glyphs it uses. docs/decisions/0031-certificate-pdf.md.

const EN = {
  kicker: 'Canopy carbon credit marketplace',
  title: 'Certificate of retirement',
  certifies: 'This certifies that',
  retired: 'of verified carbon credits (tCO2e) were permanently retired on behalf of',
  customer: 'a Canopy customer',
  tons: 't',
  project: 'Project',
  registry: 'Registry',
  methodology: 'Methodology',
  vintage: 'Vintage',
  country: 'Country',
  date: 'Retired on',
  serials: 'Serial numbers',
  verify: 'Verify this certificate at',
  id: 'Certificate ID',
};

const TEXT: Record<Lang, Record<keyof typeof EN, string>> = {
  en: EN,
  cn: {
    kicker: 'Canopy 碳信用交易平台',
    title: '注销证书',
    certifies: '兹证明',
    retired: '经核证的碳信用（吨二氧化碳当量）已被永久注销，受益人为',
    customer: '一位 Canopy 客户',
    tons: '吨',
    project: '项目',
    registry: '登记处',
    methodology: '方法学',
    vintage: '签发年份',
    country: '国家',
    date: '注销时间',
    serials: '序列号',
    verify: '在以下地址验证本证书',
    id: '证书编号',
  },
};

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
function sliceOf(cp: number): Slice {
  const all = fontSlices();
  return all.find((s) => s.ranges.some(([a, b]) => cp >= a && cp <= b)) ?? (cp === 0x20 ? all[0]! : sliceOf(0x20));
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

interface Block {
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
  const measure = (text: string, size: number) =>
    runs(text).reduce((w, r) => {
      use(r.slice, size);
      return w + doc.widthOfString(r.text);
    }, 0);
  const wrap = (text: string, size: number, width: number): string[] => {
    const tokens = (text.match(TOKENS) ?? []).flatMap((tok) => (measure(tok, size) > width ? [...tok] : [tok]));
    const lines: string[] = [];
    let line = '';
    for (const tok of tokens) {
      if (line.trim() && measure((line + tok).trimEnd(), size) > width) {
        lines.push(line.trimEnd());
        line = tok.trimStart();
      } else line += tok;
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

const GREEN = '#1f6f4a';
const MUTED = '#5b6b63';

/** The certificate as a PDF; `url` is the public certificate page's address (the QR code's text). */
export function certificatePdf(c: Certificate, lang: Lang, url: string): Promise<Buffer> {
  const t = TEXT[lang];
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${t.title} ${c.id}`, Author: 'Canopy' },
    lang: lang === 'cn' ? 'zh-Hans' : 'en',
  });
  const chunks: Buffer[] = [];
  doc.on('data', (b: Buffer) => chunks.push(b));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const set = typesetter(doc);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const center = (text: string, size: number) => set(text, size, { x: left, width, align: 'center' });
  // The time in SGT as the page shows it: retired_at is ISO 8601 at +08:00.
  const date = c.retired_at.slice(0, 16).replace('T', ' ');

  doc.fillColor(GREEN);
  center(t.kicker, 11);
  doc.y += 4;
  center(t.title, 24);
  doc.y += 14;
  doc.fillColor('#000');
  center(t.certifies, 12);
  doc.y += 4;
  doc.fillColor(GREEN);
  center(`${c.tons} ${t.tons}`, 30);
  doc.fillColor('#000');
  center(t.retired, 12);
  doc.y += 6;
  center(c.beneficiary_hidden && !c.beneficiary ? t.customer : c.beneficiary, 18);
  if (c.reason) {
    doc.fillColor(MUTED);
    center(`“${c.reason}”`, 11);
  }
  doc.y += 18;

  const facts: Array<[string, string]> = [
    [t.project, lang === 'cn' ? c.project_name_cn : c.project_name],
    [t.registry, `${c.registry} · ${c.registry_id}`],
    [t.methodology, c.methodology],
    [t.vintage, String(c.vintage)],
    [t.country, lang === 'cn' ? c.country_cn : c.country],
    [t.date, `${date} (SGT)`],
    [t.serials, c.serials.map((s) => (s.from === s.to ? s.from : `${s.from} – ${s.to}`)).join('\n')],
  ];
  const LABEL = 130;
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.fillColor(MUTED);
    set(label, 10, { x: left, width: LABEL - 10 });
    const after = doc.y;
    doc.y = y;
    doc.fillColor('#000');
    set(value, 10, { x: left + LABEL, width: width - LABEL });
    doc.y = Math.max(doc.y, after) + 6;
  }

  // The QR code of the page's address, drawn module by module, bottom left; the address and id beside it.
  const qr = QRCode.create(url, { errorCorrectionLevel: 'M' }).modules;
  const side = 110;
  const cell = side / qr.size;
  const top = doc.page.height - doc.page.margins.bottom - side;
  for (let y = 0; y < qr.size; y++) for (let x = 0; x < qr.size; x++) if (qr.get(y, x)) doc.rect(left + x * cell, top + y * cell, cell, cell);
  doc.fillColor('#000').fill();
  const beside = { x: left + side + 16, width: width - side - 16 };
  doc.y = top + 10;
  doc.fillColor(MUTED);
  set(t.verify, 10, beside);
  doc.fillColor('#000');
  set(url, 10, { ...beside, link: url });
  doc.fillColor(MUTED);
  set(`${t.id} ${c.id}`, 10, beside);
  doc.end();
  return done;
}
